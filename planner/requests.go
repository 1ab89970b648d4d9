package planner

import (
	"maps"
	"math"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// The builders of the read requests. The executor sends what they build
// for the row in flight; EXPLAIN describes what they build with
// placeholders (Explaining). Nothing else makes a read request.

// Requests whose key uses no column of another row are the same every
// time their plan runs, and a plan is cached and run again and again
// (scripts, the shell, database/sql). So they are built once, on first
// use, and each caller gets a copy whose fields and maps it may set (the
// executor sets ExclusiveStartKey); what the fields point to (strings,
// attribute values) is shared and never written. The expression builder
// costs more than the rest of a repeated statement's own work. A plan's steps do not change once
// Plan returns; two first uses racing build the same requests.

// builtOnce returns what cache holds, building and storing it first.
func builtOnce[T any](cache *atomic.Pointer[T], build func() (T, error)) (T, error) {
	if v := cache.Load(); v != nil {
		return *v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	cache.Store(&v)
	return v, nil
}

// consistentRead is a read's ConsistentRead: set for a strongly
// consistent read only, as ScanIndexForward is set for a backward one
// only. A request carries no field that says DynamoDB's default: every
// byte is serialized, sent and parsed on each request, and the consumed
// capacity, which only counted statements ask for, is left to the
// executor (Stats).
func consistentRead(strong bool) *bool {
	if strong {
		return aws.Bool(true)
	}
	return nil
}

// Build builds the GetItem for the row b reads from. It returns nil
// when a key column is NULL: no item has that key.
func (g *GetItem) Build(b Binder) (*dynamodb.GetItemInput, error) {
	if !constantKeys(g.Key) {
		return g.build(b)
	}
	built, err := builtOnce(&g.built, func() (*dynamodb.GetItemInput, error) { return g.build(b) })
	if err != nil || built == nil {
		return nil, err
	}
	in := *built
	in.Key = maps.Clone(in.Key)
	in.ExpressionAttributeNames = maps.Clone(in.ExpressionAttributeNames)
	return &in, nil
}

func (g *GetItem) build(b Binder) (*dynamodb.GetItemInput, error) {
	key, err := renderKey(g.Key, b)
	if err != nil {
		return nil, KeyCaseError(err)
	}
	in := &dynamodb.GetItemInput{TableName: aws.String(g.Table), Key: key, ConsistentRead: consistentRead(g.Consistent)}
	if p, ok := projection(g.Project); ok {
		expr, err := build(expression.NewBuilder().WithProjection(p))
		if err != nil {
			return nil, internal("projection: %v", err)
		}
		in.ProjectionExpression, in.ExpressionAttributeNames = expr.Projection(), expr.Names()
	}
	return in, nil
}

// Build builds the Query requests of q for the row b reads from: one
// per partition value. It returns none when a key column is NULL or the
// sort-key conditions admit no value.
func (q *Query) Build(b Binder) ([]*dynamodb.QueryInput, error) {
	// The filter holds only the read's own columns and literals.
	if !constantKeys(q.PK) || (q.SK != nil && !literals(q.SK.Fixed)) {
		return q.build(b)
	}
	built, err := builtOnce(&q.built, func() ([]*dynamodb.QueryInput, error) { return q.build(b) })
	if err != nil {
		return nil, err
	}
	ins := make([]*dynamodb.QueryInput, len(built))
	for i, in := range built {
		c := *in
		c.ExpressionAttributeNames = maps.Clone(in.ExpressionAttributeNames)
		c.ExpressionAttributeValues = maps.Clone(in.ExpressionAttributeValues)
		ins[i] = &c
	}
	return ins, nil
}

func (q *Query) build(b Binder) ([]*dynamodb.QueryInput, error) {
	var sk *mapping.SortCondition
	if q.SK != nil {
		sk = q.SK.Condition(b)
	}
	if sk != nil {
		if sk.Empty {
			return nil, nil
		}
		for _, v := range sk.Values {
			if err := q.SK.Key.Fits(v); err != nil {
				return nil, errs.New(errs.Invalid, "a range over the sort key %s: %v", q.SK.Key.Attr, err).
					WithHint("no key is that long: compare with a value of at most that size")
			}
		}
	}
	var ins []*dynamodb.QueryInput
	for _, pkv := range q.PK {
		pk, err := pkv.Value(b)
		if err != nil {
			if err := KeyCaseError(err); err != nil {
				return nil, err
			}
			continue
		}
		skAttr := ""
		if q.SK != nil {
			skAttr = q.SK.Key.Attr
		}
		eb := expression.NewBuilder().WithKeyCondition(keyCondition(pkv.Attr(), pk, skAttr, sk))
		if q.Filter != nil {
			f, err := condition(q.Filter)
			if err != nil {
				return nil, err
			}
			eb = eb.WithFilter(f)
		}
		if p, ok := projection(q.Project); ok && !q.CountOnly {
			eb = eb.WithProjection(p)
		}
		expr, err := build(eb)
		if err != nil {
			return nil, internal("building the Query expression: %v", err)
		}
		in := &dynamodb.QueryInput{
			TableName:                 aws.String(q.Table),
			KeyConditionExpression:    expr.KeyCondition(),
			FilterExpression:          expr.Filter(),
			ProjectionExpression:      expr.Projection(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
			ConsistentRead:            consistentRead(q.Consistent),
		}
		if q.Desc {
			in.ScanIndexForward = aws.Bool(false)
		}
		if q.Index != "" {
			in.IndexName = aws.String(q.Index)
		}
		if q.Limit > 0 {
			in.Limit = aws.Int32(int32(min(q.Limit, math.MaxInt32)))
		}
		if q.CountOnly {
			in.Select = types.SelectCount
		} else {
			in.Select = localSelect(q.Local, in.ProjectionExpression)
		}
		ins = append(ins, in)
	}
	return ins, nil
}

// Build builds one BatchGetItem for keys (at most 100, distinct).
// The projection is the same for every set of keys: it is built once.
func (bg *BatchGet) Build(keys []map[string]types.AttributeValue) (*dynamodb.BatchGetItemInput, error) {
	ka := types.KeysAndAttributes{Keys: keys, ConsistentRead: consistentRead(bg.Consistent)}
	proj, err := builtOnce(&bg.projection, bg.buildProjection)
	if err != nil {
		return nil, err
	}
	ka.ProjectionExpression, ka.ExpressionAttributeNames = proj.expr, maps.Clone(proj.names)
	return &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{bg.Table: ka}}, nil
}

// builtProjection is a BatchGet's projection as the expression builder
// wrote it; expr is nil when the BatchGet projects nothing.
type builtProjection struct {
	expr  *string
	names map[string]string
}

func (bg *BatchGet) buildProjection() (builtProjection, error) {
	p, ok := projection(bg.Project)
	if !ok {
		return builtProjection{}, nil
	}
	expr, err := build(expression.NewBuilder().WithProjection(p))
	if err != nil {
		return builtProjection{}, internal("projection: %v", err)
	}
	return builtProjection{expr: expr.Projection(), names: expr.Names()}, nil
}

// Render renders the lookup's keys for the row b reads from, skipping those
// a NULL column leaves without a value; the error is KeyCaseError's.
func (l *Lookup) Render(b Binder) ([]map[string]types.AttributeValue, error) {
	var out []map[string]types.AttributeValue
	for _, k := range l.Keys {
		key, err := renderKey(k, b)
		if err != nil {
			if err := KeyCaseError(err); err != nil {
				return nil, err
			}
			continue
		}
		out = append(out, key)
	}
	return out, nil
}

// projection asks for the listed attributes, each through a #name.
func projection(attrs []string) (expression.ProjectionBuilder, bool) {
	if len(attrs) == 0 {
		return expression.ProjectionBuilder{}, false
	}
	p := expression.NamesList(attrName(attrs[0]))
	for _, a := range attrs[1:] {
		p = p.AddNames(attrName(a))
	}
	return p, true
}

// condition turns a condition the planner found pushable (see pushable)
// into a DynamoDB condition. Every name becomes a #placeholder and every
// value a :placeholder.
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
		return expression.In(attrName(col.Name), ops[0], ops[1:]...), nil
	case *parser.Between:
		col, ok := x.Expr.(*parser.Column)
		lo, ok1 := x.Lo.(*parser.Literal)
		hi, ok2 := x.Hi.(*parser.Literal)
		if ok && ok1 && ok2 {
			return expression.Between(attrName(col.Name), attrValue(lo.Value), attrValue(hi.Value)), nil
		}
	case *parser.IsNull:
		// An attribute of type NULL reads as NULL: it exists for
		// DynamoDB, but not for SQL.
		col, ok := x.Expr.(*parser.Column)
		if !ok {
			break
		}
		name := attrName(col.Name)
		if x.Not {
			return expression.AttributeExists(name).And(expression.Not(expression.AttributeType(name, expression.Null))), nil
		}
		return isNull(name), nil
	}
	return expression.ConditionBuilder{}, unpushable(e)
}

func unpushable(e parser.Expr) error {
	return internal("condition %s cannot be sent to DynamoDB", parser.Format(e))
}

func internal(format string, args ...any) error {
	return errs.New(errs.Internal, format, args...)
}

// colLit matches column op literal in either order, flipping op when the
// literal comes first.
func colLit(a, b parser.Expr, op string) (expression.NameBuilder, expression.ValueBuilder, string, bool) {
	if _, ok := a.(*parser.Column); !ok {
		a, b, op = b, a, flipped[op]
	}
	col, ok1 := a.(*parser.Column)
	lit, ok2 := b.(*parser.Literal)
	if !ok1 || !ok2 {
		return expression.NameBuilder{}, expression.ValueBuilder{}, "", false
	}
	return attrName(col.Name), attrValue(lit.Value), op, true
}

// flipped gives the operator with its operands swapped: a < b is b > a.
var flipped = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "<>": "<>"}

func attrValue(v value.Value) expression.ValueBuilder {
	return expression.Value(value.ToAttr(v))
}

// localSelect is the Select of a read of a local index with projection
// (nil for none): without one, DynamoDB returns only what the index
// projects, so every attribute is asked for (it fetches the rest from the
// table); "" otherwise, DynamoDB's default.
func localSelect(local bool, projection *string) types.Select {
	if local && projection == nil {
		return types.SelectAllAttributes
	}
	return ""
}
