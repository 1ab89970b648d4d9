// Package repl runs SQL statements and meta-commands for the dynosql
// command: one at a time from -e and -f, or interactively from a readline
// prompt. Every statement goes through the root package's DB, so the
// shell sees exactly what an embedding program sees.
package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/parser"
)

// Session holds a DB and the display settings the meta-commands change.
type Session struct {
	DB  *dynosql.DB
	Out io.Writer // results
	Err io.Writer // errors, --stats figures

	Format   format.Format
	Expanded bool // \x
	Timing   bool // \timing
	Stats    bool // --stats, \stats
	Explain  bool // \explain: print the plan before running
	// AllowPartial keeps a script going after a failed statement.
	AllowPartial bool

	// Interrupt derives the context of one statement so that Ctrl-C
	// cancels the statement and not the shell. It defaults to
	// signal.NotifyContext on os.Interrupt; tests replace it.
	Interrupt func(context.Context) (context.Context, context.CancelFunc)

	// Failed counts the statements and meta-commands that failed.
	Failed int
}

// NewSession returns a session over db printing in table format.
func NewSession(db *dynosql.DB, out, errOut io.Writer) *Session {
	return &Session{DB: db, Out: out, Err: errOut, Format: format.Table}
}

// errQuit is returned by \q to end the script or the shell.
var errQuit = errors.New("quit")

// errStop ends a script after a failure already reported.
var errStop = errors.New("stopped after an error")

func (s *Session) printer() *format.Printer {
	return &format.Printer{W: s.Out, F: s.Format, Expanded: s.Expanded}
}

// Run runs one statement, prints its result, and reports its failure on
// Err as well as returning it.
func (s *Session) Run(ctx context.Context, sql string) error {
	interrupt := s.Interrupt
	if interrupt == nil {
		interrupt = func(ctx context.Context) (context.Context, context.CancelFunc) {
			return signal.NotifyContext(ctx, os.Interrupt)
		}
	}
	ctx, stop := interrupt(ctx)
	defer stop()
	var stats *executor.Stats
	if s.Stats {
		stats = executor.NewStats()
		ctx = executor.WithStats(ctx, stats)
	}
	start := time.Now()
	err := s.run(ctx, sql)
	elapsed := time.Since(start)
	if err != nil {
		s.Failed++
		s.report(err)
	}
	if s.Timing {
		fmt.Fprintf(s.Out, "Time: %.3f ms\n", float64(elapsed.Microseconds())/1000)
	}
	if stats != nil {
		fmt.Fprintln(s.Err, statsLine(stats.Snapshot(), elapsed))
	}
	return err
}

func (s *Session) run(ctx context.Context, sql string) error {
	// One plan serves EXPLAIN, \explain and the statement itself.
	plan, err := s.DB.Plan(sql)
	if err != nil {
		return err
	}
	p := s.printer()
	if plan.Explain || s.Explain {
		if err := p.Plan(plan); err != nil || plan.Explain {
			return err
		}
	}
	if plan.Writes {
		res, err := s.DB.ExecPlan(ctx, plan)
		if err != nil {
			return err
		}
		return p.Result(format.Result{Affected: res.RowsAffected, CopiesUpdated: res.CopiesUpdated, CopiesSkipped: res.CopiesSkipped})
	}
	rows, err := s.DB.QueryPlan(ctx, plan)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	_, err = p.Rows(rows)
	return err
}

// report prints an error: "ERROR: " and its one line, then the statement
// with a caret under the position and the hint.
func (s *Session) report(err error) {
	e := errs.As(err)
	fmt.Fprintf(s.Err, "ERROR: %s\n%s", oneLine(e.Error()), e.Detail())
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// statsLine sums up what a statement sent, e.g.
// "stats: 2 requests (BatchGetItem 1, Query 1), 11 items read, 0 capacity units, 1.2ms".
func statsLine(sn executor.Snapshot, elapsed time.Duration) string {
	ops := make([]string, 0, len(sn.Requests))
	for _, op := range sn.Ops() {
		ops = append(ops, fmt.Sprintf("%s %d", op, sn.Requests[op]))
	}
	req := fmt.Sprintf("%d requests", sn.Total())
	if sn.Total() == 1 {
		req = "1 request"
	}
	if len(ops) > 0 {
		req += " (" + strings.Join(ops, ", ") + ")"
	}
	items := fmt.Sprintf("%d items", sn.Items)
	if sn.Items == 1 {
		items = "1 item"
	}
	return fmt.Sprintf("stats: %s, %s read, %g capacity units, %s",
		req, items, sn.Capacity, elapsed.Round(10*time.Microsecond))
}

// RunScript reads statements and meta-commands from r, as psql reads a
// file: statements end with ';' (or at the end of the input), and a line
// starting with '\' between statements is a meta-command. It stops at the
// first failure unless AllowPartial is set, and at \q. It returns an
// error only when it stopped early.
func (s *Session) RunScript(ctx context.Context, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var buf strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if buf.Len() == 0 && strings.HasPrefix(strings.TrimSpace(line), `\`) {
			if err := s.Meta(ctx, line); err != nil {
				if errors.Is(err, errQuit) || !s.AllowPartial {
					return err
				}
			}
			continue
		}
		buf.WriteString(line + "\n")
		if parser.Complete(buf.String()) {
			if err := s.runAll(ctx, buf.String(), !s.AllowPartial); err != nil {
				return err
			}
			buf.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		s.Failed++
		s.report(errs.New(errs.Invalid, "cannot read statements: %v", err))
		return errStop
	}
	return s.runAll(ctx, buf.String(), !s.AllowPartial)
}

// runAll runs the statements of text, stopping at the first failure when
// stopOnError is set, and always when a statement was canceled.
func (s *Session) runAll(ctx context.Context, text string, stopOnError bool) error {
	stmts, err := parser.Split(text)
	if err != nil {
		s.Failed++
		s.report(err)
		return errStop
	}
	for _, st := range stmts {
		err := s.Run(ctx, st)
		if err != nil && (stopOnError || errors.Is(err, errs.Canceled) || ctx.Err() != nil) {
			return errStop
		}
	}
	return nil
}

// IsQuit reports whether err is the end of a script by \q, which is not
// a failure.
func IsQuit(err error) bool { return errors.Is(err, errQuit) }
