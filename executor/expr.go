package executor

import (
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// condition turns a condition the planner found pushable (see
// planner.pushable) into a DynamoDB condition.
// Every name becomes a #placeholder and every value a :placeholder.
func condition(e parser.Expr) (expression.ConditionBuilder, error) {
	switch x := e.(type) {
	case *parser.And:
		l, err := condition(x.L)
		if err != nil {
			return l, err
		}
		r, err := condition(x.R)
		return expression.And(l, r), err
	case *parser.Or:
		l, err := condition(x.L)
		if err != nil {
			return l, err
		}
		r, err := condition(x.R)
		return expression.Or(l, r), err
	case *parser.Compare:
		name, val, op, ok := colLit(x.L, x.R, x.Op)
		if !ok {
			break
		}
		switch op {
		case "=":
			return expression.Equal(name, val), nil
		case "<":
			return expression.LessThan(name, val), nil
		case "<=":
			return expression.LessThanEqual(name, val), nil
		case ">":
			return expression.GreaterThan(name, val), nil
		case ">=":
			return expression.GreaterThanEqual(name, val), nil
		}
	case *parser.In:
		col, ok := x.Expr.(*parser.Column)
		if !ok || len(x.List) == 0 {
			break
		}
		var ops []expression.OperandBuilder
		for _, v := range x.List {
			lit, ok := v.(*parser.Literal)
			if !ok {
				return expression.ConditionBuilder{}, unpushable(e)
			}
			ops = append(ops, attrValue(lit.Value))
		}
		return expression.In(expression.Name(col.Name), ops[0], ops[1:]...), nil
	case *parser.Between:
		col, ok := x.Expr.(*parser.Column)
		lo, ok1 := x.Lo.(*parser.Literal)
		hi, ok2 := x.Hi.(*parser.Literal)
		if ok && ok1 && ok2 {
			return expression.Between(expression.Name(col.Name), attrValue(lo.Value), attrValue(hi.Value)), nil
		}
	case *parser.IsNull:
		if col, ok := x.Expr.(*parser.Column); ok && x.Not {
			return expression.AttributeExists(expression.Name(col.Name)), nil
		}
	}
	return expression.ConditionBuilder{}, unpushable(e)
}

func unpushable(e parser.Expr) error {
	return errs.New(errs.Internal, "condition %s cannot be sent to DynamoDB", parser.Format(e))
}

// colLit matches column op literal in either order, flipping op when the
// literal comes first.
func colLit(a, b parser.Expr, op string) (expression.NameBuilder, expression.ValueBuilder, string, bool) {
	flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "<>": "<>"}
	if _, ok := a.(*parser.Column); !ok {
		a, b, op = b, a, flip[op]
	}
	col, ok1 := a.(*parser.Column)
	lit, ok2 := b.(*parser.Literal)
	if !ok1 || !ok2 {
		return expression.NameBuilder{}, expression.ValueBuilder{}, "", false
	}
	return expression.Name(col.Name), attrValue(lit.Value), op, true
}

func attrValue(v value.Value) expression.ValueBuilder {
	return expression.Value(value.ToAttr(v))
}

// keyCondition builds a Query's key condition for one partition value.
func keyCondition(q *planner.Query, pk string, sk []string) expression.KeyConditionBuilder {
	kc := expression.Key(q.PK[0].Attr).Equal(expression.Value(&types.AttributeValueMemberS{Value: pk}))
	if q.SK == nil {
		return kc
	}
	name := expression.Key(q.SK.Attr)
	v := func(i int) expression.ValueBuilder {
		return expression.Value(&types.AttributeValueMemberS{Value: sk[i]})
	}
	var skc expression.KeyConditionBuilder
	switch q.SK.Op {
	case "=":
		skc = name.Equal(v(0))
	case "<":
		skc = name.LessThan(v(0))
	case "<=":
		skc = name.LessThanEqual(v(0))
	case ">":
		skc = name.GreaterThan(v(0))
	case ">=":
		skc = name.GreaterThanEqual(v(0))
	case "between":
		skc = name.Between(v(0), v(1))
	case "begins_with":
		skc = name.BeginsWith(sk[0])
	}
	return kc.And(skc)
}

// projection asks for the listed attributes, each through a #name.
func projection(attrs []string) (expression.ProjectionBuilder, bool) {
	if len(attrs) == 0 {
		return expression.ProjectionBuilder{}, false
	}
	p := expression.NamesList(expression.Name(attrs[0]))
	for _, a := range attrs[1:] {
		p = p.AddNames(expression.Name(a))
	}
	return p, true
}
