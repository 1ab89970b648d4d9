package planner_test

import (
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestPlanWrite runs the golden files testdata/plan/write_*.txt: the
// EXPLAIN tree of INSERT, UPDATE, DELETE and CHECK/REPAIR COPIES, every
// request with its key, condition and update, or the error. The command
// and its arguments are those of TestPlanSelect. Regenerate with
// go test ./planner -run TestPlanWrite -rewrite and review the diff.
func TestPlanWrite(t *testing.T) {
	files, _ := filepath.Glob("../testdata/plan/write_*.txt")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range files {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "plan" {
				t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
			}
			return planText(t, d)
		})
	}
}
