package repl

import (
	"bytes"
	"context"
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
