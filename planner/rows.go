package planner

import (
	"fmt"
	"strings"

	"github.com/dynosql/dynosql/parser"
)

// Filter keeps the rows for which Cond is true (SQL's three-valued logic:
// unknown drops the row).
type Filter struct {
	Input Node
	Cond  parser.Expr
}

// Describe implements Node.
func (f *Filter) Describe() (string, []string, []Node) {
	return "filter " + parser.Format(f.Cond), nil, []Node{f.Input}
}

// Union reads each input in turn and passes each row once, however many
// inputs read it (rows are told apart by all their columns, which include
// their keys).
type Union struct {
	Inputs []Node
}

// Describe implements Node.
func (u *Union) Describe() (string, []string, []Node) {
	return "union (a row read by two branches is kept once)", nil, u.Inputs
}

// Project computes the output columns from each joined row. Exprs may
// hold more columns than the statement prints: hidden sort keys, which
// Trim drops after Sort.
type Project struct {
	Input Node
	Exprs []parser.Expr
	Names []string
}

// Describe implements Node.
func (p *Project) Describe() (string, []string, []Node) {
	return "project " + exprList(p.Exprs), nil, []Node{p.Input}
}

// Aggregate groups joined rows by Group and computes Exprs (which may
// call aggregate functions) once per group. Without Group it yields one
// row, even over no input. Having filters groups.
type Aggregate struct {
	Input  Node
	Group  []parser.Expr
	Exprs  []parser.Expr
	Names  []string
	Having parser.Expr
}

// Describe implements Node.
func (a *Aggregate) Describe() (string, []string, []Node) {
	title := "aggregate " + exprList(a.Exprs)
	var d []string
	if len(a.Group) > 0 {
		d = append(d, "group by: "+exprList(a.Group))
	}
	if a.Having != nil {
		d = append(d, "having: "+parser.Format(a.Having))
	}
	return title, d, []Node{a.Input}
}

// SortKey orders output rows by one output column.
type SortKey struct {
	Column int
	Desc   bool
}

// Sort orders output rows; NULLs sort first, as in SQLite.
type Sort struct {
	Input Node
	Keys  []SortKey
	Names []string // the columns' names, for EXPLAIN
}

// Describe implements Node.
func (s *Sort) Describe() (string, []string, []Node) {
	parts := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		parts[i] = s.Names[k.Column]
		if k.Desc {
			parts[i] += " DESC"
		}
	}
	return "sort " + strings.Join(parts, ", "), nil, []Node{s.Input}
}

// Distinct drops repeated output rows.
type Distinct struct {
	Input Node
}

// Describe implements Node.
func (d *Distinct) Describe() (string, []string, []Node) {
	return "distinct", nil, []Node{d.Input}
}

// Limit skips Offset rows, then passes at most Count (all when Count < 0).
// Reads below it stop as soon as it has what it needs.
type Limit struct {
	Input  Node
	Offset int64
	Count  int64
}

// Describe implements Node.
func (l *Limit) Describe() (string, []string, []Node) {
	title := fmt.Sprintf("limit %d", l.Count)
	if l.Count < 0 {
		title = "limit all"
	}
	if l.Offset > 0 {
		title += fmt.Sprintf(" offset %d", l.Offset)
	}
	return title, nil, []Node{l.Input}
}

// Trim keeps the first N output columns, dropping hidden sort keys.
type Trim struct {
	Input Node
	N     int
}

// Describe implements Node.
func (t *Trim) Describe() (string, []string, []Node) {
	return fmt.Sprintf("keep the first %d column(s)", t.N), nil, []Node{t.Input}
}

var (
	_ Node = (*GetItem)(nil)
	_ Node = (*Query)(nil)
	_ Node = (*BatchGet)(nil)
	_ Node = (*Join)(nil)
	_ Node = (*PartitionJoin)(nil)
	_ Node = (*Filter)(nil)
	_ Node = (*Union)(nil)
	_ Node = (*Project)(nil)
	_ Node = (*Aggregate)(nil)
	_ Node = (*Sort)(nil)
	_ Node = (*Distinct)(nil)
	_ Node = (*Limit)(nil)
	_ Node = (*Trim)(nil)
)
