package parser

// INSERT, UPDATE and DELETE.

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
)

// insert converts INSERT ... VALUES [ON DUPLICATE KEY UPDATE].
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
		if name == "*" {
			return nil, starColumn(c.orig, pos)
		}
		if seen[name] {
			return nil, errs.New(errs.Syntax, "column %s is listed twice", name).At(c.orig, pos)
		}
		seen[name] = true
		out.Columns = append(out.Columns, name)
		out.ColumnPos = append(out.ColumnPos, pos)
	}
	if i := c.findText("values"); i >= 0 {
		c.cur = i + 1 // so that VALUES(col) is not found at the clause
	}
	for i, row := range rows {
		if len(row) != len(out.Columns) {
			return nil, errs.New(errs.Syntax, "row %d does not match the column list: %d columns (%s), values given: %d",
				i+1, len(out.Columns), strings.Join(out.Columns, ", "), len(row)).
				At(c.orig, c.textPos("values")).WithHint("give one value for each column, in the list's order")
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
	return Assignment{Column: cn.Name, Expr: x, Pos: cn.Pos}, nil
}
