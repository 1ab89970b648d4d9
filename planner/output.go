package planner

import (
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// output is the part of a SELECT that works on joined rows: the select
// list, grouping, DISTINCT, ORDER BY and LIMIT.
type output struct {
	spread   bool          // a raw table's SELECT *: see Spread
	at       []int         // the index in exprs of each select list item (a star: its first column)
	starKeys [][]string    // the key attributes of each star's table, for Spread
	starBase [][]string    // and its base key attributes
	exprs    []parser.Expr // visible columns, then hidden sort keys
	names    []string
	visible  int
	agg      bool
	group    []parser.Expr
	having   parser.Expr
	distinct bool
	sort     []SortKey
	limit    int64 // -1 for none
	offset   int64
}

func (b *selectBuilder) output(args []value.Value) (*output, error) {
	sel, sc := b.sel, b.sc
	o := &output{distinct: sel.Distinct, limit: -1}
	for _, c := range sel.Columns {
		o.at = append(o.at, len(o.exprs))
		if c.Star {
			for i, sl := range sc.slots {
				if (c.Table != "" && c.Table != sl.Alias) || sc.sub[i] {
					continue
				}
				if sl.Entity.Raw() {
					// Every attribute the items hold, known once read.
					o.exprs = append(o.exprs, &parser.Column{Table: sl.Alias, Name: AllColumns, Pos: -1})
					o.names = append(o.names, sl.Alias+".*")
					o.spread = true
					o.starKeys = append(o.starKeys, sl.Entity.Mapping().KeyAttrs())
					o.starBase = append(o.starBase, sl.Entity.Mapping().BaseKeyAttrs())
					continue
				}
				for _, col := range sl.Entity.ColumnNames() {
					o.exprs = append(o.exprs, &parser.Column{Table: sl.Alias, Name: col, Pos: -1})
					o.names = append(o.names, col)
				}
			}
			if _, ok := sc.byAlias[c.Table]; c.Table != "" && !ok {
				return nil, errs.New(errs.Invalid, "unknown table or alias %s in %s.*", c.Table, c.Table)
			}
			continue
		}
		e, err := sc.resolve(c.Expr, args)
		if err != nil {
			return nil, err
		}
		o.exprs = append(o.exprs, e)
		switch {
		case c.Alias != "":
			o.names = append(o.names, c.Alias)
		case isColumn(e):
			o.names = append(o.names, e.(*parser.Column).Name)
		default:
			o.names = append(o.names, c.Text)
		}
	}
	o.visible = len(o.exprs)
	o.qualifyDuplicateNames()
	for i, g := range sel.GroupBy {
		e, err := b.groupTerm(o, g, termPos(sel.GroupByPos, i), args)
		if err != nil {
			return nil, err
		}
		o.group = append(o.group, e)
	}
	having, err := b.resolveHaving(o, args)
	if err != nil {
		return nil, err
	}
	o.having = having
	o.agg = len(o.group) > 0 || hasAggregate(having)
	for _, e := range o.exprs {
		o.agg = o.agg || hasAggregate(e)
	}
	for _, item := range sel.OrderBy {
		e, err := b.orderTerm(o, item.Expr, item.Pos, args)
		if err != nil {
			return nil, err
		}
		o.agg = o.agg || hasAggregate(e)
		idx := -1
		for i, x := range o.exprs {
			if parser.Format(x) == parser.Format(e) {
				idx = i
				break
			}
		}
		if idx < 0 {
			if o.distinct {
				return nil, errs.New(errs.Invalid, "ORDER BY %s must appear in the select list when DISTINCT is used", parser.Format(e)).
					At(sc.sql, item.Pos).WithHint("add it to the select list")
			}
			idx = len(o.exprs)
			o.exprs = append(o.exprs, e)
			o.names = append(o.names, parser.Format(e))
		}
		o.sort = append(o.sort, SortKey{Column: idx, Desc: item.Desc})
	}
	if o.agg {
		for _, e := range append(o.exprs, having) {
			if err := o.checkGrouped(e, sc.sql); err != nil {
				return nil, err
			}
		}
	}
	if o.limit, o.offset, err = limitOffset(sel.Limit, sel.Offset, args); err != nil {
		return nil, err
	}
	return o, nil
}

func isColumn(e parser.Expr) bool {
	_, ok := e.(*parser.Column)
	return ok
}

// orderTerm resolves an ORDER BY or GROUP BY term written at pos: a
// position in the select list (1-based), an output alias, or an
// expression.
func (b *selectBuilder) orderTerm(o *output, e parser.Expr, pos int, args []value.Value) (parser.Expr, error) {
	if lit, ok := e.(*parser.Literal); ok {
		if n, ok := lit.Value.(value.Number); ok {
			r, _ := n.Rat()
			if !r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() < 1 {
				return nil, errs.New(errs.Invalid, "position %s is not a column of the select list (1 to %d)", n, o.visible).At(b.sc.sql, pos)
			}
			// A raw table's * becomes as many columns as its rows hold
			// attributes, known only once read: positions from it on
			// cannot be counted when planning.
			for _, x := range o.exprs[:min(r.Num().Int64(), int64(o.visible))] {
				if c, ok := x.(*parser.Column); ok && c.Name == AllColumns {
					return nil, errs.New(errs.Unsupported, "position %s counts the columns of %s.*, which are the attributes its items hold, known only once read", n, c.Table).
						At(b.sc.sql, pos).WithHint("name the column instead of its position")
				}
			}
			if r.Num().Int64() > int64(o.visible) {
				return nil, errs.New(errs.Invalid, "position %s is not a column of the select list (1 to %d)", n, o.visible).At(b.sc.sql, pos)
			}
			return o.exprs[r.Num().Int64()-1], nil
		}
	}
	if c, ok := e.(*parser.Column); ok && c.Table == "" {
		if x := b.aliased(o, c.Name); x != nil {
			return x, nil
		}
	}
	return b.sc.resolve(e, args)
}

// groupTerm resolves a GROUP BY term as orderTerm does, but a name that
// is a column of the tables is that column before it is a select-list
// alias, as in SQLite, MySQL and PostgreSQL (SELECT COUNT(*) AS a ...
// GROUP BY a groups on the column a); and it may not be an aggregate,
// which no engine groups on.
func (b *selectBuilder) groupTerm(o *output, e parser.Expr, pos int, args []value.Value) (parser.Expr, error) {
	var x parser.Expr
	var err error
	if c, ok := e.(*parser.Column); ok && c.Table == "" && b.sc.declares(c.Name) {
		x, err = b.sc.resolve(e, args)
	} else {
		x, err = b.orderTerm(o, e, pos, args)
	}
	if err != nil {
		return nil, err
	}
	if hasAggregate(x) {
		return nil, errs.New(errs.Invalid, "GROUP BY %s groups on an aggregate", parser.Format(x)).
			At(b.sc.sql, pos).WithHint("group on columns, and filter on aggregates with HAVING")
	}
	return x, nil
}

// aliased returns the select list's expression called name with AS, or
// nil. An alias is named in any case, as in MySQL ("nor are column
// aliases" case-sensitive) and SQLite; one spelled exactly as name comes
// first.
func (b *selectBuilder) aliased(o *output, name string) parser.Expr {
	for _, exact := range []bool{true, false} {
		for i, col := range b.sel.Columns {
			if col.Star || col.Alias == "" {
				continue
			}
			if (exact && col.Alias == name) || (!exact && strings.EqualFold(col.Alias, name)) {
				return o.exprs[o.at[i]]
			}
		}
	}
	return nil
}

// checkGrouped refuses a column outside aggregates that is not grouped on:
// SQL leaves its value undefined.
func (o *output) checkGrouped(e parser.Expr, sql string) error {
	if e == nil {
		return nil
	}
	grouped := map[string]bool{}
	for _, g := range o.group {
		grouped[parser.Format(g)] = true
	}
	var err error
	parser.Walk(e, func(x parser.Expr) bool {
		if err != nil || grouped[parser.Format(x)] {
			return false
		}
		switch x := x.(type) {
		case *parser.Func:
			return false
		case *parser.Column:
			err = errs.New(errs.Invalid, "column %s.%s must appear in GROUP BY or inside an aggregate function", x.Table, x.Name).
				At(sql, x.Pos)
		}
		return true
	})
	return err
}

// limitOffset reads LIMIT and OFFSET: each a non-negative whole number, a
// literal or a placeholder; -1 and 0 when absent.
func limitOffset(limit, offset parser.Expr, args []value.Value) (int64, int64, error) {
	l, err := rowCount(limit, "LIMIT", args)
	if err != nil {
		return 0, 0, err
	}
	o, err := rowCount(offset, "OFFSET", args)
	return l, max(o, 0), err
}

func rowCount(e parser.Expr, what string, args []value.Value) (int64, error) {
	if e == nil {
		return -1, nil
	}
	if p, ok := e.(*parser.Placeholder); ok && p.Index >= len(args) {
		// Missing, not NULL: say so, as resolve does for a ? elsewhere.
		return 0, missingArgument(p, args)
	}
	v := bindLiteral(e, args)
	if n, ok := v.(value.Number); ok {
		if q, ok := n.Rat(); ok && q.IsInt() && q.Sign() >= 0 && q.Num().IsInt64() {
			return q.Num().Int64(), nil
		}
	}
	return 0, errs.New(errs.Invalid, "%s takes a whole number of rows, not %s", what, value.Literal(v))
}

// bindLiteral returns the value of a literal, or of a placeholder's
// argument (nil when missing).
func bindLiteral(e parser.Expr, args []value.Value) value.Value {
	switch x := e.(type) {
	case *parser.Literal:
		return x.Value
	case *parser.Placeholder:
		if x.Index < len(args) {
			return args[x.Index]
		}
	}
	return nil
}

// needed lists, per slot, the columns the statement reads: in the output,
// grouping, and conditions.
func (o *output) needed(sc *scope, conds ...[]parser.Expr) []map[string]bool {
	need := make([]map[string]bool, len(sc.slots))
	for i := range need {
		need[i] = map[string]bool{}
	}
	mark := func(exprs ...parser.Expr) {
		for _, e := range exprs {
			for c := range columnsOf(e) {
				need[sc.slotOf(c)][c.Name] = true
			}
		}
	}
	mark(o.exprs...)
	mark(o.group...)
	mark(o.having)
	for _, list := range conds {
		mark(list...)
	}
	return need
}

// build stacks the output steps on the reads.
func (o *output) build(root Node) Node {
	if o.agg {
		root = &Aggregate{Input: root, Group: o.group, Exprs: o.exprs, Names: o.names, Having: o.having}
	} else {
		root = &Project{Input: root, Exprs: o.exprs, Names: o.names}
	}
	if o.distinct {
		root = &Distinct{Input: root}
	}
	if len(o.sort) > 0 {
		root = &Sort{Input: root, Keys: o.sort, Names: o.names}
	}
	if o.limit >= 0 || o.offset > 0 {
		root = &Limit{Input: root, Offset: o.offset, Count: o.limit}
	}
	if len(o.exprs) > o.visible {
		root = &Trim{Input: root, N: o.visible}
	}
	if o.spread {
		sp := &Spread{Input: root, Names: o.names[:o.visible], Keys: o.starKeys, Base: o.starBase}
		for i, e := range o.exprs[:o.visible] {
			if c, ok := e.(*parser.Column); ok && c.Name == AllColumns {
				sp.Stars = append(sp.Stars, i)
			}
		}
		root = sp
	}
	return root
}

// qualifyDuplicateNames names columns that would print under one name
// (SELECT s.id, c.id) by their alias too, so that JSON objects keep both.
func (o *output) qualifyDuplicateNames() {
	count := map[string]int{}
	for _, n := range o.names {
		count[n]++
	}
	for i, n := range o.names {
		if c, ok := o.exprs[i].(*parser.Column); ok && count[n] > 1 && n == c.Name {
			o.names[i] = c.Table + "." + c.Name
		}
	}
}

// resolveHaving resolves HAVING, where a name that is no column of the
// tables but a select-list alias stands for that expression, as SQLite
// allows (HAVING n > 2 for COUNT(*) AS n).
func (b *selectBuilder) resolveHaving(o *output, args []value.Value) (parser.Expr, error) {
	aliased, err := rewrite(b.sel.Having, func(x parser.Expr) (parser.Expr, error) {
		c, ok := x.(*parser.Column)
		if !ok || c.Table != "" || b.sc.hasColumn(c.Name) {
			return x, nil
		}
		if a := b.aliased(o, c.Name); a != nil {
			return a, nil
		}
		return x, nil
	})
	if err != nil {
		return nil, err
	}
	return b.sc.resolveCondition(aliased, args, "HAVING")
}

// columns returns the visible output columns with their types.
func (o *output) columns(sc *scope) []Column {
	cols := make([]Column, o.visible)
	for i := range cols {
		cols[i] = Column{Name: o.names[i], Type: exprType(sc, o.exprs[i])}
	}
	return cols
}

// exprType returns the DynamoDB type of a resolved select-list
// expression: a column's declared type, N for COUNT, SUM, AVG and
// arithmetic, BOOL for conditions, MIN and MAX the type of their
// argument; "" where the statement does not fix it.
func exprType(sc *scope, e parser.Expr) string {
	switch x := e.(type) {
	case *parser.Column:
		return sc.typeOf(x)
	case *parser.Literal:
		if x.Value != nil {
			return value.TypeName(x.Value)
		}
	case *parser.Func:
		if (x.Name == "MIN" || x.Name == "MAX") && len(x.Args) == 1 {
			return exprType(sc, x.Args[0])
		}
		return "N"
	case *parser.Arith:
		return "N"
	case *parser.Compare, *parser.In, *parser.Between, *parser.Like, *parser.IsNull, *parser.And, *parser.Or, *parser.Not:
		return "BOOL"
	}
	return ""
}

// termPos returns where the i-th term is written, -1 when unknown (a
// Select built by the planner has no positions).
func termPos(positions []int, i int) int {
	if i < len(positions) {
		return positions[i]
	}
	return -1
}
