package check_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/check"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/parser"
)

var update = flag.Bool("update", false, "rewrite testdata/check/*.json")

// designs are the datasets testdata/check has statements for.
var designs = []string{"school", "blog", "battleroyale", "complaints", "customerorders", "onlineshop", "productcatalog", "social"}

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := check.Main(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// count is the number of statements of a file.
func count(t *testing.T, file string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	stmts, err := parser.Split(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return len(stmts)
}

func TestServedStatementsExitZero(t *testing.T) {
	t.Chdir(testkit.Testdata("check"))
	for _, d := range designs {
		t.Run(d, func(t *testing.T) {
			code, out, errOut := run(t, "--mapping", filepath.Join("..", d, "mapping.yaml"), d+".sql")
			n, reported := count(t, d+".sql"), 0
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, d+".sql:") {
					reported++
				}
			}
			if code != check.ExitOK || errOut != "" || reported != n || strings.Contains(out, "refused:") {
				t.Errorf("exit %d, %d statements, %d reported, stderr %q:\n%s", code, n, reported, errOut, out)
			}
		})
	}
}

func TestRefusedStatementsExitOneWithOneLineEach(t *testing.T) {
	t.Chdir(testkit.Testdata("check"))
	for _, d := range designs {
		file := d + "_refused.sql"
		if _, err := os.Stat(file); err != nil {
			continue // a design whose every pattern is served
		}
		t.Run(d, func(t *testing.T) {
			code, out, _ := run(t, "--mapping", filepath.Join("..", d, "mapping.yaml"), file)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			n := count(t, file)
			if code != check.ExitRefused || len(lines) != n+1 {
				t.Fatalf("exit %d, want %d lines and a summary:\n%s", code, n, out)
			}
			for _, l := range lines[:n] {
				if !strings.HasPrefix(l, file+":") || !strings.Contains(l, ": refused: ") || !strings.Contains(l, "(hint: ") {
					t.Errorf("not a FILE:LINE:COL: refused: ... (hint: ...) line: %q", l)
				}
			}
		})
	}
}

// TestJSONGolden compares the JSON report of each design's statements,
// served and refused, with testdata/check/DESIGN.json (go test
// ./internal/check -update rewrites them; review the diff).
func TestJSONGolden(t *testing.T) {
	t.Chdir(testkit.Testdata("check"))
	for _, d := range designs {
		t.Run(d, func(t *testing.T) {
			args := []string{"--format", "json", "--mapping", filepath.Join("..", d, "mapping.yaml"), d + ".sql"}
			if _, err := os.Stat(d + "_refused.sql"); err == nil {
				args = append(args, d+"_refused.sql")
			}
			_, out, errOut := run(t, args...)
			if errOut != "" {
				t.Fatal(errOut)
			}
			golden := d + ".json"
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("the JSON report differs from %s (go test ./internal/check -update rewrites it):\n%s", golden, out)
			}
		})
	}
}

// TestPlaceholdersTakeTheirColumnsType plans statements whose ? meet
// columns of every kind: a placeholder typed as a string where the
// column is a number would fail to plan.
func TestPlaceholdersTakeTheirColumnsType(t *testing.T) {
	db, err := dynosql.OpenDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	for _, sql := range []string{
		"SELECT name FROM students WHERE id = ? AND year > ?",
		"SELECT s.name FROM students s WHERE s.id IN (?, ?) AND s.year BETWEEN ? AND ?",
		"SELECT c.title FROM courses c WHERE c.id = ? AND ? <= c.credits",
		"SELECT course_id FROM enrollments WHERE student_id = ? AND course_id LIKE ? LIMIT ? OFFSET ?",
		"INSERT INTO students (id, name, year) VALUES (?, ?, ?), (?, ?, ?)",
		"UPDATE students SET year = year + ?, name = ? WHERE id = ? AND year = ?",
		"DELETE FROM courses WHERE id = ? AND credits <> ?",
	} {
		if r := check.Statement(db, sql); r.Status != check.Served {
			t.Errorf("%s: %s %+v", sql, r.Status, r.Error)
		}
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"x.sql"},
		{"--mapping", testkit.Testdata("school", "mapping.yaml")},
		{"--mapping", testkit.Testdata("school", "mapping.yaml"), "--format", "yaml", "x.sql"},
		{"--mapping", testkit.Testdata("school", "mapping.yaml"), "no-such-file.sql"},
		{"--nope"},
	} {
		if code, _, errOut := run(t, args...); code != check.ExitUsage || !strings.HasPrefix(errOut, "ERROR: ") {
			t.Errorf("%q: exit %d, %q", args, code, errOut)
		}
	}
}
