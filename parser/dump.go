package parser

import (
	"fmt"
	"strings"
)

// Dump prints a statement's tree one clause per line, for golden tests
// and the REPL's debugging. Expressions are printed by Format, except that
// each placeholder shows its index (?[0]); positions show as @offset.
func Dump(s Statement) string {
	var b strings.Builder
	dump(&b, s, "")
	return b.String()
}

func dump(b *strings.Builder, s Statement, indent string) {
	line := func(format string, args ...any) {
		fmt.Fprintf(b, indent+format+"\n", args...)
	}
	ex := func(e Expr) string {
		var sb strings.Builder
		formatter{b: &sb, dump: true}.expr(e, 0)
		return sb.String()
	}
	exs := func(es []Expr) string {
		parts := make([]string, len(es))
		for i, e := range es {
			parts[i] = ex(e)
		}
		return strings.Join(parts, ", ")
	}
	sets := func(label string, as []Assignment) {
		for _, a := range as {
			line("  %s %s = %s", label, Ident(a.Column), ex(a.Expr))
		}
	}
	where := func(e Expr) {
		if e != nil {
			line("  where %s", ex(e))
		}
	}
	orderLimit := func(order []OrderItem, limit, offset Expr) {
		for _, o := range order {
			dir := "asc"
			if o.Desc {
				dir = "desc"
			}
			line("  order by %s %s", ex(o.Expr), dir)
		}
		if limit != nil {
			line("  limit %s", ex(limit))
		}
		if offset != nil {
			line("  offset %s", ex(offset))
		}
	}
	switch s := s.(type) {
	case *Select:
		if s.Distinct {
			line("select distinct")
		} else {
			line("select")
		}
		for _, c := range s.Columns {
			switch {
			case c.Star && c.Table != "":
				line("  column %s.*", c.Table)
			case c.Star:
				line("  column *")
			case c.Alias != "":
				line("  column %s as %s  text %q", ex(c.Expr), c.Alias, c.Text)
			default:
				line("  column %s  text %q", ex(c.Expr), c.Text)
			}
		}
		for _, t := range s.From {
			kind := [...]string{JoinNone: "from", JoinInner: "join", JoinLeft: "left join", JoinComma: "comma"}[t.Join]
			on := ""
			if t.On != nil {
				on = " on " + ex(t.On)
			}
			line("  %s %s as %s @%d%s", kind, t.Name, t.Alias, t.Pos, on)
		}
		where(s.Where)
		if s.GroupBy != nil {
			line("  group by %s", exs(s.GroupBy))
		}
		if s.Having != nil {
			line("  having %s", ex(s.Having))
		}
		orderLimit(s.OrderBy, s.Limit, s.Offset)
	case *Insert:
		line("insert %s @%d", s.Table, s.Pos)
		line("  columns %s", strings.Join(s.Columns, ", "))
		for _, r := range s.Rows {
			line("  row %s", exs(r))
		}
		sets("on duplicate set", s.OnDuplicate)
	case *Update:
		line("update %s as %s @%d", s.Table, s.Alias, s.Pos)
		sets("set", s.Set)
		where(s.Where)
	case *Delete:
		line("delete %s as %s @%d", s.Table, s.Alias, s.Pos)
		where(s.Where)
	case *Explain:
		head := "explain"
		if s.Analyze {
			head += " analyze"
		}
		if s.Format != "" {
			head += " format " + s.Format
		}
		line("%s", head)
		dump(b, s.Statement, indent+"  ")
	case *Union:
		if s.All {
			line("union all")
		} else {
			line("union")
		}
		dump(b, s.Left, indent+"  ")
		dump(b, s.Right, indent+"  ")
		orderLimit(s.OrderBy, s.Limit, s.Offset)
	case *Begin:
		line("begin")
	case *Commit:
		line("commit")
	case *Rollback:
		line("rollback")
	case *ShowTables:
		line("show tables")
	case *Describe:
		line("describe %s @%d", s.Table, s.Pos)
	case *CheckCopies:
		verb := "check"
		if s.Repair {
			verb = "repair"
		}
		line("%s copies %s @%d", verb, s.Table, s.Pos)
		where(s.Where)
	default:
		line("%T", s)
	}
}
