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

// Inputs implements Node.
func (f *Filter) Inputs() []Node { return []Node{f.Input} }

// Describe implements Node.
func (f *Filter) Describe() (string, []string) { return "filter " + parser.Format(f.Cond), nil }

// Union reads each input in turn and passes each row once, however many
// inputs read it (rows are told apart by all their columns, which include
// their keys).
type Union struct {
	Branches []Node
}

// Inputs implements Node.
func (u *Union) Inputs() []Node { return u.Branches }

// Describe implements Node.
func (u *Union) Describe() (string, []string) {
	return "union (a row read by two branches is kept once)", nil
}

// Dedupe keeps the first joined row of each combination of the rows of
// Slots (their base keys tell rows apart): a semi join's outer rows,
// once however many rows of the subquery matched.
type Dedupe struct {
	Input Node
	Slots []int
}

// Inputs implements Node.
func (d *Dedupe) Inputs() []Node { return []Node{d.Input} }

// Describe implements Node.
func (d *Dedupe) Describe() (string, []string) {
	return "semi-join: each row of the outer tables once, whatever the subquery matched", nil
}

// SubqueryDistinct keeps the first of the rows of a subquery's table,
// read first, that agree on Columns, the columns the rest of the plan
// compares: any one of them leads to the same outer rows. With no
// Columns the first row stands for all, and reading stops there.
type SubqueryDistinct struct {
	Input   Node
	Columns []*parser.Column
}

// Inputs implements Node.
func (d *SubqueryDistinct) Inputs() []Node { return []Node{d.Input} }

// Describe implements Node.
func (d *SubqueryDistinct) Describe() (string, []string) {
	if len(d.Columns) == 0 {
		return "first row only: the statement compares none of the subquery's columns", nil
	}
	cols := make([]parser.Expr, len(d.Columns))
	for i, c := range d.Columns {
		cols[i] = c
	}
	return "distinct " + exprList(cols) + ": the subquery's rows once per value the rest of the statement compares", nil
}

// TopRead ends early the backward read of a descending ORDER BY ...
// LIMIT on the first free column of a composite string sort key; the
// Sort step above sorts what it passes. Key order and the column's order
// differ only for a value that extends another with a character at or
// below the first of the separator that follows it in the key
// ("2023-05-10 late" sorts below "2023-05-10#...", and, with "#ITEM"
// after it, "o#2#ITEM" below "o#ITEM"), and such rows come right after
// the shorter value's in a backward read. So once Rows rows have come,
// it passes on only rows whose value is the least of those first Rows
// values or extends it with such a character; the first other row, and
// every row after it, ranks below them all, and the read stops there.
// Its input is the Query, or a Filter over it: the rows counted are
// those the filter keeps.
type TopRead struct {
	Input  Node
	Slot   int
	Rows   int64  // LIMIT plus OFFSET
	Column string // the sort key's first free column
	Sep    string // the literal that follows it in the key
}

// Inputs implements Node.
func (t *TopRead) Inputs() []Node { return []Node{t.Input} }

// Describe implements Node.
func (t *TopRead) Describe() (string, []string) {
	return fmt.Sprintf("top %d by %s, read backward", t.Rows, t.Column), []string{
		fmt.Sprintf("after %d rows, only those whose %s is the least of theirs or that value and a character at or below %q (sorted next)", t.Rows, t.Column, t.Sep[:1]),
	}
}

// Project computes the output columns from each joined row. Exprs may
// hold more columns than the statement prints: hidden sort keys, which
// Trim drops after Sort.
type Project struct {
	Input Node
	Exprs []parser.Expr
	Names []string
}

// Inputs implements Node.
func (p *Project) Inputs() []Node { return []Node{p.Input} }

// Describe implements Node.
func (p *Project) Describe() (string, []string) { return "project " + exprList(p.Exprs), nil }

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

// Inputs implements Node.
func (a *Aggregate) Inputs() []Node { return []Node{a.Input} }

// Describe implements Node.
func (a *Aggregate) Describe() (string, []string) {
	title := "aggregate " + exprList(a.Exprs)
	var d []string
	if len(a.Group) > 0 {
		d = append(d, "group by: "+exprList(a.Group))
	}
	if a.Having != nil {
		d = append(d, "having: "+parser.Format(a.Having))
	}
	return title, d
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

// Inputs implements Node.
func (s *Sort) Inputs() []Node { return []Node{s.Input} }

// Describe implements Node.
func (s *Sort) Describe() (string, []string) {
	parts := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		parts[i] = s.Names[k.Column]
		if k.Desc {
			parts[i] += " DESC"
		}
	}
	return "sort " + strings.Join(parts, ", "), nil
}

// Distinct drops repeated output rows.
type Distinct struct {
	Input Node
}

// Inputs implements Node.
func (d *Distinct) Inputs() []Node { return []Node{d.Input} }

// Describe implements Node.
func (d *Distinct) Describe() (string, []string) { return "distinct", nil }

// Limit skips Offset rows, then passes at most Count (all when Count < 0).
// Reads below it stop as soon as it has what it needs.
type Limit struct {
	Input  Node
	Offset int64
	Count  int64
}

// Inputs implements Node.
func (l *Limit) Inputs() []Node { return []Node{l.Input} }

// Describe implements Node.
func (l *Limit) Describe() (string, []string) {
	title := fmt.Sprintf("limit %d", l.Count)
	if l.Count < 0 {
		title = "limit all"
	}
	if l.Offset > 0 {
		title += fmt.Sprintf(" offset %d", l.Offset)
	}
	return title, nil
}

// AllColumns is the name of the column that stands for every attribute
// of a raw table's row (its SELECT *): a map, which Spread turns into
// columns.
const AllColumns = "*"

// Spread turns the map of every attribute of a raw table's row (the
// AllColumns columns at Stars) into columns: one per attribute any row
// holds, the table's key attributes first (Keys, per star), then by
// name; NULL where a row lacks one. The columns are known only once
// every row is read, so Spread reads them all first. The base key
// attributes (Base, per star), which every item has, are columns even
// when no row is read.
type Spread struct {
	Input Node
	Names []string // the output columns' names, the stars' too
	Stars []int
	Keys  [][]string
	Base  [][]string
}

// Inputs implements Node.
func (s *Spread) Inputs() []Node { return []Node{s.Input} }

// Describe implements Node.
func (s *Spread) Describe() (string, []string) {
	return "spread * into the attributes the rows hold (keys first, then by name; read to the end first)", nil
}

// Trim keeps the first N output columns, dropping hidden sort keys.
type Trim struct {
	Input Node
	N     int
}

// Inputs implements Node.
func (t *Trim) Inputs() []Node { return []Node{t.Input} }

// Describe implements Node.
func (t *Trim) Describe() (string, []string) {
	return fmt.Sprintf("keep the first %d column(s)", t.N), nil
}

var (
	_ Node = (*GetItem)(nil)
	_ Node = (*Query)(nil)
	_ Node = (*BatchGet)(nil)
	_ Node = (*Join)(nil)
	_ Node = (*PartitionJoin)(nil)
	_ Node = (*Refetch)(nil)
	_ Node = (*Dedupe)(nil)
	_ Node = (*SubqueryDistinct)(nil)
	_ Node = (*TopRead)(nil)
	_ Node = (*Scan)(nil)
	_ Node = (*Spread)(nil)
	_ Node = (*Filter)(nil)
	_ Node = (*Union)(nil)
	_ Node = (*Project)(nil)
	_ Node = (*Aggregate)(nil)
	_ Node = (*Sort)(nil)
	_ Node = (*Distinct)(nil)
	_ Node = (*Limit)(nil)
	_ Node = (*Trim)(nil)
)
