package check_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/check"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/parser"
)

var update = flag.Bool("update", false, "rewrite testdata/check/*.json")

// ownDesigns are school and blog, whose statements testdata/check holds
// (DESIGN.sql served, DESIGN_refused.sql refused); the published designs
// are checked on their patterns.sql, whose "-- expect: refused" marks
// tell which statements must be refused.
var ownDesigns = []string{"school", "blog"}

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
	for _, d := range ownDesigns {
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
	for _, d := range ownDesigns {
		file := d + "_refused.sql"
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

// Each published design's patterns.sql is checked whole: a statement
// marked "-- expect: refused" gets one refusal line (with its hint)
// within its own lines, every other statement is reported served at its
// first line, and the exit status says whether any was refused.
func TestPublishedPatternsAreServedOrRefusedAsMarked(t *testing.T) {
	for _, d := range testkit.Designs {
		t.Run(d, func(t *testing.T) {
			t.Chdir(testkit.Testdata(d))
			patterns := testkit.ReadPatterns(t, d)
			code, out, errOut := run(t, "--mapping", "mapping.yaml", "patterns.sql")
			if errOut != "" {
				t.Fatal(errOut)
			}
			lines := map[int]string{} // report lines by the line they name
			for _, l := range strings.Split(out, "\n") {
				rest, ok := strings.CutPrefix(l, "patterns.sql:")
				if !ok {
					continue
				}
				n, err := strconv.Atoi(rest[:strings.IndexByte(rest, ':')])
				if err != nil {
					t.Fatalf("report line without a line number: %q", l)
				}
				lines[n] = l
			}
			wantCode, found := check.ExitOK, 0
			for i, p := range patterns {
				end := p.Line + strings.Count(p.SQL, "\n")
				if i+1 < len(patterns) {
					end = patterns[i+1].Line - 1
				}
				var l string
				for n := p.Line; n <= end && l == ""; n++ {
					l = lines[n]
				}
				refused := strings.Contains(l, ": refused: ")
				switch {
				case l == "":
					t.Errorf("patterns.sql:%d: no report line for %s", p.Line, p.SQL)
				case p.Expect == "refused" && (!refused || !strings.Contains(l, "(hint: ")):
					t.Errorf("patterns.sql:%d is marked refused; check says %q", p.Line, l)
				case p.Expect != "refused" && (refused || !strings.HasPrefix(l, fmt.Sprintf("patterns.sql:%d: ", p.Line))):
					t.Errorf("patterns.sql:%d must be served; check says %q", p.Line, l)
				}
				if l != "" {
					found++
				}
				if p.Expect == "refused" {
					wantCode = check.ExitRefused
				}
			}
			if code != wantCode || found != len(lines) {
				t.Errorf("exit %d (want %d), %d report lines for %d statements:\n%s", code, wantCode, len(lines), found, out)
			}
		})
	}
}

// TestJSONGolden compares the JSON report of each design's statements
// with testdata/check/DESIGN.json (go test ./internal/check -update
// rewrites them; review the diff): school's and blog's own statements,
// served and refused, and each published design's patterns.sql.
func TestJSONGolden(t *testing.T) {
	goldens := testkit.Testdata("check")
	inputs := map[string][]string{}
	for _, d := range ownDesigns {
		inputs[d] = []string{filepath.Join("..", "check", d+".sql"), filepath.Join("..", "check", d+"_refused.sql")}
	}
	for _, d := range testkit.Designs {
		inputs[d] = []string{"patterns.sql"}
	}
	for d, files := range inputs {
		t.Run(d, func(t *testing.T) {
			t.Chdir(testkit.Testdata(d))
			_, out, errOut := run(t, append([]string{"--format", "json", "--mapping", "mapping.yaml"}, files...)...)
			if errOut != "" {
				t.Fatal(errOut)
			}
			golden := filepath.Join(goldens, d+".json")
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

// The shell prints the plan of an EXPLAIN inside a transaction and adds
// nothing to it; check, which follows BEGIN ... COMMIT as the shell runs
// them, serves it too.
func TestAnExplainInsideATransactionIsServed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tx.sql")
	sql := "BEGIN;\nEXPLAIN SELECT name FROM students WHERE id = 'a91';\nINSERT INTO students (id, name) VALUES ('z1', 'A');\nCOMMIT;\n"
	if err := os.WriteFile(file, []byte(sql), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "--mapping", testkit.Testdata("school", "mapping.yaml"), file)
	if code != check.ExitOK {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// A file that cannot be cut into statements (an unclosed quote) still
// gets its statements before the fault checked, and the broken one is a
// statement that does not plan, with its line: exit 1, not a usage error
// that reports nothing.
func TestAnUnclosedQuoteIsOneFailedStatement(t *testing.T) {
	file := filepath.Join(t.TempDir(), "u.sql")
	sql := "SELECT name FROM students WHERE id = 'a91';\nSELECT name FROM students WHERE id = 'k42\n"
	if err := os.WriteFile(file, []byte(sql), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "--mapping", testkit.Testdata("school", "mapping.yaml"), file)
	if code != check.ExitRefused || !strings.Contains(out, "u.sql:1: 1 GetItem") || !strings.Contains(out, "u.sql:2:38: syntax: unclosed quote") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// SHOW TABLES sends ListTables, a page a hundred names: check says so
// rather than that it sends nothing.
func TestShowTablesCountsItsListTables(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.sql")
	if err := os.WriteFile(file, []byte("SHOW TABLES;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "--mapping", testkit.Testdata("school", "mapping.yaml"), file)
	if code != check.ExitOK || !strings.Contains(out, "s.sql:1: n ListTables; no reads") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
