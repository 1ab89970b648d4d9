package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/driver"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

// openSQL returns a sql.DB over a fresh school fixture on b, and the
// fixture.
func openSQL(t *testing.T, b testkit.Backend) (*sql.DB, *testkit.Fixture) {
	t.Helper()
	fx := testkit.Load(t, b, "school")
	db := sql.OpenDB(driver.NewConnector(fx.DB))
	t.Cleanup(func() { _ = db.Close() })
	return db, fx
}

func TestSchoolSelectsReturnTheRowsOfTheRootAPI(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			db, fx := openSQL(t, b)
			ctx := context.Background()
			for _, q := range testkit.SchoolSelects {
				t.Run(q.SQL, func(t *testing.T) {
					want := rootRows(t, fx.DB, q)
					rows, err := db.QueryContext(ctx, q.SQL, q.Args...)
					if err != nil {
						t.Fatalf("database/sql: %v", err)
					}
					got := scanAll(t, rows)
					if !q.Ordered() {
						sortRows(got)
						sortRows(want)
					}
					if diff := diffRows(got, want); diff != "" {
						t.Errorf("database/sql rows differ from the root API's:\n%s", diff)
					}
				})
			}
		})
	}
}

// rootRows runs q through dynosql's own API and returns the rows as a
// driver hands them to database/sql.
func rootRows(t *testing.T, db *dynosql.DB, q testkit.Select) [][]any {
	t.Helper()
	rows, err := db.Query(context.Background(), q.SQL, q.Args...)
	if err != nil {
		t.Fatalf("root API: %v", err)
	}
	defer func() { _ = rows.Close() }()
	var out [][]any
	for rows.Next() {
		var row []any
		for _, v := range rows.RawValues() {
			row = append(row, dynosql.DriverValue(v))
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("root API: %v", err)
	}
	return out
}

// scanAll reads every row into plain values, as database/sql gives them
// to *any destinations.
func scanAll(t *testing.T, rows *sql.Rows) [][]any {
	t.Helper()
	defer func() { _ = rows.Close() }()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("database/sql: %v", err)
	}
	return out
}

func rowText(row []any) string { return fmt.Sprintf("%#v", row) }

func sortRows(rows [][]any) {
	slices.SortFunc(rows, func(a, b []any) int { return strings.Compare(rowText(a), rowText(b)) })
}

func diffRows(got, want [][]any) string {
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = rowText(got[i])
		}
		if i < len(want) {
			w = rowText(want[i])
		}
		if g != w {
			fmt.Fprintf(&b, "row %d:\n  got  %s\n  want %s\n", i, g, w)
		}
	}
	return b.String()
}

func TestColumnTypesNameDynamoDBTypes(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	cases := []struct {
		sql  string
		want []string
	}{
		{"SELECT * FROM students WHERE id = 'a91'", []string{"S", "S", "S", "N"}},
		{"SELECT c.title, c.credits, c.credits * 2, c.id = 'cs101' FROM courses c WHERE c.id = 'cs101'", []string{"S", "N", "N", "BOOL"}},
		{"SELECT grade, COUNT(*), MIN(enrolledOn) FROM enrollments WHERE course_id = 'cs101' GROUP BY grade ORDER BY grade LIMIT 2", []string{"S", "N", "S"}},
		{"SELECT AVG(credits), 'x', NULL FROM courses WHERE id = 'cs101'", []string{"N", "S", ""}},
		{"EXPLAIN SELECT name FROM students WHERE id = 'a91'", []string{"S"}},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			rows, err := db.Query(c.sql)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = rows.Close() }()
			cts, err := rows.ColumnTypes()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ct := range cts {
				got = append(got, ct.DatabaseTypeName())
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got types %q, want %q", got, c.want)
			}
		})
	}
}

func TestPreparedStatementsCheckTheirArgumentCount(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	st, err := db.Prepare("SELECT name FROM students WHERE id IN (?, ?) LIMIT ?")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = st.Close() }()
	var names []string
	rows, err := st.Query("a91", "c12", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range scanAll(t, rows) {
		names = append(names, row[0].(string))
	}
	slices.Sort(names)
	if want := []string{"Ann", "Ann Lee"}; !slices.Equal(names, want) {
		t.Errorf("got %q, want %q", names, want)
	}
	if _, err := st.Query("a91"); err == nil || !strings.Contains(err.Error(), "expected 3 arguments, got 1") {
		t.Errorf("one argument for three placeholders: got error %v, want database/sql's count check", err)
	}
	// A ? inside a subquery is counted too.
	sub, err := db.Prepare("SELECT name FROM students WHERE id IN (SELECT student_id FROM enrollments WHERE course_id = ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Close() }()
	var name string
	if err := sub.QueryRow("sem100").Scan(&name); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("a prepared statement with its ? in a subquery: %v", err)
	}
}

func TestPrepareReportsSyntaxErrorsWithPosition(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	const q = "SELECT name FROM students wher id = 'a91'"
	_, err := db.Prepare(q)
	var e *dynosql.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want a *dynosql.Error", err, err)
	}
	if !errors.Is(err, dynosql.ErrSyntax) || e.Pos < 0 || e.Pos > len(q) {
		t.Errorf("got kind %s at position %d, want a syntax error at a position in the statement", e.Kind, e.Pos)
	}
}

// grade is a named string type: database/sql's default converter turns
// it into a string, and so must the driver.
type grade string

func TestArgumentsOfCommonGoTypes(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	id := "math204"
	accepted := []struct {
		name string
		args []any
	}{
		{"string and int", []any{"math204", 4}},
		{"int64", []any{"math204", int64(4)}},
		{"float64", []any{"math204", 4.0}},
		{"sql.NullString, a driver.Valuer", []any{sql.NullString{String: "math204", Valid: true}, uint8(4)}},
		{"a pointer to a string", []any{&id, int32(4)}},
		{"a named string type", []any{grade("math204"), 4}},
	}
	for _, c := range accepted {
		t.Run(c.name, func(t *testing.T) {
			var title string
			err := db.QueryRow("SELECT title FROM courses WHERE id = ? AND credits = ?", c.args...).Scan(&title)
			if err != nil || title != "Linear Algebra" {
				t.Errorf("got %q, %v; want Linear Algebra", title, err)
			}
		})
	}
	refused := []struct {
		name string
		arg  any
		kind error
	}{
		{"a named argument", sql.Named("id", "math204"), dynosql.ErrUnsupported},
		{"a time.Time", time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC), dynosql.ErrInvalid},
		{"a struct", struct{ X int }{1}, dynosql.ErrInvalid},
	}
	for _, c := range refused {
		t.Run("refuses "+c.name, func(t *testing.T) {
			_, err := db.Query("SELECT title FROM courses WHERE id = ?", c.arg)
			if !errors.Is(err, c.kind) {
				t.Errorf("got %v, want an error of kind %v", err, c.kind)
			}
		})
	}
}

// A sql.Tx gathers its writes and sends them at Commit, all or none; a
// read inside it is refused; Rollback sends nothing.
func TestTransactionsWriteAllOrNothing(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO courses (id, title, credits) VALUES (?, ?, ?)", "tx1", "One", 3); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Query("SELECT title FROM courses WHERE id = 'tx1'"); !errors.Is(err, dynosql.ErrUnsupported) {
		t.Errorf("a read in a transaction: got %v, want unsupported", err)
	}
	// The row is not there before Commit.
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM courses WHERE id IN ('tx1', 'tx2')").Scan(&n); err != nil || n != 0 {
		t.Fatalf("before Commit: %d rows, %v", n, err)
	}
	if _, err := tx.Exec("UPDATE courses SET credits = credits + 1 WHERE id = 'cs101' AND credits < 100"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT COUNT(*) FROM courses WHERE id IN ('tx1', 'tx2')").Scan(&n); err != nil || n != 1 {
		t.Errorf("after Commit: %d rows, %v; want tx1", n, err)
	}
	// A failed condition writes nothing.
	tx, _ = db.BeginTx(ctx, nil)
	_, _ = tx.Exec("INSERT INTO courses (id, title) VALUES ('tx2', 'Two')")
	_, _ = tx.Exec("INSERT INTO courses (id, title) VALUES ('tx1', 'Again')")
	if err := tx.Commit(); !errors.Is(err, dynosql.ErrConflict) || !strings.Contains(err.Error(), "statement 2") {
		t.Errorf("got %v, want a conflict naming statement 2", err)
	}
	if err := db.QueryRow("SELECT COUNT(*) FROM courses WHERE id IN ('tx1', 'tx2')").Scan(&n); err != nil || n != 1 {
		t.Errorf("after the failed Commit: %d rows, %v; want tx1 alone", n, err)
	}
	tx, _ = db.BeginTx(ctx, nil)
	_, _ = tx.Exec("INSERT INTO courses (id, title) VALUES ('tx2', 'Two')")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT COUNT(*) FROM courses WHERE id = 'tx2'").Scan(&n); err != nil || n != 0 {
		t.Errorf("after Rollback: %d rows, %v", n, err)
	}
}

func TestTypedErrorsPassThroughDatabaseSQL(t *testing.T) {
	db, fx := openSQL(t, testkit.Backends()[1])
	_, err := db.Query("SELECT * FROM students WHERE name = ?", "Ann")
	var refused *dynosql.ScanRefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("got %v (%T), want a *dynosql.ScanRefusedError", err, err)
	}
	if refused.Entity != "students" || refused.Table != fx.Mapping.Table {
		t.Errorf("refused %s in %s, want students in %s", refused.Entity, refused.Table, fx.Mapping.Table)
	}
	if _, err := db.Exec("SELECT name FROM students WHERE id = 'a91'"); !errors.Is(err, dynosql.ErrInvalid) {
		t.Errorf("Exec of a SELECT: got %v, want an invalid-use error", err)
	}
}

func TestExecReportsRowsAffectedAndConflicts(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	const insert = "INSERT INTO courses (id, title, credits) VALUES (?, ?, ?)"
	res, err := db.Exec(insert, "zz999", "Test Course", 1)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); n != 1 || err != nil {
		t.Errorf("RowsAffected: got %d, %v; want 1", n, err)
	}
	if _, err := res.LastInsertId(); !errors.Is(err, dynosql.ErrUnsupported) {
		t.Errorf("LastInsertId: got %v, want an unsupported error", err)
	}
	_, err = db.Exec(insert, "zz999", "Again", 2)
	var cf *dynosql.ConditionFailedError
	if !errors.As(err, &cf) || !errors.Is(err, dynosql.ErrConflict) || cf.Entity != "courses" {
		t.Errorf("inserting zz999 twice: got %v (%T), want a ConditionFailedError on courses", err, err)
	}
}

func TestConcurrentQueriesShareOneDB(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			db, _ := openSQL(t, b)
			db.SetMaxOpenConns(8)
			var wg sync.WaitGroup
			errc := make(chan error, 32)
			for i := range 32 {
				wg.Go(func() {
					var n int
					err := db.QueryRow("SELECT COUNT(*) FROM enrollments WHERE student_id = ?", "a91").Scan(&n)
					if err == nil && n != 5 {
						err = fmt.Errorf("goroutine %d: a91 has %d enrollments, want 5", i, n)
					}
					errc <- err
				})
			}
			wg.Wait()
			close(errc)
			for err := range errc {
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestOpenWithADSNForDynamoDBLocal(t *testing.T) {
	endpoint := ddblocal.Endpoint(t)
	ctx := context.Background()
	text, err := os.ReadFile(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse("school", text)
	if err != nil {
		t.Fatal(err)
	}
	// The DSN names a mapping file, so the unique table name goes into a
	// copy of the file.
	m.Table = ddblocal.UniqueTable(t, m.Table)
	text = []byte(strings.Replace(string(text), "\ntable: School\n", "\ntable: "+m.Table+"\n", 1))
	path := filepath.Join(t.TempDir(), "mapping.yaml")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	client := ddblocal.Client(t)
	if err := backend.CreateTable(ctx, client, m); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = backend.DeleteTable(context.Background(), client, m) })
	data, err := os.Open(testkit.Testdata("school", "data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = data.Close() }()
	if _, err := backend.Load(ctx, client, m, data); err != nil {
		t.Fatal(err)
	}

	dsn := url.Values{"mapping": {path}, "endpoint": {endpoint}, "region": {"us-east-1"}, "consistent": {"true"}}.Encode()
	db, err := sql.Open("dynosql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	var name string
	if err := db.QueryRow("SELECT name FROM students WHERE id = ?", "a91").Scan(&name); err != nil || name != "Ann Lee" {
		t.Errorf("got %q, %v; want Ann Lee", name, err)
	}
}

func TestOpenEmbeddedDSNs(t *testing.T) {
	t.Run("demo=1 holds the school dataset", func(t *testing.T) {
		db, err := sql.Open("dynosql", "demo=1")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = db.Close() }()
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM enrollments WHERE course_id = 'cs101'").Scan(&n); err != nil || n != 258 {
			t.Errorf("got %d, %v; want 258 enrollments in cs101", n, err)
		}
	})
	t.Run("embedded=1 creates the mapping's table empty", func(t *testing.T) {
		dsn := url.Values{"mapping": {testkit.Testdata("school", "mapping.yaml")}, "embedded": {"1"}}.Encode()
		db, err := sql.Open("dynosql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = db.Close() }()
		err = db.QueryRow("SELECT name FROM students WHERE id = 'a91'").Scan(new(string))
		if !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("got %v, want no rows", err)
		}
	})
}

func TestBadDSNsAreRefusedAtOpen(t *testing.T) {
	cases := []struct{ dsn, want string }{
		{"embedded=1", "embedded=1 needs a mapping"},
		{"mapping=m.yaml&consistnt=true", "did you mean consistent?"},
		{"mapping=m.yaml&consistent=maybe", "not true or false"},
		{"mapping=m.yaml&concurrency=0", "not a positive whole number"},
		{"mapping=m.yaml&mapping=n.yaml", "given 2 times"},
		{"demo=1&mapping=m.yaml", "give it alone"},
		{"mapping=m.yaml&embedded=1&endpoint=http://127.0.0.1:1", "two backends"},
		{"mapping=%zz", "invalid URL escape"},
	}
	for _, c := range cases {
		t.Run(c.dsn, func(t *testing.T) {
			_, err := sql.Open("dynosql", c.dsn)
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, dynosql.ErrInvalid) {
				t.Errorf("got %v, want an invalid-DSN error containing %q", err, c.want)
			}
		})
	}
}

func TestAMissingMappingFileFailsAtFirstUse(t *testing.T) {
	db, err := sql.Open("dynosql", "mapping="+url.QueryEscape(filepath.Join(t.TempDir(), "none.yaml"))+"&embedded=1")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if err := db.Ping(); err == nil || !strings.Contains(err.Error(), "none.yaml") {
		t.Errorf("Ping: got %v, want an error naming the missing file", err)
	}
}

// TestNumbersKeepEveryDigit scans numbers through database/sql: into a
// string, a sql.NullString and an any, a number that is not a whole
// int64 comes back as the digits stored (as drivers give DECIMAL), not
// as a float64's text or nearest neighbour; into a float64 as its
// nearest float64. DynamoDB Local only: the embedded backend refuses
// numbers float64 cannot hold.
func TestNumbersKeepEveryDigit(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[0])
	ctx := context.Background()
	cases := []struct {
		credits string
		asAny   any
	}{
		{"12345678901234567890", "12345678901234567890"}, // past int64
		{"9007199254740993", int64(9007199254740993)},
		{"123456789.123456789012345", "123456789.123456789012345"},
		{"0.1", "0.1"},
		{"1234567.5", "1234567.5"}, // not float64's 1.2345675e+06
		{"-2.5E+30", "-2500000000000000000000000000000"},
		{"3.000000000000000000000000000000000001", "3.000000000000000000000000000000000001"},
	}
	for i, c := range cases {
		id := fmt.Sprintf("n%d", i)
		if _, err := db.ExecContext(ctx, "INSERT INTO courses (id, title, credits) VALUES (?, 't', "+c.credits+")", id); err != nil {
			t.Fatalf("%s: %v", c.credits, err)
		}
		var asAny any
		var asString string
		var asNull sql.NullString
		var asFloat float64
		for _, dest := range []any{&asAny, &asString, &asNull, &asFloat} {
			if err := db.QueryRowContext(ctx, "SELECT credits FROM courses WHERE id = ?", id).Scan(dest); err != nil {
				t.Fatalf("%s into %T: %v", c.credits, dest, err)
			}
		}
		want, _ := value.ParseNumber(c.credits) // the text DynamoDB gives back
		if asAny != c.asAny {
			t.Errorf("%s into any: %#v, want %#v", c.credits, asAny, c.asAny)
		}
		if asString != string(want) || asNull.String != string(want) {
			t.Errorf("%s into string: %q, NullString %q; want %q", c.credits, asString, asNull.String, want)
		}
		if f, _ := strconv.ParseFloat(c.credits, 64); asFloat != f {
			t.Errorf("%s into float64: %v, want %v", c.credits, asFloat, f)
		}
	}
}

// A sql.Tx runs under its BeginTx context until Commit, as database/sql
// documents: the commit's TransactWriteItems counts into the context's
// stats like any statement's requests.
func TestATransactionCommitsUnderItsBeginContext(t *testing.T) {
	db, _ := openSQL(t, testkit.Backends()[1])
	stats := &dynosql.Stats{}
	ctx := dynosql.WithStats(context.Background(), stats)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO courses (id, title) VALUES ('tx1', 'x')"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := stats.Snapshot().Requests["TransactWriteItems"]; got != 1 {
		t.Errorf("the BeginTx context's stats count %d TransactWriteItems, want 1", got)
	}
}

// A DSN naming a mapping file that is not there failed on the region or
// the credentials first, hiding the mistake.
func TestDSNMappingIsReadBeforeTheBackend(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	db, err := sql.Open("dynosql", "mapping="+url.QueryEscape(filepath.Join(t.TempDir(), "nope.yaml")))
	if err == nil {
		err = db.Ping()
	}
	if !errors.Is(err, dynosql.ErrMapping) || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("got %v, want a mapping error naming nope.yaml", err)
	}
}
