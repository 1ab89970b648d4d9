package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
)

// statement parses c.src with sqlparser and converts the result.
func (c *converter) statement() (Statement, *errs.Error) {
	if err := c.checkNesting(); err != nil {
		return nil, err
	}
	marked := markEscapes(c.src)
	st, err := sqlparser.ParseStrictDDL(marked)
	if err != nil {
		return nil, c.syntaxError(err)
	}
	if marked != c.src {
		restoreStrings(st)
	}
	switch s := st.(type) {
	case *sqlparser.Select:
		return c.selectStmt(s)
	case *sqlparser.ParenSelect:
		return c.unionSide(s)
	case *sqlparser.Union:
		return c.union(s)
	case *sqlparser.Begin:
		return &Begin{}, nil
	case *sqlparser.Commit:
		return &Commit{}, nil
	case *sqlparser.Rollback:
		return &Rollback{}, nil
	case *sqlparser.Show:
		if s.Type == "tables" && (s.ShowTablesOpt == nil || (s.ShowTablesOpt.Filter == nil && s.ShowTablesOpt.DbName == "" && s.ShowTablesOpt.Full == "")) {
			return &ShowTables{}, nil
		}
		return nil, c.unsupported(0, "only SHOW TABLES is supported, without LIKE, WHERE or FROM").
			WithHint("dynosql shows tables (SHOW TABLES) and describes one (DESCRIBE name)")
	case *sqlparser.Insert:
		return c.insert(s)
	case *sqlparser.Update:
		return c.update(s)
	case *sqlparser.Delete:
		return c.delete(s)
	}
	first := "this"
	if len(c.toks) > 0 {
		first = strings.ToUpper(c.toks[0].val)
	}
	return nil, c.unsupported(0, "%s statements are not supported", first).
		WithHint("dynosql runs SELECT, INSERT, UPDATE, DELETE, EXPLAIN, BEGIN/COMMIT, SHOW TABLES, DESCRIBE and CHECK/REPAIR COPIES")
}

// union converts SELECT ... UNION [ALL] SELECT ...: its sides in the
// order written, then the ORDER BY and LIMIT that apply to the union.
func (c *converter) union(u *sqlparser.Union) (Statement, *errs.Error) {
	if u.Lock != "" {
		return nil, c.unsupported(c.findText("for"), "locking reads are not supported")
	}
	l, err := c.unionSide(u.Left)
	if err != nil {
		return nil, err
	}
	union := c.textPos("union") // the first after the left side's names

	r, err := c.unionSide(u.Right)
	if err != nil {
		return nil, err
	}
	out := &Union{Left: l, Right: r, All: u.Type == sqlparser.UnionAllStr, Pos: union}
	terms := c.termsAfter("order", "by")
	for _, o := range u.OrderBy {
		e, err := c.expr(o.Expr, "")
		if err != nil {
			return nil, err
		}
		out.OrderBy = append(out.OrderBy, OrderItem{Expr: e, Desc: o.Direction == sqlparser.DescScr, Pos: terms.pos(o.Expr, e)})
	}
	if u.Limit != nil {
		if out.Limit, err = c.limit(u.Limit.Rowcount); err != nil {
			return nil, err
		}
		if u.Limit.Offset != nil {
			if out.Offset, err = c.limit(u.Limit.Offset); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// unionSide converts one side of a UNION: a SELECT, a parenthesized one,
// or another UNION.
func (c *converter) unionSide(s sqlparser.SelectStatement) (Statement, *errs.Error) {
	switch x := s.(type) {
	case *sqlparser.Select:
		return c.selectStmt(x)
	case *sqlparser.ParenSelect:
		return c.unionSide(x.Select)
	case *sqlparser.Union:
		return c.union(x)
	}
	return nil, errs.New(errs.Unsupported, "statement %s is not supported", sqlparser.String(s))
}

func (c *converter) selectStmt(s *sqlparser.Select) (*Select, *errs.Error) {
	switch {
	case s.Cache != "":
		return nil, c.unsupported(c.findText(strings.TrimSpace(s.Cache)), "%s is not supported", strings.ToUpper(strings.TrimSpace(s.Cache)))
	case s.Hints != "":
		return nil, c.unsupported(c.findText("straight_join"), "STRAIGHT_JOIN is not supported")
	case s.Lock != "":
		kw := "for"
		if s.Lock == sqlparser.ShareModeStr {
			kw = "lock"
		}
		return nil, c.unsupported(c.findText(kw), "locking reads (%s) are not supported", strings.ToUpper(strings.TrimSpace(s.Lock))).
			WithHint("DynamoDB has no row locks; drop the clause")
	}
	out := &Select{Distinct: s.Distinct != ""}
	texts := c.selectTexts(s.SelectExprs)
	for i, se := range s.SelectExprs {
		col, err := c.selectColumn(se)
		if err != nil {
			return nil, err
		}
		switch {
		case col.Star:
		case texts != nil:
			col.Text = texts[i]
		default:
			col.Text = sqlparser.String(s.SelectExprs[i].(*sqlparser.AliasedExpr).Expr)
		}
		out.Columns = append(out.Columns, col)
	}
	var err *errs.Error
	if out.From, err = c.from(s.From); err != nil {
		return nil, err
	}
	if s.Where != nil {
		if out.Where, err = c.expr(s.Where.Expr, "WHERE"); err != nil {
			return nil, err
		}
	}
	terms := c.termsAfter("group", "by")
	for _, g := range s.GroupBy {
		e, err := c.expr(g, "GROUP BY")
		if err != nil {
			return nil, err
		}
		out.GroupBy = append(out.GroupBy, e)
		out.GroupByPos = append(out.GroupByPos, terms.pos(g, e))
	}
	if s.Having != nil {
		if out.Having, err = c.expr(s.Having.Expr, ""); err != nil {
			return nil, err
		}
	}
	terms = c.termsAfter("order", "by")
	for _, o := range s.OrderBy {
		e, err := c.expr(o.Expr, "")
		if err != nil {
			return nil, err
		}
		out.OrderBy = append(out.OrderBy, OrderItem{Expr: e, Desc: o.Direction == sqlparser.DescScr, Pos: terms.pos(o.Expr, e)})
	}
	if s.Limit != nil {
		if out.Limit, err = c.limit(s.Limit.Rowcount); err != nil {
			return nil, err
		}
		if s.Limit.Offset != nil {
			if out.Offset, err = c.limit(s.Limit.Offset); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// selectColumn converts one item of the select list; the Text of an
// expression is filled in by the caller.
func (c *converter) selectColumn(se sqlparser.SelectExpr) (SelectColumn, *errs.Error) {
	switch se := se.(type) {
	case *sqlparser.StarExpr:
		if se.TableName.IsEmpty() {
			return SelectColumn{Star: true, Text: "*"}, nil
		}
		if !se.TableName.Qualifier.IsEmpty() {
			return SelectColumn{}, c.unsupported(c.findText(se.TableName.Qualifier.String()), "database-qualified names are not supported")
		}
		_, t, _ := c.name("", se.TableName.Name.String())
		return SelectColumn{Star: true, Table: t, Text: t + ".*"}, nil
	case *sqlparser.AliasedExpr:
		e, err := c.expr(se.Expr, "")
		if err != nil {
			return SelectColumn{}, err
		}
		col := SelectColumn{Expr: e}
		if !se.As.IsEmpty() {
			_, col.Alias, _ = c.name("", se.As.String())
		}
		return col, nil
	}
	return SelectColumn{}, c.unsupported(c.findText("next"), "NEXT VALUES is not supported")
}

// selectTexts returns the select list items as written, aliases left out,
// or nil when the list cannot be cut into as many items as sqlparser found
// (text that sqlparser expanded, such as a /*! comment */). It reads the
// tokens from the first SELECT up to FROM or the next clause, cutting at
// commas outside parentheses.
func (c *converter) selectTexts(exprs sqlparser.SelectExprs) []string {
	i := c.findText("select")
	if i < 0 {
		return nil
	}
	i++
	for i < len(c.toks) && (c.toks[i].is("distinct") || c.toks[i].is("all")) {
		i++
	}
	var items [][]token
	var item []token
	depth := 0
loop:
	for ; i < len(c.toks); i++ {
		t := c.toks[i]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth > 0:
		case t.typ == ',':
			items, item = append(items, item), nil
			continue
		case t.typ == ';' || t.is("from") || t.is("where") || t.is("group") || t.is("having") ||
			t.is("order") || t.is("limit") || t.is("union") || t.is("for") || t.is("lock"):
			break loop
		}
		item = append(item, t)
	}
	items = append(items, item)
	if len(items) != len(exprs) {
		return nil
	}
	texts := make([]string, len(items))
	for k, item := range items {
		if ae, ok := exprs[k].(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() && len(item) > 1 {
			item = item[:len(item)-1] // the alias
			if item[len(item)-1].is("as") {
				item = item[:len(item)-1]
			}
		}
		if len(item) == 0 {
			return nil
		}
		texts[k] = c.src[item[0].start:item[len(item)-1].end]
	}
	return texts
}

// termCursor finds where the GROUP BY or ORDER BY terms of a statement
// are written, for errors about a term (ORDER BY 9): sqlparser's AST
// carries no positions, and a number's token is found by its text.
type termCursor struct {
	c    *converter
	next int // the token where the next term's search starts; -1 when the keywords were not found
}

// termsAfter returns a cursor at the token after the keywords kw
// (order by).
func (c *converter) termsAfter(kw ...string) *termCursor {
	i := c.findText(kw...)
	if i < 0 {
		return &termCursor{c: c, next: -1}
	}
	return &termCursor{c: c, next: i + len(kw)}
}

// pos returns the offset in the statement of the term written as raw
// and converted to e: a column's own position, or that of the first
// number written as raw from the cursor on; else -1.
func (t *termCursor) pos(raw sqlparser.Expr, e Expr) int {
	if col, ok := e.(*Column); ok {
		return col.Pos
	}
	v, ok := raw.(*sqlparser.SQLVal)
	if !ok || t.next < 0 || (v.Type != sqlparser.IntVal && v.Type != sqlparser.FloatVal) {
		return -1
	}
	for i := t.next; i < len(t.c.toks); i++ {
		tok := t.c.toks[i]
		if (tok.typ == sqlparser.INTEGRAL || tok.typ == sqlparser.FLOAT) && tok.val == string(v.Val) {
			t.next = i + 1
			return t.c.at(tok.start)
		}
	}
	return -1
}
