//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// withStderrOnTerminal runs dynosql with its standard error on a
// pseudo-terminal and returns standard output and what the terminal
// showed.
func withStderrOnTerminal(t *testing.T, args ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	bin := linkDynosql(t, dir)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer func() { _ = ptmx.Close() }()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, tty
	cmd.Env = append(cleanEnv(), "HOME="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close()
	var shown bytes.Buffer
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(&shown, ptmx)
		close(done)
	}()
	err = cmd.Wait()
	<-done // shown is the copier's until then
	if err != nil {
		t.Fatalf("dynosql: %v\n%s", err, shown.String())
	}
	return stdout.String(), shown.String()
}

// TestProgressShownOnTerminal: an INSERT of three transactions draws a
// bar on a terminal stderr, erases it, and prints its result as usual.
func TestProgressShownOnTerminal(t *testing.T) {
	var rows []string
	for i := range 250 {
		rows = append(rows, fmt.Sprintf("('p%03d', 'Course %d', 3)", i, i))
	}
	insert := "INSERT INTO courses (id, title, credits) VALUES " + strings.Join(rows, ", ")
	stdout, shown := withStderrOnTerminal(t, "--embedded", "--non-atomic-inserts", "--mapping", mustAbs(t, "../../testdata/school/mapping.yaml"), "-e", insert)
	if stdout != "250 rows affected\n" {
		t.Errorf("stdout %q", stdout)
	}
	if !strings.Contains(shown, "inserting into courses") || !strings.Contains(shown, "/250") {
		t.Errorf("no progress bar on the terminal: %q", shown)
	}
	if !strings.Contains(shown, "\x1b[2K\r") {
		t.Errorf("the bar was not erased: %q", shown)
	}
}
