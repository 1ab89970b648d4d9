package planner

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
)

// Control is a statement that steers a session rather than reads or
// writes: BEGIN, COMMIT or ROLLBACK.
type Control int

// The controls.
const (
	NoControl Control = iota
	Begin
	Commit
	Rollback
)

// Transaction is the writes between BEGIN and COMMIT, sent as one
// TransactWriteItems: all of them happen, or none does. Each is a write
// of items named by their full key (an INSERT of new rows, an UPDATE or
// DELETE by key), with its guards and the WHERE's conditions; a write
// that must read first (a partition UPDATE, a move, a copy fan-out or
// fill) cannot join one.
type Transaction struct {
	Statements []*Plan
}

// Transactable returns why a plan cannot join a transaction, or nil.
func Transactable(p *Plan) error {
	refuse := func(why, hint string) error {
		return errs.New(errs.Unsupported, "this statement cannot join a transaction: %s", why).WithHint("%s", hint)
	}
	if p.Explain {
		return refuse("EXPLAIN sends nothing, so it has nothing to add to one", "EXPLAIN it before BEGIN or after COMMIT")
	}
	switch w := p.Root.(type) {
	case *InsertRows:
		switch {
		case w.OnDuplicate != nil:
			return refuse("ON DUPLICATE KEY UPDATE decides between two writes when it runs", "run it before BEGIN or after COMMIT")
		case len(w.Fills) > 0:
			return refuse(fmt.Sprintf("%s carries copies, read from their source first", w.Entity.Name), "run it before BEGIN or after COMMIT")
		}
		return nil
	case *UpdateRows:
		switch {
		case w.Key == nil:
			return refuse("its WHERE does not name one row by its full key, so its rows must be read first",
				"give the full key in WHERE, one UPDATE per row")
		case w.Move && w.ForQuirks:
			// Not a key the statement moves: SET NULL or of an index key,
			// which DynamoDB does in place, rewrites the item here.
			return refuse("the embedded backend rewrites the item for what it sets (a NULL, or an index key), which reads the item first",
				"run it outside a transaction (on DynamoDB it joins one)")
		case w.Move:
			return refuse("it sets a key column, which reads the item before moving it", "run it outside a transaction")
		case len(w.FanOuts) > 0:
			return refuse("other items copy the columns it sets, and their copies are rewritten after it", "run it outside a transaction")
		}
		return nil
	case *DeleteRows:
		switch {
		case w.Key == nil:
			return refuse("its WHERE does not name one row by its full key, so its rows must be read first",
				"give the full key in WHERE, one DELETE per row")
		case len(w.FanOuts) > 0:
			return refuse("other items copy its columns, and their copies are cleared after it", "run it outside a transaction")
		}
		return nil
	}
	if p.Writes {
		return refuse("REPAIR COPIES writes as many transactions as the copies need", "run it outside a transaction")
	}
	return errs.New(errs.Unsupported, "reads inside a transaction are not supported: a transaction here writes, all or nothing").
		WithHint("run the SELECT before BEGIN, or after COMMIT")
}

// With returns the transaction with p added, or why p cannot join it:
// p is no write one request can hold (Transactable), or the transaction
// would pass DynamoDB's limits (Build). t is left as it was.
func (t *Transaction) With(p *Plan) (*Transaction, error) {
	if err := Transactable(p); err != nil {
		return nil, err
	}
	next := &Transaction{Statements: append(t.Statements[:len(t.Statements):len(t.Statements)], p)}
	if _, _, err := next.input(); err != nil {
		return nil, err
	}
	return next, nil
}

// Build builds the one TransactWriteItems of the transaction's writes, in
// statement order, and returns, for each action, the index of the
// statement it belongs to. It refuses, before anything is sent, more
// than 100 actions, more than about 4 MB, or two actions on one item.
func (t *Transaction) Build() (*dynamodb.TransactWriteItemsInput, []int, error) { return t.input() }

// input is Build (a name of its own: within planner, Build() is the
// expression builder's, which names_test keeps to build).
func (t *Transaction) input() (*dynamodb.TransactWriteItemsInput, []int, error) {
	tx := &dynamodb.TransactWriteItemsInput{}
	var owner []int
	seen := map[string]int{}
	size := 0
	add := func(i int, e *mapping.Entity, a types.TransactWriteItem, key map[string]types.AttributeValue, item map[string]types.AttributeValue) error {
		id := e.Mapping().Table + "\x01" + e.Mapping().ItemID(key)
		if j, dup := seen[id]; dup {
			return errs.New(errs.Invalid, "statements %d and %d of the transaction write the same item (%s); DynamoDB takes one action per item",
				j+1, i+1, e.Mapping().KeyText(key)).
				WithHint("merge them into one statement")
		}
		seen[id] = i
		size += limits.ItemSize(key) + limits.ItemSize(item)
		tx.TransactItems = append(tx.TransactItems, a)
		owner = append(owner, i)
		return nil
	}
	for i, p := range t.Statements {
		switch w := p.Root.(type) {
		case *InsertRows:
			for _, row := range w.Rows {
				it, err := w.Entity.Item(row)
				if err != nil {
					return nil, nil, err
				}
				put, err := w.TransactInput([]map[string]types.AttributeValue{it})
				if err != nil {
					return nil, nil, err
				}
				key, _ := w.Entity.BaseKey(row)
				if err := add(i, w.Entity, put.TransactItems[0], key, it); err != nil {
					return nil, nil, err
				}
			}
		case *UpdateRows:
			key, err := renderKey(w.Key, nil)
			if err != nil {
				return nil, nil, keyError(w.Entity, err)
			}
			in, err := w.UpdateInput(key, nil)
			if err != nil {
				return nil, nil, err
			}
			a := types.TransactWriteItem{Update: &types.Update{TableName: in.TableName, Key: key, UpdateExpression: in.UpdateExpression,
				ConditionExpression: in.ConditionExpression, ExpressionAttributeNames: in.ExpressionAttributeNames,
				ExpressionAttributeValues: in.ExpressionAttributeValues, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
			if err := add(i, w.Entity, a, key, nil); err != nil {
				return nil, nil, err
			}
		case *DeleteRows:
			key, err := renderKey(w.Key, nil)
			if err != nil {
				return nil, nil, keyError(w.Entity, err)
			}
			// DeleteItem says whether a row was there; a transaction does
			// not, so its count is right only if the row must be there.
			in, err := w.deleteInput(key, nil, true)
			if err != nil {
				return nil, nil, err
			}
			a := types.TransactWriteItem{Delete: &types.Delete{TableName: in.TableName, Key: key, ConditionExpression: in.ConditionExpression,
				ExpressionAttributeNames: in.ExpressionAttributeNames, ExpressionAttributeValues: in.ExpressionAttributeValues,
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
			if err := add(i, w.Entity, a, key, nil); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, Transactable(p)
		}
	}
	switch {
	case len(tx.TransactItems) == 0:
		return nil, nil, nil
	case len(tx.TransactItems) > limits.TransactItems:
		return nil, nil, errs.New(errs.Invalid, "the transaction writes %d items; DynamoDB takes at most %d in one", len(tx.TransactItems), limits.TransactItems).
			WithHint("split it into transactions of at most %d items", limits.TransactItems)
	case size > limits.TransactBytes:
		return nil, nil, errs.New(errs.Invalid, "the transaction writes about %d KB; DynamoDB takes at most 4 MB in one", size/1024).
			WithHint("split it into smaller transactions")
	}
	return tx, owner, nil
}

// keyError is the error of a transaction's UPDATE or DELETE whose key
// cannot be rendered: one longer than DynamoDB stores names no row, and
// the transaction's writes must each find theirs.
func keyError(e *mapping.Entity, err error) error {
	return errs.New(errs.Invalid, "%s: %v", e.Name, err).
		WithHint("a transaction's UPDATE or DELETE must find its row: fix the key, or write it outside BEGIN ... COMMIT")
}
