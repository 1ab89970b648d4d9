//go:build unix

package repl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
)

// TestThePagerTakesATallTable runs a table of 23 lines on a "terminal"
// of 10 through three pagers: one that marks what it shows, one that
// quits without reading (not a failure of the statement), and one that
// cannot start (the table is shown without it, and the error says why).
func TestThePagerTakesATallTable(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	const sql = "SELECT student_id FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id LIMIT 20"
	table := func() string {
		var out, errOut strings.Builder
		s := NewSession(db, &out, &errOut)
		if err := s.Run(ctx, sql); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}()
	if n := strings.Count(table, "\n"); n != 23 {
		t.Fatalf("the table has %d lines, want 23:\n%s", n, table)
	}
	marking := filepath.Join(t.TempDir(), "pager")
	if err := os.WriteFile(marking, []byte("#!/bin/sh\necho PAGED\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, pager, out, err string
		failed                int
	}{
		{"a pager shows it", marking, "PAGED\n" + table, "", 0},
		{"a pager quit at once", "true", "", "", 0},
		{"a pager that cannot start", "/nonexistent/pager", table, `ERROR: invalid: cannot run the pager "/nonexistent/pager"`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			s := NewSession(db, &out, &errOut)
			s.PagerCommand, s.Height = tt.pager, func() int { return 10 }
			_ = s.Run(ctx, sql)
			if out.String() != tt.out {
				t.Errorf("the terminal showed:\n%s\nwant:\n%s", out.String(), tt.out)
			}
			if !strings.Contains(errOut.String(), tt.err) || (tt.err == "") != (errOut.String() == "") {
				t.Errorf("stderr: %q, want %q", errOut.String(), tt.err)
			}
			if s.Failed != tt.failed {
				t.Errorf("Failed = %d, want %d", s.Failed, tt.failed)
			}
		})
	}
}
