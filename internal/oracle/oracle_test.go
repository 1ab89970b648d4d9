package oracle_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

func open(t *testing.T, name string) *oracle.DB {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", name)
	m, err := mapping.Load(filepath.Join(dir, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	rows, err := backend.ReadDataset(f, m)
	if err != nil {
		t.Fatal(err)
	}
	db, err := oracle.Open(m, rows)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

type V = []value.Value

func TestQueryReturnsValuesInDynosqlsModel(t *testing.T) {
	db := open(t, "school")
	cases := []struct {
		name, sql string
		args      []any
		want      [][]value.Value
	}{
		{"a student row keeps strings, numbers and NULL apart",
			"SELECT id, name, year, NULL FROM students WHERE id = ?", []any{"a91"},
			[][]value.Value{{"a91", "Ann Lee", value.Number("2"), nil}}},
		{"an integral float is written without a fraction",
			"SELECT 3.0, 0.1 + 0.2, 7 / 2.0", nil,
			[][]value.Value{{value.Number("3"), value.Number("0.30000000000000004"), value.Number("3.5")}}},
		{"LIKE is case-sensitive, as begins_with is",
			"SELECT count(*) FROM students WHERE name LIKE 'ann%'", nil,
			[][]value.Value{{value.Number("0")}}},
		{"a number argument compares as a number",
			"SELECT count(*) > 0 FROM students WHERE year = ?", []any{value.Number("2")},
			[][]value.Value{{value.Number("1")}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.Query(tc.sql, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if d := oracle.SameRows(got, tc.want, true); d != "" {
				t.Error(d)
			}
		})
	}
}

func TestTheThreeSchoolTablesJoin(t *testing.T) {
	db := open(t, "school")
	got, err := db.Query(`SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id
		JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91' AND c.id = 'math204'`)
	if err != nil {
		t.Fatal(err)
	}
	if d := oracle.SameRows(got, [][]value.Value{{"Ann Lee", "Linear Algebra"}}, false); d != "" {
		t.Error(d)
	}
}

func TestListColumnsComeBackAsLists(t *testing.T) {
	db := open(t, "blog")
	got, err := db.Query("SELECT tags FROM posts WHERE tags IS NOT NULL LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := got[0][0].([]value.Value); !ok || len(l) == 0 {
		t.Errorf("tags = %#v, want a non-empty list", got[0][0])
	}
}

func TestExecChangesRows(t *testing.T) {
	db := open(t, "blog")
	n, err := db.Exec(`UPDATE posts SET authorName = ? WHERE authorId = ?`, "M. Vance", "12")
	if err != nil {
		t.Fatal(err)
	}
	if n != 120 {
		t.Errorf("updated %d posts of user 12, want 120", n)
	}
}

func TestSameRows(t *testing.T) {
	n := func(s string) value.Value { return value.Number(s) }
	cases := []struct {
		name      string
		got, want [][]value.Value
		ordered   bool
		diff      string // "" when the results are the same; else a part of the diff
	}{
		{"rows in another order are the same multiset", [][]value.Value{{"a"}, {"b"}}, [][]value.Value{{"b"}, {"a"}}, false, ""},
		{"rows in another order are a different list", [][]value.Value{{"a"}, {"b"}}, [][]value.Value{{"b"}, {"a"}}, true, `row 1:`},
		{"a duplicate row counts", [][]value.Value{{"a"}, {"a"}}, [][]value.Value{{"a"}}, false, `unexpected, got but not wanted (1):`},
		{"NULL equals NULL", [][]value.Value{{nil}}, [][]value.Value{{nil}}, false, ""},
		{"an AVG agrees to 9 digits", [][]value.Value{{n("2.6666666667")}}, [][]value.Value{{n("2.666666666666667")}}, false, ""},
		{"numbers that round apart at 6 digits but agree to 9 are the same", [][]value.Value{{"x", n("1.000005")}, {"y", n("1")}}, [][]value.Value{{"y", n("1")}, {"x", n("1.0000049999")}}, false, ""},
		{"numbers that differ in the 6th digit differ", [][]value.Value{{n("2.66667")}}, [][]value.Value{{n("2.66666")}}, false, `missing, wanted but not got (1):`},
		{"a string is not a number", [][]value.Value{{"2"}}, [][]value.Value{{n("2")}}, false, `("2")`},
		{"lists compare element by element", [][]value.Value{{V{"go", n("1")}}}, [][]value.Value{{V{"go", n("1.0")}}}, false, ""},
		{"a missing row is shown", nil, [][]value.Value{{"a91", nil}}, true, `want: ("a91", NULL)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := oracle.SameRows(tc.got, tc.want, tc.ordered)
			switch {
			case tc.diff == "" && d != "":
				t.Errorf("diff = %s, want none", d)
			case tc.diff != "" && !strings.Contains(d, tc.diff):
				t.Errorf("diff = %q, want it to contain %q", d, tc.diff)
			}
		})
	}
}
