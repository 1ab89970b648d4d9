package cli

import (
	"io"
	"os"
	"os/exec"
	"strconv"

	"golang.org/x/term"

	"github.com/dynosql/dynosql/repl"
)

// setTerminal tells the session about the terminal stdout is, if it is
// one (its size, for the pager and \x auto), and which pager and editor
// to run.
func setTerminal(s *repl.Session, stdout io.Writer) {
	s.PagerCommand, s.Editor = pagerCommand(), editorCommand()
	f, ok := stdout.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return
	}
	fd := int(f.Fd())
	// Asked at each statement: the terminal may have been resized.
	s.Height = func() int {
		_, h, err := term.GetSize(fd)
		if err != nil {
			return 0
		}
		return h
	}
	s.Width = func() int {
		// As psql, COLUMNS overrides the terminal's width.
		if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
			return n
		}
		w, _, err := term.GetSize(fd)
		if err != nil {
			return 0
		}
		return w
	}
}

// pagerCommand is $PAGER (set empty, no pager), else less -FRX, else more.
func pagerCommand() string {
	if p, ok := os.LookupEnv("PAGER"); ok {
		return p
	}
	for _, p := range []string{"less", "more"} {
		if _, err := exec.LookPath(p); err == nil {
			if p == "less" {
				return "less -FRX" // quit if it fits, keep colors, leave the screen as it is
			}
			return p
		}
	}
	return ""
}

// editorCommand is $EDITOR, else $VISUAL; "" lets \e run vi.
func editorCommand() string {
	if e := os.Getenv("EDITOR"); e != "" {
		return e
	}
	return os.Getenv("VISUAL")
}
