//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// pagerMark is what the test's pager prints before the text it is given.
const pagerMark = "<<pager>>\n"

// terminal runs dynosql with its standard output on a pseudo-terminal
// of rows lines and cols columns, and returns what the terminal showed
// (newlines as written, not as the terminal's \r\n) and standard error.
// PAGER is a script that marks its output with pagerMark, unless env
// sets it.
func terminal(t *testing.T, rows, cols uint16, env []string, args ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	bin := linkDynosql(t, dir)
	pager := filepath.Join(dir, "pager")
	if err := os.WriteFile(pager, []byte("#!/bin/sh\nprintf '"+strings.TrimSuffix(pagerMark, "\n")+"\\n'\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer func() { _ = ptmx.Close() }()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = tty, &stderr
	cmd.Env = append(cleanEnv(), "HOME="+dir, "PAGER="+pager)
	cmd.Env = append(cmd.Env, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close() // the child has its own; reads end when it closes it
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(&out, ptmx) // ends with EIO once the child is gone
		close(done)
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("dynosql %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	<-done
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), stderr.String()
}

// cleanEnv is this process's environment without what would change
// dynosql's output on a terminal.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PAGER", "COLUMNS", "LINES", "HOME", "EDITOR", "VISUAL", "DYNOSQL_HISTFILE", "DYNOSQL_MAPPING":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// piped returns what dynosql prints with its standard output on a pipe.
func piped(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(linkDynosql(t, t.TempDir()), args...)
	cmd.Env = cleanEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dynosql %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// firstStudents selects the first n students of cs101: n rows, and 3
// lines more of header, rule and count.
func firstStudents(n string) string {
	return "SELECT student_id FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id LIMIT " + n
}

// TestPager runs dynosql on a terminal of 10 lines: a table of 10 lines
// or more goes through $PAGER, a shorter one does not, nor does a format
// other than table, nor output with \pager off or PAGER set empty. With
// stdout on a pipe there is no pager at all (display.txtar).
func TestPager(t *testing.T) {
	t.Parallel()
	nine, ten := piped(t, "--demo", "-e", firstStudents("6")), piped(t, "--demo", "-e", firstStudents("7"))
	if n := strings.Count(nine, "\n"); n != 9 {
		t.Fatalf("LIMIT 6 printed %d lines, want 9:\n%s", n, nine)
	}
	csv := piped(t, "--demo", "--format", "csv", "-e", firstStudents("20"))
	tests := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"a table as tall as the terminal is paged", nil, []string{"-e", firstStudents("7")}, pagerMark + ten},
		{"a shorter one is not", nil, []string{"-e", firstStudents("6")}, nine},
		{"csv is never paged", nil, []string{"--format", "csv", "-e", firstStudents("20")}, csv},
		{`\pager off turns it off`, nil, []string{"-e", `\pager off`, "-e", firstStudents("7")}, "Pager is off.\n" + ten},
		{"PAGER set empty turns it off", []string{"PAGER="}, []string{"-e", firstStudents("7")}, ten},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, errOut := terminal(t, 10, 80, tt.env, append([]string{"--demo"}, tt.args...)...)
			if out != tt.want {
				t.Errorf("the terminal showed:\n%s\nwant:\n%s", out, tt.want)
			}
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
		})
	}
}

// TestExpandedAuto runs \x auto on terminals of 40 and 39 columns with a
// table 40 columns wide: it is expanded only on the narrower one, and
// COLUMNS, when set, is the width instead of the terminal's.
func TestExpandedAuto(t *testing.T) {
	t.Parallel()
	const (
		sql      = "SELECT id, title, credits FROM courses WHERE id = 'cs101'"
		auto     = "Expanded display is used automatically.\n"
		table    = " id    | title                | credits\n-------+----------------------+---------\n cs101 | Intro to Programming |       4\n(1 row)\n"
		expanded = "-[ RECORD 1 ]\n id      | cs101\n title   | Intro to Programming\n credits | 4\n(1 row)\n"
	)
	tests := []struct {
		name string
		cols uint16
		env  []string
		want string
	}{
		{"a table as wide as the terminal stays a table", 40, nil, auto + table},
		{"a wider one is expanded", 39, nil, auto + expanded},
		{"COLUMNS is the width when set", 39, []string{"COLUMNS=40"}, auto + table},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, errOut := terminal(t, 50, tt.cols, tt.env, "--demo", "-e", `\x auto`, "-e", sql)
			if out != tt.want {
				t.Errorf("the terminal showed:\n%s\nwant:\n%s", out, tt.want)
			}
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
		})
	}
}
