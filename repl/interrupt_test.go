//go:build unix

package repl

import (
	"context"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dynosql/dynosql"
)

// TestCtrlCStopsAScript sends a real SIGINT while the first statement of
// a script waits on a request that never ends: that statement is
// canceled, the script stops before the next, and the process (this
// test) lives on. Like TestShell it leaves Session.Interrupt unset.
func TestCtrlCStopsAScript(t *testing.T) {
	ctx := context.Background()
	var slow atomic.Bool
	slow.Store(true)
	started := make(chan string, 1)
	db, err := dynosql.OpenDemo(ctx, stall(&slow, started))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var out, errOut syncBuffer
	s := NewSession(db, &out, &errOut)
	done := make(chan error, 1)
	go func() {
		done <- s.RunScript(ctx, "two.sql", strings.NewReader(
			"SELECT name FROM students WHERE id = 'c12';\nSELECT name FROM students WHERE id = 'a91';\n"))
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the first statement sent no request")
	}
	slow.Store(false)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("RunScript returned no error after Ctrl-C")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not stop the script")
	}
	if got := errOut.String(); !strings.Contains(got, "two.sql:1: ERROR: canceled") {
		t.Errorf("stderr does not say the first statement was canceled:\n%s", got)
	}
	if strings.Contains(out.String(), "Ann Lee") {
		t.Errorf("the statement after the canceled one ran:\n%s", out.String())
	}
	if s.Failed != 1 {
		t.Errorf("Failed = %d, want 1", s.Failed)
	}
}
