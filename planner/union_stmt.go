package planner

import (
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// UnionRows passes the rows of each side in turn: the sides of SELECT
// ... UNION [ALL] SELECT ..., each a whole plan of its own (its own
// tables, served by its own keys). UNION without ALL is a Distinct above
// it.
type UnionRows struct {
	Sides []*Plan
	All   bool
}

// Inputs implements Node: the sides' roots.
func (u *UnionRows) Inputs() []Node {
	out := make([]Node, len(u.Sides))
	for i, s := range u.Sides {
		out[i] = s.Root
	}
	return out
}

// Describe implements Node.
func (u *UnionRows) Describe() (string, []string) {
	if u.All {
		return "union all", nil
	}
	return "union", nil
}

// planUnion plans each side as a statement of its own, then the union's
// DISTINCT (without ALL), ORDER BY (by output column name or position)
// and LIMIT over their rows.
func (p *Planner) planUnion(sql string, u *parser.Union, args []value.Value) (*Plan, error) {
	var sides []*Plan
	for _, s := range []parser.Statement{u.Left, u.Right} {
		var side *Plan
		var err error
		switch x := s.(type) {
		case *parser.Select:
			side, err = p.planSelect(sql, x, args)
		case *parser.Union:
			side, err = p.planUnion(sql, x, args)
		}
		if err != nil {
			return nil, err
		}
		if sp, ok := side.Root.(*Spread); ok {
			// Each side's * spreads into the attributes its own items
			// hold: the sides' columns would not line up.
			return nil, errs.New(errs.Unsupported, "a UNION of %s: its columns are the attributes the items hold, known only once read", sp.Names[sp.Stars[0]]).
				WithHint("name the columns on each side of the UNION")
		}
		sides = append(sides, side)
	}
	cols := sides[0].Columns
	if len(sides[1].Columns) != len(cols) {
		return nil, errs.New(errs.Invalid, "the SELECTs of a UNION return %d and %d columns", len(cols), len(sides[1].Columns)).
			At(sql, u.Pos).WithHint("select as many columns on each side")
	}
	merged := make([]Column, len(cols))
	for i, c := range cols {
		merged[i] = c
		if c.Type != sides[1].Columns[i].Type {
			merged[i].Type = "" // the sides disagree: each value keeps its own
		}
	}
	var root Node = &UnionRows{Sides: sides, All: u.All}
	if !u.All {
		root = &Distinct{Input: root}
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	var keys []SortKey
	for _, o := range u.OrderBy {
		i, err := unionColumn(o.Expr, names)
		if err != nil {
			return nil, err.At(sql, o.Pos)
		}
		keys = append(keys, SortKey{Column: i, Desc: o.Desc})
	}
	if len(keys) > 0 {
		root = &Sort{Input: root, Keys: keys, Names: names}
	}
	limit, offset, err := limitOffset(u.Limit, u.Offset, args)
	if err != nil {
		return nil, err
	}
	if limit >= 0 || offset > 0 {
		root = &Limit{Input: root, Count: limit, Offset: offset}
	}
	return &Plan{SQL: sql, Root: root, Columns: merged}, nil
}

// unionColumn finds an ORDER BY term of a UNION among the output
// columns: by position (1-based) or by name.
func unionColumn(e parser.Expr, names []string) (int, *errs.Error) {
	switch x := e.(type) {
	case *parser.Literal:
		if n, ok := x.Value.(value.Number); ok {
			// Int64 of a number past int64 is its low bits: 2^64 + 1 would be 1.
			if r, _ := n.Rat(); r.IsInt() && r.Num().IsInt64() && r.Num().Int64() >= 1 && r.Num().Int64() <= int64(len(names)) {
				return int(r.Num().Int64()) - 1, nil
			}
		}
	case *parser.Column:
		for i, n := range names {
			if n == x.Name && x.Table == "" {
				return i, nil
			}
		}
	}
	return 0, errs.New(errs.Invalid, "ORDER BY %s: a UNION is ordered by its output columns, by name or position", parser.Format(e)).
		WithHint("order by one of %v, or by its position", names)
}
