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
	r, err := c.unionSide(u.Right)
	if err != nil {
		return nil, err
	}
	out := &Union{Left: l, Right: r, All: u.Type == sqlparser.UnionAllStr}
	for _, o := range u.OrderBy {
		e, err := c.expr(o.Expr, "")
		if err != nil {
			return nil, err
		}
		out.OrderBy = append(out.OrderBy, OrderItem{Expr: e, Desc: o.Direction == sqlparser.DescScr})
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
	for _, g := range s.GroupBy {
		e, err := c.expr(g, "GROUP BY")
		if err != nil {
			return nil, err
		}
		out.GroupBy = append(out.GroupBy, e)
	}
	if s.Having != nil {
		if out.Having, err = c.expr(s.Having.Expr, ""); err != nil {
			return nil, err
		}
	}
	for _, o := range s.OrderBy {
		e, err := c.expr(o.Expr, "")
		if err != nil {
			return nil, err
		}
		out.OrderBy = append(out.OrderBy, OrderItem{Expr: e, Desc: o.Direction == sqlparser.DescScr})
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

// from flattens FROM into the list of tables in the order written. A
// SELECT without FROM, which sqlparser reads as FROM dual, has none.
func (c *converter) from(tes sqlparser.TableExprs) ([]TableRef, *errs.Error) {
	if len(tes) == 1 {
		if a, ok := tes[0].(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := a.Expr.(sqlparser.TableName); ok && tn.Name.String() == "dual" && tn.Qualifier.IsEmpty() {
				return nil, nil
			}
		}
	}
	var refs []TableRef
	for i, te := range tes {
		kind := JoinNone
		if i > 0 {
			kind = JoinComma
		}
		var err *errs.Error
		if refs, err = c.tableExpr(te, kind, refs); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// tableExpr appends the tables of te to refs; kind is how te's first
// table joins the ones before it.
func (c *converter) tableExpr(te sqlparser.TableExpr, kind JoinKind, refs []TableRef) ([]TableRef, *errs.Error) {
	switch te := te.(type) {
	case *sqlparser.AliasedTableExpr:
		ref, err := c.table(te, kind)
		if err != nil {
			return nil, err
		}
		return append(refs, ref), nil
	case *sqlparser.JoinTableExpr:
		var err *errs.Error
		if refs, err = c.tableExpr(te.LeftExpr, kind, refs); err != nil {
			return nil, err
		}
		switch te.Join {
		case sqlparser.JoinStr:
			kind = JoinInner
			if te.Condition.On == nil && te.Condition.Using == nil {
				kind = JoinComma // CROSS JOIN, or JOIN without ON: the condition is in WHERE
			}
		case sqlparser.LeftJoinStr:
			kind = JoinLeft
		case sqlparser.RightJoinStr:
			return nil, c.unsupported(c.findText("right"), "RIGHT JOIN is not supported").
				WithHint("swap the tables and use LEFT JOIN")
		case sqlparser.StraightJoinStr:
			return nil, c.unsupported(c.findText("straight_join"), "STRAIGHT_JOIN is not supported").
				WithHint("use JOIN")
		default:
			return nil, c.unsupported(c.findText("natural"), "%s is not supported", strings.ToUpper(te.Join)).
				WithHint("use JOIN ... ON with the equalities written out")
		}
		if te.Condition.Using != nil {
			return nil, c.unsupported(c.findText("using"), "JOIN ... USING is not supported").
				WithHint("write ON a.col = b.col")
		}
		right, ok := te.RightExpr.(*sqlparser.AliasedTableExpr)
		if !ok {
			return nil, c.unsupported(c.findText("("), "nested joins are not supported").
				WithHint("write the joins one after another without parentheses")
		}
		ref, err := c.table(right, kind)
		if err != nil {
			return nil, err
		}
		if te.Condition.On != nil {
			if ref.On, err = c.expr(te.Condition.On, "ON"); err != nil {
				return nil, err
			}
		}
		return append(refs, ref), nil
	case *sqlparser.ParenTableExpr:
		if len(te.Exprs) == 1 && kind == JoinNone {
			return c.tableExpr(te.Exprs[0], kind, refs)
		}
	}
	return nil, c.unsupported(c.findText("("), "nested joins are not supported").
		WithHint("write the joins one after another without parentheses")
}

// table converts one table of FROM, UPDATE or DELETE.
func (c *converter) table(a *sqlparser.AliasedTableExpr, kind JoinKind) (TableRef, *errs.Error) {
	tn, ok := a.Expr.(sqlparser.TableName)
	switch {
	case !ok:
		return TableRef{}, c.unsupported(c.subquery(), "subqueries are not supported").
			WithHint("join the tables instead")
	case len(a.Partitions) > 0:
		return TableRef{}, c.unsupported(c.findText("partition"), "PARTITION is not supported")
	case a.Hints != nil:
		return TableRef{}, c.unsupported(c.findText(strings.TrimSpace(a.Hints.Type)), "index hints are not supported").
			WithHint("dynosql picks the index from the mapping")
	case !tn.Qualifier.IsEmpty():
		return TableRef{}, c.unsupported(c.findText(tn.Qualifier.String()), "database-qualified names are not supported").
			WithHint("write the table name alone; the mapping says which DynamoDB table it lives in")
	}
	_, name, pos := c.name("", tn.Name.String())
	ref := TableRef{Name: name, Alias: name, Join: kind, Pos: pos}
	if !a.As.IsEmpty() {
		_, ref.Alias, _ = c.name("", a.As.String())
	}
	return ref, nil
}

func (c *converter) insert(s *sqlparser.Insert) (*Insert, *errs.Error) {
	switch {
	case s.Action == sqlparser.ReplaceStr:
		return nil, c.unsupported(0, "REPLACE is not supported").
			WithHint("use INSERT ... ON DUPLICATE KEY UPDATE")
	case s.Ignore != "":
		return nil, c.unsupported(c.findText("ignore"), "INSERT IGNORE is not supported").
			WithHint("use INSERT ... ON DUPLICATE KEY UPDATE")
	case len(s.Partitions) > 0:
		return nil, c.unsupported(c.findText("partition"), "PARTITION is not supported")
	case !s.Table.Qualifier.IsEmpty():
		return nil, c.unsupported(c.findText(s.Table.Qualifier.String()), "database-qualified names are not supported").
			WithHint("write the table name alone")
	}
	_, table, pos := c.name("", s.Table.Name.String())
	out := &Insert{Table: table, Pos: pos}
	rows, ok := s.Rows.(sqlparser.Values)
	if !ok {
		return nil, c.unsupported(c.findText("select"), "INSERT ... SELECT is not supported").
			WithHint("SELECT the rows, then INSERT them with VALUES")
	}
	if len(s.Columns) == 0 {
		return nil, c.unsupported(c.findText("values"), "INSERT needs a column list").
			WithHint("list the columns: INSERT INTO %s (col, ...) VALUES (...)", table)
	}
	seen := map[string]bool{}
	for _, col := range s.Columns {
		_, name, pos := c.name("", col.String())
		if seen[name] {
			return nil, errs.New(errs.Syntax, "column %s is listed twice", name).At(c.orig, pos)
		}
		seen[name] = true
		out.Columns = append(out.Columns, name)
	}
	if i := c.findText("values"); i >= 0 {
		c.cur = i + 1 // so that VALUES(col) is not found at the clause
	}
	for i, row := range rows {
		if len(row) != len(out.Columns) {
			return nil, errs.New(errs.Syntax, "row %d has %d values for %d columns", i+1, len(row), len(out.Columns)).
				At(c.orig, c.textPos("values"))
		}
		vals := make([]Expr, len(row))
		for j, v := range row {
			var err *errs.Error
			if vals[j], err = c.expr(v, "VALUES"); err != nil {
				return nil, err
			}
		}
		out.Rows = append(out.Rows, vals)
	}
	ref := TableRef{Name: table, Alias: table}
	for _, ue := range s.OnDup {
		a, err := c.assignment(ue, ref)
		if err != nil {
			return nil, err
		}
		out.OnDuplicate = append(out.OnDuplicate, a)
	}
	return out, nil
}

func (c *converter) update(s *sqlparser.Update) (*Update, *errs.Error) {
	ref, err := c.target("UPDATE", s.TableExprs, s.OrderBy, s.Limit)
	if err != nil {
		return nil, err
	}
	out := &Update{Table: ref.Name, Alias: ref.Alias, Pos: ref.Pos}
	for _, ue := range s.Exprs {
		a, err := c.assignment(ue, ref)
		if err != nil {
			return nil, err
		}
		out.Set = append(out.Set, a)
	}
	if s.Where != nil {
		if out.Where, err = c.expr(s.Where.Expr, "WHERE"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *converter) delete(s *sqlparser.Delete) (*Delete, *errs.Error) {
	if len(s.Targets) > 0 {
		return nil, c.unsupported(0, "DELETE of several tables is not supported").
			WithHint("delete from one table at a time")
	}
	if len(s.Partitions) > 0 {
		return nil, c.unsupported(c.findText("partition"), "PARTITION is not supported")
	}
	ref, err := c.target("DELETE", s.TableExprs, s.OrderBy, s.Limit)
	if err != nil {
		return nil, err
	}
	out := &Delete{Table: ref.Name, Alias: ref.Alias, Pos: ref.Pos}
	if s.Where != nil {
		if out.Where, err = c.expr(s.Where.Expr, "WHERE"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// target converts the one table an UPDATE or DELETE writes, refusing
// joins, ORDER BY and LIMIT.
func (c *converter) target(verb string, tes sqlparser.TableExprs, order sqlparser.OrderBy, limit *sqlparser.Limit) (TableRef, *errs.Error) {
	switch {
	case len(order) > 0:
		return TableRef{}, c.unsupported(c.findText("order"), "%s ... ORDER BY is not supported", verb).
			WithHint("DynamoDB writes items independently; order does not matter")
	case limit != nil:
		return TableRef{}, c.unsupported(c.findText("limit"), "%s ... LIMIT is not supported", verb).
			WithHint("narrow the WHERE to the rows to change")
	}
	var a *sqlparser.AliasedTableExpr
	if len(tes) == 1 {
		a, _ = tes[0].(*sqlparser.AliasedTableExpr)
	}
	if a == nil {
		i := c.findText("join")
		if i < 0 {
			i = c.findText(",")
		}
		return TableRef{}, c.unsupported(i, "%s of several tables is not supported", verb).
			WithHint("write one table at a time")
	}
	return c.table(a, JoinNone)
}

// assignment converts col = expr of SET or ON DUPLICATE KEY UPDATE; a
// qualified column must name the table being written.
func (c *converter) assignment(ue *sqlparser.UpdateExpr, ref TableRef) (Assignment, *errs.Error) {
	col, err := c.column(ue.Name)
	if err != nil {
		return Assignment{}, err
	}
	cn := col.(*Column)
	if cn.Table != "" && cn.Table != ref.Alias && cn.Table != ref.Name {
		return Assignment{}, errs.New(errs.Unsupported, "SET %s.%s names another table", cn.Table, cn.Name).
			At(c.orig, cn.Pos).WithHint("SET only the columns of %s", ref.Name)
	}
	x, err := c.expr(ue.Expr, "SET")
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Column: cn.Name, Expr: x}, nil
}
