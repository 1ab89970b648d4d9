package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dynosql/dynosql/internal/errs"
)

// RunScript reads statements and meta-commands from r, as psql reads a
// file: statements end with ';' (or at the end of the input), and a '\'
// outside quotes and comments starts a meta-command that takes the rest
// of the line. It stops at the first failure unless AllowPartial is set,
// and at \q. It returns an error only when it stopped early.
//
// name, when not "", is the file r reads: errors then start with it and
// the line of the failing statement, "bad.sql:5: ERROR: ...".
func (s *Session) RunScript(ctx context.Context, name string, r io.Reader) error {
	s.scripts++
	defer func() { s.scripts-- }()
	return s.runInput(ctx, name, r)
}

// runInput is RunScript for input typed at the prompt (\e's buffer): a
// statement of it that fails leaves an open transaction as a statement
// typed at the prompt does.
func (s *Session) runInput(ctx context.Context, name string, r io.Reader) error {
	defer s.reading(&input{}, name)()
	// Ctrl-C between two statements stops the script as it would have
	// stopped the statement.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer s.catchInterrupts(cancel)()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxScriptLine)
	n := 0
	for sc.Scan() {
		n++
		for _, p := range s.in.feed(sc.Text(), n) {
			if err := s.do(ctx, p, !s.AllowPartial); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		s.line = n + 1 // the line that could not be read
		s.Failed++
		if errors.Is(err, bufio.ErrTooLong) {
			s.report(errs.New(errs.Invalid, "the line is longer than %d MB", maxScriptLine>>20).
				WithHint("break the statement over several lines"))
		} else {
			s.report(errs.New(errs.Invalid, "cannot read statements: %v", err))
		}
		return errStop
	}
	inComment := s.in.lex.InBlockComment()
	if sql, line := s.in.take(); sql != "" {
		// The parser reports a comment left open after SQL.
		return s.do(ctx, piece{sql: sql, line: line}, !s.AllowPartial)
	}
	if inComment {
		// Everything after the /* was read as comment: statements a
		// missing */ hid would otherwise pass for run.
		s.line = n
		s.Failed++
		s.report(errs.New(errs.Syntax, "the input ends inside a /* comment: nothing after its /* was run").
			WithHint("end the comment with */"))
		return errStop
	}
	return nil
}

// maxScriptLine bounds one line of a script: a statement may span lines.
const maxScriptLine = 16 << 20

// RunStartup runs the start-up file path (~/.dynosqlrc), as psql runs
// ~/.psqlrc: its failures are reported with the file and line and do not
// stop it, nor count as the session's; its meta-commands print no
// confirmation. A missing file is no error.
func (s *Session) RunStartup(ctx context.Context, path string) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		fmt.Fprintf(s.Err, "WARNING: start-up file not run: %v\n", err)
		return
	}
	defer func() { _ = f.Close() }()
	failed, partial := s.Failed, s.AllowPartial
	s.quiet, s.AllowPartial = true, true
	_ = s.RunScript(ctx, path, f)
	s.Failed, s.quiet, s.AllowPartial = failed, false, partial
}

// reading makes in the input that \g and \e take the buffer of, and name
// the file errors name, until the function it returns is called.
func (s *Session) reading(in *input, name string) func() {
	prevIn, prevWhere, prevLine := s.in, s.where, s.line
	s.in, s.where = in, name
	return func() { s.in, s.where, s.line = prevIn, prevWhere, prevLine }
}

// do runs one piece of input. Its failure is reported; do returns an
// error only when the input should stop being read: at \q, after a
// cancellation, or after any failure when stopOnError is set.
func (s *Session) do(ctx context.Context, p piece, stopOnError bool) error {
	s.line = p.line
	var err error
	switch {
	case ctx.Err() != nil:
		// Ctrl-C came between two pieces.
		err = errs.New(errs.Canceled, "canceled before this started; the script stops here")
		s.Failed++
		s.report(err)
	case p.meta != "":
		err = s.Meta(ctx, p.meta)
		if err != nil && !errors.Is(err, errQuit) {
			// A meta-command that failed inside BEGIN (an \i whose file
			// could not be read, or stopped early) may have left out
			// writes of the transaction: it is all or none.
			s.failInTransaction()
		}
	default:
		err = s.Run(ctx, p.sql)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errQuit):
		return err
	case stopOnError || errors.Is(err, errs.Canceled) || ctx.Err() != nil:
		return errStop
	}
	return nil
}

// IsQuit reports whether err is the end of a script by \q, which is not
// a failure.
func IsQuit(err error) bool { return errors.Is(err, errQuit) }
