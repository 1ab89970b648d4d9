package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

func (ex *Executor) update(ctx context.Context, u *planner.UpdateRows) (*Result, error) {
	res := &Result{}
	var written []mapping.Row // the source rows as written, for the fan-outs
	if u.Key != nil {
		key, err := constantKey(u.Key)
		if key == nil {
			return &Result{}, err
		}
		var ok bool
		var row mapping.Row
		if u.Rewrites() {
			ok, row, err = ex.moveOne(ctx, u, key, nil)
		} else {
			ok, row, err = ex.updateOne(ctx, u, key, nil)
		}
		if err != nil {
			return nil, unsureOne(err, u, key)
		}
		if ok {
			res.Affected, written = 1, []mapping.Row{row}
		}
	} else {
		rows, err := ex.readRows(ctx, u.Read, u.Slots)
		if err == nil {
			err = allowAffected(ctx, "UPDATE", u.Entity, len(rows), u.MaxAffected)
		}
		if err != nil {
			return nil, err
		}
		var affected atomic.Int64
		var mu sync.Mutex
		o := newOutcomes(len(rows))
		err = ex.eachWrite(ctx, len(rows), func(ctx context.Context, i int) error {
			var ok bool
			var row mapping.Row
			key, err := u.Entity.BaseKey(rows[i])
			switch {
			case err != nil:
			case u.Rewrites():
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
	return res, ex.fanOutsOf(ctx, res, u.Entity, u.FanOuts, !u.Arithmetic(), written)
}

// fanOuts runs each fan-out for each source row written, adding its
// counts to res. The rows' fan-outs run side by side, at most
// Concurrency at once: the copies of two source rows are distinct items,
// and each row's transactions check only its own source item. after are
// rows of e whose fan-outs were to follow these: when these stop, the
// REPAIR COPIES the error names covers them too.
func (ex *Executor) fanOuts(ctx context.Context, res *Result, e *mapping.Entity, fanOuts []*planner.FanOut, written []mapping.Row, after ...mapping.Row) error {
	return ex.fanOutsOf(ctx, res, e, fanOuts, true, written, after...)
}

// fanOutsOf is fanOuts; rerun says whether running the statement again
// would finish it, as it does for an UPDATE of constants, when its
// fan-outs stop: not for arithmetic, which would apply twice, nor for an
// upsert, which would update the rows it inserted.
func (ex *Executor) fanOutsOf(ctx context.Context, res *Result, e *mapping.Entity, fanOuts []*planner.FanOut, rerun bool, written []mapping.Row, after ...mapping.Row) error {
	verb, finish := "updated", "run the statement again, or "
	if !rerun {
		finish = "run "
	}
	switch {
	case len(fanOuts) > 0 && fanOuts[0].Deleted:
		verb, finish = "deleted", "run " // the rows are gone: the statement again finds none
	case len(fanOuts) > 0 && fanOuts[0].Inserted:
		verb, finish = "inserted", "run " // the statement again would conflict
	}
	var first error // the first row whose source a later change took over
	for fi, f := range fanOuts {
		var mu sync.Mutex
		var left int64
		done := make([]bool, len(written))
		err := ex.eachWrite(ctx, len(written), func(ctx context.Context, ri int) error {
			n, err := ex.fanOut(ctx, f, written[ri])
			mu.Lock()
			defer mu.Unlock()
			res.CopiesUpdated += n.updated
			res.CopiesSkipped += n.skipped
			left += n.left
			done[ri] = err == nil
			if overtaken(err) {
				// A later change of this source owns its copies; the
				// other rows' fan-outs go on.
				done[ri] = true
				if first == nil {
					first = note(err, "this statement's own write of %s %s had landed before", e.Name, keyDesc(e, written[ri]))
				}
				return nil
			}
			return err
		})
		if err == nil {
			continue
		}
		// Some rows' fan-outs stopped or never ran (every row's, for the
		// fan-outs after this one).
		var pending []mapping.Row
		for ri, row := range written {
			if !done[ri] || fi < len(fanOuts)-1 {
				pending = append(pending, row)
			}
		}
		pending = append(pending, after...)
		// A batch in flight when it stopped may have landed: those
		// copies are not claimed either way.
		return note(err, "%s was %s; %d copies were updated, and %d of %s.%s were not confirmed (not written, or written as it stopped): %s%s",
			e.Name, verb, res.CopiesUpdated, left, f.Copier().Name, f.Copy.Column, finish, repairCopies(e, fanOuts, pending))
	}
	return first
}

// overtaken reports whether a fan-out stopped because a later change of
// its source took its copies over (the source's check failed): that
// change brings them in step, and the statement's other rows go on.
func overtaken(err error) bool {
	var cf *errs.ConditionFailedError
	return errors.As(err, &cf)
}

// updateOne sends one UpdateItem guarded by attribute_exists(partition
// key) and the statement's conditions, and returns the row as written.
// row is the row as read, or nil when nothing was read: arithmetic then
// assumes the column is set, and if the guard fails because it is NULL
// (DynamoDB returns the old item), the update is sent again with NULL as
// the result, as SQL computes it.
func (ex *Executor) updateOne(ctx context.Context, u *planner.UpdateRows, key map[string]types.AttributeValue, row mapping.Row) (bool, mapping.Row, error) {
	for attempt := 0; attempt < 3; attempt++ {
		in, err := u.UpdateInput(key, row)
		if err != nil {
			return false, nil, err
		}
		var attempts atomic.Int32
		opts := append(ex.optFns(ctx), countAttempts(&attempts))
		if u.Arithmetic() {
			// DynamoDB computes n + 1: a resend after a send that
			// landed would add it twice.
			opts = append(opts, retry.OnlyUnapplied)
		}
		out, err := ex.client.UpdateItem(ctx, in, opts...)
		if err == nil {
			return true, u.Entity.Decode(out.Attributes), nil
		}
		ccf, ok := isConditionFailed(err)
		if !ok {
			return false, nil, backendError("UpdateItem", err)
		}
		if ccf.Item == nil || !isEntitys(u.Entity, ccf.Item) {
			return false, nil, nil // no such row, or another entity's under the key
		}
		old := u.Entity.Decode(ccf.Item)
		if attempts.Load() > 1 && !u.Arithmetic() && holdsAssigned(u.Set, old) {
			// The SDK resent an update whose answer was lost (DYNAMODB.md
			// 4.4), and its guard (a WHERE on a column it sets) failed
			// on the row the first send wrote: that is a write.
			return true, old, nil
		}
		if !holds(u.Cond, old) || (row != nil && changed(u.Entity, u.Unchanged, row, old)) || !arithMismatch(u.Set, row, old) {
			return false, nil, nil
		}
		row = old
	}
	return false, nil, errs.New(errs.Conflict, "%s %s: its columns kept changing while it was updated", u.Entity.Name, keyDesc(u.Entity, row))
}

// holdsAssigned reports whether row holds what the constant assignments
// set (NULL for those that remove a column).
func holdsAssigned(set []*planner.Assign, row mapping.Row) bool {
	for _, a := range set {
		if a.Remove() {
			if row[a.Column] != nil {
				return false
			}
			continue
		}
		lit, ok := a.Expr.(*parser.Literal)
		if !ok || row[a.Column] == nil || value.Key(row[a.Column]) != value.Key(lit.Value) {
			return false
		}
	}
	return true
}

// isEntitys reports whether item is e's as reads tell (mapping.Classify):
// a write by key may find another entity's item under the key.
func isEntitys(e *mapping.Entity, item map[string]types.AttributeValue) bool {
	return e.Mapping().Classify(item, []*mapping.Entity{e}) == e
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
	got, err := ex.client.GetItem(ctx, u.MoveReadInput(oldKey), ex.optFns(ctx)...)
	if err != nil {
		return false, nil, backendError("GetItem", err)
	}
	if len(got.Item) == 0 {
		return false, nil, nil // gone, or never there
	}
	if !isEntitys(u.Entity, got.Item) {
		return false, nil, nil // another entity's item under the key
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
	if err := ex.fill(ctx, u.Entity, u.Fills, []mapping.Row{next}, true); err != nil {
		return false, nil, err
	}
	item, err := u.MovedItem(got.Item, next)
	if err != nil {
		return false, nil, notWritten(err, u.Entity, old)
	}
	// A reinsert puts the item back under its own key. A move to another
	// key leaves no stale index entry (the old item is deleted), and must
	// not delete it before the new key is known to be free: the
	// transaction below does both or neither.
	if m := u.Entity.Mapping(); u.Reinsert && m.ItemID(oldKey) == m.ItemID(item) {
		return ex.reinsert(ctx, u, oldKey, got.Item, item, old, next)
	}
	put, tx, err := u.MoveWriteInputs(oldKey, got.Item, item)
	if err != nil {
		return false, nil, notWritten(err, u.Entity, old)
	}
	if put != nil {
		var attempts atomic.Int32
		_, err := ex.client.PutItem(ctx, put, append(ex.optFns(ctx), countAttempts(&attempts))...)
		if ccf, ok := isConditionFailed(err); ok {
			if attempts.Load() < 2 {
				return false, nil, nil // changed since it was read: skipped
			}
			// The SDK resent a put whose answer was lost (DYNAMODB.md
			// 4.4): its guard fails on the item the first send wrote.
			_, mine, err := ex.heldItem(ctx, u.Entity, "rewrite", item, ccf.Item)
			if err != nil || !mine {
				return false, nil, err
			}
			return true, next, nil
		}
		if err != nil {
			return false, nil, backendError("PutItem", err)
		}
		return true, next, nil
	}
	reasons, err := ex.transact(ctx, tx)
	switch firstFailed(reasons) {
	case 0:
		return false, nil, nil // the old item changed or went away since it was read: skipped
	case 1:
		return false, nil, ex.conflictHeld(u.Entity, next, reasons[1].Item, "%s %s was not moved", u.Entity.Name, keyDesc(u.Entity, old))
	}
	if err != nil {
		return false, nil, err
	}
	return true, next, nil
}

// heldItem returns the item the table holds under item's key after the
// SDK resent a put of it (what: "insert", "rewrite") whose guard then
// failed: found, the item the failed condition returned, or else a
// strongly consistent read; and whether it is item as written, in which
// case the first send landed.
func (ex *Executor) heldItem(ctx context.Context, e *mapping.Entity, what string, item, found map[string]types.AttributeValue) (map[string]types.AttributeValue, bool, error) {
	if found == nil {
		key := map[string]types.AttributeValue{}
		for _, attr := range e.Mapping().BaseKeyAttrs() {
			key[attr] = item[attr]
		}
		got, err := ex.readBack(ctx, e.Mapping().Table, key)
		if err != nil {
			return nil, false, note(backendError("GetItem", err), "%s %s: the %s was sent twice and may have landed the first time", e.Name, keyDesc(e, e.Decode(key)), what)
		}
		found = got.Item
	}
	return found, sameItem(item, found), nil
}

// reinsert deletes the item as it was read and puts the new one under
// the same key (planner.UpdateRows.Reinsert). A put that fails after the
// delete names the row, which is then gone: only another writer of the
// same key in between can cause it.
func (ex *Executor) reinsert(ctx context.Context, u *planner.UpdateRows, key, found, item map[string]types.AttributeValue, old, next mapping.Row) (bool, mapping.Row, error) {
	del, put, err := u.ReinsertInputs(key, found, item)
	if err != nil {
		return false, nil, notWritten(err, u.Entity, old)
	}
	var attempts atomic.Int32
	_, err = ex.client.DeleteItem(ctx, del, append(ex.optFns(ctx), countAttempts(&attempts))...)
	if _, ok := isConditionFailed(err); ok {
		if attempts.Load() < 2 {
			return false, nil, nil // changed since it was read: skipped
		}
		// The SDK resent a delete whose answer was lost: its guard
		// fails when the first send deleted the item, which must then
		// be put back.
		got, err := ex.readBack(ctx, u.Table, key)
		if err != nil {
			return false, nil, note(backendError("GetItem", err), "%s %s may have been deleted to be put back without its sparse index key: if it is gone, INSERT it again",
				u.Entity.Name, keyDesc(u.Entity, old))
		}
		if len(got.Item) > 0 {
			return false, nil, nil // still there, changed since it was read: skipped
		}
	} else if err != nil {
		return false, nil, backendError("DeleteItem", err)
	}
	if _, err := ex.client.PutItem(ctx, put, ex.optFns(ctx)...); err != nil {
		return false, nil, note(backendError("PutItem", err), "%s %s was deleted to be put back without its sparse index key, and could not be put back: INSERT it again",
			u.Entity.Name, keyDesc(u.Entity, old))
	}
	return true, next, nil
}

// notWritten names the row on an error that refused its write before
// anything was sent (a value or a request DynamoDB would refuse).
func notWritten(err error, e *mapping.Entity, row mapping.Row) error {
	var x *errs.Error
	if errors.As(err, &x) && (x.Kind == errs.Invalid || x.Kind == errs.Unsupported) {
		x.Message = fmt.Sprintf("%s %s was not updated: %s", e.Name, keyDesc(e, row), x.Message)
	}
	return err
}

// unsureOne notes on err, which stopped the UPDATE of one row by key,
// that the row may have been updated when the request may have run, and
// that its copies were not rewritten then, with the REPAIR COPIES that
// brings them in step.
func unsureOne(err error, u *planner.UpdateRows, key map[string]types.AttributeValue) error {
	return unsure(err, u.Entity, u.Entity.Decode(key), "updated", "its copies were not rewritten", u.FanOuts)
}

// unsure notes on err, which stopped the write of one row (verb:
// "updated", "deleted", "inserted"), that the row may or may not have
// been written when the request may have run, and, when fan-outs were
// to follow it (copies, what became of them), the REPAIR COPIES that
// brings them in step.
func unsure(err error, e *mapping.Entity, row mapping.Row, verb, copies string, fanOuts []*planner.FanOut) error {
	if !mayHaveLanded(err) {
		return err
	}
	msg := fmt.Sprintf("%s %s may or may not have been %s (the request failed without saying whether it ran; SELECT to see)",
		e.Name, keyDesc(e, row), verb)
	if r := repairCopies(e, fanOuts, []mapping.Row{row}); r != "" {
		msg += "; " + copies + ": if it was, run " + r
	}
	return note(err, "%s", msg)
}

// constantKey renders a key the statement gives in full, or nil for one
// no item can have: the key codec refuses only such values (empty, NULL,
// longer than DynamoDB stores, not reading back as written), the planner
// having refused values of another type. No row has it, as a read by it
// finds none. The error is planner.KeyCaseError's.
func constantKey(kvs []*planner.KeyValue) (map[string]types.AttributeValue, error) {
	key := map[string]types.AttributeValue{}
	for _, kv := range kvs {
		av, err := kv.Value(nil)
		if err != nil {
			return nil, planner.KeyCaseError(err)
		}
		key[kv.Attr()] = av
	}
	return key, nil
}

func (ex *Executor) delete(ctx context.Context, d *planner.DeleteRows) (*Result, error) {
	if d.Key != nil {
		key, err := constantKey(d.Key)
		if key == nil {
			return &Result{}, err
		}
		old, err := ex.deleteOne(ctx, d, key, nil)
		if err != nil {
			return &Result{}, unsure(err, d.Entity, d.Entity.Decode(key), "deleted", "its copies were not cleared", d.FanOuts)
		}
		if old == nil {
			return &Result{}, nil
		}
		res := &Result{Affected: 1}
		return res, ex.fanOuts(ctx, res, d.Entity, d.FanOuts, []mapping.Row{old})
	}
	rows, err := ex.readRows(ctx, d.Read, d.Slots)
	if err == nil {
		err = allowAffected(ctx, "DELETE", d.Entity, len(rows), d.MaxAffected)
	}
	if err != nil {
		return nil, err
	}
	var affected atomic.Int64
	o := newOutcomes(len(rows))
	deleted := make([]mapping.Row, len(rows))
	err = ex.eachWrite(ctx, len(rows), func(ctx context.Context, i int) error {
		key, err := d.Entity.BaseKey(rows[i])
		if err != nil {
			return err
		}
		old, err := ex.deleteOne(ctx, d, key, rows[i])
		o.record(i, old != nil, err)
		if old != nil {
			affected.Add(1)
			deleted[i] = old
		}
		return err
	})
	res := &Result{Affected: affected.Load()}
	if err != nil {
		return res, partial(err, d.Entity, rows, o, "deleted", "run the statement again: it deletes what is left", d.FanOuts)
	}
	return res, ex.fanOuts(ctx, res, d.Entity, d.FanOuts, slices.DeleteFunc(deleted, func(r mapping.Row) bool { return r == nil }))
}

// deleteOne sends one DeleteItem with ReturnValues ALL_OLD, which tells
// whether a row was there, and returns it as deleted (nil when none was);
// a failed condition deletes nothing. row is the
// row as read, or nil when nothing was read; a row read must still exist
// and hold what the WHERE read.
//
// When the SDK retries a DeleteItem whose first attempt deleted the row
// but whose answer was lost (DYNAMODB.md 4.4), the retry finds nothing
// (no old item, or a failed attribute_exists guard). Nothing the retry
// gets back tells that from a row deleted by another writer in between;
// a strongly consistent read then tells whether the row is gone. If it
// is, it is counted as deleted (the count may be one high), so that the
// fan-outs clear its copies: they check that the source is gone, and
// would otherwise keep the value of a row that no longer exists.
func (ex *Executor) deleteOne(ctx context.Context, d *planner.DeleteRows, key map[string]types.AttributeValue, row mapping.Row) (mapping.Row, error) {
	in, err := d.DeleteInput(key, row)
	if err != nil {
		return nil, err
	}
	var attempts atomic.Int32
	out, err := ex.client.DeleteItem(ctx, in, append(ex.optFns(ctx), countAttempts(&attempts))...)
	_, failed := isConditionFailed(err)
	if err != nil && !failed {
		return nil, backendError("DeleteItem", err)
	}
	if !failed && len(out.Attributes) > 0 {
		return d.Entity.Decode(out.Attributes), nil
	}
	if attempts.Load() < 2 {
		return nil, nil
	}
	got, err := ex.readBack(ctx, d.Table, key)
	if err != nil {
		return nil, note(backendError("GetItem", err), "the delete was sent twice and may have landed the first time")
	}
	if len(got.Item) > 0 {
		return nil, nil // still there: its guard failed, not deleted
	}
	if row == nil {
		row = d.Entity.Decode(key)
	}
	return row, nil
}

// readBack reads an item as it stands now (strongly consistent): to
// tell whether a write the SDK sent twice landed the first time, or what
// holds a key an INSERT would take.
func (ex *Executor) readBack(ctx context.Context, table string, key map[string]types.AttributeValue) (*dynamodb.GetItemOutput, error) {
	return ex.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)}, ex.optFns(ctx)...)
}
