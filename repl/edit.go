package repl

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
)

// edit is \e: it writes the statement typed so far, or the last one, to
// a temporary file, opens Editor on it, and then runs the statements and
// meta-commands saved there. The editor reads and writes the terminal.
func (s *Session) edit(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return errs.New(errs.Invalid, `\e takes no argument`).
			WithHint(`\e edits the statement being typed, or the last one`)
	}
	text, _ := s.in.take()
	if text == "" {
		text = s.last
	}
	f, err := os.CreateTemp("", "dynosql-*.sql")
	if err != nil {
		return errs.New(errs.Invalid, "cannot make a file to edit: %v", err)
	}
	defer func() { _ = os.Remove(f.Name()) }()
	if text != "" {
		text += "\n"
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errs.New(errs.Invalid, "cannot write %s: %v", f.Name(), err)
	}

	editor := s.Editor
	if strings.TrimSpace(editor) == "" {
		editor = "vi"
	}
	args = strings.Fields(editor)
	cmd := exec.Command(args[0], append(args[1:], f.Name())...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, s.Out, s.Err
	if err := withoutInterrupt(cmd.Run); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return errs.New(errs.Invalid, "the editor %q exited with status %d; nothing was run", editor, ee.ExitCode())
		}
		return errs.New(errs.Invalid, "cannot run the editor %q: %v", editor, cause(err)).
			WithHint("set EDITOR (or VISUAL) to a program on your PATH")
	}
	saved, err := os.ReadFile(f.Name())
	if err != nil {
		return errs.New(errs.Invalid, "cannot read back %s: %v", f.Name(), err)
	}
	if s.remember != nil {
		// One history line per statement or meta-command, as typed ones.
		in := &input{}
		for n, line := range strings.Split(strings.TrimRight(string(saved), "\n"), "\n") {
			for _, p := range in.feed(line, n+1) {
				s.remember(historyEntry(p, in))
			}
		}
		if sql := in.text(); sql != "" {
			s.remember(historyLine(sql) + ";")
		}
	}
	err = s.runInput(ctx, "", strings.NewReader(string(saved)))
	if err == nil || IsQuit(err) {
		return err
	}
	return reported{err}
}
