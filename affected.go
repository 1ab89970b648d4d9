package dynosql

import (
	"context"

	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/errs"
)

// DefaultMaxAffected is how many rows an UPDATE or DELETE that reads its
// rows first may change without confirmation: a mistyped WHERE over a
// partition stops before it rewrites thousands of items.
const DefaultMaxAffected = 1000

// ErrTooMany is an UPDATE or DELETE refused, before anything was written,
// because it would change more rows than WithMaxAffected allows and no
// WithConfirm said yes.
var ErrTooMany error = errs.TooMany

// WithMaxAffected sets how many rows an UPDATE or DELETE may change
// without confirmation (DefaultMaxAffected unless given); 0 or less is no
// limit. Past it the statement asks the context's WithConfirm, or is
// refused with ErrTooMany; EXPLAIN shows the limit on such writes.
func WithMaxAffected(n int) Option {
	return func(c *config) {
		c.maxAffected = max(n, 0)
		c.maxAffectedSet = true
	}
}

// WithConfirm returns a context under which an UPDATE or DELETE past the
// DB's WithMaxAffected asks confirm, with a question that says what would
// change, and goes on only on true (the shell asks its user).
func WithConfirm(ctx context.Context, confirm func(ctx context.Context, question string) bool) context.Context {
	return executor.WithConfirm(ctx, confirm)
}
