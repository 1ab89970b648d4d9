//go:build unix

package repl

import (
	"context"
	"io"
	"testing"

	"github.com/dynosql/dynosql"
)

// An UPDATE that would change more rows than --max-affected allows asks
// in the shell: no writes nothing, yes writes them all.
func TestShellAsksBeforeAWideUpdate(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx, dynosql.WithMaxAffected(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var out, errOut syncBuffer
	s := NewSession(db, &out, &errOut)
	s.Interrupt = context.WithCancel
	in, typing := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Shell(ctx, ShellConfig{Prompt: "School", Stdin: in, Stdout: &out, Stderr: &errOut, FakeTerminal: true})
	}()
	typeLine := func(line string) {
		t.Helper()
		if _, err := io.WriteString(typing, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	// The demo's math204 has 20 enrollments (grep -c in testdata/school/data.jsonl).
	const update = "UPDATE enrollments SET grade = 'Z' WHERE course_id = 'math204';"
	const question = "UPDATE would change 20 rows of enrollments, more than the 3 allowed without confirmation. Go on? [y/N] "
	at := waitFor(t, &out, 0, "School=> ")
	typeLine(update)
	at = waitFor(t, &out, at, question)
	typeLine("n")
	waitFor(t, &errOut, 0, "ERROR: max-affected: UPDATE would change 20 rows of enrollments, more than the 3 allowed without confirmation; not confirmed, nothing was written\n")
	at = waitFor(t, &out, at, "School=> ")
	typeLine("SELECT COUNT(*) FROM enrollments WHERE course_id = 'math204' AND grade = 'Z';")
	at = waitFor(t, &out, at, "        0\n(1 row)\n")

	typeLine(update)
	at = waitFor(t, &out, at, question)
	typeLine("y")
	at = waitFor(t, &out, at, "20 rows affected\n")
	typeLine("SELECT COUNT(*) FROM enrollments WHERE course_id = 'math204' AND grade = 'Z';")
	waitFor(t, &out, at, "       20\n(1 row)\n")
	_ = typing.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
