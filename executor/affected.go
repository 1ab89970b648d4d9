package executor

import (
	"context"
	"fmt"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

type confirmKey struct{}

// WithConfirm returns a context whose UPDATEs and DELETEs past their
// step's MaxAffected ask confirm (the question says what would change)
// and go on only if it says yes. Without one they are refused.
func WithConfirm(ctx context.Context, confirm func(ctx context.Context, question string) bool) context.Context {
	return context.WithValue(ctx, confirmKey{}, confirm)
}

// allowAffected lets a write of n rows read go on: at most max rows (0
// is no limit) go on at once; past it the context's confirm decides,
// before anything is written.
func allowAffected(ctx context.Context, verb string, e *mapping.Entity, n, max int) error {
	if max <= 0 || n <= max {
		return nil
	}
	what := fmt.Sprintf("%s would change %d rows of %s, more than the %d allowed without confirmation", verb, n, e.Name, max)
	if confirm, ok := ctx.Value(confirmKey{}).(func(context.Context, string) bool); ok {
		if confirm(ctx, what) {
			return nil
		}
		return errs.New(errs.TooMany, "%s; not confirmed, nothing was written", what)
	}
	return errs.New(errs.TooMany, "%s; nothing was written", what).
		WithHint("narrow the WHERE, or allow it: --max-affected %d (max_affected=%d in a DSN, dynosql.WithMaxAffected in Go; 0 for no limit)", n, n)
}
