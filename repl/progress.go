package repl

import (
	"context"

	"github.com/dynosql/dynosql"
)

// ProgressDisplay shows the progress reports of one statement (a
// progress bar on a terminal). Report may be called from several
// goroutines at once; Done is called once the statement has ended,
// before its result or error is printed.
type ProgressDisplay interface {
	Report(dynosql.Progress)
	Done()
}

// startProgress gives the statement run under ctx a display of its
// progress, when the session has one.
func (s *Session) startProgress(ctx context.Context) context.Context {
	if s.Progress == nil {
		return ctx
	}
	s.shown = s.Progress()
	return dynosql.WithProgress(ctx, s.shown.Report)
}

// endProgress ends the statement's display, if any; again, nothing.
func (s *Session) endProgress() {
	if s.shown != nil {
		s.shown.Done()
		s.shown = nil
	}
}
