// Package retry holds the waits dynosql uses between attempts: backoff
// before resending what DynamoDB left unprocessed, and plain polling.
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
	ceiling := min(50*time.Millisecond<<min(attempt, 7), 5*time.Second)
	return Sleep(ctx, time.Duration(rand.Int64N(int64(ceiling)))+1)
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
