package cli

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/repl"
)

// isTerminal reports whether w is a terminal: progress is drawn only
// there, never into a pipe or a file.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBar draws a statement's progress reports on a terminal: the
// copies of a fan-out or REPAIR COPIES rewritten so far, or the rows of
// an INSERT of several transactions written so far. It is erased before
// the statement's result is printed.
type progressBar struct {
	w    io.Writer
	mu   sync.Mutex
	bar  *progressbar.ProgressBar
	key  string // what bar counts: the copy and source row, or the entity inserted into
	done bool   // the statement's output has begun: draw nothing more
}

var _ repl.ProgressDisplay = (*progressBar)(nil)

func newBar(w io.Writer, max int64, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions64(max, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(false), progressbar.OptionUseANSICodes(true))
}

// Report shows one progress report.
func (p *progressBar) Report(r dynosql.Progress) {
	key, desc, max, done := r.Source, "inserting into "+r.Source, r.Rows, r.Inserted
	if r.Copy != "" {
		key, desc, max, done = r.Copy+" "+r.Source, "copies "+r.Copy+" of "+r.Source, r.Stale, r.Updated+r.Skipped
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	if p.bar == nil || key != p.key {
		p.end()
		p.bar, p.key = newBar(p.w, max, desc), key
	}
	p.bar.ChangeMax64(max)
	_ = p.bar.Set64(done)
}

// Done erases the bar, for good.
func (p *progressBar) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.end()
	p.done = true
}

func (p *progressBar) end() {
	if p.bar != nil {
		_ = p.bar.Clear()
		_ = p.bar.Exit()
		p.bar = nil
	}
}

// setProgress has the session draw progress on stderr when it is a
// terminal.
func setProgress(s *repl.Session, stderr io.Writer) {
	if isTerminal(stderr) {
		s.Progress = func() repl.ProgressDisplay { return &progressBar{w: stderr} }
	}
}

// waitingSpinner returns a context whose table creation shows, on a
// terminal stderr, what it waits for, and a function that erases it.
func waitingSpinner(ctx context.Context, stderr io.Writer) (context.Context, func()) {
	if !isTerminal(stderr) {
		return ctx, func() {}
	}
	var bar *progressbar.ProgressBar
	ctx = backend.WithWaiting(ctx, func(waiting string) {
		if bar == nil {
			bar = newBar(stderr, -1, "")
		}
		bar.Describe("waiting for " + waiting + " to be ACTIVE")
		_ = bar.Add(1)
	})
	return ctx, func() {
		if bar != nil {
			_ = bar.Clear()
		}
	}
}
