package repl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
)

// results is where results go: the file of \g, else of \o, else Out.
func (s *Session) results() io.Writer {
	switch {
	case s.goFile != nil:
		return s.goFile
	case s.outFile != nil:
		return s.outFile
	}
	return s.Out
}

// toTerminal reports whether results go to Out and Out is a terminal.
func (s *Session) toTerminal() bool {
	return s.results() == s.Out && s.Height != nil && s.Height() > 0
}

// print runs f with a printer on the results' writer. Table output bound
// for a terminal goes through the pager once it is as tall as the
// terminal (see pager). Output to a file or a pipe is written in blocks
// rather than a write a row.
func (s *Session) print(f func(*format.Printer) error) error {
	out := &outWriter{w: s.results()}
	err := s.printTo(out, f)
	if out.err != nil {
		// A full disk or a closed file is the output's fault, not a
		// statement's nor a bug.
		return errs.New(errs.Invalid, "cannot write the output: %v", out.err).
			WithHint("check the disk or file the output goes to")
	}
	return err
}

// outWriter keeps the first error writing the results met.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(b []byte) (int, error) {
	n, err := o.w.Write(b)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

func (s *Session) printTo(w io.Writer, f func(*format.Printer) error) error {
	s.endProgress()
	p := &format.Printer{W: w, F: s.Format, Expanded: s.Expanded == ExpandOn}
	if s.Expanded == ExpandAuto && s.results() == s.Out && s.Width != nil {
		p.AutoWidth = s.Width()
	}
	if !s.toTerminal() {
		if s.block == nil {
			s.block = bufio.NewWriterSize(p.W, blockSize)
		}
		s.block.Reset(p.W)
		p.W = s.block
		err := f(p)
		if ferr := s.block.Flush(); err == nil {
			err = ferr
		}
		s.block.Reset(nil)
		return err
	}
	args := strings.Fields(s.PagerCommand)
	if s.Format != format.Table || !s.Pager || len(args) == 0 {
		return f(p)
	}
	pg := &pager{s: s, args: args}
	p.W = pg
	err := f(p)
	if errors.Is(err, errPagerQuit) {
		err = nil // quitting the pager early is the reader's business
	}
	if perr := pg.close(); err == nil {
		err = perr
	}
	return err
}

// blockSize is what print holds before it writes to a file or pipe.
const blockSize = 64 << 10

// pager holds what a table prints until it has as many lines as the
// terminal (the prompt after it would push its first line off the
// screen), then starts the pager, hands it those lines and streams the
// rest through it: a long result is not held whole. Output shorter than
// the terminal goes to Out when printing ends. When the pager cannot be
// started, the output goes to Out as it is and close returns the error.
type pager struct {
	s     *Session
	args  []string
	held  bytes.Buffer
	lines int
	cmd   *exec.Cmd
	in    io.WriteCloser // the pager's standard input, once started
	err   error          // why the pager could not start
}

// errPagerQuit stops printing when the pager has gone: the rows left
// would be read for nobody.
var errPagerQuit = errors.New("the pager has quit")

func (pg *pager) Write(b []byte) (int, error) {
	switch {
	case pg.in != nil:
		if _, err := pg.in.Write(b); err != nil {
			return 0, errPagerQuit
		}
		return len(b), nil
	case pg.err != nil:
		return pg.s.Out.Write(b)
	}
	pg.held.Write(b)
	pg.lines += bytes.Count(b, []byte("\n"))
	if pg.lines < pg.s.Height() {
		return len(b), nil
	}
	held := pg.held.Bytes()
	pg.held = bytes.Buffer{}
	cmd := exec.Command(pg.args[0], pg.args[1:]...)
	cmd.Stdout, cmd.Stderr = pg.s.Out, pg.s.Err
	in, err := cmd.StdinPipe()
	if err == nil {
		err = withoutInterrupt(cmd.Start)
	}
	if err != nil {
		pg.err = errs.New(errs.Invalid, "cannot run the pager %q: %v", pg.s.PagerCommand, cause(err)).
			WithHint(`set PAGER to a program on your PATH, or turn the pager off with \pager off`)
		if _, err := pg.s.Out.Write(held); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	pg.cmd, pg.in = cmd, in
	if _, err := in.Write(held); err != nil {
		return 0, errPagerQuit
	}
	return len(b), nil
}

// close writes what is held to Out, or ends the pager's input and waits
// for the reader to leave it.
func (pg *pager) close() error {
	if pg.in == nil {
		if _, err := pg.s.Out.Write(pg.held.Bytes()); err != nil {
			return err
		}
		return pg.err
	}
	_ = pg.in.Close()
	// Its status says nothing about the statement.
	_ = withoutInterrupt(pg.cmd.Wait)
	return nil
}

// withoutInterrupt runs f while Ctrl-C is caught, so that Ctrl-C in the
// pager or editor, which handle it, does not also end dynosql. The child
// started gets the default handling back, as exec does for caught
// signals.
func withoutInterrupt(f func() error) error {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	defer signal.Stop(c)
	return f()
}

// setOutput is \o [FILE]: results go to FILE, emptied first, until the
// next \o; \o alone sends them back to standard output.
func (s *Session) setOutput(_ context.Context, args []string) error {
	if len(args) > 1 {
		return errs.New(errs.Invalid, `\o takes one file name, got %d`, len(args)).
			WithHint("quote a name with spaces: \\o 'my file.txt'")
	}
	if err := s.closeOutput(); err != nil || len(args) == 0 {
		return err
	}
	f, err := create(args[0])
	if err != nil {
		return err
	}
	s.outFile = f
	return nil
}

func (s *Session) closeOutput() error {
	if s.outFile == nil {
		return nil
	}
	err := s.outFile.Close()
	s.outFile = nil
	if err != nil {
		return errs.New(errs.Invalid, "cannot finish writing results: %v", err)
	}
	return nil
}

// goCmd is \g [FILE]: it runs the statement typed so far, or the last
// one again when nothing is typed, with its results in FILE when given.
func (s *Session) goCmd(ctx context.Context, args []string) error {
	if len(args) > 1 {
		return errs.New(errs.Invalid, `\g takes one file name, got %d`, len(args)).
			WithHint("quote a name with spaces: \\g 'my file.txt'")
	}
	sql, line := s.in.take()
	if sql == "" {
		sql = s.last
	} else {
		s.line = line // errors name the line the statement starts on
	}
	if sql == "" {
		return errs.New(errs.Invalid, `\g: no statement to run`).
			WithHint(`type a statement, then \g FILE on its last line or the next`)
	}
	if len(args) == 1 {
		f, err := create(args[0])
		if err != nil {
			return err
		}
		s.goFile = f
		defer func() {
			s.goFile = nil
			_ = f.Close()
		}()
	}
	if err := s.Run(ctx, sql); err != nil {
		return reported{err}
	}
	return nil
}

// create opens a file for results, emptying it, with ~/ read as the
// home directory.
func create(name string) (*os.File, error) {
	f, err := os.Create(expandHome(name))
	if err != nil {
		return nil, errs.New(errs.Invalid, "cannot write results to %s: %v", name, cause(err))
	}
	return f, nil
}

// expandHome reads a leading ~/ as the home directory, as psql does in
// file names of meta-commands.
func expandHome(name string) string {
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return name
}

// cause returns what err wraps, without the operation and file name
// that the message around it already gives.
func cause(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}
