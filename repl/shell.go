package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chzyer/readline"

	"github.com/dynosql/dynosql/parser"
)

// ShellConfig says where the interactive shell reads and writes.
type ShellConfig struct {
	// Prompt names what the shell is connected to, such as "School" or
	// "School@localhost:8000"; the shell adds "=> " or "-> ".
	Prompt string
	// HistoryFile keeps the statements between sessions; "" keeps none.
	HistoryFile string
	// Stdin, Stdout and Stderr default to the process's own. A pipe as
	// Stdin lets tests drive the shell without a terminal.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// FakeTerminal makes readline print prompts and edit lines on
	// streams that are not a terminal, without touching terminal modes:
	// for tests that drive the shell through pipes.
	FakeTerminal bool
}

// Shell reads lines with readline until Ctrl-D or \q. A statement may
// span lines and runs when a line ends it with ';'; a line starting with
// '\' between statements is a meta-command. Ctrl-C while typing clears
// the input; while a statement runs it cancels the statement (see
// Session.Interrupt). Failures are reported and the shell goes on.
func (s *Session) Shell(ctx context.Context, c ShellConfig) error {
	comp := &completer{m: s.DB.Mapping()}
	if c.Stdin == nil {
		c.Stdin = os.Stdin
	}
	// readline's Close waits for its reader, which may sit in a Read of
	// stdin; a cancelable stdin closed first lets that Read return.
	stdin := readline.NewCancelableStdin(c.Stdin)
	cfg := &readline.Config{
		Prompt:                 c.Prompt + "=> ",
		HistoryFile:            c.HistoryFile,
		DisableAutoSaveHistory: true, // saved per statement, not per line
		HistorySearchFold:      true,
		AutoComplete:           comp,
		InterruptPrompt:        "^C",
		Stdin:                  stdin,
		Stdout:                 c.Stdout,
		Stderr:                 c.Stderr,
	}
	if c.FakeTerminal {
		cfg.ForceUseInteractive = true
		cfg.FuncIsTerminal = func() bool { return false }
		cfg.FuncMakeRaw = func() error { return nil }
		cfg.FuncExitRaw = func() error { return nil }
		cfg.FuncGetWidth = func() int { return 80 }
	}
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return err
	}
	defer func() {
		_ = stdin.Close()
		_ = rl.Close()
	}()

	var buf strings.Builder
	for {
		if buf.Len() == 0 {
			rl.SetPrompt(c.Prompt + "=> ")
		} else {
			rl.SetPrompt(c.Prompt + "-> ")
		}
		comp.pending = buf.String()
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			buf.Reset()
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(s.Out)
			return nil
		case err != nil:
			return err
		}
		if buf.Len() == 0 && strings.HasPrefix(strings.TrimSpace(line), `\`) {
			_ = rl.SaveHistory(strings.TrimSpace(line))
			if err := s.Meta(ctx, strings.TrimSpace(line)); errors.Is(err, errQuit) {
				return nil
			}
			continue
		}
		if buf.Len() == 0 && strings.TrimSpace(line) == "" {
			continue
		}
		buf.WriteString(line + "\n")
		if parser.Complete(buf.String()) {
			_ = rl.SaveHistory(strings.Join(strings.Fields(buf.String()), " "))
			// Failures are reported already; the shell goes on.
			_ = s.runAll(ctx, buf.String(), false)
			buf.Reset()
		}
	}
}
