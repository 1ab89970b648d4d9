package dynosql

import (
	"context"

	"github.com/dynosql/dynosql/executor"
)

// Progress is how far a long write has got: a fan-out or REPAIR COPIES
// rewriting the copies of one source row (Copy, Source, Stale, Updated,
// Skipped), or an INSERT of several transactions (Source is the entity,
// Rows and Inserted count its rows).
type Progress = executor.Progress

// WithProgress returns a context whose statements report their progress
// to fn, after every transaction of a copy fan-out, REPAIR COPIES or
// multi-transaction INSERT. fn may be called from several goroutines at
// once. Without it nothing is reported: dynosql prints nothing itself;
// the command line draws a progress bar on a terminal from these reports.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return executor.WithProgress(ctx, fn)
}
