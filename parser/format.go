package parser

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/value"
)

// Format prints e as SQL that Parse reads back to the same tree: columns
// as t.col (backquoted when they are not plain names), strings single-
// quoted with ' and \ doubled or escaped, numbers bare, TRUE, FALSE,
// NULL, placeholders as ?, and parentheses only where precedence needs
// them. EXPLAIN and error messages use it.
func Format(e Expr) string {
	var b strings.Builder
	formatter{b: &b}.expr(e, 0)
	return b.String()
}

// formatter prints expressions; dump marks each placeholder with its
// index, for Dump.
type formatter struct {
	b    *strings.Builder
	dump bool
}

// Operator precedence, loosest first, as MySQL binds them.
const (
	precOr = 1 + iota
	precAnd
	precNot
	precCompare // = <> < ... IN BETWEEN LIKE IS
	precAdd     // + -
	precMul     // * /
	precAtom
)

func precedence(e Expr) int {
	switch e := e.(type) {
	case *Or:
		return precOr
	case *And:
		return precAnd
	case *Not:
		return precNot
	case *Compare, *In, *Between, *Like, *IsNull, *InSelect:
		return precCompare
	case *Arith:
		if e.Op == '+' || e.Op == '-' {
			return precAdd
		}
		return precMul
	}
	return precAtom
}

// expr prints e, in parentheses when it binds looser than min.
func (f formatter) expr(e Expr, min int) {
	p := precedence(e)
	if p < min {
		f.b.WriteByte('(')
		defer f.b.WriteByte(')')
	}
	switch e := e.(type) {
	case nil:
		f.b.WriteString("<nil>")
	case *Column:
		if e.Table != "" {
			f.b.WriteString(Ident(e.Table) + ".")
		}
		f.b.WriteString(Ident(e.Name))
	case *Literal:
		f.b.WriteString(literal(e.Value))
	case *Placeholder:
		f.b.WriteString("?")
		if f.dump {
			fmt.Fprintf(f.b, "[%d]", e.Index)
		}
	case *Compare:
		f.binary(e.L, e.Op, e.R, precAdd, precAdd)
	case *Arith:
		f.binary(e.L, string(e.Op), e.R, p, p+1)
	case *And:
		f.binary(e.L, "AND", e.R, p, p+1)
	case *Or:
		f.binary(e.L, "OR", e.R, p, p+1)
	case *Not:
		f.b.WriteString("NOT ")
		f.expr(e.E, precNot)
	case *In:
		f.expr(e.Expr, precAdd)
		f.b.WriteString(not(e.Not) + " IN (")
		f.list(e.List)
		f.b.WriteString(")")
	case *Between:
		f.expr(e.Expr, precAdd)
		f.b.WriteString(not(e.Not) + " BETWEEN ")
		f.expr(e.Lo, precAdd)
		f.b.WriteString(" AND ")
		f.expr(e.Hi, precAdd)
	case *Like:
		f.binary(e.Expr, strings.TrimSpace(not(e.Not)+" LIKE"), e.Pattern, precAdd, precAdd)
		if e.Escape != '\\' && e.Escape != 0 {
			f.b.WriteString(" ESCAPE " + literal(string(e.Escape)))
		}
	case *IsNull:
		f.expr(e.Expr, precAdd)
		f.b.WriteString(" IS" + not(e.Not) + " NULL")
	case *InSelect:
		f.expr(e.Expr, precAdd)
		f.b.WriteString(not(e.Not) + " IN (")
		f.selectText(e.Select)
		f.b.WriteString(")")
	case *Exists:
		f.b.WriteString("EXISTS (")
		f.selectText(e.Select)
		f.b.WriteString(")")
	case *Func:
		f.b.WriteString(e.Name + "(")
		if e.Distinct {
			f.b.WriteString("DISTINCT ")
		}
		if e.Star {
			f.b.WriteString("*")
		}
		f.list(e.Args)
		f.b.WriteString(")")
	default:
		fmt.Fprintf(f.b, "<%T>", e)
	}
}

// selectText prints a subquery's SELECT: its columns as written, its
// tables and its WHERE.
func (f formatter) selectText(s *Select) {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = c.Text
	}
	f.b.WriteString("SELECT " + strings.Join(cols, ", ") + " FROM ")
	for i, t := range s.From {
		if i > 0 {
			f.b.WriteString(", ")
		}
		f.b.WriteString(Ident(t.Name))
		if t.Alias != t.Name {
			f.b.WriteString(" " + Ident(t.Alias))
		}
	}
	if s.Where != nil {
		f.b.WriteString(" WHERE ")
		f.expr(s.Where, 0)
	}
}

func (f formatter) binary(l Expr, op string, r Expr, lmin, rmin int) {
	f.expr(l, lmin)
	f.b.WriteString(" " + op + " ")
	f.expr(r, rmin)
}

func (f formatter) list(es []Expr) {
	for i, e := range es {
		if i > 0 {
			f.b.WriteString(", ")
		}
		f.expr(e, 0)
	}
}

func not(b bool) string {
	if b {
		return " NOT"
	}
	return ""
}

// literal prints a constant as SQL. Backslashes are escaped because
// MySQL, and so sqlparser, read them as escapes inside strings; so are
// the control characters MySQL has an escape for, which would otherwise
// break the line (\n, \r) or the statement (NUL) they are printed in.
func literal(v value.Value) string {
	switch v := v.(type) {
	case string:
		return "'" + stringEscaper.Replace(v) + "'"
	case bool:
		return strings.ToUpper(fmt.Sprint(v))
	}
	return value.Literal(v)
}

var stringEscaper = strings.NewReplacer(`'`, `''`, `\`, `\\`, "\x00", `\0`, "\n", `\n`, "\r", `\r`, "\b", `\b`, "\x1a", `\Z`)

var (
	plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	bareOK    sync.Map // name → bool: whether sqlparser reads it unquoted as a column
)

// Ident returns name as it must be written: bare when sqlparser reads it
// as a column name that way (keywords such as year and status included),
// else backquoted.
func Ident(name string) string {
	if plainName.MatchString(name) {
		ok, seen := bareOK.Load(name)
		if !seen {
			_, err := sqlparser.ParseStrictDDL("select " + name + " from t")
			ok = err == nil
			bareOK.Store(name, ok)
		}
		if ok.(bool) {
			return name
		}
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// Walk calls fn for e and, while fn returns true, for its children, in
// pre-order (operands in the order they are written). A nil e is not
// visited.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	var kids []Expr
	switch e := e.(type) {
	case *Compare:
		kids = []Expr{e.L, e.R}
	case *Arith:
		kids = []Expr{e.L, e.R}
	case *And:
		kids = []Expr{e.L, e.R}
	case *Or:
		kids = []Expr{e.L, e.R}
	case *Not:
		kids = []Expr{e.E}
	case *In:
		kids = append([]Expr{e.Expr}, e.List...)
	case *Between:
		kids = []Expr{e.Expr, e.Lo, e.Hi}
	case *Like:
		kids = []Expr{e.Expr, e.Pattern}
	case *IsNull:
		kids = []Expr{e.Expr}
	case *Func:
		kids = e.Args
	}
	for _, k := range kids {
		Walk(k, fn)
	}
}
