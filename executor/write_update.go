package executor

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

func (ex *Executor) update(ctx context.Context, u *planner.UpdateRows) (*Result, error) {
	res := &Result{}
	var written []mapping.Row // the source rows as written, for the fan-outs
	if u.Key != nil {
		key := map[string]types.AttributeValue{}
		for _, kv := range u.Key {
			s, err := kv.Render(nil)
			if err != nil {
				return nil, errs.New(errs.Invalid, "%s: %v", u.Entity.Name, err)
			}
			key[kv.Attr] = &types.AttributeValueMemberS{Value: s}
		}
		var ok bool
		var row mapping.Row
		var err error
		if u.Move {
			ok, row, err = ex.moveOne(ctx, u, key, nil)
		} else {
			ok, row, err = ex.updateOne(ctx, u, key, nil)
		}
		if err != nil {
			return nil, err
		}
		if ok {
			res.Affected, written = 1, []mapping.Row{row}
		}
	} else {
		rows, err := ex.readRows(ctx, u.Read, u.Slots)
		if err != nil {
			return nil, err
		}
		var affected atomic.Int64
		var mu sync.Mutex
		o := newOutcomes(len(rows))
		err = ex.eachWrite(ctx, len(rows), func(ctx context.Context, i int) error {
			var ok bool
			var row mapping.Row
			key, err := ex.baseKey(u.Entity, rows[i])
			switch {
			case err != nil:
			case u.Move:
				ok, row, err = ex.moveOne(ctx, u, key, rows[i])
			default:
				ok, row, err = ex.updateOne(ctx, u, key, rows[i])
			}
			o.record(i, ok, err)
			if ok {
				affected.Add(1)
				mu.Lock()
				written = append(written, row)
				mu.Unlock()
			}
			return err
		})
		res.Affected = affected.Load()
		if err != nil {
			return res, partial(err, u.Entity, rows, o, "updated", rerunAdvice(u.Set), u.FanOuts)
		}
	}
	return res, ex.fanOuts(ctx, res, u.Entity, u.FanOuts, written)
}

// fanOuts runs each fan-out for each source row written, adding its
// counts to res.
func (ex *Executor) fanOuts(ctx context.Context, res *Result, e *mapping.Entity, fanOuts []*planner.FanOut, written []mapping.Row) error {
	for fi, f := range fanOuts {
		for ri, row := range written {
			n, err := ex.fanOut(ctx, f, row)
			res.CopiesUpdated += n.updated
			res.CopiesSkipped += n.skipped
			var moved *errs.ConditionFailedError
			if errors.As(err, &moved) {
				return note(err, "this statement's own write of %s %s had landed before", e.Name, keyDesc(e, row))
			}
			if err != nil {
				// This row's fan-out stopped, and those after it (every
				// row's, for the fan-outs after this one) did not run.
				pending := written[ri:]
				if fi < len(fanOuts)-1 {
					pending = written
				}
				return note(err, "%s was updated; %d copies of %s.%s were updated and %d are still to do: run the statement again, or %s",
					e.Name, res.CopiesUpdated, f.Copier.Name, f.Copy.Column, n.left, repairCopies(e, fanOuts, pending))
			}
		}
	}
	return nil
}

// updateOne sends one UpdateItem guarded by attribute_exists(partition
// key) and the statement's conditions, and returns the row as written.
// row is the row as read, or nil when nothing was read: arithmetic then
// assumes the column is set, and if the guard fails because it is NULL
// (DynamoDB returns the old item), the update is sent again with NULL as
// the result, as SQL computes it.
func (ex *Executor) updateOne(ctx context.Context, u *planner.UpdateRows, key map[string]types.AttributeValue, row mapping.Row) (bool, mapping.Row, error) {
	for attempt := 0; attempt < 3; attempt++ {
		in, err := ex.updateInput(u, key, row)
		if err != nil {
			return false, nil, err
		}
		out, err := ex.client.UpdateItem(ctx, in, ex.optFns(ctx)...)
		if err == nil {
			return true, u.Entity.Decode(out.Attributes), nil
		}
		ccf, ok := isConditionFailed(err)
		if !ok {
			return false, nil, backendError("UpdateItem", err)
		}
		if ccf.Item == nil {
			return false, nil, nil // no such row
		}
		old := u.Entity.Decode(ccf.Item)
		if !holds(u.Cond, old) || (row != nil && changed(u.Entity, u.Unchanged, row, old)) || !arithMismatch(u.Set, row, old) {
			return false, nil, nil
		}
		row = old
	}
	return false, nil, errs.New(errs.Conflict, "%s %s: its columns kept changing while it was updated", u.Entity.Name, keyDesc(u.Entity, row))
}

// arithMismatch reports whether an arithmetic column is NULL in old
// where the update assumed a value, or the reverse.
func arithMismatch(set []*planner.Assign, assumed, old mapping.Row) bool {
	for _, a := range set {
		if c, _, _, ok := a.Arith(); ok {
			had := assumed == nil || assumed[c.Name] != nil
			if had != (old[c.Name] != nil) {
				return true
			}
		}
	}
	return false
}

func (ex *Executor) updateInput(u *planner.UpdateRows, key map[string]types.AttributeValue, row mapping.Row) (*dynamodb.UpdateItemInput, error) {
	var ub expression.UpdateBuilder
	more, err := sqlCond(u.Cond)
	if err != nil {
		return nil, err
	}
	if row != nil {
		more = append(more, asRead(u.Entity, u.Unchanged, row)...)
	}
	for _, a := range u.Set {
		name := expression.Name(a.Column)
		if c, op, n, ok := a.Arith(); ok {
			if row != nil && row[c.Name] == nil {
				// NULL + n is NULL: the attribute stays absent.
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
	cond := buildCond(expression.AttributeExists(expression.Name(u.PKAttr)), more...)
	expr, err := expression.NewBuilder().WithUpdate(ub).WithCondition(cond).Build()
	if err != nil {
		return nil, internal("building the UpdateItem expression: %v", err)
	}
	return &dynamodb.UpdateItemInput{TableName: aws.String(u.Table), Key: key,
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueAllNew, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, nil
}

// moveOne rewrites a row whose key columns change. The old item is read
// whole (strongly consistent, no projection), so that the new item keeps
// every attribute it had, those the mapping does not declare (a TTL, a
// version another program keeps) included: only the assignments, the
// copies refilled from their source and the key attributes rendered
// again differ. row is the row as read by the statement's reads, or nil
// when the WHERE gave the full key; the item read must still meet the
// WHERE (Cond, and Unchanged as in row), else the row is skipped. The
// writes are guarded by every attribute being as this read found it.
// When the base key changes, the old item's Delete and the new item's Put
// are one TransactWriteItems. It returns the row as written.
func (ex *Executor) moveOne(ctx context.Context, u *planner.UpdateRows, oldKey map[string]types.AttributeValue, row mapping.Row) (bool, mapping.Row, error) {
	got, err := ex.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(u.Table), Key: oldKey, ConsistentRead: aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, ex.optFns(ctx)...)
	if err != nil {
		return false, nil, backendError("GetItem", err)
	}
	if len(got.Item) == 0 {
		return false, nil, nil // gone, or never there
	}
	old := u.Entity.Decode(got.Item)
	if !holds(u.Cond, old) || (row != nil && changed(u.Entity, u.Unchanged, row, old)) {
		return false, nil, nil // changed since the statement read it: no longer meets the WHERE
	}
	next := cloneRow(old)
	for _, a := range u.Set {
		v, err := eval(a.Expr, rowEnv(old))
		if err != nil {
			return false, nil, err
		}
		if v == nil {
			delete(next, a.Column)
		} else {
			next[a.Column] = v
		}
	}
	for _, c := range u.Fills {
		delete(next, c.Column)
	}
	if err := ex.fill(ctx, u.Entity, u.Fills, []mapping.Row{next}); err != nil {
		return false, nil, err
	}
	rendered, err := item(u.Entity, next)
	if err != nil {
		return false, nil, err
	}
	newItem := make(map[string]types.AttributeValue, len(got.Item)+len(rendered))
	for attr, v := range got.Item {
		if _, col := u.Entity.Columns[attr]; col {
			continue
		}
		if _, key := u.Entity.Templates[attr]; key {
			continue
		}
		newItem[attr] = v // not the mapping's: kept as found
	}
	for attr, v := range rendered {
		newItem[attr] = v
	}
	newKey, err := ex.baseKey(u.Entity, next)
	if err != nil {
		return false, nil, err
	}
	guard, err := asFound(u, got.Item)
	if err != nil {
		return false, nil, err
	}
	if sameKey(oldKey, newKey) {
		_, err := ex.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(u.Table), Item: newItem,
			ConditionExpression: guard.Condition(), ExpressionAttributeNames: guard.Names(), ExpressionAttributeValues: guard.Values(),
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, ex.optFns(ctx)...)
		if _, ok := isConditionFailed(err); ok {
			return false, nil, nil
		}
		if err != nil {
			return false, nil, backendError("PutItem", err)
		}
		return true, next, nil
	}
	putGuard, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(u.PKAttr))).Build()
	if err != nil {
		return false, nil, internal("put guard: %v", err)
	}
	tx := &dynamodb.TransactWriteItemsInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactItems: []types.TransactWriteItem{
			{Delete: &types.Delete{TableName: aws.String(u.Table), Key: oldKey, ConditionExpression: guard.Condition(),
				ExpressionAttributeNames: guard.Names(), ExpressionAttributeValues: guard.Values()}},
			{Put: &types.Put{TableName: aws.String(u.Table), Item: newItem, ConditionExpression: putGuard.Condition(),
				ExpressionAttributeNames: putGuard.Names()}},
		}}
	reasons, err := ex.transact(ctx, tx)
	switch firstFailed(reasons) {
	case 0:
		return false, nil, nil // the old item changed or went away since it was read: skipped
	case 1:
		return false, nil, ex.conflict(u.Entity, next, "%s %s was not moved", u.Entity.Name, keyDesc(u.Entity, old))
	}
	if err != nil {
		return false, nil, err
	}
	return true, next, nil
}

func sameKey(a, b map[string]types.AttributeValue) bool {
	for k, v := range a {
		if value.Key(value.FromAttr(v)) != value.Key(value.FromAttr(b[k])) {
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
// does not see.)
func asFound(u *planner.UpdateRows, found map[string]types.AttributeValue) (expression.Expression, error) {
	names := map[string]bool{}
	for attr := range found {
		names[attr] = true
	}
	for col := range u.Entity.Columns {
		names[col] = true
	}
	for attr := range u.Entity.Templates {
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
		name := expression.Name(attr)
		if v, ok := found[attr]; ok {
			more = append(more, expression.Equal(name, expression.Value(v)))
		} else {
			more = append(more, expression.AttributeNotExists(name))
		}
	}
	expr, err := expression.NewBuilder().WithCondition(buildCond(expression.AttributeExists(expression.Name(u.PKAttr)), more...)).Build()
	if err != nil {
		return expression.Expression{}, internal("building the move guard: %v", err)
	}
	return expr, nil
}

func (ex *Executor) delete(ctx context.Context, d *planner.DeleteRows) (*Result, error) {
	if d.Key != nil {
		key := map[string]types.AttributeValue{}
		for _, kv := range d.Key {
			s, err := kv.Render(nil)
			if err != nil {
				return nil, errs.New(errs.Invalid, "%s: %v", d.Entity.Name, err)
			}
			key[kv.Attr] = &types.AttributeValueMemberS{Value: s}
		}
		ok, err := ex.deleteOne(ctx, d, key, nil)
		if err != nil {
			return nil, err
		}
		if ok {
			return &Result{Affected: 1}, nil
		}
		return &Result{}, nil
	}
	rows, err := ex.readRows(ctx, d.Read, d.Slots)
	if err != nil {
		return nil, err
	}
	var affected atomic.Int64
	o := newOutcomes(len(rows))
	err = ex.eachWrite(ctx, len(rows), func(ctx context.Context, i int) error {
		key, err := ex.baseKey(d.Entity, rows[i])
		if err != nil {
			return err
		}
		ok, err := ex.deleteOne(ctx, d, key, rows[i])
		o.record(i, ok, err)
		if ok {
			affected.Add(1)
		}
		return err
	})
	res := &Result{Affected: affected.Load()}
	if err != nil {
		return res, partial(err, d.Entity, rows, o, "deleted", "run the statement again: it deletes what is left", nil)
	}
	return res, nil
}

// deleteOne sends one DeleteItem with ReturnValues ALL_OLD, which tells
// whether a row was there; a failed condition deletes nothing. row is the
// row as read, or nil when nothing was read; a row read must still exist
// and hold what the WHERE read.
//
// Known limit (DYNAMODB.md 4.4): when the SDK retries a DeleteItem whose
// first attempt deleted the row but whose answer was lost, the retry
// finds nothing (no old item, or a failed attribute_exists guard), and
// the row is counted as not deleted. Nothing the retry gets back can
// tell that from a row deleted by another writer in between, so the
// count may be one low; the table is right either way.
func (ex *Executor) deleteOne(ctx context.Context, d *planner.DeleteRows, key map[string]types.AttributeValue, row mapping.Row) (bool, error) {
	in := &dynamodb.DeleteItemInput{TableName: aws.String(d.Table), Key: key, ReturnValues: types.ReturnValueAllOld,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	conds, err := sqlCond(d.Cond)
	if err != nil {
		return false, err
	}
	if row != nil {
		conds = append([]expression.ConditionBuilder{expression.AttributeExists(expression.Name(d.PKAttr))}, conds...)
		conds = append(conds, asRead(d.Entity, d.Unchanged, row)...)
	}
	if len(conds) > 0 {
		expr, err := expression.NewBuilder().WithCondition(buildCond(conds[0], conds[1:]...)).Build()
		if err != nil {
			return false, internal("building the DeleteItem condition: %v", err)
		}
		in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Condition(), expr.Names(), expr.Values()
	}
	out, err := ex.client.DeleteItem(ctx, in, ex.optFns(ctx)...)
	if _, ok := isConditionFailed(err); ok {
		return false, nil
	}
	if err != nil {
		return false, backendError("DeleteItem", err)
	}
	return len(out.Attributes) > 0, nil
}
