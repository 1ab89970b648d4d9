package testkit

import (
	"math/rand"
	"strings"
)

// The random statement generator: RandomSelects writes SELECTs over a
// dataset (randdata.go) whose schema it reads from the dataset's mapping
// and rows (randschema.go). Each statement reads every table by a key,
// so dynosql must answer it, and SQLite, given the same SQL, must return
// the same rows: they are for differential testing. Its parts:
//
//   - randfrom.go: the tables of a statement, how they join (INNER, LEFT,
//     comma, self joins) and how each is bound to a key: constants on a
//     path's partition key, a range or prefix on the leading free column of
//     its sort key (a composite template's date, a number sort key), a
//     whole key, or IN (SELECT ...) on another table; through an index
//     only some items are in, with IS NOT NULL on its sort key;
//   - randexpr.go: conditions on columns (comparisons, BETWEEN, IN, LIKE,
//     IS NULL, arithmetic, AND, OR, NOT);
//   - randselect.go: the select list, aggregates, GROUP BY, HAVING, ORDER
//     BY, LIMIT and OFFSET, and ? placeholders;
//   - randunion.go: one-table ORs whose branches a key serves each (a
//     union of key reads), those with a branch no key serves (Refused),
//     and UNION [ALL] of key reads;
//   - randlike.go: LIKE with escapes, spelled for each engine.
//
// They avoid what dynosql documents as different from SQL engines: LIKE
// patterns other than a prefix (save those with escapes), division, and
// string values holding a backslash outside LIKE (MySQL reads it as an
// escape, SQLite does not).

// RandomSelect is a generated statement. Unlike in SchoolSelects, SQLite's
// spelling (when there is one) keeps the ? placeholders of SQL: both take
// Args (see OracleArgs).
type RandomSelect struct {
	Select
	// Total reports that ORDER BY fixes the order of every output row
	// (rows that tie are equal), so results compare as lists; otherwise
	// they compare as multisets, and the statement has no LIMIT or OFFSET.
	Total bool
	// Limit, when not -1, is a LIMIT (with Offset) that SQL, but not
	// SQLite, has, on a statement whose order is not total: dynosql must
	// return as many rows as SQLite's result has after Offset, at most
	// Limit, all of them from SQLite's result.
	Limit, Offset int64
	// Refused reports a statement dynosql must refuse as needing a Scan:
	// a one-table OR with a branch no key serves. SQLite does not run it.
	Refused bool
}

// OracleArgs returns the arguments of the statement SQLite runs: those of
// SQL, as SQLite's spelling keeps the placeholders.
func (q RandomSelect) OracleArgs() []any { return q.Args }

// RandomSelects returns n SELECTs over the dataset s describes, the same
// n for the same schema and seed.
func RandomSelects(s *Schema, seed int64, n int) []RandomSelect {
	g := &gen{r: rand.New(rand.NewSource(seed)), s: s}
	out := make([]RandomSelect, n)
	for i := range out {
		switch k := g.intn(20); {
		case k < 3:
			out[i] = g.orStatement()
		case k < 5:
			out[i] = g.compound()
		default:
			out[i] = g.statement()
		}
	}
	return out
}

// gen draws statements over a schema from one random stream.
type gen struct {
	r *rand.Rand
	s *Schema
}

func (g *gen) intn(n int) int        { return g.r.Intn(n) }
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func pick[T any](g *gen, xs []T) T   { return xs[g.intn(len(xs))] }

func shuffle[T any](g *gen, xs []T) {
	g.r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
