package testkit

import (
	"fmt"
	"strings"
)

// Conditions on the columns of a statement's tables.

// lit returns a literal to compare column c of t with.
func (st *statement) lit(t *table, c Col) string {
	g := st.g
	if c.Type == "N" && g.chance(0.25) {
		return pick(g, []string{"0", "1", "2", "3", "5", "1.5", "2.0", "-1", "3.99"})
	}
	return pick(g, t.e.vals[c.Name])
}

// inList renders (a, b) from 1 to 4 literals of column c of t.
func (st *statement) inList(t *table, c Col) string {
	vals := make([]string, 1+st.g.intn(4))
	for i := range vals {
		vals[i] = st.lit(t, c)
	}
	return "(" + strings.Join(vals, ", ") + ")"
}

// eqOrIn binds column c of t to constants: =, IN, or an OR of equalities.
func (st *statement) eqOrIn(t *table, c Col) string {
	g, col := st.g, t.col(c.Name)
	switch k := g.intn(10); {
	case k < 6:
		return fmt.Sprintf("%s = %s", col, st.lit(t, c))
	case k < 9:
		return fmt.Sprintf("%s IN %s", col, st.inList(t, c))
	default:
		return fmt.Sprintf("(%s = %s OR %s = %s)", col, st.lit(t, c), col, st.lit(t, c))
	}
}

// keyRange renders a condition on a sort key's column: a comparison,
// BETWEEN (reversed now and then, which matches nothing), = or, on a
// string column, a prefix (LIKE 'p%', or a LIKE with escapes).
func (st *statement) keyRange(t *table, c Col) string {
	g, col := st.g, t.col(c.Name)
	v := func() string {
		if c.Type == "S" && g.chance(0.3) {
			return quoteSQL(pick(g, t.e.pre[c.Name]))
		}
		return st.lit(t, c)
	}
	k := g.intn(7)
	if k == 6 && c.Type == "N" {
		k = g.intn(6)
	}
	switch k {
	case 0:
		return fmt.Sprintf("%s = %s", col, v())
	case 1:
		return fmt.Sprintf("%s < %s", col, v())
	case 2:
		return fmt.Sprintf("%s <= %s", col, v())
	case 3:
		return fmt.Sprintf("%s > %s", col, v())
	case 4:
		return fmt.Sprintf("%s >= %s", col, v())
	case 5:
		return fmt.Sprintf("%s BETWEEN %s AND %s", col, v(), v())
	default:
		return st.like(t, c, fmt.Sprintf("%s LIKE %s", col, quoteSQL(pick(g, t.e.pre[c.Name])+"%")))
	}
}

// predicate renders a condition over the columns of ts, nested up to
// depth levels of AND, OR and NOT. With noKeys it names no key column.
func (st *statement) predicate(ts []*table, depth int) string {
	g := st.g
	if depth > 0 && g.chance(0.3) {
		switch g.intn(3) {
		case 0:
			return fmt.Sprintf("(%s AND %s)", st.predicate(ts, depth-1), st.predicate(ts, depth-1))
		case 1:
			return fmt.Sprintf("(%s OR %s)", st.predicate(ts, depth-1), st.predicate(ts, depth-1))
		default:
			return fmt.Sprintf("NOT (%s)", st.predicate(ts, depth-1))
		}
	}
	t := pick(g, ts)
	cs := t.e.Columns
	if st.noKeys {
		cs = t.e.nonKey()
	}
	c := pick(g, cs)
	col := t.col(c.Name)
	lit := func() string { return st.lit(t, c) }
	switch g.intn(14) {
	case 0:
		return col + " IS NULL"
	case 1:
		return col + " IS NOT NULL"
	case 2:
		a, b := lit(), lit()
		if c.Type == "S" && a > b && g.chance(0.8) {
			a, b = b, a
		}
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", col, st.not(), a, b)
	case 3:
		return fmt.Sprintf("%s %sIN %s", col, st.not(), st.inList(t, c))
	case 4, 5:
		if c.Type == "N" { // arithmetic
			return fmt.Sprintf("%s %s %d %s %s", col, pick(g, []string{"+", "-", "*"}), 1+g.intn(2), pick(g, []string{"=", "<", ">="}), lit())
		}
		return st.like(t, c, fmt.Sprintf("%s %sLIKE %s", col, st.not(), quoteSQL(pick(g, t.e.pre[c.Name])+"%")))
	case 6: // the literal first
		return fmt.Sprintf("%s %s %s", lit(), pick(g, []string{"=", "<>", "<", ">="}), col)
	case 7: // against another column of the same type
		if other := st.otherColumn(ts, c.Type, col); other != "" {
			return fmt.Sprintf("%s %s %s", col, pick(g, []string{"=", "<>", "<", ">="}), other)
		}
		return col + " IS NOT NULL"
	default:
		return fmt.Sprintf("%s %s %s", col, pick(g, []string{"=", "=", "<>", "<", "<=", ">", ">="}), lit())
	}
}

// not returns "NOT " now and then, for NOT IN, NOT BETWEEN, NOT LIKE.
func (st *statement) not() string {
	if st.g.chance(0.25) {
		return "NOT "
	}
	return ""
}

// otherColumn returns a column of ts of type typ other than col, or "".
func (st *statement) otherColumn(ts []*table, typ, col string) string {
	var cands []string
	for _, t := range ts {
		for _, c := range t.e.Columns {
			if st.noKeys && c.Key {
				continue // b = a.key AND b = 'x' would bind the key
			}
			if c.Type == typ && t.col(c.Name) != col {
				cands = append(cands, t.col(c.Name))
			}
		}
	}
	if len(cands) == 0 {
		return ""
	}
	return pick(st.g, cands)
}
