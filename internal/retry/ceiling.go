package retry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// DefaultCeiling is how long a request is retried before dynosql gives
// up on it: the DynamoDB guide suggests stopping after about a minute
// (DYNAMODB.md 5.8). Long enough for an on-demand table to scale up or a
// hot partition to split.
const DefaultCeiling = 60 * time.Second

// noAnswerAttempts bounds the attempts of a request DynamoDB never
// answered (connection refused, no route): an endpoint that is down
// rarely comes back within the ceiling, and a minute of silence before
// saying so helps nobody.
const noAnswerAttempts = 5

// Adaptive returns the SDK's adaptive retry mode set up as dynosql needs
// it: the client slows its own sending when DynamoDB throttles (so one
// value must serve every request to a table, DYNAMODB.md 5.6), without
// the client-wide retry quota, which after about 100 failed retries would
// fail a long fan-out without retrying at all (5.2), and with a rejected
// TransactionConflictException resent, since the write did not happen
// (5.3). maxAttempts bounds the attempts of one request; 0 leaves it to
// a ceiling (Policy).
func Adaptive(maxAttempts int) *awsretry.AdaptiveMode {
	return awsretry.NewAdaptiveMode(func(o *awsretry.AdaptiveModeOptions) {
		o.StandardOptions = append(o.StandardOptions, func(so *awsretry.StandardOptions) {
			so.MaxAttempts = maxAttempts
			so.RateLimiter = ratelimit.None
			so.Retryables = append(so.Retryables, awsretry.RetryableErrorCode{
				Codes: map[string]struct{}{"TransactionConflictException": {}},
			})
		})
	})
}

// Policy is the retry behaviour of one DB: one adaptive rate limit for
// all its requests, and each request retried until it succeeds or the
// ceiling has passed since its first attempt, however many attempts
// that takes.
type Policy struct {
	adaptive *awsretry.AdaptiveMode
	ceiling  time.Duration
	// throttled is set once a request of the policy has been throttled:
	// only then does the adaptive mode start its rate limit, the one
	// thing that makes GetAttemptToken wait.
	throttled atomic.Bool
}

// NewPolicy returns a Policy with the given ceiling; zero or less means
// DefaultCeiling.
func NewPolicy(ceiling time.Duration) *Policy {
	if ceiling <= 0 {
		ceiling = DefaultCeiling
	}
	return &Policy{adaptive: Adaptive(0), ceiling: ceiling}
}

// Ceiling returns the policy's ceiling.
func (p *Policy) Ceiling() time.Duration { return p.ceiling }

// Apply gives one request its retryer, its clock started now. It is a
// per-request option (dynamodb.Options), so that it reaches requests on
// any client, the caller's own included.
func (p *Policy) Apply(o *dynamodb.Options) {
	o.Retryer = p.retryer(time.Now())
}

func (p *Policy) retryer(start time.Time) *ceilingRetryer {
	return &ceilingRetryer{RetryerV2: p.adaptive, policy: p, start: start}
}

// ceilingRetryer is the adaptive mode with attempts bounded by the time
// since the request's first attempt rather than by their number. One
// serves one request, whose attempts come one after the other.
type ceilingRetryer struct {
	aws.RetryerV2
	policy   *Policy // its ceiling, and whether any request was throttled
	start    time.Time
	attempts int   // attempts made so far
	last     error // the last attempt's failure
}

// errRateLimited stands for the last failure of a request that never got
// to its first attempt.
var errRateLimited = errors.New("the client's adaptive rate limit, slowed by throttling, let no attempt through")

// MaxAttempts reports no bound on the number: RetryDelay stops retries.
func (r *ceilingRetryer) MaxAttempts() int { return 0 }

// GetAttemptToken waits, as the adaptive mode does, until its rate limit
// lets an attempt through, but not past the ceiling: once throttled, the
// limit can fall to one attempt every two seconds for the whole client.
// Until the first throttle the limit is off and nothing waits, so the
// deadline (a timer, a few per cent of a cached statement's CPU) is only
// set up after it.
func (r *ceilingRetryer) GetAttemptToken(ctx context.Context) (func(error) error, error) {
	if !r.policy.throttled.Load() {
		release, err := r.RetryerV2.GetAttemptToken(ctx)
		if err != nil {
			return nil, err
		}
		return func(opErr error) error {
			// Marked before the adaptive mode starts its limit: an
			// attempt that could wait behind it gets the deadline (bar
			// one already past this check in the same instant).
			if throttles.IsErrorThrottle(opErr).Bool() {
				r.policy.throttled.Store(true)
			}
			return release(opErr)
		}, nil
	}
	wait, cancel := context.WithDeadline(ctx, r.start.Add(r.policy.ceiling))
	defer cancel()
	release, err := r.RetryerV2.GetAttemptToken(wait)
	if err != nil && ctx.Err() == nil && wait.Err() != nil {
		return nil, &CeilingError{Ceiling: r.policy.ceiling, Attempts: r.attempts, Err: cmp.Or(r.last, errRateLimited)}
	}
	return release, err
}

// throttles tells throttling errors apart as the adaptive mode does.
var throttles = awsretry.IsErrorThrottles(awsretry.DefaultThrottles)

// RetryDelay is the adaptive mode's delay, cut so that no wait runs past
// the ceiling; once the ceiling has passed it returns a CeilingError
// holding opErr, which ends the request with it.
func (r *ceilingRetryer) RetryDelay(attempt int, opErr error) (time.Duration, error) {
	r.attempts, r.last = attempt, opErr
	var send *smithyhttp.RequestSendError
	if attempt >= noAnswerAttempts && errors.As(opErr, &send) {
		return 0, &awsretry.MaxAttemptsError{Attempt: attempt, Err: opErr}
	}
	spent := time.Since(r.start)
	if spent >= r.policy.ceiling {
		return 0, &CeilingError{Ceiling: r.policy.ceiling, Attempts: attempt, Err: opErr}
	}
	d, err := r.RetryerV2.RetryDelay(attempt, opErr)
	if err != nil {
		return 0, err
	}
	return min(d, r.policy.ceiling-spent), nil
}

// CeilingError ends a request, or the resending of what DynamoDB left
// unprocessed, that was still failing when the retry ceiling passed. It
// wraps the last failure, so errors.As still finds DynamoDB's error.
type CeilingError struct {
	Ceiling  time.Duration
	Attempts int
	Err      error // the last attempt's failure; may be nil
}

func (e *CeilingError) Error() string {
	msg := fmt.Sprintf("gave up after %d attempts in %s, the retry ceiling", e.Attempts, e.Ceiling)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the last failure.
func (e *CeilingError) Unwrap() error { return e.Err }

// RetryCeiling returns the ceiling that was reached.
func (e *CeilingError) RetryCeiling() time.Duration { return e.Ceiling }

type ceilingKey struct{}

// WithCeiling returns ctx carrying d as the retry ceiling for
// BackoffSince: the DB sets it on each statement, so that its own resend
// loops stop when its requests' retries do.
func WithCeiling(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, ceilingKey{}, d)
}

// ceilingOf returns the ceiling ctx carries, or DefaultCeiling.
func ceilingOf(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(ceilingKey{}).(time.Duration); ok && d > 0 {
		return d
	}
	return DefaultCeiling
}

// BackoffSince waits before resend number attempt (0-based) of what a
// request first sent at start left undone (unprocessed keys, a cancelled
// transaction), with Backoff's delays cut to the ceiling of ctx. Once
// the ceiling has passed since start it returns a CeilingError holding
// last, the failure that called for the resend; if ctx ends first, its
// error.
func BackoffSince(ctx context.Context, start time.Time, attempt int, last error) error {
	ceiling := ceilingOf(ctx)
	spent := time.Since(start)
	if spent >= ceiling {
		return &CeilingError{Ceiling: ceiling, Attempts: attempt + 1, Err: last}
	}
	return Sleep(ctx, min(jitter(attempt), ceiling-spent))
}
