// Package retry holds how dynosql retries: the SDK retryer every request
// gets (the adaptive mode, bounded by a ceiling on time), backoff before
// resending what DynamoDB left unprocessed, and plain polling.
package retry

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff waits before retry number attempt (0-based) of unprocessed
// keys or items: full jitter over 50 ms doubling to at most 5 s, as the
// DynamoDB guide advises for batch operations. It returns the context's
// error if the context ends first.
func Backoff(ctx context.Context, attempt int) error {
	return Sleep(ctx, jitter(attempt))
}

// jitter is Backoff's delay before retry number attempt.
func jitter(attempt int) time.Duration {
	ceiling := min(50*time.Millisecond<<min(attempt, 7), 5*time.Second)
	return time.Duration(rand.Int64N(int64(ceiling))) + 1
}

// Sleep waits for d, or until ctx ends and then returns its error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
