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
	"strings"
	"time"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/planner"
)

// Session holds a DB and the display settings the meta-commands change.
type Session struct {
	DB  *dynosql.DB
	Out io.Writer // results (unless \o or \g sends them to a file) and messages
	Err io.Writer // errors, --stats figures

	Format   format.Format
	Expanded Expansion // \x
	Timing   bool      // \timing
	Stats    bool      // --stats, \stats
	Explain  bool      // \explain: print the plan before running
	// AllowPartial keeps a script going after a failed statement.
	AllowPartial bool

	// Vars holds the \set variables, which statements use as :NAME.
	Vars map[string]string

	// tx is the transaction BEGIN opened, until COMMIT or ROLLBACK.
	tx *dynosql.Tx
	// txFailed says where a statement of a script failed while tx was
	// open ("line 3"), "" when none did: COMMIT then sends nothing, as
	// the script asked for all of its writes or none (psql's aborted
	// transaction).
	txFailed string
	// scripts counts the scripts being run (-e, -f, piped input, \i),
	// one inside another.
	scripts int
	// included counts the \i files being run, one inside another.
	included int

	// Pager, when true and Height is not 0, sends table output of
	// Height lines or more through the program PagerCommand names (a
	// command and its arguments, split at spaces). \pager sets it.
	Pager        bool
	PagerCommand string
	// Height returns the number of lines of the terminal Out writes to,
	// 0 when Out is not a terminal.
	Height func() int
	// Width returns the number of columns \x auto fits a table in, 0
	// when it is not known (and \x auto then never expands).
	Width func() int
	// Editor is the command \e runs on a file, split at spaces.
	Editor string
	// Progress, when set, makes a display for each statement's progress
	// reports (long writes); the command line sets it when stderr is a
	// terminal.
	Progress func() ProgressDisplay

	// Interrupt, when set, derives the context of one statement in
	// place of the session's own Ctrl-C handling (which cancels the
	// statement, not the shell, and a script between statements); tests
	// set it.
	Interrupt func(context.Context) (context.Context, context.CancelFunc)

	// Failed counts the statements and meta-commands that failed.
	Failed int

	interrupts *interrupts     // Ctrl-C handling of the running script or shell
	shown      ProgressDisplay // the running statement's progress display
	block      *bufio.Writer   // holds output to a file or pipe, see print
	outFile    *os.File        // \o FILE
	goFile     *os.File        // \g FILE, while its statement runs
	in         *input          // what is being read, for \g and \e
	where      string          // the name of the file being read, "" for none
	line       int             // the line, in where, of the piece being run
	last       string          // the last statement run, for \g and \e
	quiet      bool            // while the start-up file runs: no "X is on." lines
	// remember adds a line to the shell's history; nil outside the shell.
	remember func(string)
	// confirm asks the user a yes-or-no question (an UPDATE past
	// --max-affected); nil outside the shell, where such writes stop.
	confirmWrite func(ctx context.Context, question string) bool
}

// Expansion is the \x setting: whether a table prints one column of
// name | value pairs per row.
type Expansion int

// The \x settings.
const (
	ExpandOff  Expansion = iota // columns side by side
	ExpandOn                    // name | value pairs, one record per row
	ExpandAuto                  // name | value pairs when a row is wider than Width
)

// NewSession returns a session over db printing in table format.
func NewSession(db *dynosql.DB, out, errOut io.Writer) *Session {
	return &Session{DB: db, Out: out, Err: errOut, Format: format.Table, Pager: true, in: &input{}}
}

// Close closes the file \o sends results to, if any.
//
// A transaction still open is dropped, as a database drops one whose
// session ends; since none of its writes were sent, Close says so with
// an error rather than let a script that forgot its COMMIT pass for one
// that wrote.
func (s *Session) Close() error {
	err := s.closeOutput()
	if lost := s.dropTransaction(); lost != "" {
		return errs.New(errs.Invalid, "the input ended inside a transaction: %s", lost).
			WithHint("end the transaction with COMMIT to send its writes, or ROLLBACK to drop them")
	}
	return err
}

// dropOpenTransaction drops a transaction left open, warning that its
// writes were not sent.
func (s *Session) dropOpenTransaction() {
	if lost := s.dropTransaction(); lost != "" {
		fmt.Fprintf(s.Err, "WARNING: the transaction left open was dropped: %s\n", lost)
	}
}

// dropTransaction drops the open transaction and says what it held
// ("its 2 statements were not sent"), or returns "" when none is open.
func (s *Session) dropTransaction() string {
	if s.tx == nil {
		return ""
	}
	n := s.tx.Statements()
	s.tx, s.txFailed = nil, ""
	switch n {
	case 0:
		return "it held no statement"
	case 1:
		return "its 1 statement was not sent"
	}
	return fmt.Sprintf("its %d statements were not sent", n)
}

// errQuit is returned by \q to end the script or the shell.
var errQuit = errors.New("quit")

// errStop ends a script after a failure already reported.
var errStop = errors.New("stopped after an error")

// reported wraps a failure already reported and counted, so that the
// meta-command that met it does not report it again.
type reported struct{ error }

func (r reported) Unwrap() error { return r.error }

// Run runs one statement, after putting in the values of the :NAME
// variables, prints its result, and reports its failure on Err as well
// as returning it.
func (s *Session) Run(ctx context.Context, sql string) error {
	sql = s.substitute(sql)
	// \g and \e take the statement as it ran, as psql's buffer holds it:
	// a variable set since does not change what they run.
	s.last = sql
	ctx, stop := s.statementContext(ctx)
	defer stop()
	// Every statement gathers the warnings of reads whose items no
	// entity claimed; only --stats counts the requests too.
	stats := dynosql.NewWarningStats()
	if s.Stats {
		stats = dynosql.NewStats()
	}
	ctx = dynosql.WithStats(ctx, stats)
	if s.confirmWrite != nil {
		ctx = dynosql.WithConfirm(ctx, s.confirmWrite)
	}
	ctx = s.startProgress(ctx)
	start := time.Now()
	inTx := s.tx != nil
	err := s.run(ctx, sql)
	elapsed := time.Since(start)
	s.endProgress()
	if err != nil {
		s.Failed++
		s.report(err)
		if inTx {
			s.failInTransaction()
		}
	}
	if s.Timing {
		fmt.Fprintf(s.Out, "Time: %.3f ms\n", float64(elapsed.Microseconds())/1000)
	}
	sn := stats.Snapshot()
	for _, w := range sn.Warnings {
		fmt.Fprintf(s.Err, "WARNING: %s\n", w)
	}
	if s.Stats {
		fmt.Fprintf(s.Err, "stats: %s, %s\n", sn.Line(), elapsed.Round(10*time.Microsecond))
	}
	return err
}

// failInTransaction marks the open transaction of a script as failed at
// the piece being run, unless a piece failed in it already: its COMMIT
// then sends nothing, the script having asked for all of its writes or
// none.
func (s *Session) failInTransaction() {
	if s.tx == nil || s.scripts == 0 || s.txFailed != "" {
		return
	}
	s.txFailed = fmt.Sprintf("line %d", s.line)
	if s.where != "" {
		s.txFailed = fmt.Sprintf("%s:%d", s.where, s.line)
	}
}

func (s *Session) run(ctx context.Context, sql string) error {
	// One plan serves EXPLAIN, \explain and the statement itself.
	plan, err := s.DB.PlanContext(ctx, sql)
	if err != nil {
		return err
	}
	if plan.Control != planner.NoControl {
		return s.control(ctx, plan.Control)
	}
	if plan.Explain {
		return s.explain(ctx, plan)
	}
	if s.Explain {
		if err := s.print(func(p *format.Printer) error { return p.Plan(plan) }); err != nil {
			return err
		}
	}
	if s.tx != nil {
		res, err := s.tx.ExecPlan(ctx, plan)
		if err != nil {
			return err
		}
		return s.print(func(p *format.Printer) error {
			return p.Message(fmt.Sprintf("%s added to the transaction (%d %s); COMMIT sends them all", rowsWord(res.RowsAffected), s.tx.Statements(), statementsWord(s.tx.Statements())))
		})
	}
	if plan.Writes {
		res, err := s.DB.ExecPlan(ctx, plan)
		if err != nil {
			return err
		}
		return s.print(func(p *format.Printer) error {
			return p.Result(format.Result{Affected: res.RowsAffected, CopiesUpdated: res.CopiesUpdated, CopiesSkipped: res.CopiesSkipped})
		})
	}
	rows, err := s.DB.QueryPlan(ctx, plan)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	return s.print(func(p *format.Printer) error {
		_, err := p.Rows(rows)
		return err
	})
}

// control carries out BEGIN, COMMIT and ROLLBACK.
func (s *Session) control(ctx context.Context, c planner.Control) error {
	switch {
	case c == planner.Begin && s.tx != nil:
		return errs.New(errs.Invalid, "a transaction is already open (%d %s)", s.tx.Statements(), statementsWord(s.tx.Statements())).
			WithHint("COMMIT or ROLLBACK it first")
	case c == planner.Begin:
		s.tx, s.txFailed = s.DB.Begin(), ""
		return s.print(func(p *format.Printer) error {
			return p.Message("BEGIN: the writes up to COMMIT are sent together, all or none")
		})
	case s.tx == nil:
		return errs.New(errs.Invalid, "no transaction is open").WithHint("BEGIN one first")
	case c == planner.Rollback:
		n := s.tx.Statements()
		s.tx, s.txFailed = nil, ""
		return s.print(func(p *format.Printer) error {
			return p.Message(fmt.Sprintf("ROLLBACK: %d %s dropped, nothing was sent", n, statementsWord(n)))
		})
	}
	tx, failed := s.tx, s.txFailed
	s.tx, s.txFailed = nil, ""
	if failed != "" {
		return errs.New(errs.Invalid, "COMMIT refused: the statement at %s failed inside the transaction, which is all or none; nothing was sent (%d other %s dropped)",
			failed, tx.Statements(), statementsWord(tx.Statements())).
			WithHint("fix that statement and run the transaction again")
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		return err
	}
	return s.print(func(p *format.Printer) error { return p.Result(format.Result{Affected: res.RowsAffected}) })
}

func statementsWord(n int) string {
	if n == 1 {
		return "statement"
	}
	return "statements"
}

func rowsWord(n int64) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// InTransaction reports whether a BEGIN is open, for the prompt.
func (s *Session) InTransaction() bool { return s.tx != nil }

// report prints an error: "ERROR: " and its one line, then the statement
// with a caret under the position and the hint. Read from a file, the
// ERROR line starts with the file's name and the line the failing
// statement or meta-command starts on, as psql's do.
func (s *Session) report(err error) {
	e := unsetHint(errs.As(err))
	where := ""
	if s.where != "" {
		where = fmt.Sprintf("%s:%d: ", s.where, s.line)
	}
	fmt.Fprintf(s.Err, "%sERROR: %s\n%s", where, oneLine(e.Error()), e.Detail())
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
