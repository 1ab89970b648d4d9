package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// randomConfig reads the seed and the number of statements of
// TestRandomSelectsAgreeWithSQLite: fixed by default so that a failure
// reproduces, changed with DYNOSQL_RANDOM_SEED and DYNOSQL_RANDOM_N for
// longer runs.
func randomConfig(t *testing.T) (seed int64, n int) {
	seed, n = 31, 800
	if s := os.Getenv("DYNOSQL_RANDOM_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("DYNOSQL_RANDOM_SEED: %v", err)
		}
		seed = v
	}
	if s := os.Getenv("DYNOSQL_RANDOM_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("DYNOSQL_RANDOM_N: %v", err)
		}
		n = v
	}
	return seed, n
}

// Random key-bound SELECTs over the school dataset must return what SQLite
// returns for the same SQL over the same rows, on every backend, and those
// that need a Scan (an OR with a branch no key serves) must be refused. A
// failure names the statement, its position in the sequence and the seed,
// and shows the plan.
func TestRandomSelectsAgreeWithSQLite(t *testing.T) {
	seed, n := randomConfig(t)
	stmts := testkit.RandomSelects(seed, n)
	const maxFailures = 25
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadRandom(t, b)
			ctx := context.Background()
			failures, nonempty, rows, refused := 0, 0, 0, 0
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
				args = append([]any{i, seed, q.SQL}, args...)
				t.Errorf("statement %d of seed %d:\n  %s\n"+format+"\nplan:\n%s", append(args, explain)...)
			}
			for i, q := range stmts {
				if q.Refused {
					refused++
					if _, err := fx.Query(ctx, q.SQL, q.Args...); !errors.Is(err, dynosql.ErrRefused) {
						fail(i, q, "dynosql: %v, want a refusal (a branch of the OR has no key)", err)
					}
					continue
				}
				want, err := fx.Oracle.Query(q.OracleSQL(), q.OracleArgs()...)
				if err != nil {
					fail(i, q, "sqlite: %v (a generator bug)", err)
					continue
				}
				got, err := fx.Query(ctx, q.SQL, q.Args...)
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
			t.Logf("%d statements, %d with rows, %d rows in all, %d refused (seed %d)", len(stmts), nonempty, rows, refused, seed)
			if failures > 0 {
				t.Errorf("%d of %d statements disagree (seed %d; first %d shown)", failures, len(stmts), seed, min(failures, maxFailures))
			}
		})
	}
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
