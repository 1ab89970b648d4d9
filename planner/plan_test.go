package planner_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/testtext"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// TestPlan runs the golden files in testdata/plan: select_*.txt for
// reads, write_*.txt for INSERT, UPDATE, DELETE and CHECK/REPAIR COPIES.
// Commands: plan [mapping=school|blog] [projection=KEYS_ONLY|INCLUDE]
// [consistent] [allow_scan] [args=a,b]: the statement's plan tree (every request with
// its key, filter, condition and update), or the error with its caret and
// hint; columns (same arguments): the output column names; exec (same
// arguments): runs the statement on the embedded backend over the
// dataset and prints each request the SDK really sent, in order of
// operation and text (requests sent in parallel come in any order). With
// the argument expand, [[N:text]] groups of the statement are expanded
// (internal/testtext), for IN lists of thousands of keys. Regenerate
// with go test ./planner -rewrite and review the diff by hand.
func TestPlan(t *testing.T) {
	datadriven.Walk(t, "../testdata/plan", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "plan":
				return planText(t, d)
			case "columns":
				return columnsText(t, d)
			case "exec":
				return execText(t, d)
			}
			t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
			return ""
		})
	})
}

// input returns the statement of a test case, expanded when it asks.
func input(d *datadriven.TestData) string {
	if d.HasArg("expand") {
		return testtext.Expand(d.Input)
	}
	return d.Input
}

func planText(t testing.TB, d *datadriven.TestData) string {
	p, args := plannerFor(t, d)
	sql := input(d)
	stmt, err := parser.Parse(sql)
	if err == nil {
		var plan *planner.Plan
		if plan, err = p.Plan(sql, stmt, args); err == nil {
			return plan.String()
		}
	}
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %T is not an *errs.Error: %v", d.Pos, err, err)
	}
	return "error: " + e.Error() + "\n" + e.Detail()
}

// columnsText prints the output column names of a SELECT, one a line.
func columnsText(t testing.TB, d *datadriven.TestData) string {
	p, args := plannerFor(t, d)
	sql := input(d)
	stmt, err := parser.Parse(sql)
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	plan, err := p.Plan(sql, stmt, args)
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	return strings.Join(plan.ColumnNames(), "\n") + "\n"
}

// plannerFor builds the planner a test case asks for.
func plannerFor(t testing.TB, d *datadriven.TestData) (*planner.Planner, []value.Value) {
	name, projection, consistent, allowScan := "school", "", false, false
	var args []value.Value
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "mapping":
			name = a.Vals[0]
		case "projection":
			projection = a.Vals[0]
		case "consistent":
			consistent = true
		case "allow_scan":
			allowScan = true
		case "expand":
		case "args":
			for _, v := range a.Vals {
				if n, ok := value.ParseNumber(v); ok {
					args = append(args, n)
				} else {
					args = append(args, v)
				}
			}
		default:
			t.Fatalf("%s: unknown argument %s", d.Pos, a.Key)
		}
	}
	m := loadMapping(t, name)
	if projection != "" {
		m.Indexes["GSI1"].Projection = projection
		if projection == "INCLUDE" {
			m.Indexes["GSI1"].Include = []string{"grade"}
		}
	}
	return planner.New(m, planner.Options{Consistent: consistent, AllowScan: allowScan}), args
}

func loadMapping(t testing.TB, name string) *mapping.Mapping {
	m, err := mapping.Load(filepath.Join("..", "testdata", name, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// BenchmarkPlanner plans every statement of the golden files.
func BenchmarkPlanner(b *testing.B) {
	files, _ := filepath.Glob("../testdata/plan/select_*.txt")
	type stmt struct {
		sql string
		p   *planner.Planner
	}
	var stmts []stmt
	m := loadMapping(b, "school")
	p := planner.New(m, planner.Options{})
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, block := range strings.Split(string(data), "\nplan") {
			sql, _, ok := strings.Cut(block, "\n----")
			if !ok {
				continue
			}
			_, sql, _ = strings.Cut(sql, "\n")
			if !strings.Contains(block, "mapping=") {
				stmts = append(stmts, stmt{sql: sql, p: p})
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		for _, s := range stmts {
			st, err := parser.Parse(s.sql)
			if err == nil {
				_, _ = s.p.Plan(s.sql, st, nil)
			}
		}
	}
}

// execText runs a statement on a fresh embedded fixture and prints what
// was sent.
func execText(t *testing.T, d *datadriven.TestData) string {
	name, projection, args := caseArgs(d)
	f := newAgreeFixture(t, t.Cleanup, name, projection)
	sent := f.run(t, d.Pos, d.Input, args)
	lines := make([]string, len(sent))
	for i, r := range sent {
		lines[i] = r.String()
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// EXPLAIN sends nothing, so it cannot take BEGIN, COMMIT or ROLLBACK,
// which would run (a COMMIT would send the transaction).
func TestExplainOfTransactionControlIsRefused(t *testing.T) {
	p := planner.New(loadMapping(t, "school"), planner.Options{})
	for _, sql := range []string{"EXPLAIN BEGIN", "EXPLAIN COMMIT", "EXPLAIN ANALYZE ROLLBACK"} {
		st, err := parser.Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := p.Plan(sql, st, nil)
		if !errors.Is(err, errs.Unsupported) {
			t.Errorf("%s: got %+v, %v; want it refused as unsupported", sql, plan, err)
		}
	}
}

// Arithmetic on a column that is not a number says so, and names the
// column and its type, rather than that only arithmetic is allowed.
func TestArithmeticOnANonNumberColumnSaysWhy(t *testing.T) {
	p := planner.New(loadMapping(t, "school"), planner.Options{})
	sql := "UPDATE students SET name = name + 1 WHERE id = 'a91'"
	st, err := parser.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Plan(sql, st, nil)
	if !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), "name is of type S") {
		t.Errorf("got %v, want it refused naming name's type", err)
	}
}
