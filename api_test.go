package dynosql_test

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// embedded is the backend for tests of behaviour that does not depend on
// the DynamoDB implementation.
var embedded = testkit.Backends()[1]

func TestRefusedSelectIsAScanRefusedError(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	const q = "SELECT s.id FROM students s WHERE s.name = 'Ann Lee'"
	_, err := fx.DB.Query(context.Background(), q)
	var refused *dynosql.ScanRefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("got %v (%T), want a *dynosql.ScanRefusedError", err, err)
	}
	if refused.Entity != "students" || refused.Alias != "s" || refused.Table != fx.Mapping.Table {
		t.Errorf("refused %s %s in %s, want students s in %s", refused.Entity, refused.Alias, refused.Table, fx.Mapping.Table)
	}
	var e *dynosql.Error
	if !errors.As(err, &e) || !errors.Is(err, dynosql.ErrRefused) {
		t.Errorf("a ScanRefusedError must also be a *dynosql.Error of kind refused; got %v", err)
	}
	if _, err := fx.DB.Explain(q); !errors.As(err, &refused) {
		t.Errorf("Explain: got %v, want the same refusal", err)
	}
}

func TestErrorsCarryTheirPositionInTheStatement(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	cases := []struct {
		sql  string
		kind error
		at   string // the text the position points at
	}{
		{"SELECT name FROM studnets WHERE id = 'a91'", dynosql.ErrInvalid, "studnets"},
		{"SELECT nme FROM students WHERE id = 'a91'", dynosql.ErrInvalid, "nme"},
		{"SELECT name FROM students WHERE id = 'a91", dynosql.ErrSyntax, "'a91"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			_, err := fx.DB.Query(context.Background(), c.sql)
			var e *dynosql.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v (%T), want a *dynosql.Error", err, err)
			}
			if !errors.Is(err, c.kind) {
				t.Errorf("got kind %s, want %v", e.Kind, c.kind)
			}
			if e.Pos < 0 || !strings.HasPrefix(c.sql[e.Pos:], c.at) {
				t.Errorf("position %d, want the offset of %q; detail:\n%s", e.Pos, c.at, e.Detail())
			}
		})
	}
}

func TestASyntaxErrorHasAPosition(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	const q = "SELECT name FROM students wher id = 'a91'"
	_, err := fx.DB.Query(context.Background(), q)
	var e *dynosql.Error
	if !errors.As(err, &e) || !errors.Is(err, dynosql.ErrSyntax) {
		t.Fatalf("got %v (%T), want a *dynosql.Error of kind syntax", err, err)
	}
	if e.Pos < 0 || e.Pos > len(q) || e.SQL != q {
		t.Errorf("got position %d in %q, want a position in the statement", e.Pos, e.SQL)
	}
}

func TestBackendErrorsNameTheRequest(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			m := missingTable(t)
			db, err := dynosql.Open(context.Background(), m, fx.Client, dynosql.WithoutTableCheck())
			if err != nil {
				t.Fatal(err)
			}
			_, err = queryAll(db, "SELECT name FROM students WHERE id = 'a91'")
			var be *dynosql.BackendError
			if !errors.As(err, &be) || !errors.Is(err, dynosql.ErrBackend) {
				t.Fatalf("got %v (%T), want a *dynosql.BackendError", err, err)
			}
			if be.Op != "GetItem" || be.Code != "ResourceNotFoundException" {
				t.Errorf("got op %q code %q, want GetItem and ResourceNotFoundException", be.Op, be.Code)
			}
			var api smithy.APIError
			if !errors.As(err, &api) {
				t.Errorf("the SDK's error must stay reachable with errors.As; got %v", err)
			}
		})
	}
}

// missingTable is the school mapping of a table that does not exist.
func missingTable(t *testing.T) *mapping.Mapping {
	data, err := os.ReadFile("testdata/school/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse("school-missing.yaml", bytes.Replace(data, []byte("table: School\n"), []byte("table: School-missing\n"), 1))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOpenChecksTheTableExists(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	m := missingTable(t)
	_, err := dynosql.Open(context.Background(), m, fx.Client)
	if !errors.Is(err, dynosql.ErrBackend) || !strings.Contains(err.Error(), m.Table) {
		t.Errorf("got %v, want a backend error naming %s", err, m.Table)
	}
}

// OpenEmbedded without a mapping is an error, not a panic: the table it
// creates is the mapping's, and the embedded server cannot serve raw
// tables (it reports no key types).
func TestOpenEmbeddedWithoutAMappingIsAnError(t *testing.T) {
	db, err := dynosql.OpenEmbedded(context.Background(), nil)
	if db != nil {
		_ = db.Close()
	}
	if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "needs a mapping") {
		t.Errorf("got %v, want an invalid error saying a mapping is needed", err)
	}
}

func TestScanIntoCommonTypes(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	rows, err := fx.DB.Query(context.Background(),
		"SELECT s.id, s.name, s.year, s.year, s.year * 1.5, s.id = 'a91', s.email, s.year FROM students s WHERE s.id = ?", "a91")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	var (
		id    sql.NullString
		name  string
		year  int64
		yearI int
		f     float64
		isAnn bool
		email []byte
		raw   any
	)
	if err := rows.Scan(&id, &name, &year, &yearI, &f, &isAnn, &email, &raw); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintln(id, name, year, yearI, f, isAnn, string(email), raw)
	if want := "{a91 true} Ann Lee 2 2 3 true ann.lee@example.edu 2\n"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := rows.ColumnTypes(), []string{"S", "S", "N", "N", "N", "BOOL", "S", "N"}; !slices.Equal(got, want) {
		t.Errorf("ColumnTypes: got %q, want %q", got, want)
	}
	if rows.Next() {
		t.Error("one row expected")
	}
}

func TestScanRefusesWhatDoesNotFit(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	// sem100 has no credits.
	cases := []struct {
		name string
		sql  string
		dest any
	}{
		{"NULL into a string", "SELECT credits FROM courses WHERE id = 'sem100'", new(string)},
		{"text into an int", "SELECT title FROM courses WHERE id = 'cs101'", new(int64)},
		{"a fraction into an int", "SELECT credits / 3 FROM courses WHERE id = 'cs101'", new(int)},
		{"a number into a bool", "SELECT credits FROM courses WHERE id = 'cs101'", new(bool)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, err := fx.DB.Query(context.Background(), c.sql)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = rows.Close() }()
			if !rows.Next() {
				t.Fatalf("no row: %v", rows.Err())
			}
			if err := rows.Scan(c.dest); !errors.Is(err, dynosql.ErrInvalid) {
				t.Errorf("got %v, want an invalid-scan error", err)
			}
		})
	}
}

func TestListsScanAsJSONOrGoValues(t *testing.T) {
	fx := testkit.Load(t, embedded, "blog")
	rows, err := fx.DB.Query(context.Background(), "SELECT tags, tags FROM posts WHERE id = 'p001'")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	var js []byte
	var list any
	if err := rows.Scan(&js, &list); err != nil {
		t.Fatal(err)
	}
	if string(js) != `["dynamodb","testing"]` || fmt.Sprint(list) != "[dynamodb testing]" {
		t.Errorf("got %s and %v, want p001's tags dynamodb, testing", js, list)
	}
	if got := rows.ColumnTypes(); !slices.Equal(got, []string{"L", "L"}) {
		t.Errorf("ColumnTypes: got %q, want L, L", got)
	}
}

func TestExplainSendsNothing(t *testing.T) {
	var requests atomic.Int64
	count := dynosql.WithRequestHook(func(*dynamodb.Options) { requests.Add(1) })
	fx := testkit.Load(t, embedded, "school", count)
	const q = "SELECT c.title FROM enrollments e JOIN courses c ON c.id = e.course_id WHERE e.student_id = ?"
	plan, err := fx.DB.Explain(q, "a91")
	if err != nil {
		t.Fatal(err)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("Explain sent %d requests", n)
	}
	if !strings.Contains(plan.String(), "batch-get") {
		t.Errorf("plan without the batch-get of courses:\n%s", plan)
	}
	rows, err := queryAll(fx.DB, "EXPLAIN "+strings.Replace(q, "?", "'a91'", 1))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range rows {
		lines = append(lines, r[0].(string))
	}
	if got := strings.Join(lines, "\n") + "\n"; got != plan.String() || requests.Load() != 0 {
		t.Errorf("EXPLAIN rows differ from Explain or sent requests:\n%s", got)
	}
	rs, err := fx.DB.QueryPlan(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rs.Close() }()
	n := 0
	for rs.Next() {
		n++
	}
	// a91 takes five courses.
	if rs.Err() != nil || n != 5 || requests.Load() == 0 {
		t.Errorf("QueryPlan of the explained plan: %d rows, %v, after %d requests", n, rs.Err(), requests.Load())
	}
}

func TestQueryAndExecRefuseEachOthersStatements(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx := context.Background()
	if _, err := fx.DB.Exec(ctx, "SELECT name FROM students WHERE id = 'a91'"); !errors.Is(err, dynosql.ErrInvalid) {
		t.Errorf("Exec of a SELECT: got %v, want an invalid-use error", err)
	}
	if _, err := fx.DB.Query(ctx, "SELECT name FROM students WHERE id = ?"); !errors.Is(err, dynosql.ErrInvalid) {
		t.Errorf("a placeholder without an argument: got %v, want an invalid error", err)
	}
	if _, err := fx.DB.Query(ctx, "SELECT name FROM students WHERE id = ?", struct{}{}); !errors.Is(err, dynosql.ErrInvalid) {
		t.Errorf("an argument of no DynamoDB type: got %v, want an invalid error", err)
	}
}

// TestConcurrentUse runs the school selects from many goroutines at once
// on one DB and expects every goroutine to see what a lone caller sees.
// Under -race it also checks that the DB shares no unguarded state.
func TestConcurrentUse(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school", dynosql.WithConcurrency(4))
			want := make([]string, len(testkit.SchoolSelects))
			for i, q := range testkit.SchoolSelects {
				rows, err := queryAll(fx.DB, q.SQL, q.Args...)
				if err != nil {
					t.Fatalf("%s: %v", q.SQL, err)
				}
				want[i] = canonical(rows, q.Ordered())
			}
			const goroutines = 16
			var wg sync.WaitGroup
			errc := make(chan error, goroutines)
			for g := range goroutines {
				wg.Go(func() {
					// Each goroutine runs a quarter of the statements from
					// its own start, so that different plans run side by
					// side and every statement runs in 4 goroutines.
					n := len(testkit.SchoolSelects)
					for k := range (n + 3) / 4 {
						i := (g*n/goroutines + k) % n
						q := testkit.SchoolSelects[i]
						rows, err := queryAll(fx.DB, q.SQL, q.Args...)
						if err == nil && canonical(rows, q.Ordered()) != want[i] {
							err = errors.New("rows differ from a lone caller's")
						}
						if err != nil {
							errc <- fmt.Errorf("goroutine %d, %s: %w", g, q.SQL, err)
							return
						}
					}
				})
			}
			wg.Wait()
			close(errc)
			for err := range errc {
				t.Error(err)
			}
		})
	}
}

// queryAll runs sql and returns every row in dynosql's value model.
func queryAll(db *dynosql.DB, sql string, args ...any) ([][]value.Value, error) {
	rows, err := db.Query(context.Background(), sql, args...)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out [][]value.Value
	for rows.Next() {
		out = append(out, rows.RawValues())
	}
	return out, rows.Err()
}

// canonical renders rows as text, sorted unless their order is fixed.
func canonical(rows [][]value.Value, ordered bool) string {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = fmt.Sprintf("%#v", r)
	}
	if !ordered {
		slices.Sort(lines)
	}
	return strings.Join(lines, "\n")
}

// EXPLAIN ANALYZE through Query runs the statement, as the shell does,
// and returns its report a line a row: the requests it sent, counted.
func TestQueryOfExplainAnalyzeRunsIt(t *testing.T) {
	var requests atomic.Int64
	count := dynosql.WithRequestHook(func(*dynamodb.Options) { requests.Add(1) })
	fx := testkit.Load(t, embedded, "school", count)
	rows, err := queryAll(fx.DB, "EXPLAIN ANALYZE SELECT c.title FROM enrollments e JOIN courses c ON c.id = e.course_id WHERE e.student_id = 'a91'")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range rows {
		lines = append(lines, r[0].(string))
	}
	text := strings.Join(lines, "\n")
	if requests.Load() == 0 || !strings.Contains(text, "actual") {
		t.Errorf("sent %d requests; report:\n%s", requests.Load(), text)
	}
}

// Scan has a row only while Next returns true: after the last row, and
// after Close, it is an error, not the previous row again.
func TestScanAfterTheLastRowIsAnError(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx := context.Background()
	for _, closeFirst := range []bool{false, true} {
		rows, err := fx.DB.Query(ctx, "SELECT name FROM students WHERE id IN ('a91', 'b07')")
		if err != nil {
			t.Fatal(err)
		}
		if !rows.Next() {
			t.Fatal("no row")
		}
		if closeFirst {
			_ = rows.Close()
		} else {
			for rows.Next() {
			}
		}
		var name string
		if err := rows.Scan(&name); !errors.Is(err, dynosql.ErrInvalid) {
			t.Errorf("Scan after the rows (closed first: %v): %v, %q; want an error", closeFirst, err, name)
		}
		_ = rows.Close()
	}
}

// BEGIN, COMMIT and ROLLBACK steer the shell's session; through Query
// or Exec they are refused, pointing at DB.Begin, rather than failing
// with an internal error or "returns rows".
func TestControlStatementsPointAtBegin(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx := context.Background()
	for _, sql := range []string{"BEGIN", "COMMIT", "ROLLBACK"} {
		_, qerr := fx.DB.Query(ctx, sql)
		_, xerr := fx.DB.Exec(ctx, sql)
		_, txerr := fx.DB.Begin().Exec(ctx, sql) // not "reads inside a transaction"
		for _, err := range []error{qerr, xerr, txerr} {
			if !errors.Is(err, dynosql.ErrUnsupported) || !strings.Contains(err.Error(), "a transaction is a Tx") {
				t.Errorf("%s: %v, want a refusal pointing at DB.Begin", sql, err)
			}
		}
	}
}

// An argument left over (a ? missing from the SQL) is refused, as too
// few are; a ? inside a subquery counts.
func TestArgumentsMustMatchThePlaceholders(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx := context.Background()
	if _, err := fx.DB.Query(ctx, "SELECT title FROM courses WHERE id = ?", "math204", "extra"); !errors.Is(err, dynosql.ErrInvalid) ||
		!strings.Contains(err.Error(), "1 placeholder(s) but 2 arguments") {
		t.Errorf("an extra argument: %v", err)
	}
	rows, err := queryAll(fx.DB, "SELECT name FROM students WHERE id IN (SELECT student_id FROM enrollments WHERE course_id = ?) AND id = ?", "math204", "a91")
	if err != nil || len(rows) != 1 {
		t.Errorf("a ? in a subquery: %v, %v", rows, err)
	}
}

type credits float32

type failingValuer struct{}

var errNoValue = errors.New("no value today")

func (failingValuer) Value() (driver.Value, error) { return nil, errNoValue }

// The Go API takes what database/sql takes: a driver.Valuer (sql.Null*),
// a pointer and a named type are the value they give or hold, the same
// one their plain value is; a Valuer's error stays testable.
func TestArgumentsTakeValuersPointersAndNamedTypes(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	const sel = "SELECT ? FROM students WHERE id = 'a91'"
	f, name := float32(0.1), "Ann"
	for _, c := range []struct {
		name      string
		plain, as any
	}{
		// Its Value method gives 0.10000000149011612.
		{"sql.Null[float32]", f, sql.Null[float32]{V: f, Valid: true}},
		{"*sql.Null[[]string]", []string{"x"}, &sql.Null[[]string]{V: []string{"x"}, Valid: true}},
		{"an invalid sql.Null[string]", nil, sql.Null[string]{}},
		{"sql.NullString", name, sql.NullString{String: name, Valid: true}},
		{"an invalid sql.NullInt64", nil, sql.NullInt64{}},
		{"*float32", f, &f},
		{"a nil *string", nil, (*string)(nil)},
		{"a named float32", f, credits(0.1)},
	} {
		want, err := queryAll(fx.DB, sel, c.plain)
		if err != nil {
			t.Fatal(err)
		}
		got, err := queryAll(fx.DB, sel, c.as)
		if err != nil || canonical(got, true) != canonical(want, true) {
			t.Errorf("%s: got %v, %v; want %v as its plain value gives", c.name, got, err, want)
		}
	}
	_, err := queryAll(fx.DB, sel, failingValuer{})
	if !errors.Is(err, errNoValue) || !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "argument 1") {
		t.Errorf("a Valuer failing with %q: got %v", errNoValue, err)
	}
}

// A Commit whose context ended before it sent anything says nothing was
// written, not that the transaction may or may not have been.
func TestACommitWithAnEndedContextSaysNothingWasSent(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	tx := fx.DB.Begin()
	if _, err := tx.Exec(context.Background(), "INSERT INTO courses (id, title) VALUES ('late', 'x')"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tx.Commit(ctx)
	if !errors.Is(err, dynosql.ErrCanceled) || !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "may or may not") || !strings.Contains(err.Error(), "not sent") {
		t.Errorf("Commit with an ended context: %v", err)
	}
	// The transaction is still open, as the hint says: a Commit with a
	// live context writes it.
	if res, err := tx.Commit(context.Background()); err != nil || res.RowsAffected != 1 {
		t.Errorf("the Commit the hint suggests: %v, %v", res, err)
	}
	if rows, err := queryAll(fx.DB, "SELECT title FROM courses WHERE id = 'late'"); err != nil || len(rows) != 1 {
		t.Errorf("the course the transaction inserted: %v, %v", rows, err)
	}
}

// Binary values are copied on the way in and out: a plan the cache keeps
// for a statement must not hold the caller's buffer (a later call with
// equal bytes would read what the buffer holds by then), and a []byte a
// row hands out must not be the cached plan's own.
func TestBinariesAreTheCallersOwn(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx := context.Background()
	const sel = "SELECT ? FROM students WHERE id = 'a91'"
	first := func(args ...any) value.Value {
		t.Helper()
		rows, err := queryAll(fx.DB, sel, args...)
		if err != nil || len(rows) != 1 {
			t.Fatalf("%s %v: %v, %v", sel, args, rows, err)
		}
		return rows[0][0]
	}
	buf := value.Binary("aa")
	first(buf)
	buf[0] = 'z' // the caller reuses its buffer
	if got := first(value.Binary("aa")); string(got.(value.Binary)) != "aa" {
		t.Errorf("value.Binary argument: got %q, want \"aa\"", got)
	}

	rows, err := fx.DB.Query(ctx, sel, []byte("bb"))
	if err != nil || !rows.Next() {
		t.Fatal(err)
	}
	var out any
	if err := rows.Scan(&out); err != nil {
		t.Fatal(err)
	}
	out.([]byte)[0] = 'z'
	_ = rows.Close()
	if got := first([]byte("bb")); string(got.(value.Binary)) != "bb" {
		t.Errorf("[]byte argument after a caller changed the []byte its Scan gave: got %q, want \"bb\"", got)
	}

	// A binary scans into a *string as its bytes, as database/sql gives.
	rows, err = fx.DB.Query(ctx, sel, []byte{0xff, 0, 'a'})
	if err != nil || !rows.Next() {
		t.Fatal(err)
	}
	var text string
	if err := rows.Scan(&text); err != nil || text != "\xff\x00a" {
		t.Errorf("Scan(*string) of X'ff0061': %q, %v; want its bytes", text, err)
	}
	_ = rows.Close()

	// Written: an UPDATE stores the bytes of its own call.
	blobs := testkit.LoadText(t, embedded, `
table: Blobs
partition_key: PK
sort_key: SK
entities:
  things:
    keys: {PK: "T#{g}", SK: "{k}"}
    columns: {g: S, k: S, b: B}
`, `{"entity":"things","row":{"g":"g","k":"k"}}`+"\n")
	const upd = "UPDATE things SET b = ? WHERE g = 'g' AND k = 'k'"
	blob := value.Binary{1, 2, 3}
	if _, err := blobs.DB.Exec(ctx, upd, blob); err != nil {
		t.Fatal(err)
	}
	copy(blob, []byte{9, 9, 9})
	if _, err := blobs.DB.Exec(ctx, upd, value.Binary{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if rows, err := queryAll(blobs.DB, "SELECT b FROM things WHERE g = 'g' AND k = 'k'"); err != nil || len(rows) != 1 || string(rows[0][0].(value.Binary)) != "\x01\x02\x03" {
		t.Errorf("stored %v (%v), want the bytes [1 2 3] this UPDATE was given", rows, err)
	}
}

// A UNION's own LIMIT and OFFSET take placeholders too.
func TestAUnionsLimitTakesAnArgument(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	rows, err := queryAll(fx.DB, "SELECT id FROM students WHERE id = 'a91' UNION SELECT id FROM courses WHERE id = 'cs101' ORDER BY 1 LIMIT ? OFFSET ?", 1, 1)
	if err != nil || len(rows) != 1 || rows[0][0] != "cs101" {
		t.Errorf("got %v, %v; want cs101", rows, err)
	}
}

// A LIMIT or OFFSET ? without its argument says that the argument is
// missing, as a ? anywhere else does, not that the count is NULL.
func TestAMissingLimitArgumentIsNamed(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx := context.Background()
	for _, c := range []struct {
		sql  string
		args []any
		want string
	}{
		{"SELECT name FROM students WHERE id = 'a91' LIMIT ?", nil, "placeholder ?1 but only 0 argument(s)"},
		{"SELECT name FROM students WHERE id = ? LIMIT ?", []any{"a91"}, "placeholder ?2 but only 1 argument(s)"},
		{"SELECT name FROM students WHERE id = ? LIMIT 1 OFFSET ?", []any{"a91"}, "placeholder ?2 but only 1 argument(s)"},
		{"SELECT name FROM students WHERE id = 'a91' UNION SELECT title FROM courses WHERE id = 'cs101' LIMIT ?", nil, "placeholder ?1 but only 0 argument(s)"},
	} {
		_, err := fx.DB.Query(ctx, c.sql, c.args...)
		if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %d argument(s): got %v, want an error saying %q", c.sql, len(c.args), err, c.want)
		}
	}
}
