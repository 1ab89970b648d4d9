package parser

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
)

// aggregates are the functions dynosql evaluates.
var aggregates = map[string]bool{"COUNT": true, "MIN": true, "MAX": true, "SUM": true, "AVG": true}

// inAggregate is the clause expr is given for an aggregate's argument.
const inAggregate = "an aggregate"

// expr converts an expression. clause names where it stands when
// aggregates are not allowed there ("WHERE", "SET", inAggregate...); ""
// allows them.
func (c *converter) expr(e sqlparser.Expr, clause string) (Expr, *errs.Error) {
	switch e := e.(type) {
	case *sqlparser.AndExpr:
		l, r, err := c.pair(e.Left, e.Right, clause)
		if err != nil {
			return nil, err
		}
		return &And{L: l, R: r}, nil
	case *sqlparser.OrExpr:
		l, r, err := c.pair(e.Left, e.Right, clause)
		if err != nil {
			return nil, err
		}
		return &Or{L: l, R: r}, nil
	case *sqlparser.NotExpr:
		x, err := c.expr(e.Expr, clause)
		if err != nil {
			return nil, err
		}
		return &Not{E: x}, nil
	case *sqlparser.ParenExpr:
		return c.expr(e.Expr, clause)
	case *sqlparser.ComparisonExpr:
		return c.comparison(e, clause)
	case *sqlparser.RangeCond:
		x, err := c.expr(e.Left, clause)
		if err != nil {
			return nil, err
		}
		lo, hi, err := c.pair(e.From, e.To, clause)
		if err != nil {
			return nil, err
		}
		return &Between{Expr: x, Lo: lo, Hi: hi, Not: e.Operator == sqlparser.NotBetweenStr}, nil
	case *sqlparser.IsExpr:
		x, err := c.expr(e.Expr, clause)
		if err != nil {
			return nil, err
		}
		switch e.Operator {
		case sqlparser.IsNullStr:
			return &IsNull{Expr: x}, nil
		case sqlparser.IsNotNullStr:
			return &IsNull{Expr: x, Not: true}, nil
		}
		return nil, c.unsupported(c.findText("is"), "%s is not supported", strings.ToUpper(e.Operator)).
			WithHint("compare with = TRUE or = FALSE")
	case *sqlparser.SQLVal:
		return c.literal(e)
	case *sqlparser.NullVal:
		return &Literal{Value: nil}, nil
	case sqlparser.BoolVal:
		return &Literal{Value: bool(e)}, nil
	case *sqlparser.ColName:
		return c.column(e)
	case *sqlparser.BinaryExpr:
		var op byte
		switch e.Operator {
		case sqlparser.PlusStr, sqlparser.MinusStr, sqlparser.MultStr, sqlparser.DivStr:
			op = e.Operator[0]
		default:
			return nil, c.unsupported(c.findText(e.Operator), "operator %s is not supported", strings.ToUpper(e.Operator)).
				WithHint("arithmetic is limited to + - * /")
		}
		l, r, err := c.pair(e.Left, e.Right, clause)
		if err != nil {
			return nil, err
		}
		return &Arith{Op: op, L: l, R: r}, nil
	case *sqlparser.UnaryExpr:
		return c.unary(e, clause)
	case *sqlparser.FuncExpr:
		return c.call(e, clause)
	case *sqlparser.ExistsExpr:
		sel, err := c.subselect(e.Subquery, clause)
		if err != nil {
			return nil, err
		}
		return &Exists{Select: sel}, nil
	case *sqlparser.Subquery:
		return nil, c.unsupported(c.subquery(), "a subquery is supported only as x IN (SELECT ...) or EXISTS (SELECT ...) in WHERE").
			WithHint("write a JOIN instead")
	case sqlparser.ValTuple:
		return nil, c.unsupported(c.findText("("), "row values (a, b) are not supported").
			WithHint("compare the columns one by one, joined with AND")
	case sqlparser.ListArg:
		return nil, c.unsupported(c.findText(string(e)), "list arguments are not supported").
			WithHint("write IN (?, ?, ...)")
	case *sqlparser.GroupConcatExpr:
		return nil, c.unsupported(c.findCall("group_concat"), "function GROUP_CONCAT is not supported").
			WithHint("the aggregates are COUNT, MIN, MAX, SUM and AVG")
	case *sqlparser.SubstrExpr:
		i := c.findCall("substr")
		if i < 0 {
			i = c.findCall("substring")
		}
		return nil, c.unsupported(i, "function SUBSTRING is not supported").
			WithHint("use LIKE 'prefix%%' to match a prefix")
	case *sqlparser.ConvertExpr, *sqlparser.ConvertUsingExpr:
		i := c.findCall("cast")
		if i < 0 {
			i = c.findCall("convert")
		}
		return nil, c.unsupported(i, "CAST and CONVERT are not supported").
			WithHint("values keep the type the mapping gives their column")
	case *sqlparser.ValuesFuncExpr:
		return nil, c.unsupported(c.findCall("values"), "VALUES(column) is not supported").
			WithHint("repeat the value itself")
	case *sqlparser.CaseExpr:
		return nil, c.unsupported(c.findText("case"), "CASE is not supported")
	case *sqlparser.IntervalExpr:
		return nil, c.unsupported(c.findText("interval"), "INTERVAL is not supported")
	case *sqlparser.CollateExpr:
		return nil, c.unsupported(c.findText("collate"), "COLLATE is not supported").
			WithHint("strings compare by their UTF-8 bytes, as DynamoDB does")
	case *sqlparser.MatchExpr:
		return nil, c.unsupported(c.findCall("match"), "MATCH ... AGAINST is not supported")
	case *sqlparser.Default:
		return nil, c.unsupported(c.findText("default"), "DEFAULT is not supported").
			WithHint("leave the column out")
	}
	return nil, errs.New(errs.Unsupported, "expression %s is not supported", shorten(sqlparser.String(e), maxNear))
}

// pair converts two operands in the order they are written.
func (c *converter) pair(l, r sqlparser.Expr, clause string) (Expr, Expr, *errs.Error) {
	x, err := c.expr(l, clause)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.expr(r, clause)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func (c *converter) comparison(e *sqlparser.ComparisonExpr, clause string) (Expr, *errs.Error) {
	switch e.Operator {
	case sqlparser.RegexpStr, sqlparser.NotRegexpStr:
		return nil, c.unsupported(c.findText("regexp"), "REGEXP is not supported").
			WithHint("use LIKE 'prefix%%'")
	case sqlparser.NullSafeEqualStr:
		return nil, c.unsupported(c.findText("<=>"), "operator <=> is not supported").
			WithHint("use = or IS NULL")
	}
	l, err := c.expr(e.Left, clause)
	if err != nil {
		return nil, err
	}
	switch e.Operator {
	case sqlparser.InStr, sqlparser.NotInStr:
		if sub, ok := e.Right.(*sqlparser.Subquery); ok {
			sel, err := c.subselect(sub, clause)
			if err != nil {
				return nil, err
			}
			return &InSelect{Expr: l, Select: sel, Not: e.Operator == sqlparser.NotInStr}, nil
		}
		tuple, ok := e.Right.(sqlparser.ValTuple)
		if !ok {
			_, err := c.expr(e.Right, clause) // a subquery or list argument: say which
			if err == nil {
				err = errs.New(errs.Unsupported, "IN takes a list of values")
			}
			return nil, err
		}
		in := &In{Expr: l, Not: e.Operator == sqlparser.NotInStr}
		for _, v := range tuple {
			x, err := c.expr(v, clause)
			if err != nil {
				return nil, err
			}
			in.List = append(in.List, x)
		}
		return in, nil
	}
	r, err := c.expr(e.Right, clause)
	if err != nil {
		return nil, err
	}
	switch e.Operator {
	case sqlparser.LikeStr, sqlparser.NotLikeStr:
		esc, err := c.likeEscape(e.Escape)
		if err != nil {
			return nil, err
		}
		return &Like{Expr: l, Pattern: r, Not: e.Operator == sqlparser.NotLikeStr, Escape: esc}, nil
	case sqlparser.NotEqualStr: // sqlparser writes <> as != too
		return &Compare{Op: "<>", L: l, R: r}, nil
	}
	return &Compare{Op: e.Operator, L: l, R: r}, nil
}

// unary folds a minus into a number literal and writes -x as 0 - x, so
// that the tree needs no unary node.
func (c *converter) unary(e *sqlparser.UnaryExpr, clause string) (Expr, *errs.Error) {
	switch e.Operator {
	case sqlparser.UPlusStr, sqlparser.UMinusStr:
	case sqlparser.BinaryStr, sqlparser.UBinaryStr:
		// MySQL's way to compare case-sensitively (s = BINARY 'Ann', s
		// LIKE BINARY 'A%', _binary'x'): the hint about NOT and + - * /
		// said nothing of that, and dynosql's strings already compare so.
		op := strings.TrimSpace(e.Operator)
		return nil, c.unsupported(c.findText(op), "%s is not supported", strings.ToUpper(op)).
			WithHint("strings already compare by their UTF-8 bytes, case-sensitively, as DynamoDB does (LIKE too): drop %s", strings.ToUpper(op))
	default:
		return nil, c.unsupported(c.findText(strings.TrimSpace(e.Operator)), "operator %s is not supported", strings.ToUpper(strings.TrimSpace(e.Operator))).
			WithHint("use NOT for negation; arithmetic is limited to + - * /")
	}
	x, err := c.expr(e.Expr, clause)
	if err != nil {
		return nil, err
	}
	if e.Operator == sqlparser.UPlusStr {
		return x, nil
	}
	if lit, ok := x.(*Literal); ok {
		if n, ok := lit.Value.(value.Number); ok {
			return &Literal{Value: negate(n)}, nil
		}
	}
	return &Arith{Op: '-', L: &Literal{Value: value.Number("0")}, R: x}, nil
}

// negate returns -n for a canonical number.
func negate(n value.Number) value.Number {
	switch {
	case n == "0":
		return n
	case strings.HasPrefix(string(n), "-"):
		return n[1:]
	}
	return "-" + n
}

func (c *converter) literal(v *sqlparser.SQLVal) (Expr, *errs.Error) {
	switch v.Type {
	case sqlparser.StrVal:
		return &Literal{Value: string(v.Val)}, nil
	case sqlparser.IntVal, sqlparser.FloatVal:
		if why, hint := NumberProblem(string(v.Val)); why != "" {
			return nil, errs.New(errs.Invalid, "the number %s %s", shorten(string(v.Val), maxNear), why).
				At(c.orig, c.textPos(string(v.Val))).WithHint("%s", hint)
		}
		n, ok := value.ParseNumber(string(v.Val))
		if !ok {
			return nil, errs.New(errs.Syntax, "bad number %s", shorten(string(v.Val), maxNear)).At(c.orig, c.textPos(string(v.Val)))
		}
		return &Literal{Value: n}, nil
	case sqlparser.ValArg:
		return c.placeholder(v)
	case sqlparser.HexVal:
		// X'0a1b': a binary (B) value.
		b, err := hex.DecodeString(string(v.Val))
		if err != nil {
			return nil, errs.New(errs.Syntax, "bad binary literal X'%s': %v", shorten(string(v.Val), maxNear), err).At(c.orig, c.textPos(sqlparser.String(v)))
		}
		return &Literal{Value: value.Binary(b)}, nil
	}
	return nil, c.unsupported(c.findText(sqlparser.String(v)), "hexadecimal numbers and bit literals are not supported").
		WithHint("write the number in decimal, or binary bytes as X'0a1b'")
}

// placeholder converts sqlparser's :v1, :v2... (its names for ?) into
// indexes. A name written by the user (:name, or :v1 itself) is refused.
func (c *converter) placeholder(v *sqlparser.SQLVal) (Expr, *errs.Error) {
	named := c.find(func(i int) bool {
		t := c.toks[i]
		return t.typ == sqlparser.VALUE_ARG && c.src[t.start:t.end] != "?"
	})
	if named >= 0 {
		return nil, c.unsupported(named, "named parameters are not supported").WithHint("write ? for each parameter")
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(v.Val), ":v"))
	if err != nil || n < 1 {
		return nil, errs.New(errs.Internal, "unexpected parameter name %s from sqlparser", v.Val)
	}
	return &Placeholder{Index: n - 1}, nil
}

// textPos returns the offset in orig of the first token written as s, or -1.
func (c *converter) textPos(s string) int {
	if i := c.findText(s); i >= 0 {
		return c.at(c.toks[i].start)
	}
	return -1
}

func (c *converter) column(n *sqlparser.ColName) (Expr, *errs.Error) {
	if !n.Qualifier.Qualifier.IsEmpty() {
		return nil, c.unsupported(c.findText(n.Qualifier.Qualifier.String()), "database-qualified names are not supported").
			WithHint("write table.column or column")
	}
	q, name, pos := c.name(n.Qualifier.Name.String(), n.Name.String())
	if name == "*" {
		return nil, starColumn(c.orig, pos)
	}
	return &Column{Table: q, Name: name, Pos: pos}, nil
}

// starColumn refuses a column named * (written `*`): the planner's name
// for every column of SELECT *, which such a column would be read as.
func starColumn(sql string, pos int) *errs.Error {
	e := errs.New(errs.Unsupported, "a column named * is not supported: * stands for every column")
	if pos >= 0 {
		e.At(sql, pos)
	}
	return e.WithHint("SELECT * returns an attribute named * among the others; no statement can name it alone")
}

// call converts an aggregate call; every other function is refused.
func (c *converter) call(f *sqlparser.FuncExpr, clause string) (Expr, *errs.Error) {
	name := strings.ToUpper(f.Name.String())
	at := c.findCall(f.Name.String())
	if !f.Qualifier.IsEmpty() || !aggregates[name] {
		return nil, c.unsupported(at, "function %s is not supported", name).
			WithHint("the aggregates COUNT, MIN, MAX, SUM and AVG are the only functions")
	}
	switch clause {
	case "":
	case inAggregate:
		return nil, c.unsupported(at, "aggregates cannot be nested")
	case "WHERE":
		return nil, c.unsupported(at, "aggregates are not allowed in WHERE").
			WithHint("put conditions on aggregates in HAVING")
	default:
		return nil, c.unsupported(at, "aggregates are not allowed in %s", clause)
	}
	fn := &Func{Name: name, Distinct: f.Distinct}
	if len(f.Exprs) == 1 {
		if star, ok := f.Exprs[0].(*sqlparser.StarExpr); ok {
			if name != "COUNT" || f.Distinct || !star.TableName.IsEmpty() {
				return nil, c.unsupported(at, "%s is not supported", shorten(sqlparser.String(f), maxNear)).
					WithHint("only COUNT(*) takes a star")
			}
			fn.Star = true
			return fn, nil
		}
	}
	if len(f.Exprs) != 1 {
		return nil, c.unsupported(at, "%s takes one argument", name)
	}
	arg, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok || !arg.As.IsEmpty() {
		return nil, c.unsupported(at, "%s takes one expression", name)
	}
	x, err := c.expr(arg.Expr, inAggregate)
	if err != nil {
		return nil, err
	}
	fn.Args = []Expr{x}
	return fn, nil
}

// limit converts a LIMIT or OFFSET operand: a non-negative integer or ?.
func (c *converter) limit(e sqlparser.Expr) (Expr, *errs.Error) {
	x, err := c.expr(e, "LIMIT")
	if err != nil {
		return nil, err
	}
	switch x := x.(type) {
	case *Placeholder:
		return x, nil
	case *Literal:
		if n, ok := x.Value.(value.Number); ok {
			if _, err := strconv.ParseUint(string(n), 10, 63); err == nil {
				return x, nil
			}
		}
	}
	return nil, c.unsupported(c.findText("limit"), "LIMIT and OFFSET take a non-negative integer or ?")
}

// subselect converts the SELECT of x IN (SELECT ...) or EXISTS (...),
// which only WHERE may hold.
func (c *converter) subselect(sub *sqlparser.Subquery, clause string) (*Select, *errs.Error) {
	if clause != "WHERE" {
		return nil, c.unsupported(c.subquery(), "a subquery is supported only in WHERE").
			WithHint("write a JOIN instead")
	}
	inner := sub.Select
	for {
		p, ok := inner.(*sqlparser.ParenSelect)
		if !ok {
			break
		}
		inner = p.Select
	}
	sel, ok := inner.(*sqlparser.Select)
	if !ok {
		return nil, c.unsupported(c.subquery(), "a subquery holding a UNION is not supported")
	}
	return c.selectStmt(sel)
}

// subquery returns the index of the SELECT token of the first subquery
// from the cursor on, or -1.
func (c *converter) subquery() int {
	if i := c.findText("(", "select"); i >= 0 {
		return i + 1
	}
	return -1
}
