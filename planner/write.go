package planner

import (
	"fmt"
	"slices"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// planWrite plans INSERT, UPDATE, DELETE and CHECK/REPAIR COPIES.
func (p *Planner) planWrite(sql string, stmt parser.Statement, args []value.Value) (*Plan, error) {
	var root Node
	var err error
	writes := true
	switch s := stmt.(type) {
	case *parser.Insert:
		root, err = p.planInsert(sql, s, args)
	case *parser.Update:
		root, err = p.planUpdate(sql, s, args)
	case *parser.Delete:
		root, err = p.planDelete(sql, s, args)
	case *parser.CheckCopies:
		root, err = p.planCheckCopies(sql, s, args)
		writes = s.Repair
	default:
		return nil, errs.New(errs.Internal, "no planner for %T", stmt)
	}
	if err != nil {
		return nil, err
	}
	plan := &Plan{SQL: sql, Root: root, Writes: writes}
	if !writes {
		plan.Columns = CopyCheckColumns
	}
	return plan, nil
}

func (p *Planner) planInsert(sql string, s *parser.Insert, args []value.Value) (Node, error) {
	e, err := p.m.Entity(s.Table)
	if err != nil {
		return nil, errs.As(err).At(sql, s.Pos)
	}
	for _, col := range s.Columns {
		if _, err := e.Column(col); err != nil {
			return nil, errs.As(err).At(sql, s.Pos)
		}
	}
	ins := &InsertRows{Table: p.m.Table, PKAttr: p.m.PartitionKey, Entity: e}
	seen := map[string]int{}
	for i, exprs := range s.Rows {
		row := mapping.Row{}
		for j, col := range s.Columns {
			v, err := constant(exprs[j], args)
			if err != nil {
				return nil, errs.As(err).At(sql, s.Pos)
			}
			if v, err = e.Convert(col, v); err != nil {
				return nil, rowErr(err, i, len(s.Rows)).At(sql, s.Pos)
			}
			if v != nil {
				row[col] = v
			}
		}
		if err := checkKeys(e, row); err != nil {
			return nil, rowErr(err, i, len(s.Rows)).At(sql, s.Pos)
		}
		key := renderedKey(e, row)
		if prev, dup := seen[key]; dup {
			return nil, errs.New(errs.Invalid, "rows %d and %d of the INSERT have the same key (%s)", prev+1, i+1, key).At(sql, s.Pos)
		}
		seen[key] = i
		ins.Rows = append(ins.Rows, row)
	}
	for _, col := range sortedNames(e.Copies) {
		ins.Fills = append(ins.Fills, e.Copies[col])
	}
	if s.OnDuplicate != nil {
		sc := newScope(sql, p.m)
		if err := sc.add(s.Table, "", s.Pos); err != nil {
			return nil, err
		}
		set, err := p.assignments(sc, e, s.Table, s.OnDuplicate, args)
		if err != nil {
			return nil, err
		}
		for _, a := range set {
			if e.IsKeyColumn(a.Column) {
				return nil, errs.New(errs.Unsupported, "ON DUPLICATE KEY UPDATE of %s, a column of the key, is not supported", a.Column).At(sql, s.Pos).
					WithHint("UPDATE the row instead, which moves it")
			}
		}
		if ins.FanOuts, err = p.copiesFollow(sql, s.Pos, e, set); err != nil {
			return nil, err
		}
		ins.OnDuplicate = set
		return ins, nil
	}
	ins.Batches = batches(e, ins.Rows)
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
			return nil, errs.New(errs.Invalid, "the statement has a placeholder ?%d but only %d argument(s) were given", x.Index+1, len(args)).
				WithHint("pass one argument for each ?")
		}
		return args[x.Index], nil
	}
	return nil, errs.New(errs.Unsupported, "VALUES takes constants, not %s", parser.Format(e))
}

// checkKeys renders every key template of e from row, so that a missing
// key column is an error before any request, naming the column.
func checkKeys(e *mapping.Entity, row mapping.Row) error {
	for _, attr := range keyAttrs(e) {
		t := e.Templates[attr]
		if _, err := t.Render(row); err != nil {
			for _, c := range t.Columns() {
				if row[c] == nil {
					return errs.New(errs.Invalid, "%s needs a value for %s: it is part of the key %s = %q", e.Name, c, attr, t.Raw).
						WithHint("give %s a non-empty value", c)
				}
			}
			return errs.New(errs.Invalid, "%s key %s = %q: %v", e.Name, attr, t.Raw, err)
		}
	}
	return nil
}

// batches splits rows into transactions of at most 100 items and about
// 4 MB.
func batches(e *mapping.Entity, rows []mapping.Row) []int {
	sizes := make([]int, len(rows))
	for i, row := range rows {
		sizes[i] = ItemSize(e, row)
	}
	return Batches(sizes, maxTransactItems, 0)
}

// Batches splits actions of the given estimated sizes, in order, into
// transactions of at most maxItems actions whose sizes, plus reserved
// bytes the transaction carries besides, stay under about 4 MB
// (DYNAMODB.md 3.1). It returns the end index (exclusive) of each; an
// action too large for any transaction goes alone, for DynamoDB to
// refuse.
func Batches(sizes []int, maxItems, reserved int) []int {
	var ends []int
	n, size := 0, reserved
	for i, s := range sizes {
		if n == maxItems || (n > 0 && size+s > maxTransactBytes) {
			ends = append(ends, i)
			n, size = 0, reserved
		}
		n++
		size += s
	}
	return append(ends, len(sizes))
}

// ItemSize estimates the size DynamoDB counts for the item of row:
// attribute names plus values.
func ItemSize(e *mapping.Entity, row mapping.Row) int {
	size := 0
	for attr, t := range e.Templates {
		s, _ := t.Render(row)
		size += len(attr) + len(s)
	}
	for col, v := range row {
		size += len(col) + len(value.Text(v)) + 1
	}
	return size
}

// assignments resolves SET (or ON DUPLICATE KEY UPDATE) against the
// entity: each value must be a constant of the column's type, NULL, or
// the column itself plus or minus a number, which DynamoDB computes.
func (p *Planner) assignments(sc *scope, e *mapping.Entity, alias string, in []parser.Assignment, args []value.Value) ([]*Assign, error) {
	var out []*Assign
	seen := map[string]bool{}
	for _, a := range in {
		typ, err := e.Column(a.Column)
		if err != nil {
			return nil, errs.As(err).At(sc.sql, -1)
		}
		if seen[a.Column] {
			return nil, errs.New(errs.Invalid, "column %s is assigned twice", a.Column).At(sc.sql, -1)
		}
		seen[a.Column] = true
		x, err := sc.resolve(a.Expr, args)
		if err != nil {
			return nil, err
		}
		switch v := x.(type) {
		case *parser.Literal:
			cv, err := e.Convert(a.Column, v.Value)
			if err != nil {
				return nil, errs.As(err).At(sc.sql, -1)
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
			if ok1 && ok2 && c.Name == a.Column && c.Table == alias && (v.Op == '+' || v.Op == '-') && typ == "N" {
				out = append(out, &Assign{Column: a.Column, Expr: &parser.Arith{Op: v.Op, L: c, R: n}})
				continue
			}
		}
		return nil, errs.New(errs.Unsupported, "SET %s = %s: DynamoDB can only set a constant or add to or subtract from the column itself",
			a.Column, parser.Format(x)).At(sc.sql, -1).
			WithHint("write SET %s = <value>, or SET %s = %s + <number>", a.Column, a.Column, a.Column)
	}
	return out, nil
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

// copier returns the entity holding copy c.
func copier(m *mapping.Mapping, c *mapping.Copy) *mapping.Entity {
	for _, name := range m.EntityNames() {
		if m.Entities[name].Copies[c.Column] == c {
			return m.Entities[name]
		}
	}
	return nil
}

func (p *Planner) fanOut(c *mapping.Copy) (*FanOut, error) {
	cp := copier(p.m, c)
	if !p.m.ProjectsAll(c.Path, cp, []string{c.Column}) {
		return nil, errs.New(errs.Unsupported, "the copies %s.%s are found through index %s, which does not project %s",
			cp.Name, c.Column, c.Path.Index, c.Column).WithHint("project ALL attributes (or INCLUDE %s) in %s", c.Column, c.Path.Index)
	}
	return &FanOut{Table: p.m.Table, Copy: c, Copier: cp, SourceKey: sourceKeyColumn(c.Source)}, nil
}

// sourceKeyColumn is the one column a copy's source is keyed by (the
// mapping checks there is exactly one).
func sourceKeyColumn(e *mapping.Entity) string {
	var cols []string
	for _, attr := range baseAttrs(e) {
		cols = append(cols, e.Templates[attr].Columns()...)
	}
	return cols[0]
}
