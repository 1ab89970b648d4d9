package planner

import (
	"fmt"
	"slices"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// planWrite plans INSERT, UPDATE, DELETE and CHECK/REPAIR COPIES.
func (p *Planner) planWrite(sql string, stmt parser.Statement, args []value.Value) (*Plan, error) {
	var root Node
	var err error
	var verb string
	switch s := stmt.(type) {
	case *parser.Insert:
		verb = "INSERT"
		root, err = p.planInsert(sql, s, args)
	case *parser.Update:
		verb = "UPDATE"
		root, err = p.planUpdate(sql, s, args)
	case *parser.Delete:
		verb = "DELETE"
		root, err = p.planDelete(sql, s, args)
	case *parser.CheckCopies:
		root, err = p.planCheckCopies(sql, s, args)
		if s.Repair {
			verb = "REPAIR COPIES"
		}
	default:
		return nil, errs.New(errs.Internal, "no planner for %T", stmt)
	}
	if err != nil {
		return nil, err
	}
	plan := &Plan{SQL: sql, Root: root, Writes: verb != "", Verb: verb}
	if !plan.Writes {
		plan.Columns = CopyCheckColumns
	}
	return plan, nil
}

func (p *Planner) planInsert(sql string, s *parser.Insert, args []value.Value) (Node, error) {
	e, err := p.cat.Entity(s.Table)
	if err != nil {
		return nil, errs.As(err).At(sql, s.Pos)
	}
	for j, col := range s.Columns {
		if _, err := e.Column(col); err != nil {
			return nil, errs.As(err).At(sql, s.ColumnPos[j])
		}
	}
	ins := &InsertRows{Table: e.Mapping().Table, PKAttr: e.Mapping().PartitionKey, Entity: e}
	seen := map[string]int{}
	for i, exprs := range s.Rows {
		row := mapping.Row{}
		for j, col := range s.Columns {
			v, err := constant(exprs[j], args)
			if err != nil {
				return nil, errs.As(err).At(sql, s.ColumnPos[j])
			}
			if v, err = e.Convert(col, v); err != nil {
				return nil, rowErr(err, i, len(s.Rows)).At(sql, s.ColumnPos[j])
			}
			if v != nil {
				row[col] = v
			}
		}
		it, err := e.Item(row)
		if err != nil {
			return nil, rowErr(err, i, len(s.Rows)).At(sql, s.Pos)
		}
		if size := limits.ItemSizeAtLeast(it); size > limits.ItemBytes {
			return nil, rowErr(tooLarge("the "+e.Name+" item would be", size), i, len(s.Rows)).At(sql, s.Pos)
		}
		key := baseKeyText(e, row)
		if prev, dup := seen[key]; dup {
			return nil, errs.New(errs.Invalid, "rows %d and %d of the INSERT have the same key (%s)", prev+1, i+1, key).At(sql, s.Pos)
		}
		seen[key] = i
		ins.Rows = append(ins.Rows, row)
	}
	for _, col := range sortedNames(e.Copies) {
		ins.Fills = append(ins.Fills, e.Copies[col])
	}
	// Copies found through an index that does not project them cannot
	// be filled (no guard on the value seen): an INSERT of their source
	// leaves them as before, rather than being refused.
	var earlier []*mapping.Copy
	for _, c := range copiesOf(e.Mapping(), e, "") {
		if c.Copier.Mapping().ProjectsAll(c.Path, c.Copier, []string{c.Column}) {
			earlier = append(earlier, c)
		}
	}
	if ins.Earlier, err = p.fanOuts(sql, s.Pos, earlier); err != nil {
		return nil, err
	}
	for i, row := range ins.Rows {
		for _, f := range ins.Earlier {
			if err := copiesFit([]*FanOut{f}, row[f.Copy.SourceColumn]); err != nil {
				return nil, rowErr(err, i, len(ins.Rows)).At(sql, s.Pos)
			}
		}
	}
	for _, f := range ins.Earlier {
		f.Inserted = true
	}
	if s.OnDuplicate != nil {
		sc := newScope(sql, p.cat)
		if err := sc.add(s.Table, "", s.Pos); err != nil {
			return nil, err
		}
		set, err := p.assignments(sc, e, s.Table, s.OnDuplicate, args)
		if err != nil {
			return nil, err
		}
		for i, a := range set {
			if e.IsKeyColumn(a.Column) {
				hint := "UPDATE the row instead"
				if slices.Contains(e.BaseKeyColumns(), a.Column) {
					hint += ", which moves it"
				}
				return nil, errs.New(errs.Unsupported, "ON DUPLICATE KEY UPDATE of %s, a column of a key, is not supported", a.Column).At(sql, s.OnDuplicate[i].Pos).
					WithHint("%s", hint)
			}
		}
		if ins.FanOuts, err = p.copiesFollow(sql, s.Pos, e, set); err != nil {
			return nil, err
		}
		ins.OnDuplicate = &UpdateRows{Table: e.Mapping().Table, PKAttr: e.Mapping().PartitionKey, Entity: e, Alias: e.Name, Set: set,
			Move: p.opts.Quirks.NoRemove && removes(set), ExactArith: p.opts.Quirks.FloatNumbers && arithmetic(set), ForQuirks: true}
		ins.OnDuplicate.Reinsert = p.reinserts(e, ins.OnDuplicate)
		return ins, nil
	}
	ins.Batches = batches(e, ins.Rows)
	if len(ins.Batches) > 1 && !p.opts.NonAtomicInserts {
		return nil, errs.New(errs.Invalid, "an INSERT of %d rows takes %d transactions (DynamoDB writes at most %d items and 4 MB in one), so it would not be all or nothing",
			len(ins.Rows), len(ins.Batches), limits.TransactItems).At(sql, s.Pos).
			WithHint("insert at most %d rows a statement, or allow non-atomic inserts (--non-atomic-inserts, nonatomic_inserts=1 in a DSN, dynosql.WithNonAtomicInserts in Go) to write them transaction by transaction",
				limits.TransactItems)
	}
	return ins, nil
}

// rowErr adds "row N: " to an error when the INSERT has several rows.
func rowErr(err error, i, n int) *errs.Error {
	e := errs.As(err)
	if n > 1 {
		c := *e
		c.Message = fmt.Sprintf("row %d: %s", i+1, e.Message)
		return &c
	}
	return e
}

// constant evaluates a VALUES expression: a literal, a placeholder or a
// negated number.
func constant(e parser.Expr, args []value.Value) (value.Value, error) {
	switch x := e.(type) {
	case *parser.Literal:
		return x.Value, nil
	case *parser.Placeholder:
		if x.Index >= len(args) {
			return nil, missingArgument(x, args)
		}
		return args[x.Index], nil
	}
	return nil, errs.New(errs.Unsupported, "VALUES takes constants, not %s", parser.Format(e))
}

// baseKeyText prints a row's base key as messages show it.
func baseKeyText(e *mapping.Entity, row mapping.Row) string {
	key, err := e.BaseKey(row)
	if err != nil {
		return "?"
	}
	return describer{only(e.Mapping())}.key(e.Mapping().Table, key)
}

// batches splits rows into transactions of at most 100 items and about
// 4 MB.
func batches(e *mapping.Entity, rows []mapping.Row) []int {
	sizes := make([]int, len(rows))
	for i, row := range rows {
		it, _ := e.Item(row)
		sizes[i] = limits.ItemSize(it)
	}
	return limits.Batches(sizes, limits.TransactItems, 0)
}

// tooLarge refuses an item of at least size bytes (limits.ItemSizeAtLeast),
// past what DynamoDB stores; what says which item.
func tooLarge(what string, size int) *errs.Error {
	return errs.New(errs.Invalid, "%s at least %d bytes, over the %d bytes (400 KB) DynamoDB stores in one item", what, size, limits.ItemBytes).
		WithHint("keep large values elsewhere (in S3, say) and store a reference to them")
}

// assignments resolves SET (or ON DUPLICATE KEY UPDATE) against the
// entity: each value must be a constant of the column's type, NULL, or
// the column itself plus or minus a number, which DynamoDB computes.
func (p *Planner) assignments(sc *scope, e *mapping.Entity, alias string, in []parser.Assignment, args []value.Value) ([]*Assign, error) {
	var out []*Assign
	seen := map[string]bool{}
	size := 0 // of the constants set, a lower bound on the item's
	for _, a := range in {
		typ, err := e.Column(a.Column)
		if err != nil {
			return nil, errs.As(err).At(sc.sql, a.Pos)
		}
		if seen[a.Column] {
			return nil, errs.New(errs.Invalid, "column %s is assigned twice", a.Column).At(sc.sql, a.Pos).
				WithHint("keep one SET %s = ...", a.Column)
		}
		seen[a.Column] = true
		sc.setting = true
		x, err := sc.resolve(a.Expr, args)
		sc.setting = false
		if err != nil {
			return nil, err
		}
		if nullArith(x) {
			// col + NULL is NULL, in SQL as here: the column is set NULL.
			x = &parser.Literal{}
		}
		switch v := x.(type) {
		case *parser.Literal:
			cv, err := e.Convert(a.Column, v.Value)
			if err != nil {
				return nil, errs.As(err).At(sc.sql, a.Pos)
			}
			if cv != nil {
				size += limits.AttrSizeAtLeast(a.Column, value.ToAttr(cv))
				if size > limits.ItemBytes {
					return nil, tooLarge("the values SET would make the "+e.Name+" item", size).At(sc.sql, a.Pos)
				}
			}
			out = append(out, &Assign{Column: a.Column, Expr: &parser.Literal{Value: cv}})
			continue
		case *parser.Arith:
			c, ok1 := v.L.(*parser.Column)
			n, ok2 := v.R.(*parser.Literal)
			if v.Op == '+' && !ok1 {
				// 1 + col is col + 1.
				c, ok1 = v.R.(*parser.Column)
				n, ok2 = v.L.(*parser.Literal)
			}
			if ok2 {
				_, ok2 = n.Value.(value.Number)
			}
			if ok1 && ok2 && c.Name == a.Column && c.Table == alias && (v.Op == '+' || v.Op == '-') {
				if typ != "N" {
					what, hint := "an attribute the mapping does not declare", fmt.Sprintf("declare %s: N among the columns of %s in the mapping", a.Column, e.Name)
					switch {
					case typ != "":
						what = "of type " + typ
					case e.Raw():
						what = "an attribute of a table read without a mapping, whose type dynosql cannot know"
						hint = fmt.Sprintf("give the table a mapping that declares %s: N (dynosql mapping draft --table %s writes a first one)", a.Column, e.Name)
					}
					return nil, errs.New(errs.Unsupported, "SET %s = %s: arithmetic needs a number column, and %s is %s",
						a.Column, parser.Format(a.Expr), a.Column, what).At(sc.sql, a.Pos).WithHint("%s", hint)
				}
				out = append(out, &Assign{Column: a.Column, Expr: &parser.Arith{Op: v.Op, L: c, R: n}})
				continue
			}
		}
		return nil, errs.New(errs.Unsupported, "SET %s = %s: DynamoDB can only set a constant or add to or subtract from the column itself",
			a.Column, parser.Format(x)).At(sc.sql, a.Pos).
			WithHint("write SET %s = <value>, or SET %s = %s + <number>", a.Column, a.Column, a.Column)
	}
	return out, nil
}

// nullArith reports whether x is arithmetic with a NULL operand, whose
// value is NULL whatever the other.
func nullArith(x parser.Expr) bool {
	a, ok := x.(*parser.Arith)
	if !ok {
		return false
	}
	for _, side := range []parser.Expr{a.L, a.R} {
		if l, ok := side.(*parser.Literal); ok && l.Value == nil {
			return true
		}
	}
	return nullArith(a.L) || nullArith(a.R)
}

// keyColumnsOf returns the columns of e's key templates that set assigns.
func keyColumnsOf(e *mapping.Entity, set []*Assign) []string {
	var cols []string
	for _, a := range set {
		if e.IsKeyColumn(a.Column) && !slices.Contains(cols, a.Column) {
			cols = append(cols, a.Column)
		}
	}
	return cols
}

// copiesOf lists the copies, in other entities, of e's column col.
func copiesOf(m *mapping.Mapping, e *mapping.Entity, col string) []*mapping.Copy {
	var out []*mapping.Copy
	for _, name := range m.EntityNames() {
		other := m.Entities[name]
		for _, c := range sortedNames(other.Copies) {
			if cp := other.Copies[c]; cp.Source == e && (col == "" || cp.SourceColumn == col) {
				out = append(out, cp)
			}
		}
	}
	return out
}

func (p *Planner) fanOut(c *mapping.Copy) (*FanOut, error) {
	if !c.Copier.Mapping().ProjectsAll(c.Path, c.Copier, []string{c.Column}) {
		return nil, errs.New(errs.Unsupported, "the copies %s.%s are found through index %s, which does not project %s",
			c.Copier.Name, c.Column, c.Path.Index, c.Column).WithHint("project ALL attributes (or INCLUDE %s) in %s", c.Column, c.Path.Index)
	}
	return &FanOut{Table: c.Copier.Mapping().Table, Copy: c, NullValue: p.opts.Quirks.NoRemove}, nil
}
