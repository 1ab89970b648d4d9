package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// Random write sequences (testkit.RandomWrites) over the sample rows of
// each dataset of testkit.RandomDatasets must leave, on every backend,
// what SQLite's run of the same statements leaves. Each step must change
// as many rows on both, or fail on both (a step only one of them refuses
// is a failure); the rows it touched must then read back alike through
// every path that holds them and through the copies of their columns
// (after a step both refused too, when they must be as they were);
// at the end every entity must be the same, read whole with a Scan. A
// sequence stops at its first disagreement, which would make every later
// step differ: the failure names the seed, the step, its statements and
// the command that replays it. The seeds are randomConfig's;
// DYNOSQL_RANDOM_WRITES_N changes the number of steps per seed and
// dataset (default 40, which keeps the test within 45 s of the suite's
// run on two cores under the race detector).
func TestRandomWritesAgreeWithSQLite(t *testing.T) {
	seeds, n := randomConfig(t, "DYNOSQL_RANDOM_WRITES_N", 40)
	for _, ds := range testkit.RandomDatasets {
		schema, err := ds.Schema()
		if err != nil {
			t.Fatal(err)
		}
		steps := map[int64][]testkit.RandomWrite{}
		for _, s := range seeds {
			steps[s.seed] = testkit.RandomWrites(schema, s.seed, n)
		}
		for _, b := range testkit.Backends() {
			t.Run(ds.Name+"/"+b.Name, func(t *testing.T) {
				t.Parallel()
				for _, s := range seeds {
					t.Run(s.name, func(t *testing.T) {
						run := &writeRun{t: t, fx: ds.LoadSample(t, b, schema), schema: schema}
						run.check(s, steps[s.seed], ds.Name+"/"+b.Name)
					})
				}
			})
		}
	}
}

// writeRun runs one seed's steps on dynosql and SQLite and compares them.
type writeRun struct {
	t      *testing.T
	fx     *testkit.Fixture
	schema *testkit.Schema
	// Counts for the log: rows the steps changed, steps both refused,
	// reads of touched rows compared.
	changed, refused, reads int64
}

// touched are rows of an entity a statement may change: as they were
// before it, by SQLite's rowid, and the rowid past which rows are new.
type touched struct {
	e      *testkit.Ent
	before map[int64][]value.Value
	last   int64
}

// check runs steps in order and stops at the first that disagrees, then
// compares every entity whole.
func (r *writeRun) check(s randomSeed, steps []testkit.RandomWrite, subtest string) {
	t := r.t
	for i, w := range steps {
		if diff := r.step(w); diff != "" {
			t.Errorf("step %d of seed %d disagrees with SQLite:\n  %s\n%s\nreplay: DYNOSQL_RANDOM_SEED=%d DYNOSQL_RANDOM_WRITES_N=%d go test -run 'TestRandomWritesAgreeWithSQLite/%s' .",
				i, s.seed, w, diff, s.seed, i+1, subtest)
			return
		}
	}
	scan, err := dynosql.Open(context.Background(), r.fx.Mapping, r.fx.Client, dynosql.WithScans())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = scan.Close() }()
	for _, e := range r.schema.Entities {
		q := r.schema.All(e)
		if diff := r.compare(q, func() ([][]value.Value, error) { return queryAll(scan, q.SQL) }); diff != "" {
			t.Errorf("after the %d steps of seed %d, %s differs from SQLite's (replay: DYNOSQL_RANDOM_SEED=%d go test -run 'TestRandomWritesAgreeWithSQLite/%s' .):\n%s",
				len(steps), s.seed, e.Name, s.seed, subtest, diff)
		}
	}
	t.Logf("seed %d: %d steps, %d rows changed, %d steps both refused, %d reads of touched rows", s.seed, len(steps), r.changed, r.refused, r.reads)
}

// step runs one step on both and returns how they differ, or "".
func (r *writeRun) step(w testkit.RandomWrite) string {
	var rows []touched
	for _, s := range w.Stmts {
		rows = append(rows, r.find(s))
	}
	got, dErr := r.dynosql(w)
	want, sErr := r.sqlite(w)
	switch {
	case dErr != nil && sErr != nil:
		// Both refused: the rows must still be as they were, which the
		// reads below check (a move whose put failed once left the row
		// deleted).
		r.refused++
	case dErr != nil:
		return fmt.Sprintf("dynosql: %v\nSQLite: %d rows affected", dErr, want)
	case sErr != nil:
		return fmt.Sprintf("dynosql: %d rows affected\nSQLite: %v", got, sErr)
	case got != want:
		return fmt.Sprintf("dynosql: %d rows affected, SQLite %d", got, want)
	}
	r.changed += got
	for _, tc := range rows {
		if diff := r.readBack(tc); diff != "" {
			return diff
		}
	}
	return ""
}

// dynosql runs the step through the fixture's DB; a transaction's
// statement it refuses fails the step.
func (r *writeRun) dynosql(w testkit.RandomWrite) (int64, error) {
	ctx := context.Background()
	if !w.Tx {
		res, err := r.fx.DB.Exec(ctx, w.Stmts[0].SQL, w.Stmts[0].Args...)
		return res.RowsAffected, err
	}
	tx := r.fx.DB.Begin()
	for _, s := range w.Stmts {
		if _, err := tx.Exec(ctx, s.SQL, s.Args...); err != nil {
			_ = tx.Rollback()
			return 0, err
		}
	}
	res, err := tx.Commit(ctx)
	return res.RowsAffected, err
}

// errNoRow is SQLite's side of a transaction whose statement names a row
// that is not there (or fails its WHERE), which fails dynosql's.
var errNoRow = errors.New("a statement of the transaction changes no row")

// sqlite runs the step on SQLite; a transaction is all or nothing.
func (r *writeRun) sqlite(w testkit.RandomWrite) (int64, error) {
	orc := r.fx.Oracle
	if !w.Tx {
		return orc.Exec(w.Stmts[0].OracleSQL(), w.Stmts[0].Args...)
	}
	if _, err := orc.Exec("BEGIN"); err != nil {
		r.t.Fatal(err)
	}
	var total int64
	for _, s := range w.Stmts {
		n, err := orc.Exec(s.OracleSQL(), s.Args...)
		if err == nil && n == 0 {
			err = errNoRow
		}
		if err != nil {
			if _, rbErr := orc.Exec("ROLLBACK"); rbErr != nil {
				r.t.Fatal(rbErr)
			}
			return 0, err
		}
		total += n
	}
	_, err := orc.Exec("COMMIT")
	return total, err
}

// find reads from SQLite the rows s may change, before it runs.
func (r *writeRun) find(s testkit.WriteStmt) touched {
	e := r.schema.Entity(s.Entity)
	tc := touched{e: e, before: r.rowsByID(e, s.Finds, s.FindsArgs...)}
	last, err := r.fx.Oracle.Query("SELECT COALESCE(MAX(rowid), 0) FROM `" + e.Name + "`")
	if err != nil {
		r.t.Fatal(err)
	}
	tc.last = rowid(r.t, last[0][0])
	return tc
}

// rowsByID runs SQLite's Found on e, keyed by rowid.
func (r *writeRun) rowsByID(e *testkit.Ent, cond string, args ...any) map[int64][]value.Value {
	rows, err := r.fx.Oracle.Query(e.Found(cond), args...)
	if err != nil {
		r.t.Fatalf("%s: %v", e.Found(cond), err)
	}
	out := map[int64][]value.Value{}
	for _, row := range rows {
		out[rowid(r.t, row[0])] = row[1:]
	}
	return out
}

func rowid(t *testing.T, v value.Value) int64 {
	n, err := strconv.ParseInt(string(v.(value.Number)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readBack reads the rows of tc, as they were and as they are, through
// every path and copy on both, and returns the first difference, or "".
func (r *writeRun) readBack(tc touched) string {
	ids := []string{fmt.Sprint(tc.last)}
	for id := range tc.before {
		ids = append(ids, fmt.Sprint(id))
	}
	now := r.rowsByID(tc.e, fmt.Sprintf("rowid > %d OR rowid IN (%s)", tc.last, strings.Join(ids, ", ")))
	seen := map[string]bool{}
	for _, rows := range []map[int64][]value.Value{tc.before, now} {
		for _, row := range rows {
			for _, q := range r.schema.ReadBacks(tc.e, row) {
				if key := q.SQL + fmt.Sprint(q.Args); !seen[key] {
					seen[key] = true
					r.reads++
					if diff := r.compare(q, func() ([][]value.Value, error) { return r.fx.Query(context.Background(), q.SQL, q.Args...) }); diff != "" {
						return fmt.Sprintf("read back: %s  -- args %v\n%s", q.SQL, q.Args, diff)
					}
				}
			}
		}
	}
	return ""
}

// compare runs q on SQLite and through read, and returns how the rows
// differ, or "".
func (r *writeRun) compare(q testkit.Select, read func() ([][]value.Value, error)) string {
	want, err := r.fx.Oracle.Query(q.OracleSQL(), q.Args...)
	if err != nil {
		r.t.Fatalf("sqlite: %s: %v", q.OracleSQL(), err)
	}
	got, err := read()
	if err != nil {
		return fmt.Sprintf("dynosql: %v", err)
	}
	return oracle.SameRows(got, want, false)
}
