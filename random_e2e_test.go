package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// randomSeed is one seed of the random differential tests, with what a
// failure says of it.
type randomSeed struct {
	seed int64
	name string
}

// randomConfig returns the seeds of a random differential test and its
// number of statements per seed and dataset: a fixed seed, the same every
// run, and one that changes every run (from the clock), so that each run
// tries statements no run tried before. DYNOSQL_RANDOM_SEED replaces the
// changing one, to replay a failure; the environment variable nVar
// changes the number from n, for longer runs.
func randomConfig(t *testing.T, nVar string, n int) ([]randomSeed, int) {
	const fixed = 31
	changing := time.Now().UnixNano() % 1_000_000
	name := "changes every run"
	if s := os.Getenv("DYNOSQL_RANDOM_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("DYNOSQL_RANDOM_SEED: %v", err)
		}
		changing, name = v, "from DYNOSQL_RANDOM_SEED"
	}
	if s := os.Getenv(nVar); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s: %v", nVar, err)
		}
		n = v
	}
	seeds := []randomSeed{{fixed, fmt.Sprintf("seed %d (fixed)", fixed)}}
	if changing != fixed {
		seeds = append(seeds, randomSeed{changing, fmt.Sprintf("seed %d (%s)", changing, name)})
	}
	return seeds, n
}

// Random key-bound SELECTs over each dataset of testkit.RandomDatasets
// must return what SQLite returns for the same SQL over the same rows, on
// every backend (the embedded one runs only the first of them on the
// larger designs: RandomDataset.Embedded), and those that need a Scan (an
// OR with a branch no key serves) must be refused. A failure names the
// statement, its position in the sequence and the seed, with the command
// that replays it, and shows the plan. DYNOSQL_RANDOM_N changes the
// number of statements per seed and dataset (default 250).
func TestRandomSelectsAgreeWithSQLite(t *testing.T) {
	seeds, n := randomConfig(t, "DYNOSQL_RANDOM_N", 250)
	for _, s := range seeds {
		t.Logf("%s: replay with DYNOSQL_RANDOM_SEED=%d go test -run TestRandomSelectsAgreeWithSQLite .", s.name, s.seed)
	}
	for _, ds := range testkit.RandomDatasets {
		schema, err := ds.Schema()
		if err != nil {
			t.Fatal(err)
		}
		stmts := map[int64][]testkit.RandomSelect{}
		for _, s := range seeds {
			stmts[s.seed] = testkit.RandomSelects(schema, s.seed, n)
		}
		for _, b := range testkit.Backends() {
			t.Run(ds.Name+"/"+b.Name, func(t *testing.T) {
				t.Parallel()
				fx := ds.Load(t, b)
				for _, s := range seeds {
					t.Run(s.name, func(t *testing.T) {
						checkRandom(t, fx, s, stmts[s.seed][:ds.Statements(b.Name, n)])
					})
				}
			})
		}
	}
}

// checkRandom runs the statements of one seed and reports those that
// disagree with SQLite (the first 25) and how many there were.
func checkRandom(t *testing.T, fx *testkit.Fixture, s randomSeed, stmts []testkit.RandomSelect) {
	const maxFailures = 25
	ctx := context.Background()
	failures, nonempty, rows, refused := 0, 0, 0, 0
	var slow []int
	fail := func(i int, q testkit.RandomSelect, format string, args ...any) {
		failures++
		if failures > maxFailures {
			return
		}
		var explain string
		if p, err := fx.DB.Explain(q.SQL, q.Args...); err == nil {
			explain = p.String()
		} else {
			explain = err.Error()
		}
		args = append([]any{i, s.seed, s.seed, q.SQL}, args...)
		t.Errorf("statement %d of seed %d (replay: DYNOSQL_RANDOM_SEED=%d):\n  %s\n"+format+"\nplan:\n%s", append(args, explain)...)
	}
	for i, q := range stmts {
		if q.Refused {
			refused++
			if _, err := fx.Query(ctx, q.SQL, q.Args...); !errors.Is(err, dynosql.ErrRefused) {
				fail(i, q, "dynosql: %v, want a refusal (a branch of the OR has no key)", err)
			}
			continue
		}
		want, err := oracleWithin(ctx, fx, q)
		if errors.Is(err, context.DeadlineExceeded) {
			slow = append(slow, i)
			t.Logf("statement %d took SQLite more than %v and was not compared:\n  %s", i, randomStatementBudget, q.SQL)
			continue
		}
		if err != nil {
			fail(i, q, "sqlite: %v (a generator bug)", err)
			continue
		}
		got, err := queryWithin(ctx, fx, q)
		if errors.Is(err, context.DeadlineExceeded) {
			slow = append(slow, i)
			t.Logf("statement %d took more than %v and was not compared:\n  %s", i, randomStatementBudget, q.SQL)
			continue
		}
		if err != nil {
			fail(i, q, "dynosql: %v", err)
			continue
		}
		if len(want) > 0 {
			nonempty++
			rows += len(want)
		}
		if q.Limit >= 0 {
			if diff := someOf(got, want, q.Limit, q.Offset); diff != "" {
				fail(i, q, "rows differ from SQLite's without the LIMIT:\n%s", diff)
			}
			continue
		}
		if diff := oracle.SameRows(got, want, q.Total); diff != "" {
			fail(i, q, "rows differ from SQLite:\n%s", diff)
		}
	}
	t.Logf("%d statements, %d with rows, %d rows in all, %d refused (seed %d)", len(stmts), nonempty, rows, refused, s.seed)
	if len(slow)*10 > len(stmts) {
		t.Errorf("%d of %d statements took more than %v: more than one in ten is a slowdown, not a few costly shapes", len(slow), len(stmts), randomStatementBudget)
	}
	if failures > 0 {
		t.Errorf("%d of %d statements disagree (seed %d, replay with DYNOSQL_RANDOM_SEED=%d; first %d shown)", failures, len(stmts), s.seed, s.seed, min(failures, maxFailures))
	}
}

// randomStatementBudget bounds one random statement's run, on each
// engine. A few random shapes (three self-joins of the largest partition,
// whose cross product the executor builds before a filter of the last
// table empties it, or which is the result: blog's author of 120 posts
// gives 1.7 million rows) take tens of seconds under the race detector,
// SQLite's run as well as dynosql's; they are named, not compared, so that
// the suite's time stays bounded.
const randomStatementBudget = 10 * time.Second

// oracleWithin runs q through SQLite within randomStatementBudget.
func oracleWithin(ctx context.Context, fx *testkit.Fixture, q testkit.RandomSelect) ([][]value.Value, error) {
	ctx, cancel := context.WithTimeout(ctx, randomStatementBudget)
	defer cancel()
	rows, err := fx.Oracle.QueryContext(ctx, q.OracleSQL(), q.OracleArgs()...)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err() // SQLite, interrupted, may say only that
	}
	return rows, err
}

// queryWithin runs q through dynosql within randomStatementBudget.
func queryWithin(ctx context.Context, fx *testkit.Fixture, q testkit.RandomSelect) ([][]value.Value, error) {
	ctx, cancel := context.WithTimeout(ctx, randomStatementBudget)
	defer cancel()
	return fx.Query(ctx, q.SQL, q.Args...)
}

// someOf checks the rows of a LIMIT on a statement whose order is not
// total against all the rows SQLite gives without it: as many as the LIMIT
// and OFFSET leave, each taken from all. It returns "" when they fit.
func someOf(got, all [][]value.Value, limit, offset int64) string {
	n := min(limit, max(0, int64(len(all))-offset))
	if int64(len(got)) != n {
		return fmt.Sprintf("got %d rows, want %d of SQLite's %d", len(got), n, len(all))
	}
	// got must be a sub-multiset of all: all is got plus the rest.
	rest := slices.Clone(all)
	for _, g := range got {
		found := false
		for j, w := range rest {
			if oracle.SameRows([][]value.Value{g}, [][]value.Value{w}, true) == "" {
				rest = slices.Delete(rest, j, j+1)
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("got a row SQLite does not have (or has fewer times): %v", g)
		}
	}
	return ""
}
