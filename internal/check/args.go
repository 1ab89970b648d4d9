package check

import (
	"fmt"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// The ? placeholders of a statement are planned with dummy arguments,
// each of the type the statement gives it: the type of the column it is
// compared with, assigned to or inserted into; a number for LIMIT,
// OFFSET and arithmetic; a string where nothing says (? = ?). Dummies
// are distinct and rise with the placeholder's number, so that
// BETWEEN ? AND ? is a range that admits keys and IN (?, ?) holds two
// values. A LIKE pattern is a prefix ('{?1}%'), the case a key serves.
// The plan's shape (which requests, how many) does not depend on the
// values, only on their types, which is what check reports.

// dummyArgs returns an argument for each placeholder of stmt.
func dummyArgs(m lookup, stmt parser.Statement) []any {
	t := typer{m: m, aliases: map[string]*mapping.Entity{}, types: map[int]string{}}
	t.statement(stmt)
	// Every placeholder gets one, those of subqueries and UNIONs
	// included; one nothing types is a string.
	n := max(parser.Placeholders(stmt), 0)
	for i := range t.types {
		n = max(n, i+1)
	}
	args := make([]any, n)
	for i := range args {
		args[i] = dummy(t.types[i], i)
	}
	return args
}

// like marks a placeholder that is a LIKE pattern.
const like = "LIKE"

// dummy is the i-th placeholder's argument for a column of type typ.
func dummy(typ string, i int) any {
	text := fmt.Sprintf("{?%03d}", i+1)
	switch typ {
	case "N":
		return i + 1
	case "B":
		return []byte(text)
	case "BOOL":
		return true
	case "SS":
		return []string{text}
	case "NS":
		return value.NumberSet{value.Number(fmt.Sprint(i + 1))}
	case "L":
		return []any{text}
	case "M":
		return map[string]any{"k": text}
	case like:
		return text + "%"
	}
	return text
}

// lookup finds a table a statement names: an entity of the mapping, or,
// connected, a table read raw.
type lookup func(name string) (*mapping.Entity, error)

// typer finds the type each placeholder of a statement takes.
type typer struct {
	m       lookup
	aliases map[string]*mapping.Entity
	order   []*mapping.Entity // the statement's tables, in order
	types   map[int]string    // placeholder index → type
}

func (t *typer) table(name, alias string) {
	e, err := t.m(name)
	if err != nil {
		return // planning reports it
	}
	if alias == "" {
		alias = name
	}
	t.aliases[alias] = e
	t.order = append(t.order, e)
}

func (t *typer) statement(stmt parser.Statement) {
	switch s := stmt.(type) {
	case *parser.Explain:
		t.statement(s.Statement)
	case *parser.Union:
		t.sub().statement(s.Left)
		t.sub().statement(s.Right)
		t.number(s.Limit)
		t.number(s.Offset)
	case *parser.Select:
		for _, f := range s.From {
			t.table(f.Name, f.Alias)
		}
		for _, c := range s.Columns {
			t.expr(c.Expr)
		}
		for _, f := range s.From {
			t.expr(f.On)
		}
		t.expr(s.Where)
		t.expr(s.Having)
		t.number(s.Limit)
		t.number(s.Offset)
	case *parser.Insert:
		t.table(s.Table, "")
		for _, row := range s.Rows {
			for i, e := range row {
				if i < len(s.Columns) {
					t.assign(s.Columns[i], e)
				}
			}
		}
		for _, a := range s.OnDuplicate {
			t.assign(a.Column, a.Expr)
		}
	case *parser.Update:
		t.table(s.Table, s.Alias)
		for _, a := range s.Set {
			t.assign(a.Column, a.Expr)
		}
		t.expr(s.Where)
	case *parser.Delete:
		t.table(s.Table, s.Alias)
		t.expr(s.Where)
	case *parser.CheckCopies:
		t.table(s.Table, "")
		t.expr(s.Where)
	}
}

// sub returns a typer for a subquery or a side of a UNION: its own
// tables first, then those of the statement around it (a correlated
// subquery names them).
func (t *typer) sub() *typer {
	s := &typer{m: t.m, aliases: map[string]*mapping.Entity{}, types: t.types}
	for a, e := range t.aliases {
		s.aliases[a] = e
	}
	return s
}

// subquery types the placeholders of a subquery, and returns the type
// of the one column it selects ("" when unknown).
func (t *typer) subquery(sel *parser.Select) string {
	s := t.sub()
	s.statement(sel)
	s.order = append(s.order, t.order...)
	if len(sel.Columns) == 1 {
		return s.typeOf(sel.Columns[0].Expr)
	}
	return ""
}

// set gives placeholder e the type typ, if e is one.
func (t *typer) set(e parser.Expr, typ string) {
	if p, ok := e.(*parser.Placeholder); ok {
		t.types[p.Index] = typ
	}
}

func (t *typer) number(e parser.Expr) { t.set(e, "N") }

// assign types a value assigned to (or inserted into) column col of the
// statement's one table.
func (t *typer) assign(col string, e parser.Expr) {
	if len(t.order) > 0 {
		if typ, err := t.order[0].Column(col); err == nil {
			t.set(e, typ)
		}
	}
	t.expr(e)
}

// typeOf is the type of a column reference, "" when unknown.
func (t *typer) typeOf(e parser.Expr) string {
	c, ok := e.(*parser.Column)
	if !ok {
		if _, arith := e.(*parser.Arith); arith {
			return "N"
		}
		return ""
	}
	entities := t.order
	if c.Table != "" {
		entities = []*mapping.Entity{t.aliases[c.Table]}
	}
	for _, en := range entities {
		if en == nil {
			continue
		}
		if typ, err := en.Column(c.Name); err == nil {
			return typ
		}
	}
	return ""
}

// expr types the placeholders of a condition or value by what they meet.
func (t *typer) expr(e parser.Expr) {
	parser.Walk(e, func(x parser.Expr) bool {
		switch x := x.(type) {
		case *parser.Compare:
			t.set(x.R, t.typeOf(x.L))
			t.set(x.L, t.typeOf(x.R))
		case *parser.In:
			for _, v := range x.List {
				t.set(v, t.typeOf(x.Expr))
			}
		case *parser.Between:
			t.set(x.Lo, t.typeOf(x.Expr))
			t.set(x.Hi, t.typeOf(x.Expr))
		case *parser.Like:
			t.set(x.Pattern, like)
		case *parser.Arith:
			t.number(x.L)
			t.number(x.R)
		case *parser.InSelect: // Walk goes into neither side
			typ := t.subquery(x.Select)
			t.set(x.Expr, typ)
			t.expr(x.Expr)
		case *parser.Exists:
			t.subquery(x.Select)
		}
		return true
	})
}
