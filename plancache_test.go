package dynosql_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// goldenStatements returns the statements of testdata/plan/<glob> that
// plan against the school mapping, with the arguments they give.
func goldenStatements(tb testing.TB, glob string) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "plan", glob))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no golden files %s: %v", glob, err)
	}
	var out []string
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		for _, block := range strings.Split(string(data), "\nplan")[1:] {
			head, rest, _ := strings.Cut(block, "\n")
			sql, _, ok := strings.Cut(rest, "\n----")
			// Other mappings, arguments and expanded texts need the
			// golden test's own set-up.
			if !ok || strings.TrimSpace(head) != "" {
				continue
			}
			out = append(out, sql)
		}
	}
	return out
}

// TestPlanningLeavesTheStatementAsItWas plans every golden statement from
// its parsed tree twice and checks that neither the tree nor the plan
// changed: the plan cache shares both between calls.
func TestPlanningLeavesTheStatementAsItWas(t *testing.T) {
	m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := planner.New(m, planner.Options{})
	stmts := append(goldenStatements(t, "select_*.txt"), goldenStatements(t, "write_*.txt")...)
	planned := 0
	for _, sql := range stmts {
		st, err := parser.Parse(sql)
		if err != nil {
			continue
		}
		before := parser.Dump(st)
		first, err := p.Plan(sql, st, nil)
		if err != nil {
			continue
		}
		drawn := first.String()
		second, err := p.Plan(sql, st, nil)
		if err != nil {
			t.Fatalf("%s: planned once, then failed: %v", sql, err)
		}
		if after := parser.Dump(st); after != before {
			t.Errorf("planning changed the statement %s:\nbefore:\n%s\nafter:\n%s", sql, before, after)
		}
		if second.String() != drawn || first.String() != drawn {
			t.Errorf("planning %s again changed its plan:\n%s\nthen:\n%s", sql, drawn, second.String())
		}
		planned++
	}
	if planned < 50 {
		t.Fatalf("only %d golden statements planned; the golden files moved?", planned)
	}
}

// TestARepeatedStatementIsPlannedOnceAndSharedSafely checks what the
// plan cache promises: the same text gives the same steps, a caller
// changing its Plan's fields does not change the next caller's, and
// arguments still bind per call.
func TestARepeatedStatementIsPlannedOnceAndSharedSafely(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	const sql = "SELECT name FROM students WHERE id = 'a91'"
	first, err := db.Plan(sql)
	if err != nil {
		t.Fatal(err)
	}
	first.Explain = true
	second, err := db.Plan(sql)
	if err != nil {
		t.Fatal(err)
	}
	if second.Explain {
		t.Error("a caller setting Explain on its plan changed the cached one")
	}
	if second.Root != first.Root {
		t.Error("the second plan of the same text was planned again, not taken from the cache")
	}
	explained, err := db.Explain("EXPLAIN " + sql)
	if err != nil {
		t.Fatal(err)
	}
	if explained.Explain || explained.String() != second.String() {
		t.Errorf("Explain gave another plan than Plan:\n%s\nwant:\n%s", explained, second)
	}

}

// TestArgumentsBindPerCallThroughTheCache runs one text with different
// arguments, and the first again, on both backends: each must return
// what SQLite returns with the value written in.
func TestArgumentsBindPerCallThroughTheCache(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.Load(t, b, "school")
			for _, id := range []string{"a91", "k42", "nobody", "a91"} {
				fx.AgreeWithSQLite(t, testkit.Select{
					SQL:    "SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = ?",
					Args:   []any{id},
					SQLite: "SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = '" + id + "'",
				})
			}
		})
	}
}
