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
	// The variable HISTFILE, when set, takes its place (\set HISTFILE).
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
// span lines and runs when a line ends it with ';'; a '\' outside quotes
// starts a meta-command. Ctrl-C while typing clears the input; while a
// statement runs it cancels the statement (see Session.Interrupt).
// Failures are reported and the shell goes on.
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
		DisableAutoSaveHistory: true, // saved per statement, not per line, by history
		HistorySearchFold:      true,
		HistoryLimit:           historyLimit,
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
	h := &history{rl: rl, warn: s.Err, path: func() string {
		if p, ok := s.Vars[HistFileVar]; ok {
			return expandHome(p)
		}
		return c.HistoryFile
	}}
	h.load()
	s.remember = h.add
	defer func() { s.remember = nil }()
	s.confirmWrite = func(_ context.Context, question string) bool {
		s.endProgress() // a bar would draw over the question
		rl.SetPrompt(question + ". Go on? [y/N] ")
		answer, err := rl.Readline()
		answer = strings.ToLower(strings.TrimSpace(answer))
		return err == nil && (answer == "y" || answer == "yes")
	}
	defer func() { s.confirmWrite = nil }()

	in := &input{}
	defer s.reading(in, "")()
	// Ctrl-C at the prompt is readline's: it clears the input.
	defer s.catchInterrupts(nil)()
	// Leaving with a transaction open drops it, as psql's server does
	// when its session ends; the person at the terminal is told, which a
	// script's caller is by an error (Close).
	defer s.dropOpenTransaction()
	for n := 1; ; n++ {
		rl.SetPrompt(c.Prompt + in.prompt())
		comp.pending = in.buf.String()
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			in.reset()
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(s.Out)
			return nil
		case err != nil:
			return err
		}
		for _, p := range in.feed(line, n) {
			h.add(historyEntry(p, in))
			// Failures are reported already; the shell goes on.
			if err := s.do(ctx, p, false); errors.Is(err, errQuit) {
				return nil
			}
		}
	}
}

// historyEntry is the history line of a piece: a statement on one line
// with its ';', or a meta-command after the statement it runs (\g, \e).
func historyEntry(p piece, in *input) string {
	if p.meta == "" {
		return historyLine(p.sql) + ";"
	}
	if sql := in.text(); sql != "" && (strings.HasPrefix(p.meta, `\g`) || strings.HasPrefix(p.meta, `\e`)) {
		return historyLine(sql) + " " + p.meta
	}
	return p.meta
}

// historyLine writes a statement on one line that reads back as the same
// statement: white space outside quotes is run together, comments are
// left out (a line comment would swallow the rest of the line), and a
// newline or carriage return inside a string is written as its escape,
// \n or \r, which the parser reads back as the same character. Quoted
// text is otherwise kept as typed: its spaces are data.
func historyLine(sql string) string {
	var b strings.Builder
	var sc parser.Scanner
	gap := false // white space or a comment since the last text written
	write := func(text string) {
		if gap && b.Len() > 0 {
			b.WriteByte(' ')
		}
		gap = false
		b.WriteString(text)
	}
	for i := 0; i < len(sql); {
		next, kind := sc.Next(sql, i)
		text := sql[i:next]
		switch {
		case kind == parser.SpanComment:
			gap = true
		case kind == parser.SpanQuoted && text[0] == '`':
			write(strings.NewReplacer("\n", " ", "\r", " ").Replace(text)) // a name has no escapes
		case kind == parser.SpanQuoted:
			write(strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(text))
		default:
			for j, f := range strings.FieldsFunc(text, isSpace) {
				if j > 0 || isSpace(rune(text[0])) {
					gap = true
				}
				write(f)
			}
			if isSpace(rune(text[len(text)-1])) {
				gap = true
			}
		}
		i = next
	}
	return b.String()
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }
