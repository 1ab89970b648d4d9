package parser

// The tables of FROM, joins included; table serves UPDATE and DELETE too.

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
)

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
