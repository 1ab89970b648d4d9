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
// for a terminal is held until it is complete, then goes through the
// pager when it is taller than the terminal. Output to a file or a pipe
// is written in blocks rather than a write a row.
func (s *Session) print(f func(*format.Printer) error) error {
	s.endProgress()
	p := &format.Printer{W: s.results(), F: s.Format, Expanded: s.Expanded == ExpandOn}
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
	if s.Format != format.Table || !s.Pager || s.PagerCommand == "" {
		return f(p)
	}
	var buf bytes.Buffer
	p.W = &buf
	err := f(p)
	if perr := s.page(buf.Bytes()); err == nil {
		err = perr
	}
	return err
}

// blockSize is what print holds before it writes to a file or pipe.
const blockSize = 64 << 10

// page writes out to Out, through the pager when it has at least as many
// lines as the terminal (the prompt after it would push its first line
// off the screen). When the pager cannot be started, out is written
// as it is and the error returned.
func (s *Session) page(out []byte) error {
	args := strings.Fields(s.PagerCommand)
	if bytes.Count(out, []byte("\n")) < s.Height() || len(args) == 0 {
		_, err := s.Out.Write(out)
		return err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(out), s.Out, s.Err
	if err := withoutInterrupt(cmd.Start); err != nil {
		_, _ = s.Out.Write(out)
		return errs.New(errs.Invalid, "cannot run the pager %q: %v", s.PagerCommand, cause(err)).
			WithHint(`set PAGER to a program on your PATH, or turn the pager off with \pager off`)
	}
	// Quitting the pager early is its own business: its status says
	// nothing about the statement.
	_ = withoutInterrupt(cmd.Wait)
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
	sql, _ := s.in.take()
	if sql == "" {
		sql = s.last
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
