package planner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// The builders of the write requests. As for reads, the executor sends
// what they build for real rows and EXPLAIN describes what they build for
// rows of placeholders (explainRow).

// notExists guards an INSERT: attribute_not_exists(partition key).
func notExists(pkAttr string) (builtExpr, error) {
	return build(expression.NewBuilder().WithCondition(expression.AttributeNotExists(attrName(pkAttr))))
}

// PutInput builds the guarded PutItem of one new item.
func (ins *InsertRows) PutInput(item map[string]types.AttributeValue) (*dynamodb.PutItemInput, error) {
	guard, err := notExists(ins.PKAttr)
	if err != nil {
		return nil, internal("insert guard: %v", err)
	}
	return &dynamodb.PutItemInput{TableName: aws.String(ins.Table), Item: item,
		ConditionExpression: guard.Condition(), ExpressionAttributeNames: guard.Names(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}, nil
}

// TransactInput builds one TransactWriteItems putting items, each guarded.
func (ins *InsertRows) TransactInput(items []map[string]types.AttributeValue) (*dynamodb.TransactWriteItemsInput, error) {
	guard, err := notExists(ins.PKAttr)
	if err != nil {
		return nil, internal("insert guard: %v", err)
	}
	tx := &dynamodb.TransactWriteItemsInput{}
	for _, it := range items {
		tx.TransactItems = append(tx.TransactItems, types.TransactWriteItem{Put: &types.Put{
			TableName: aws.String(ins.Table), Item: it,
			ConditionExpression: guard.Condition(), ExpressionAttributeNames: guard.Names(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	}
	return tx, nil
}

// FillInput builds the GetItem that reads the source value of copy c for
// the source whose key column holds key: strongly consistent, since the
// value copied must be the one just written.
func FillInput(table string, c *mapping.Copy, key value.Value) (*dynamodb.GetItemInput, error) {
	k, err := c.Source.BaseKey(mapping.Row{c.SourceKeyColumn(): key})
	if err != nil {
		return nil, err
	}
	proj, err := build(expression.NewBuilder().WithProjection(expression.NamesList(attrName(c.SourceColumn))))
	if err != nil {
		return nil, internal("projection: %v", err)
	}
	return &dynamodb.GetItemInput{TableName: aws.String(table), Key: k, ConsistentRead: aws.Bool(true),
		ProjectionExpression: proj.Projection(), ExpressionAttributeNames: proj.Names()}, nil
}

// andAll ANDs a guard with more conditions, flat: (a) AND (b) AND (c).
func andAll(guard expression.ConditionBuilder, more ...expression.ConditionBuilder) expression.ConditionBuilder {
	if len(more) == 0 {
		return guard
	}
	return expression.And(guard, more[0], more[1:]...)
}

// whereCond converts the WHERE's conditions DynamoDB can check, if any.
func whereCond(e parser.Expr) ([]expression.ConditionBuilder, error) {
	if e == nil {
		return nil, nil
	}
	c, err := condition(e)
	if err != nil {
		return nil, err
	}
	return []expression.ConditionBuilder{c}, nil
}

// asRead requires each of attrs to hold what row, as read, gives it:
// a column's value, or an index key attribute rendered from the row's
// key columns; attribute_not_exists where the row has none.
func asRead(e *mapping.Entity, attrs []string, row mapping.Row) []expression.ConditionBuilder {
	var out []expression.ConditionBuilder
	for _, attr := range attrs {
		var v types.AttributeValue
		if e.Key(attr) != nil {
			v = e.StoredKey(attr, row)
		} else if x := row[attr]; x != nil {
			v = explainAttr(x)
		}
		if v == nil {
			out = append(out, isNull(attrName(attr)))
		} else {
			out = append(out, expression.Equal(attrName(attr), expression.Value(v)))
		}
	}
	return out
}

// explainAttr converts a value for a request; a placeholder (EXPLAIN)
// becomes its text.
func explainAttr(v value.Value) types.AttributeValue {
	if p, ok := v.(mapping.Placeholder); ok {
		return &types.AttributeValueMemberS{Value: string(p)}
	}
	return value.ToAttr(v)
}

// UpdateInput builds the UpdateItem of one row: SET and REMOVE of the
// assignments, guarded by attribute_exists(partition key) and the WHERE's
// conditions DynamoDB can check, and, for a row read first (row not nil),
// by the attributes it was read with. Arithmetic on a column row holds as
// NULL stays NULL (REMOVE, guarded by the attribute still being absent);
// otherwise it requires the attribute (DynamoDB fails on a missing one).
func (u *UpdateRows) UpdateInput(key map[string]types.AttributeValue, row mapping.Row) (*dynamodb.UpdateItemInput, error) {
	var ub expression.UpdateBuilder
	more, err := whereCond(u.Cond)
	if err != nil {
		return nil, err
	}
	if row != nil {
		more = append(more, asRead(u.Entity, u.Unchanged, row)...)
	}
	for _, a := range u.Set {
		name := attrName(a.Column)
		if c, op, n, ok := a.Arith(); ok {
			if row != nil && row[c.Name] == nil {
				ub = ub.Remove(name)
				more = append(more, expression.AttributeNotExists(name))
				continue
			}
			v := expression.Value(value.ToAttr(n.Value))
			if op == '+' {
				ub = ub.Set(name, name.Plus(v))
			} else {
				ub = ub.Set(name, name.Minus(v))
			}
			more = append(more, expression.AttributeExists(name))
			continue
		}
		if a.Remove() {
			ub = ub.Remove(name)
			continue
		}
		ub = ub.Set(name, expression.Value(value.ToAttr(a.Expr.(*parser.Literal).Value)))
	}
	cond := andAll(expression.AttributeExists(attrName(u.PKAttr)), append(more, typeGuard(u.Entity)...)...)
	expr, err := build(expression.NewBuilder().WithUpdate(ub).WithCondition(cond))
	if err != nil {
		return nil, internal("building the UpdateItem expression: %v", err)
	}
	return &dynamodb.UpdateItemInput{TableName: aws.String(u.Table), Key: key,
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueAllNew, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}, nil
}

// MoveReadInput builds the read of a row a move rewrites: the whole item,
// every attribute, strongly consistent.
func (u *UpdateRows) MoveReadInput(key map[string]types.AttributeValue) *dynamodb.GetItemInput {
	return &dynamodb.GetItemInput{TableName: aws.String(u.Table), Key: key, ConsistentRead: aws.Bool(true)}
}

// MovedItem is the item a move writes: the item found, every attribute
// exactly as stored, with what the move changes put in its place: the
// columns the statement assigns and the copies it refills, from next (the
// row as written; a NULL removes the attribute), and the entity's key
// attributes, type attribute and fixed attributes, rendered again from
// next. An attribute the move does not change is not decoded and encoded
// again, which would change what is stored: DynamoDB's NULL reads as no
// value, a binary set as a list of binaries. A number assigned that DynamoDB cannot hold is
// refused here, before anything is sent.
func (u *UpdateRows) MovedItem(found map[string]types.AttributeValue, next mapping.Row) (map[string]types.AttributeValue, error) {
	if err := u.checkNumbers(next); err != nil {
		return nil, err
	}
	rendered, err := u.Entity.Item(next)
	if err != nil {
		return nil, err
	}
	item := make(map[string]types.AttributeValue, len(found)+len(rendered))
	maps.Copy(item, found)
	for _, attr := range u.movedAttrs() {
		if v, ok := rendered[attr]; ok {
			item[attr] = v
		} else {
			delete(item, attr)
		}
	}
	return item, nil
}

// movedAttrs returns the attributes a move writes anew rather than as
// found: the entity's key attributes, type attribute and fixed
// attributes, which the mapping renders, and the columns the statement
// assigns or refills from their source.
func (u *UpdateRows) movedAttrs() []string {
	attrs := slices.Clone(u.Entity.KeyAttrs())
	if t := u.Entity.Mapping().TypeAttribute; t != "" && u.Entity.Type != "" {
		attrs = append(attrs, t)
	}
	attrs = append(attrs, slices.Sorted(maps.Keys(u.Entity.Fixed))...)
	for _, a := range u.Set {
		attrs = append(attrs, a.Column)
	}
	for _, c := range u.Fills {
		attrs = append(attrs, c.Column)
	}
	return attrs
}

// checkNumbers refuses a value an assignment gives next that is a number
// DynamoDB cannot hold (more than 38 significant digits, or out of its
// range): arithmetic computed here can give one from numbers that fit,
// and DynamoDB would refuse the write only once sent.
func (u *UpdateRows) checkNumbers(next mapping.Row) error {
	for _, a := range u.Set {
		n, ok := next[a.Column].(value.Number)
		if !ok {
			continue
		}
		if why, _ := parser.NumberProblem(string(n)); why != "" {
			return errs.New(errs.Invalid, "SET %s gives %s %s, which %s", a, a.Column, n, why).
				WithHint("set a value of at most 38 significant digits instead (the result rounded, say), or keep such values in a string (S) column")
		}
	}
	return nil
}

// MoveWriteInputs builds the writes of a move: one PutItem when the base
// key stays, else a Delete of the old item and a Put of the new one in
// one TransactWriteItems. Both are guarded by every attribute being as
// the whole-item read found it (asFound). A guard DynamoDB would refuse
// as too long (an item of more than about 150 attributes) is refused
// before anything is sent, unless the rewrite is the embedded server's
// alone (ForQuirks), which takes a condition of any length.
func (u *UpdateRows) MoveWriteInputs(oldKey, found, item map[string]types.AttributeValue) (*dynamodb.PutItemInput, *dynamodb.TransactWriteItemsInput, error) {
	guard, ops, err := u.asFound(found)
	if err != nil {
		return nil, nil, err
	}
	if over := tooLong(aws.ToString(guard.Condition()), ops); over != "" && !u.ForQuirks {
		// Leaving attributes out of the guard would let a change made to
		// them between the read and the write be lost: the new item
		// would hold the old value, and the item holding the new one
		// would be deleted. No shorter condition is as safe.
		return nil, nil, errs.New(errs.Unsupported,
			"a move checks that each attribute of the item is still as read, so that no change made meanwhile is lost, and the %d attributes of this one make that condition longer than DynamoDB takes (%s)",
			len(found), over).
			WithHint("move it by hand: BEGIN; INSERT the row under its new key; DELETE it under the old one; COMMIT (or copy the item with a program of your own)")
	}
	table := aws.String(u.Table)
	if sameKey(oldKey, item) {
		return &dynamodb.PutItemInput{TableName: table, Item: item,
			ConditionExpression: guard.Condition(), ExpressionAttributeNames: guard.Names(), ExpressionAttributeValues: guard.Values()}, nil, nil
	}
	putGuard, err := notExists(u.PKAttr)
	if err != nil {
		return nil, nil, internal("put guard: %v", err)
	}
	return nil, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{Delete: &types.Delete{TableName: table, Key: oldKey, ConditionExpression: guard.Condition(),
				ExpressionAttributeNames: guard.Names(), ExpressionAttributeValues: guard.Values()}},
			// The item returned when the new key is taken names what holds it.
			{Put: &types.Put{TableName: table, Item: item, ConditionExpression: putGuard.Condition(),
				ExpressionAttributeNames: putGuard.Names(), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
		}}, nil
}

// ReinsertInputs builds a rewrite that takes the item out of a sparse
// index on the embedded server (Reinsert): a DeleteItem guarded as a
// move's write is, then a PutItem of the new item under the same key,
// guarded by its absence. The server takes no transaction of two actions
// on one item, so they are sent one after the other.
func (u *UpdateRows) ReinsertInputs(key, found, item map[string]types.AttributeValue) (*dynamodb.DeleteItemInput, *dynamodb.PutItemInput, error) {
	guard, _, err := u.asFound(found)
	if err != nil {
		return nil, nil, err
	}
	putGuard, err := notExists(u.PKAttr)
	if err != nil {
		return nil, nil, internal("put guard: %v", err)
	}
	table := aws.String(u.Table)
	return &dynamodb.DeleteItemInput{TableName: table, Key: key, ConditionExpression: guard.Condition(),
			ExpressionAttributeNames: guard.Names(), ExpressionAttributeValues: guard.Values()},
		&dynamodb.PutItemInput{TableName: table, Item: item, ConditionExpression: putGuard.Condition(),
			ExpressionAttributeNames: putGuard.Names()}, nil
}

// sameKey reports whether item has the key attributes of key with the
// same values.
func sameKey(key, item map[string]types.AttributeValue) bool {
	for k, v := range key {
		if value.Key(value.FromAttr(v)) != value.Key(value.FromAttr(item[k])) {
			return false
		}
	}
	return true
}

// asFound guards a move: the old item exists and every attribute holds
// what the whole-item read found, and each of the entity's columns and
// key attributes that it did not have, and each attribute the WHERE
// reads, is still absent. (An attribute of another program's, added in
// between, cannot be named in advance: it is the one change the guard
// does not see.) It returns the operators the condition holds, as
// DynamoDB counts them: each comparison, function and AND.
func (u *UpdateRows) asFound(found map[string]types.AttributeValue) (builtExpr, int, error) {
	names := map[string]bool{}
	for attr := range found {
		names[attr] = true
	}
	for col := range u.Entity.Columns {
		names[col] = true
	}
	for _, attr := range u.Entity.KeyAttrs() {
		names[attr] = true
	}
	for _, attr := range u.Unchanged {
		names[attr] = true
	}
	var more []expression.ConditionBuilder
	for _, attr := range slices.Sorted(maps.Keys(names)) {
		if attr == u.PKAttr {
			continue
		}
		name := attrName(attr)
		if v, ok := found[attr]; ok {
			more = append(more, expression.Equal(name, expression.Value(v)))
		} else {
			more = append(more, expression.AttributeNotExists(name))
		}
	}
	expr, err := build(expression.NewBuilder().WithCondition(andAll(expression.AttributeExists(attrName(u.PKAttr)), more...)))
	if err != nil {
		return builtExpr{}, 0, internal("building the move guard: %v", err)
	}
	return expr, 2*len(more) + 1, nil
}

// tooLong says which of DynamoDB's limits on an expression (8.3) a
// condition of ops operators passes, or returns "".
func tooLong(cond string, ops int) string {
	var over []string
	if ops > limits.ExpressionOperators {
		over = append(over, fmt.Sprintf("%d operators, where it takes at most %d", ops, limits.ExpressionOperators))
	}
	if len(cond) > limits.ExpressionBytes {
		over = append(over, fmt.Sprintf("%d bytes, where it takes at most 4 KB", len(cond)))
	}
	return strings.Join(over, "; ")
}

// DeleteInput builds the DeleteItem of one row, with ReturnValues
// ALL_OLD (which says whether a row was there) and the WHERE's
// conditions DynamoDB can check; a row read first (row not nil) must
// still exist and hold what the WHERE read.
func (d *DeleteRows) DeleteInput(key map[string]types.AttributeValue, row mapping.Row) (*dynamodb.DeleteItemInput, error) {
	return d.deleteInput(key, row, row != nil)
}

// deleteInput is DeleteInput; mustExist adds that the row is there.
func (d *DeleteRows) deleteInput(key map[string]types.AttributeValue, row mapping.Row, mustExist bool) (*dynamodb.DeleteItemInput, error) {
	in := &dynamodb.DeleteItemInput{TableName: aws.String(d.Table), Key: key, ReturnValues: types.ReturnValueAllOld}
	conds, err := whereCond(d.Cond)
	if err != nil {
		return nil, err
	}
	if mustExist {
		conds = append([]expression.ConditionBuilder{expression.AttributeExists(attrName(d.PKAttr))}, conds...)
	}
	if row != nil {
		conds = append(conds, asRead(d.Entity, d.Unchanged, row)...)
	}
	conds = append(conds, typeGuard(d.Entity)...)
	if len(conds) > 0 {
		expr, err := build(expression.NewBuilder().WithCondition(andAll(conds[0], conds[1:]...)))
		if err != nil {
			return nil, internal("building the DeleteItem condition: %v", err)
		}
		in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Condition(), expr.Names(), expr.Values()
	}
	return in, nil
}

// isNull is the condition that attribute name reads as NULL: it is not
// there, or holds DynamoDB's NULL (another program may write one).
func isNull(name expression.NameBuilder) expression.ConditionBuilder {
	return expression.AttributeNotExists(name).Or(expression.AttributeType(name, expression.Null))
}

// typeGuard is the condition that a write by key finds an item of e as
// reads classify it (mapping.Classify): its type attribute, when it holds
// a string, names e. Without it an UPDATE or DELETE by key would change
// another entity's item that has the same key (books and bicycles keyed
// by Id alone, told apart by their type).
func typeGuard(e *mapping.Entity) []expression.ConditionBuilder {
	m := e.Mapping()
	if m.TypeAttribute == "" || e.Type == "" {
		return nil
	}
	// Classify takes an empty type, as a missing one, for no type at all.
	t := attrName(m.TypeAttribute)
	return []expression.ConditionBuilder{expression.Or(expression.AttributeNotExists(t),
		expression.Equal(t, expression.Value(e.Type)), expression.Equal(t, expression.Value("")),
		expression.Not(expression.AttributeType(t, expression.String)))}
}

// explainRow is a row whose every column (of e, and of extra) stands for
// the value a row read at run time holds: {alias.column}.
func explainRow(e *mapping.Entity, alias string, extra ...string) mapping.Row {
	row := mapping.Row{}
	for c := range e.Columns {
		row[c] = mapping.Placeholder("{" + alias + "." + c + "}")
	}
	for _, c := range extra {
		row[c] = mapping.Placeholder("{" + alias + "." + c + "}")
	}
	return row
}
