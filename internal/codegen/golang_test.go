package codegen_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/codegen"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// TestGoProgramsCompile builds the program EXPLAIN (FORMAT go) writes
// for every statement of the CLI test: every operation, expression and
// value kind.
func TestGoProgramsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs")
	}
	db := demo(t)
	srcs := map[string]string{}
	for i, sql := range statements {
		plan, err := db.Explain(sql)
		if err != nil {
			t.Fatal(err)
		}
		src, err := codegen.Go(plan)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		srcs[fmt.Sprintf("stmt%02d", i)] = src
	}
	buildPrograms(t, srcs, false)
}

// TestGoProgramsReturnDynosqlsRows runs, against DynamoDB Local, the
// programs EXPLAIN (FORMAT go) writes for a GetItem, a Query with a
// filter and an UPDATE, and compares what they print with what dynosql
// returns for the same statements.
func TestGoProgramsReturnDynosqlsRows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs")
	}
	endpoint := ddblocal.Endpoint(t)
	fx := testkit.Load(t, testkit.Backends()[0], "school")
	programsAgree(t, endpoint, fx, []programCase{
		{"getitem", "SELECT name, email, year FROM students WHERE id = 'a91'", ""},
		{"query", "SELECT grade, enrolledOn FROM enrollments WHERE student_id = 'a91' AND grade IN ('A', 'B', 'D')", ""},
		// attribute_type in the filter; a LIMIT the program must stop at,
		// Limit being only DynamoDB's page size.
		{"isnull", "SELECT grade, enrolledOn FROM enrollments WHERE student_id = 'a91' AND enrolledOn IS NOT NULL", ""},
		{"limit", "SELECT grade, enrolledOn FROM enrollments WHERE student_id = 'a91' ORDER BY course_id DESC LIMIT 2",
			"SELECT grade, enrolledOn FROM enrollments WHERE student_id = 'a91' ORDER BY course_id DESC LIMIT 2"},
		{"update", "UPDATE enrollments SET grade = 'A' WHERE student_id = 'a91' AND course_id = 'math204'",
			"SELECT student_id, course_id, grade, enrolledOn FROM enrollments WHERE student_id = 'a91' AND course_id = 'math204'"},
	})
}

// Attribute names are any string, but the expression builder reads
// x[0] as element 0 of list x and refuses other brackets: the programs
// EXPLAIN (FORMAT go) writes name such attributes (keys, projections,
// filters, SET and its guards) as themselves, as dynosql does.
func TestGoProgramsNameAttributesWithBracketsAsThemselves(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs")
	}
	endpoint := ddblocal.Endpoint(t)
	const design = `
table: Brackets
partition_key: "P[k]"
sort_key: "S]"
entities:
  posts:
    keys: {"P[k]": "U#{author}", "S]": "POST#{pid}"}
    columns: {pid: S, author: S, "t[1]": S, "n%5B": S, x: L}
`
	const rows = `{"entity":"posts","row":{"pid":"p1","author":"u1","t[1]":"T1","n%5B":"a","x":["x0","x1"]}}
{"entity":"posts","row":{"pid":"p2","author":"u1","t[1]":"T2","n%5B":"b"}}
{"entity":"posts","row":{"pid":"p3","author":"u1","t[1]":"T3","n%5B":"c"}}
`
	fx := testkit.LoadText(t, testkit.Backends()[0], design, rows)
	programsAgree(t, endpoint, fx, []programCase{
		{"getitem", "SELECT `t[1]`, `n%5B` FROM posts WHERE author = 'u1' AND pid = 'p1'", ""},
		{"query", "SELECT `t[1]`, `n%5B` FROM posts WHERE author = 'u1' AND pid >= 'p1' AND `t[1]` IN ('T1', 'T3') AND `n%5B` <> 'x'", ""},
		{"update", "UPDATE posts SET `t[1]` = 'new', `n%5B` = NULL WHERE author = 'u1' AND pid = 'p1' AND `t[1]` = 'T1'",
			"SELECT `t[1]`, x FROM posts WHERE author = 'u1' AND pid = 'p1' AND `n%5B` IS NULL"},
	})
}

// programCase is a statement whose program's output must equal the
// rows of check ("" for the statement itself).
type programCase struct {
	name, sql string
	check     string
}

// programsAgree builds the program EXPLAIN (FORMAT go) writes for each
// case, runs it against DynamoDB Local at endpoint, and compares what it
// prints with the rows dynosql returns for the case's check.
func programsAgree(t *testing.T, endpoint string, fx *testkit.Fixture, cases []programCase) {
	t.Helper()
	ctx := context.Background()
	srcs := map[string]string{}
	for _, c := range cases {
		src, err := fx.DB.ExplainAs("EXPLAIN (FORMAT go) "+c.sql, "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(src, "expression.NewBuilder()") {
			t.Fatalf("%s: no expression builder in\n%s", c.name, src)
		}
		srcs[c.name] = src
	}
	bins := buildPrograms(t, srcs, true)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bins[c.name])
			cmd.Env = awsEnv(endpoint)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, stderrOf(err))
			}
			check := c.check
			if check == "" {
				check = c.sql
			}
			rows, err := fx.DB.Query(ctx, check)
			if err != nil {
				t.Fatal(err)
			}
			cols := rows.Columns()
			var want []string
			for rows.Next() {
				want = append(want, rowText(cols, rows.RawValues()))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			got := itemsText(t, cols, out)
			slices.Sort(got)
			slices.Sort(want)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("the program printed\n%s\nas rows %q; dynosql returns %q", out, got, want)
			}
		})
	}
}

// rowText writes a row as col=value pairs.
func rowText(cols []string, vals []value.Value) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c + "=" + value.Literal(vals[i])
	}
	return strings.Join(parts, " ")
}

// itemsText reads the JSON lines a program printed and writes each as
// a row of cols, taken from the item's attributes of those names.
func itemsText(t *testing.T, cols []string, out []byte) []string {
	var rows []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		var item map[string]any
		if err := dec.Decode(&item); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		vals := make([]value.Value, len(cols))
		for i, c := range cols {
			v, err := value.FromGo(item[c])
			if err != nil {
				t.Fatal(err)
			}
			vals[i] = v
		}
		rows = append(rows, rowText(cols, vals))
	}
	return rows
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}

// buildPrograms compiles each program (a name and its main.go) in a
// module of its own that requires what this one does, offline, and,
// with link, returns the path of each binary.
func buildPrograms(t *testing.T, srcs map[string]string, link bool) map[string]string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, rest, _ := strings.Cut(string(gomod), "\n")
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module generated\n"+rest))
	write("go.sum", gosum)
	for name, src := range srcs {
		write(filepath.Join(name, "main.go"), []byte(src))
	}
	bin := filepath.Join(dir, "bin")
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the programs written: %v", err)
	}
	args := []string{"build", "./..."} // several packages: compiled, not linked
	if link {
		args = []string{"build", "-o", bin + string(filepath.Separator), "./..."}
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		var listing strings.Builder
		for name, src := range srcs {
			fmt.Fprintf(&listing, "== %s\n%s\n", name, src)
		}
		t.Fatalf("go build: %v\n%s\n%s", err, out, listing.String())
	}
	bins := map[string]string{}
	for name := range srcs {
		bins[name] = filepath.Join(bin, name)
	}
	return bins
}
