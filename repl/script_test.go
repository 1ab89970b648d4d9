package repl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dynosql/dynosql"
)

// A line past the scanner's bound is named by its number, with what to
// do, not as Go's "token too long" at line 0; the lines before it ran.
func TestAScriptLineTooLongIsNamed(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var out, errOut bytes.Buffer
	s := NewSession(db, &out, &errOut)
	script := "SELECT name FROM students WHERE id = 'a91';\nSELECT '" + strings.Repeat("x", maxScriptLine) + "';\n"
	if err := s.RunScript(ctx, "long.sql", strings.NewReader(script)); err == nil {
		t.Error("RunScript returned no error")
	}
	if got := errOut.String(); !strings.HasPrefix(got, "long.sql:2: ERROR: invalid: the line is longer than 16 MB") {
		t.Errorf("stderr: %.200s", got)
	}
	if !strings.Contains(out.String(), "Ann Lee") {
		t.Errorf("the first statement did not run:\n%s", out.String())
	}
}

// fullDisk fails every write, as /dev/full does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// Output that cannot be written is named as such, not as a bug.
func TestOutputThatCannotBeWrittenIsNamed(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var errOut bytes.Buffer
	s := NewSession(db, fullDisk{}, &errOut)
	if err := s.RunScript(ctx, "", strings.NewReader("SELECT name FROM students WHERE id = 'a91';")); err == nil {
		t.Error("RunScript returned no error")
	}
	if got := errOut.String(); !strings.HasPrefix(got, "ERROR: invalid: cannot write the output: no space left on device") {
		t.Errorf("stderr: %s", got)
	}
}

// At the prompt, a statement that fails inside a transaction leaves the
// transaction open for COMMIT (the user saw the error): so must one run
// from \e's buffer, which is not a script of its own.
func TestAStatementFailingInsideEditKeepsTheTransaction(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	bad := filepath.Join(t.TempDir(), "bad.sql")
	if err := os.WriteFile(bad, []byte("INSERT INTO students (id, name, year) VALUES ('z2', 'B', 'notnum');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	s := NewSession(db, &out, &errOut)
	s.Editor = "cp " + bad // the "editor" writes the failing statement into \e's file
	for _, q := range []string{"BEGIN", "INSERT INTO students (id, name) VALUES ('z1', 'A')"} {
		if err := s.Run(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.Meta(ctx, `\e`)
	if !strings.Contains(errOut.String(), "notnum") {
		t.Fatalf("the edited statement did not fail: %s", errOut.String())
	}
	if err := s.Run(ctx, "COMMIT"); err != nil {
		t.Errorf("COMMIT: %v", err)
	}
}
