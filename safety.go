package dynosql

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/planner"
)

// ErrReadOnly is a write refused because the DB was opened with
// WithReadOnly; nothing was sent.
var ErrReadOnly error = errs.ReadOnly

// DefaultRetryCeiling is how long a request is retried (throttled, or
// failing on DynamoDB's side) before the statement fails, unless
// WithRetryCeiling says otherwise.
const DefaultRetryCeiling = retry.DefaultCeiling

// WithReadOnly refuses every statement that writes (INSERT, UPDATE,
// DELETE, REPAIR COPIES) before anything is sent, with an error of kind
// ErrReadOnly: a safety net for sessions on production tables. Reads,
// EXPLAIN and CHECK COPIES run as usual.
func WithReadOnly() Option { return func(c *config) { c.safety.readOnly = true } }

// WithRetryCeiling bounds how long one request is retried: under
// throttling it is sent again, ever more slowly (the SDK's adaptive
// mode slows the whole DB's sending), until it succeeds or d has passed
// since its first attempt; then the statement fails, saying what landed
// and how to resume. Zero or less means DefaultRetryCeiling. The retryer
// is set on each request, so it applies to a caller's own client too; a
// later WithRequestHook may replace it.
func WithRetryCeiling(d time.Duration) Option {
	return func(c *config) { c.safety.ceiling = d }
}

// safety is what the DB enforces around each statement: read-only mode
// and the retry ceiling.
type safety struct {
	readOnly bool
	ceiling  time.Duration
	policy   *retry.Policy
}

// open sets up the DB's retry policy and returns the DB's per-request
// options: the policy's retryer first, so that a caller's hook can still
// replace it, then the caller's hooks.
func (s *safety) open(user []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	s.policy = retry.NewPolicy(s.ceiling)
	return append([]func(*dynamodb.Options){s.policy.Apply}, user...)
}

// enter checks that p may run and returns the context to run it with,
// carrying the retry ceiling for the executor's own resend loops.
func (s *safety) enter(ctx context.Context, p *planner.Plan) (context.Context, error) {
	if s.readOnly && p.Writes && !p.Explain {
		return ctx, errs.New(errs.ReadOnly, "%s refused: this session is read-only; nothing was sent", p.Verb).
			WithHint("to write, open it without --read-only (readonly=1 in a DSN, dynosql.WithReadOnly in Go)")
	}
	return retry.WithCeiling(ctx, s.policy.Ceiling()), nil
}
