package repl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chzyer/readline"
)

// historyLimit is how many statements of earlier sessions the shell
// offers, as psql's HISTSIZE.
const historyLimit = 500

// history keeps the shell's statements in a file of its own, created
// readable by its owner only (statements hold data), rather than in
// readline's, which creates it readable by all and rewrites it so.
// readline keeps the lines in memory for the arrow keys.
type history struct {
	rl   *readline.Instance
	warn io.Writer
	// path returns the file in force, "" for none: \set HISTFILE
	// changes it during the session.
	path   func() string
	warned map[string]bool
}

// load gives readline the last statements of the file.
func (h *history) load() {
	path := h.path()
	if path == "" {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		return // no history yet
	}
	defer func() { _ = f.Close() }()
	h.check(f, path)
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	for _, line := range lines[max(0, len(lines)-historyLimit):] {
		_ = h.rl.SaveHistory(line)
	}
}

// add keeps entry (one line) for the arrow keys and appends it to the
// file, creating that with mode 0600.
func (h *history) add(entry string) {
	_ = h.rl.SaveHistory(entry)
	path := h.path()
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		h.once("write "+path, "WARNING: cannot keep history in %s: %v", path, cause(err))
		return
	}
	h.check(f, path)
	_, err = fmt.Fprintln(f, entry)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		h.once("write "+path, "WARNING: cannot keep history in %s: %v", path, err)
	}
}

// check warns, once per file, when others than its owner may read the
// history: the file is theirs to change, so it is left as it is.
func (h *history) check(f *os.File, path string) {
	fi, err := f.Stat()
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return
	}
	h.once("mode "+path, "WARNING: history file %s can be read by other users (mode %04o); chmod 600 %s to keep your statements private",
		path, fi.Mode().Perm(), path)
}

// once prints a warning the first time it is given key.
func (h *history) once(key, format string, args ...any) {
	if h.warned[key] {
		return
	}
	if h.warned == nil {
		h.warned = map[string]bool{}
	}
	h.warned[key] = true
	fmt.Fprintf(h.warn, format+"\n", args...)
}
