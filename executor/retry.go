package executor

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff waits before retry number attempt (0-based) of unprocessed
// keys or items: full jitter over 50 ms doubling to at most 5 s, as the
// DynamoDB guide advises for batch operations. It returns the context's
// error if the context ends first.
func backoff(ctx context.Context, attempt int) error {
	ceiling := 50 * time.Millisecond << min(attempt, 7)
	ceiling = min(ceiling, 5*time.Second)
	t := time.NewTimer(time.Duration(rand.Int64N(int64(ceiling)) + 1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
