package testkit

import (
	"fmt"
	"slices"
	"strings"
)

// How a random write's WHERE names its rows: through one of the paths
// its entity allows, around a row the sequence knows, sometimes with a
// condition on any column besides.

// where writes a WHERE on e: the full key of a known row, its partition,
// its partition and another's (IN), its partition of an index, or a range
// on a sort key's leading column under its partition. It returns the
// row, and whether the WHERE names it alone by its full key. fullKey
// keeps to the full key.
func (w *writeGen) where(e *Ent, c *clause, fullKey bool) (cond string, row map[string]string, one bool) {
	row = pick(w.gen, w.known[e])
	var conds []string
	eq := func(cols []string) bool {
		for _, col := range cols {
			if row[col] == "" {
				return false
			}
			conds = append(conds, quoteName(col)+" = "+c.val(row[col]))
		}
		return true
	}
	base := e.Paths[0]
	mode := 0
	if !fullKey {
		mode = w.intn(5)
	}
	switch p := pick(w.gen, e.Paths); {
	case mode == 1:
		eq(base.PK)
		one = len(base.SK) == 0
	case mode == 2 && len(base.PK) == 1:
		other := pick(w.gen, w.known[e])[base.PK[0]]
		conds = append(conds, fmt.Sprintf("%s IN (%s, %s)", quoteName(base.PK[0]), c.val(row[base.PK[0]]), c.val(other)))
	case mode == 3 && p.Index != "" && eq(p.PK):
		conds = append(conds, notNull(p)...)
	case mode == 4 && len(p.SK) > 0 && row[p.SK[0]] != "" && eq(p.PK):
		conds = append(conds, w.keyRange(e, c, p.SK[0], row[p.SK[0]]))
		conds = append(conds, notNull(p)...)
	default:
		// A path above that the row cannot take wrote no condition, or
		// some of its partition's: the full key follows them, the same
		// values again where they overlap.
		eq(e.baseKey())
		one = true
	}
	if w.chance(0.6) {
		if x := w.extra(e, c, row, fullKey); x != "" {
			conds = append(conds, x)
		}
	}
	return strings.Join(conds, " AND "), row, one
}

// notNull returns IS NOT NULL on the sort key columns of p when only some
// items are in it, which a read through it must say.
func notNull(p Path) []string {
	if !p.Optional {
		return nil
	}
	var out []string
	for _, col := range p.SK {
		out = append(out, quoteName(col)+" IS NOT NULL")
	}
	return out
}

// keyRange writes a comparison of sort key column col with the row's
// value v, or, on a string column, a prefix of v.
func (w *writeGen) keyRange(e *Ent, c *clause, col, v string) string {
	if e.col(col).Type == "S" && w.chance(0.3) {
		if p := w.prefix(v); p != "" {
			return fmt.Sprintf("%s LIKE %s", quoteName(col), c.val(quoteSQL(p+"%")))
		}
	}
	op := pick(w.gen, []string{"<", "<=", ">", ">=", "="})
	return fmt.Sprintf("%s %s %s", quoteName(col), op, c.val(v))
}

// extra writes a condition on any column of e but a copy (SQLite's table
// does not keep copies in step): =, <> or LIKE with the row's value or
// one of the column's pool, IS NULL, IS NOT NULL. inTx keeps to what
// goes into the write's condition, where a transaction's write must
// hold all of its WHERE: no LIKE or <> (which SQL's NULL makes unlike
// DynamoDB's), and no key column (whose attribute a template composes);
// it returns "" when no column is left.
func (w *writeGen) extra(e *Ent, c *clause, row map[string]string, inTx bool) string {
	var cols, indexKeys []Col
	for _, col := range e.Columns {
		if !col.Copy && (!inTx || !col.Key) {
			cols = append(cols, col)
		}
		if col.Key && !inTx && !slices.Contains(e.baseKey(), col.Name) {
			indexKeys = append(indexKeys, col)
		}
	}
	if len(cols) == 0 {
		return ""
	}
	col := pick(w.gen, cols)
	if len(indexKeys) > 0 && w.chance(0.5) {
		// Columns only indexes hold go to a write's guard as the index
		// key attributes: a row out of a sparse index lacks some of them.
		col = pick(w.gen, indexKeys)
	}
	name := quoteName(col.Name)
	v := row[col.Name]
	if v == "" || w.chance(0.3) {
		v = pick(w.gen, e.vals[col.Name])
	}
	// The conditions DynamoDB cannot check (<>, LIKE) most often: they
	// make a write read its rows first and guard each write with them.
	k := w.intn(20)
	if inTx && k < 9 {
		k = 19
	}
	if k < 4 && col.Type == "S" {
		if p := w.prefix(v); p != "" {
			return fmt.Sprintf("%s LIKE %s", name, c.val(quoteSQL(p+"%")))
		}
	}
	switch {
	case k < 9: // mostly another value than the row's, which keeps it
		return fmt.Sprintf("%s <> %s", name, c.val(pick(w.gen, e.vals[col.Name])))
	case k < 12:
		return name + " IS NULL"
	case k < 15:
		return name + " IS NOT NULL"
	default:
		return fmt.Sprintf("%s = %s", name, c.val(v))
	}
}

// prefix returns the first 1 to 3 characters of string literal v, or ""
// when they hold % or _ (a LIKE other than a prefix, which dynosql
// documents as unlike SQL engines') or a quote.
func (w *writeGen) prefix(v string) string {
	text := []rune(strings.ReplaceAll(v[1:len(v)-1], "''", "'"))
	p := string(text[:min(len(text), 1+w.intn(3))])
	if p == "" || strings.ContainsAny(p, "%_'") {
		return ""
	}
	return p
}
