// Package retry holds how dynosql retries: the SDK retryer every request
// gets (the adaptive mode, bounded by a ceiling on time), backoff before
// resending what DynamoDB left unprocessed, and plain polling.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
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

// OnlyUnapplied is a per-request option for a write that must not run
// twice (an UpdateItem computing n + 1 on DynamoDB's side): its retryer
// resends only a failure that surely changed nothing (throttling, or
// another refusal of the request as the client's fault). A server error
// or a lost answer may come after the write landed (DYNAMODB.md 4.4):
// resending it would apply it again, so it ends the request, which the
// executor then reports as may or may not have landed.
func OnlyUnapplied(o *dynamodb.Options) {
	if o.Retryer == nil {
		return
	}
	r, ok := o.Retryer.(aws.RetryerV2)
	if !ok {
		r = v2{o.Retryer}
	}
	o.Retryer = unappliedOnly{r}
}

type unappliedOnly struct{ aws.RetryerV2 }

// IsErrorRetryable implements aws.Retryer: what the SDK would retry and
// surely did not apply.
func (u unappliedOnly) IsErrorRetryable(err error) bool {
	return u.RetryerV2.IsErrorRetryable(err) && notApplied(err)
}

// notApplied reports whether a failed attempt surely changed nothing:
// DynamoDB throttled it, or refused it as the client's fault (a 4xx).
func notApplied(err error) bool {
	if throttles.IsErrorThrottle(err).Bool() {
		return true
	}
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorFault() == smithy.FaultClient
}

// v2 is an aws.Retryer as an aws.RetryerV2, as the SDK's retry
// middleware wraps one.
type v2 struct{ aws.Retryer }

// GetAttemptToken implements aws.RetryerV2 with the Retryer's own token.
func (r v2) GetAttemptToken(context.Context) (func(error) error, error) {
	return r.GetInitialToken(), nil
}
