package planner

import (
	"fmt"
	"slices"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// Subqueries in WHERE are joins with the table of the subquery: x IN
// (SELECT c FROM t WHERE w) and EXISTS (SELECT ... FROM t WHERE w) add t
// as a slot no name outside the subquery reaches (scope.sub), joined by
// w (and c = x). A semi join (IN, EXISTS) sends what the equivalent JOIN
// sends, in either direction: read after the outer tables, t's join
// keeps each outer row on its first match (markSemiJoin); read first,
// t's rows are kept once per value the rest compares (distinctSubquery),
// and the joined rows once per row of the outer tables (Dedupe). An anti
// join (NOT IN, NOT EXISTS) reads t for each outer row, keyed by the
// outer row, and keeps the outer rows t has nothing for.

// subqueries takes the top-level subquery conjuncts out of where and
// plans them; it returns the rest of where.
func (b *selectBuilder) subqueries(where parser.Expr, args []value.Value) (parser.Expr, error) {
	var keep []parser.Expr
	for _, c := range conjuncts(where) {
		sub, x, anti, ok := subqueryOf(c)
		if !ok {
			keep = append(keep, c)
			continue
		}
		if err := b.addSubquery(sub, x, anti, args); err != nil {
			return nil, err
		}
	}
	for _, c := range keep {
		if firstSubquery(c) != nil {
			return nil, errs.New(errs.Unsupported, "a subquery inside OR or NOT (other than NOT IN and NOT EXISTS) is not supported").
				WithHint("AND the subquery with the rest of the WHERE, or write a JOIN")
		}
	}
	return and(keep), nil
}

// subqueryOf matches x [NOT] IN (SELECT ...) and [NOT] EXISTS (SELECT
// ...); x is nil for EXISTS.
func subqueryOf(e parser.Expr) (sub *parser.Select, x parser.Expr, anti, ok bool) {
	negated := false
	if n, isNot := e.(*parser.Not); isNot {
		e, negated = n.E, true
	}
	switch s := e.(type) {
	case *parser.InSelect:
		return s.Select, s.Expr, s.Not != negated, true
	case *parser.Exists:
		return s.Select, nil, negated, true
	}
	return nil, nil, false, false
}

func (b *selectBuilder) addSubquery(sub *parser.Select, x parser.Expr, anti bool, args []value.Value) error {
	sc := b.sc
	if len(sub.From) != 1 || sub.GroupBy != nil || sub.Having != nil || sub.OrderBy != nil || sub.Limit != nil || sub.Offset != nil {
		return errs.New(errs.Unsupported, "a subquery may read one table, with a WHERE and no GROUP BY, HAVING, ORDER BY or LIMIT").
			WithHint("write a JOIN instead")
	}
	// An aggregate makes the subquery one row (COUNT(*) of no rows is 0,
	// MAX of none NULL): read as a semi-join, each of its rows would
	// stand for itself instead.
	for _, c := range sub.Columns {
		if !c.Star && hasAggregate(c.Expr) {
			return errs.New(errs.Unsupported, "a subquery of an aggregate (%s) is not supported", parser.Format(c.Expr)).
				WithHint("run the subquery first and compare with its value, or write a JOIN")
		}
	}
	t := sub.From[0]
	if pos, nested := nestedSubquery(sub); nested {
		return errs.New(errs.Unsupported, "a subquery inside a subquery is not supported").At(sc.sql, pos).
			WithHint("join that table in the outer statement instead, or run the inner subquery first and list its values")
	}
	if err := sc.add(t.Name, t.Alias, t.Pos); err != nil {
		return err
	}
	s := len(sc.slots) - 1
	sc.sub[s], sc.inner = true, s
	defer func() { sc.inner = -1 }()
	w, err := sc.resolveCondition(sub.Where, args, "WHERE")
	if err != nil {
		return err
	}
	conds := conjuncts(w)
	var outer parser.Expr
	if x != nil {
		if len(sub.Columns) != 1 || sub.Columns[0].Star {
			n := fmt.Sprint(len(sub.Columns))
			if sub.Columns[0].Star {
				n = "every column (*)"
			}
			return errs.New(errs.Invalid, "x IN (SELECT ...) takes a subquery of one column, not %s", n).
				At(sc.sql, t.Pos).WithHint("select the one column to compare with")
		}
		col, err := sc.resolve(sub.Columns[0].Expr, args)
		if err != nil {
			return err
		}
		sc.inner = -1
		if outer, err = sc.resolve(x, args); err != nil {
			return err
		}
		eq := parser.Expr(&parser.Compare{Op: "=", L: col, R: outer})
		if anti {
			eq = b.notInMatch(col, outer, eq)
		}
		conds = append(conds, eq)
	}
	if !anti {
		b.semi = true
		b.extra = append(b.extra, conds...)
		return nil
	}
	b.left[s], b.leftOn[s], b.anti[s] = true, conds, true
	return nil
}

// nestedSubquery reports whether sub's WHERE or select list holds a
// subquery of its own, and where its table is named.
func nestedSubquery(sub *parser.Select) (pos int, nested bool) {
	exprs := []parser.Expr{sub.Where}
	for _, c := range sub.Columns {
		exprs = append(exprs, c.Expr)
	}
	for _, e := range exprs {
		if inner := firstSubquery(e); inner != nil {
			if len(inner.From) == 0 {
				return -1, true
			}
			return inner.From[0].Pos, true
		}
	}
	return 0, false
}

// firstSubquery returns the first subquery (IN or EXISTS) within e, or nil.
func firstSubquery(e parser.Expr) *parser.Select {
	var found *parser.Select
	if e == nil {
		return nil
	}
	parser.Walk(e, func(x parser.Expr) bool {
		switch x := x.(type) {
		case *parser.InSelect:
			found = x.Select
		case *parser.Exists:
			found = x.Select
		}
		return found == nil
	})
	return found
}

// notInMatch is when a row c of the subquery rules an outer row out of
// x NOT IN (SELECT c ...): when c = x, and also when c or x is NULL, for
// NOT IN is true only if every comparison is false, and one with NULL is
// unknown. A subquery without rows rules out nothing, whatever x is. The
// NULL cases are left out where they cannot happen (a base-key column of
// a row that was read, a literal), so that c = x alone can still key the
// read of the subquery's table; otherwise the subquery's own WHERE must
// key it, since rows whose c is NULL count too.
func (b *selectBuilder) notInMatch(c, x, eq parser.Expr) parser.Expr {
	out := eq
	for _, e := range []parser.Expr{c, x} {
		if !b.neverNull(e) {
			out = &parser.Or{L: out, R: &parser.IsNull{Expr: e}}
		}
	}
	return out
}

// neverNull reports whether e cannot be NULL in a row the executor
// builds: a non-NULL literal, or a column of its entity's base key in a
// slot no outer join may leave empty.
func (b *selectBuilder) neverNull(e parser.Expr) bool {
	switch e := e.(type) {
	case *parser.Literal:
		return e.Value != nil
	case *parser.Column:
		slot := b.sc.slotOf(e)
		return b.sc.isBaseKeyColumn(e) && (!b.left[slot] || b.sc.sub[slot])
	}
	return false
}

// markSemiJoin reports whether the slot of an IN or EXISTS subquery,
// whose join to the rows read before it was just planned, may join as a
// semi join: each outer row once, on its first match, rather than once
// per match (an outer row with 130 matches would otherwise be built 130
// times before Dedupe kept one). That holds when its join applies every
// conjunct that names it, so that no later step looks at its row. It
// then marks the slot, so that no later read is keyed by its columns.
func (b *selectBuilder) markSemiJoin(s int) bool {
	if !b.sc.sub[s] || b.anti[s] {
		return false
	}
	for i, c := range b.pool {
		if !b.used[i] && slices.Contains(b.sc.slotsOf(c), s) {
			return false
		}
	}
	b.semiJoined[s] = true
	return true
}

// distinctSubquery keeps once each value of the columns the rest of the
// statement compares, when the first read is of an IN or EXISTS
// subquery's table alone: its rows that agree there lead to the same
// outer rows, which would be read, joined and deduplicated once per such
// row (130 orders of one customer, times that customer's orders). When
// the rest compares none, one row will do: a Query that nothing filters
// asks for one item a page.
func (b *selectBuilder) distinctSubquery(driver Node) Node {
	if len(b.placed) != 1 || len(b.sc.slots) == 1 {
		return driver
	}
	var slot int
	for s := range b.placed {
		slot = s
	}
	if !b.sc.sub[slot] || b.anti[slot] {
		return driver
	}
	d := &SubqueryDistinct{Input: driver}
	seen := map[string]bool{}
	for i, c := range b.pool {
		if b.used[i] {
			continue
		}
		for col := range columnsOf(c) {
			if b.sc.slotOf(col) == slot && !seen[col.Name] {
				seen[col.Name] = true
				d.Columns = append(d.Columns, col)
			}
		}
	}
	if q, ok := driver.(*Query); ok && len(d.Columns) == 0 && q.Filter == nil && !q.Bound && len(q.PK) == 1 {
		// Several partitions are each read to the end (one Query per
		// value, in parallel): pages of one item would only multiply
		// the requests.
		q.Limit = 1
	}
	return d
}

// dedupe keeps each combination of the outer tables' rows once, after a
// semi join read the subqueries' tables as inner joins.
func (b *selectBuilder) dedupe(root Node) Node {
	if !b.semi || b.allSemiJoined() {
		return root
	}
	d := &Dedupe{Input: root}
	for i := range b.sc.slots {
		if !b.sc.sub[i] {
			d.Slots = append(d.Slots, i)
		}
	}
	return d
}

// allSemiJoined reports whether every IN and EXISTS subquery joined as a
// semi join, which keeps each outer row once by itself.
func (b *selectBuilder) allSemiJoined() bool {
	for s := range b.sc.slots {
		if b.sc.sub[s] && !b.anti[s] && !b.semiJoined[s] {
			return false
		}
	}
	return true
}
