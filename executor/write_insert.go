package executor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

func (ex *Executor) insert(ctx context.Context, ins *planner.InsertRows) (*Result, error) {
	rows := make([]mapping.Row, len(ins.Rows))
	for i, row := range ins.Rows {
		rows[i] = cloneRow(row)
	}
	if err := ex.fill(ctx, ins.Entity, ins.Fills, rows, ins.OnDuplicate == nil); err != nil {
		return nil, err
	}
	items := make([]map[string]types.AttributeValue, len(rows))
	for i, row := range rows {
		it, err := ins.Entity.Item(row)
		if err != nil {
			return nil, err
		}
		items[i] = it
	}
	if ins.OnDuplicate != nil {
		return ex.upsert(ctx, ins, rows, items)
	}
	if len(rows) == 1 {
		ok, held, err := ex.putNew(ctx, ins, items[0])
		if err != nil {
			return nil, unsure(err, ins.Entity, rows[0], "inserted", "the copies written before it were not filled", ins.Earlier)
		}
		if !ok {
			return nil, ex.conflictHeld(ins.Entity, rows[0], held, "nothing was written")
		}
		res := &Result{Affected: 1}
		return res, ex.fanOuts(ctx, res, ins.Entity, ins.Earlier, rows)
	}
	start := 0
	for _, end := range ins.Batches {
		if err := ctx.Err(); err != nil && start > 0 {
			// Ended between transactions: the rest was never sent, so it
			// was not written, which is all the user needs to finish.
			msg := insertStopped(start, end, len(rows), true)
			if r := repairCopies(ins.Entity, ins.Earlier, rows[:start]); r != "" {
				msg += "; copies written before the rows inserted were not filled: run " + r
			}
			return &Result{Affected: int64(start)}, note(errs.New(errs.Canceled, "the INSERT stopped: %v", err).Wrap(err), "%s", msg)
		}
		tx, err := ins.TransactInput(items[start:end])
		if err != nil {
			return nil, err
		}
		reasons, err := ex.transact(ctx, tx)
		if err != nil {
			if i := firstFailed(reasons); i >= 0 {
				err = ex.conflictHeld(ins.Entity, rows[start+i], reasons[i].Item, "row %d of %d", start+i+1, len(rows))
			}
			rejected := len(reasons) > 0 || !mayHaveLanded(err)
			msg := insertStopped(start, end, len(rows), rejected)
			landed := rows[:start]
			if !rejected {
				landed = rows[:end]
			}
			if r := repairCopies(ins.Entity, ins.Earlier, landed); r != "" {
				msg += "; copies written before the rows inserted were not filled: run " + r
			}
			return &Result{Affected: int64(start)}, note(err, "%s", msg)
		}
		start = end
		if report := progressFrom(ctx); report != nil {
			report(Progress{Source: ins.Entity.Name, Rows: int64(len(rows)), Inserted: int64(end)})
		}
	}
	res := &Result{Affected: int64(len(rows))}
	return res, ex.fanOuts(ctx, res, ins.Entity, ins.Earlier, rows)
}

// insertStopped says what became of the rows of an INSERT written one
// transaction after another, stopped by the transaction of rows
// start+1 to end (1-based) that DynamoDB refused (rejected) or did not
// answer, and how to finish: running the statement again as it is
// would conflict on the rows already in.
func insertStopped(start, end, n int, rejected bool) string {
	var parts []string
	if start > 0 {
		parts = append(parts, fmt.Sprintf("rows 1 to %d were inserted by earlier transactions", start))
	}
	switch {
	case rejected && start == 0:
		return "none of the rows was inserted"
	case rejected:
		parts = append(parts, fmt.Sprintf("rows %d to %d were not; to finish, run the INSERT with VALUES rows %d to %d only, once the cause is fixed", start+1, n, start+1, n))
	default:
		parts = append(parts, fmt.Sprintf("rows %d to %d may or may not have been inserted (DynamoDB gave no answer)", start+1, end))
		finish := fmt.Sprintf("to finish, SELECT rows %d to %d and run the INSERT with VALUES those not there", start+1, end)
		if end < n {
			parts = append(parts, fmt.Sprintf("rows %d to %d were not", end+1, n))
			finish += fmt.Sprintf(" and rows %d to %d", end+1, n)
		}
		parts = append(parts, finish)
	}
	return strings.Join(parts, "; ")
}

// transact sends one TransactWriteItems. A cancellation only by
// conflicts or throttling is resent with the same token (the SDK wrote
// it into tx); any other returns the reasons, in TransactItems order.
// An error that does not say whether the transaction ran (a connection
// lost, a 5xx after the SDK's retries) is resent once with the same
// token, which DynamoDB answers without writing again if it had run.
func (ex *Executor) transact(ctx context.Context, tx *dynamodb.TransactWriteItemsInput) ([]types.CancellationReason, error) {
	resent := false
	start := time.Now()
	for attempt := 0; ; attempt++ {
		_, err := ex.client.TransactWriteItems(ctx, tx, ex.optFns(ctx)...)
		if err == nil {
			return nil, nil
		}
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			if resent || rejected(err) || tx.ClientRequestToken == nil || ctx.Err() != nil {
				return nil, backendError("TransactWriteItems", err)
			}
			resent = true
			continue
		}
		if resent && ownPuts(tx, tce.CancellationReasons) {
			return nil, nil // the first send had landed
		}
		if resent && !withItems(tce.CancellationReasons) {
			// A backend that ignores the token and does not return the
			// items found cannot tell its own first send from another
			// writer's: the outcome stays unknown.
			return nil, errs.New(errs.Backend, "TransactWriteItems: the answer to the first send was lost, and the resend was cancelled without saying whether by the first send's own items").Wrap(err)
		}
		if !retryable(tce.CancellationReasons) {
			return tce.CancellationReasons, backendError("TransactWriteItems", err)
		}
		if err := retry.BackoffSince(ctx, start, attempt, err); err != nil {
			if ctx.Err() != nil {
				return nil, backendError("TransactWriteItems", err)
			}
			return tce.CancellationReasons, backendError("TransactWriteItems", err)
		}
	}
}

// ownPuts reports whether a transaction of puts failed only because
// every put found the very item it writes: the transaction had already
// landed (a backend that ignores the token runs a resend again).
func ownPuts(tx *dynamodb.TransactWriteItemsInput, reasons []types.CancellationReason) bool {
	if len(reasons) != len(tx.TransactItems) {
		return false
	}
	for i, r := range reasons {
		put := tx.TransactItems[i].Put
		if put == nil || aws.ToString(r.Code) != "ConditionalCheckFailed" || !sameItem(put.Item, r.Item) {
			return false
		}
	}
	return true
}

// withItems reports whether every failed condition came back with the
// item it found (ReturnValuesOnConditionCheckFailure ALL_OLD).
func withItems(reasons []types.CancellationReason) bool {
	for _, r := range reasons {
		if aws.ToString(r.Code) == "ConditionalCheckFailed" && r.Item == nil {
			return false
		}
	}
	return true
}

func sameItem(a, b map[string]types.AttributeValue) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || value.Key(value.FromAttr(v)) != value.Key(value.FromAttr(w)) {
			return false
		}
	}
	return true
}

// rejected reports whether a failed write surely changed nothing: it
// was refused as the client's fault (4xx). A transaction cancelled with
// reasons changed nothing either; its callers look at those first.
func rejected(err error) bool {
	if tce := (*types.TransactionCanceledException)(nil); errors.As(err, &tce) {
		return false // cancelled, but without the reasons that say by what
	}
	// After retries, an earlier attempt (answered by a 5xx, or not at
	// all) may have landed, whatever the last answer says.
	var maxed *awsretry.MaxAttemptsError
	var ceiling *retry.CeilingError
	if errors.As(err, &maxed) || errors.As(err, &ceiling) {
		return false
	}
	// A client fault, and DynamoDB's common errors that say the request
	// itself was bad (they carry no fault), refuse the only attempt.
	var api smithy.APIError
	return errors.As(err, &api) && (api.ErrorFault() == smithy.FaultClient || refusalCodes[api.ErrorCode()])
}

// refusalCodes are DynamoDB's errors that reject the request as written:
// it was not carried out.
var refusalCodes = map[string]bool{"ValidationException": true, "SerializationException": true}

func retryable(reasons []types.CancellationReason) bool {
	for _, r := range reasons {
		switch aws.ToString(r.Code) {
		case "", "None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
		default:
			return false
		}
	}
	return true
}

// firstFailed returns the index of the first action whose condition
// failed, or -1.
func firstFailed(reasons []types.CancellationReason) int {
	for i, r := range reasons {
		if aws.ToString(r.Code) == "ConditionalCheckFailed" {
			return i
		}
	}
	return -1
}

// upsert is INSERT ... ON DUPLICATE KEY UPDATE, row by row: a guarded put,
// and when the row is there, an UpdateItem of the assignments guarded by
// attribute_exists; if the row vanished in between, the put again.
func (ex *Executor) upsert(ctx context.Context, ins *planner.InsertRows, rows []mapping.Row, items []map[string]types.AttributeValue) (*Result, error) {
	u := ins.OnDuplicate
	// The rows updated, as written, and those put new, for the fan-outs.
	var updated, inserted []mapping.Row
	for i, row := range rows {
		done := false
		for attempt := 0; attempt < 3 && !done; attempt++ {
			put, _, err := ex.putNew(ctx, ins, items[i])
			if err != nil {
				return &Result{Affected: int64(i)}, upsertStopped(err, ins, rows, i, updated, inserted)
			}
			if put {
				inserted = append(inserted, row)
				done = true
				break
			}
			key, err := ins.Entity.BaseKey(row)
			if err != nil {
				return nil, err
			}
			var ok bool
			var written mapping.Row
			if u.Rewrites() {
				ok, written, err = ex.moveOne(ctx, u, key, nil)
			} else {
				ok, written, err = ex.updateOne(ctx, u, key, nil)
			}
			if err != nil {
				return &Result{Affected: int64(i)}, upsertStopped(err, ins, rows, i, updated, inserted)
			}
			if ok {
				updated = append(updated, written)
			} else if err := ex.keyTaken(ctx, ins, key); err != nil {
				return &Result{Affected: int64(i)}, upsertStopped(err, ins, rows, i, updated, inserted)
			}
			done = ok
		}
		if !done {
			return &Result{Affected: int64(i)}, upsertStopped(errs.New(errs.Conflict, "%s %s kept appearing and disappearing",
				ins.Entity.Name, keyDesc(ins.Entity, row)), ins, rows, i, updated, inserted)
		}
	}
	res := &Result{Affected: int64(len(rows))}
	// A row whose fill a later change overtook leaves its copies to that
	// change; the rows updated still fan out. Any other failure stops
	// both, and names the rows updated in its REPAIR COPIES too.
	err := ex.fanOuts(ctx, res, ins.Entity, ins.Earlier, inserted, updated...)
	if err != nil && !overtaken(err) {
		return res, err
	}
	return res, cmp.Or(ex.fanOutsOf(ctx, res, ins.Entity, ins.FanOuts, false, updated), err)
}

// keyTaken returns an error when key holds an item of another entity,
// which neither the put (the key is taken) nor the update (the item is
// not ins's) can write: with a type attribute, two entities may share a
// key.
func (ex *Executor) keyTaken(ctx context.Context, ins *planner.InsertRows, key map[string]types.AttributeValue) error {
	got, err := ex.readBack(ctx, ins.Table, key)
	if err != nil {
		return backendError("GetItem", err)
	}
	if len(got.Item) == 0 || isEntitys(ins.Entity, got.Item) {
		return nil
	}
	m := ins.Entity.Mapping()
	what := ""
	if t, ok := got.Item[m.TypeAttribute]; ok && m.TypeAttribute != "" {
		what = fmt.Sprintf(" (%s = %s)", m.TypeAttribute, mapping.Text(t))
	}
	return errs.New(errs.Conflict, "the key %s holds an item that is not of %s%s",
		mapping.Text(got.Item[m.PartitionKey]), ins.Entity.Name, what).
		WithHint("give the %s row a key no other entity's item has", ins.Entity.Name)
}

// upsertStopped notes on err, which stopped an upsert at row i (from 0),
// what became of each row: those before it were written (inserted or
// updated), row i was not or may have been (its request failed without
// saying whether it ran), the others were not sent. Running the whole
// statement again would apply ON DUPLICATE KEY UPDATE to the rows it
// inserted, so the way to finish is the statement with the rows not
// written; and REPAIR COPIES for the rows updated, whose copies were not
// rewritten, and for those inserted, whose earlier copies were not filled.
func upsertStopped(err error, ins *planner.InsertRows, rows []mapping.Row, i int, updated, inserted []mapping.Row) error {
	e, n := ins.Entity, len(rows)
	span := func(from, to int) string { // 1-based, inclusive
		if from == to {
			return fmt.Sprintf("row %d %s", from, keyDesc(e, rows[from-1]))
		}
		return fmt.Sprintf("rows %d to %d", from, to)
	}
	var parts []string
	if i > 0 {
		parts = append(parts, span(1, i)+" "+wasWere(i)+" written")
	}
	maybe := mayHaveLanded(err)
	if maybe {
		parts = append(parts, span(i+1, i+1)+" may or may not have been written (the request failed without saying whether it ran; SELECT it to see)")
	} else {
		parts = append(parts, span(i+1, i+1)+" was not written")
	}
	if i+1 < n {
		parts = append(parts, span(i+2, n)+" "+wasWere(n-i-1)+" not sent")
	}
	first := i + 1 // the first row, 1-based, to send again
	if maybe {
		first = i + 2
	}
	finish := "nothing is left to write"
	if first <= n {
		finish = "do not run the statement again as is, which would apply ON DUPLICATE KEY UPDATE to the rows it inserted: run it with " +
			strings.Replace(span(first, n), "row", "VALUES row", 1) + " only"
		if maybe {
			finish += fmt.Sprintf(", and row %d if it did not land", i+1)
		}
	} else if maybe {
		finish = fmt.Sprintf("if row %d did not land, run the statement with it only", i+1)
	}
	msg := strings.Join(parts, "; ") + "; to finish, " + finish
	sources := append(slices.Clone(updated), inserted...)
	if maybe {
		sources = append(sources, rows[i])
	}
	if r := repairCopies(e, ins.Earlier, sources); r != "" {
		msg += "; the copies of the rows written were not brought in step: run " + r
	}
	return note(err, "%s", msg)
}

// fill reads the source of each copy the rows carry (one GetItem per
// distinct source key, in parallel) and writes its value into the rows;
// a value the statement gives must agree with the source.
//
// When the rows are the ones the statement writes (own) and the copy's
// source is their own entity, a row that copies a row of the statement
// (itself, or another) takes the value being written, not the one stored
// (none, for an INSERT).
func (ex *Executor) fill(ctx context.Context, e *mapping.Entity, fills []*mapping.Copy, rows []mapping.Row, own bool) error {
	for _, c := range fills {
		var keys []value.Value
		seen := map[string]bool{}
		mine := map[string]value.Value{}
		if own && c.Source == e {
			for _, row := range rows {
				if k := row[c.SourceKeyColumn()]; k != nil {
					mine[value.Key(k)] = row[c.SourceColumn]
					seen[value.Key(k)] = true
				}
			}
		}
		for _, row := range rows {
			if v := row[c.KeyColumn]; v != nil && !seen[value.Key(v)] {
				seen[value.Key(v)] = true
				keys = append(keys, v)
			}
		}
		src, err := ex.sources(ctx, c, keys)
		if err != nil {
			return err
		}
		for k, v := range mine {
			if v != nil {
				src[k] = v
			}
		}
		for _, row := range rows {
			k := row[c.KeyColumn]
			if k == nil {
				continue
			}
			sv := src[value.Key(k)]
			if given, ok := row[c.Column]; ok {
				if value.Key(given) != value.Key(sv) {
					return errs.New(errs.Invalid, "%s.%s %s disagrees with %s.%s %s of %s %s = %s", e.Name, c.Column, value.Literal(given),
						c.Source.Name, c.SourceColumn, value.Literal(sv), c.Source.Name, c.KeyColumn, value.Literal(k)).
						WithHint("leave %s out: it is copied from %s.%s", c.Column, c.Source.Name, c.SourceColumn)
				}
				continue
			}
			if sv != nil {
				row[c.Column] = sv
			}
		}
	}
	return nil
}

// sources reads copy c's source column for each key value, strongly
// consistent: the value copied must be the one just written.
func (ex *Executor) sources(ctx context.Context, c *mapping.Copy, keys []value.Value) (map[string]value.Value, error) {
	out := map[string]value.Value{}
	var mu sync.Mutex
	err := ex.parallel(ctx, len(keys), func(ctx context.Context, i int) error {
		in, err := planner.FillInput(c.Source.Mapping().Table, c, keys[i])
		if err != nil {
			return err
		}
		got, err := ex.client.GetItem(ctx, in, ex.optFns(ctx)...)
		if err != nil {
			return backendError("GetItem", err)
		}
		if av, ok := got.Item[c.SourceColumn]; ok {
			mu.Lock()
			out[value.Key(keys[i])] = value.FromAttr(av)
			mu.Unlock()
		}
		return nil
	})
	return out, err
}

// putNew sends one PutItem guarded by attribute_not_exists(partition
// key) and reports whether the item was written. When the guard fails
// on an attempt after the first (the SDK retried a put whose answer was
// lost, DYNAMODB.md 4.4) and the item there is the one being written,
// the first attempt landed: that is a write, not a duplicate. The item
// comes with the failure (ALL_OLD), or, from a backend that leaves it
// out, from a strongly consistent GetItem. When the put was refused, it
// also returns the item found under the key, if DynamoDB said, for the
// conflict's message.
func (ex *Executor) putNew(ctx context.Context, ins *planner.InsertRows, it map[string]types.AttributeValue) (bool, map[string]types.AttributeValue, error) {
	in, err := ins.PutInput(it)
	if err != nil {
		return false, nil, err
	}
	var attempts atomic.Int32
	_, err = ex.client.PutItem(ctx, in, append(ex.optFns(ctx), countAttempts(&attempts))...)
	ccf, failed := isConditionFailed(err)
	if !failed {
		if err != nil {
			return false, nil, backendError("PutItem", err)
		}
		return true, nil, nil
	}
	if attempts.Load() < 2 {
		return false, ccf.Item, nil
	}
	found, mine, err := ex.heldItem(ctx, ins.Entity, "insert", it, ccf.Item)
	return mine, found, err
}

// countAttempts counts into n the attempts the SDK makes to send one
// request, its retries included.
func countAttempts(n *atomic.Int32) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("dynosqlCountAttempts",
				func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
					n.Add(1)
					return next.HandleFinalize(ctx, in)
				}), middleware.After)
		})
	}
}
