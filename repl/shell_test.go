//go:build unix

package repl

import (
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// syncBuffer is a bytes buffer the shell writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until buf holds want after offset from, and returns the
// offset past it.
func waitFor(t *testing.T, buf *syncBuffer, from int, want string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s := buf.String()
		if i := strings.Index(s[from:], want); i >= 0 {
			return from + i + len(want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("waited in vain for %q; got:\n%s", want, buf.String()[from:])
	return 0
}

// stall makes every request, while on is set, report that it started and
// then wait for its context to end: a statement that only Ctrl-C ends.
func stall(on *atomic.Bool, started chan<- string) dynosql.Option {
	return testkit.Hook("stall", func(ctx context.Context, op string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if !on.Load() {
			return next.HandleInitialize(ctx, in)
		}
		started <- op
		<-ctx.Done()
		return middleware.InitializeOutput{}, middleware.Metadata{}, ctx.Err()
	})
}

// TestShell drives the shell through readline over a pipe: a statement
// typed over three lines, a meta-command, and Ctrl-C (a real SIGINT to
// this process) during a statement that would never end, after which the
// shell takes the next statement.
//
// It and TestCtrlCStopsAScript are the only tests of the package that
// leave Session.Interrupt unset, so that the SIGINT reaches the session's
// own handler; neither runs in parallel.
func TestShell(t *testing.T) {
	ctx := context.Background()
	var slow atomic.Bool
	started := make(chan string, 1)
	db, err := dynosql.OpenDemo(ctx, stall(&slow, started))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })

	var out, errOut syncBuffer
	s := NewSession(db, &out, &errOut)
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

	// A statement over three lines runs at the line that ends it.
	at := waitFor(t, &out, 0, "School=> ")
	typeLine("SELECT name, year")
	at = waitFor(t, &out, at, "School-> ")
	typeLine("  FROM students")
	typeLine(" WHERE id = 'a91';")
	at = waitFor(t, &out, at, " Ann Lee |    2\n(1 row)\n")
	at = waitFor(t, &out, at, "School=> ")

	// A meta-command changes the display of the next statement.
	typeLine(`\x`)
	at = waitFor(t, &out, at, "Expanded display is on.\n")
	typeLine("SELECT title FROM courses WHERE id = 'math204';")
	at = waitFor(t, &out, at, "-[ RECORD 1 ]\n title | Linear Algebra\n(1 row)\n")

	// Ctrl-C cancels the running statement, not the shell.
	slow.Store(true)
	typeLine("SELECT name FROM students WHERE id = 'c12';")
	select {
	case op := <-started:
		if op != "GetItem" {
			t.Errorf("the statement sent %s, want GetItem", op)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the statement sent no request")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &errOut, 0, "ERROR: canceled")
	slow.Store(false)
	at = waitFor(t, &out, at, "School=> ")

	typeLine(`\x off`)
	typeLine("SELECT name FROM students WHERE id = 'k42';")
	waitFor(t, &out, at, " Rosa Quint\n(1 row)\n")

	// Ctrl-D (end of input) leaves.
	_ = typing.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Shell: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the shell did not leave at end of input")
	}
	if s.Failed != 1 {
		t.Errorf("Failed = %d, want 1 (the canceled statement)", s.Failed)
	}
	if strings.Contains(out.String(), "c12") && strings.Contains(out.String(), " Ann\n") {
		t.Errorf("the canceled statement printed rows:\n%s", out.String())
	}
}

// Leaving the shell with a transaction open drops it with a warning that
// its writes were not sent; the session then closes without an error,
// as psql's does (a script that does the same fails: Close).
func TestLeavingTheShellInsideATransactionWarns(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var out, errOut syncBuffer
	s := NewSession(db, &out, &errOut)
	in := strings.NewReader("BEGIN;\nINSERT INTO courses (id, title) VALUES ('zz', 'x');\n")
	if err := s.Shell(ctx, ShellConfig{Prompt: "School", Stdin: io.NopCloser(in), Stdout: &out, Stderr: &errOut, FakeTerminal: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close after the shell: %v", err)
	}
	if got := errOut.String(); !strings.Contains(got, "WARNING: the transaction left open was dropped: its 1 statement was not sent") {
		t.Errorf("stderr: %q", got)
	}
}
