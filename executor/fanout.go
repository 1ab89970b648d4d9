package executor

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Progress reports how far the rewrite of one source row's copies has
// got; it is sent after every transaction of copies (or copy written
// alone) and after copies are dropped because their guard failed. An
// INSERT of several transactions reports after each: Copy is empty,
// Source names the entity, and Rows and Inserted count its rows.
type Progress struct {
	Copy     string // the copy column, as entity.column
	Source   string // the source row, as entity (key)
	Stale    int64  // copies found that differ from the source, so far
	Updated  int64  // copies rewritten
	Skipped  int64  // copies left because they changed in between
	Rows     int64  // an INSERT's rows
	Inserted int64  // of them, those written so far
}

type progressKey struct{}

// WithProgress returns a context whose fan-outs and repairs of copies
// report their progress to fn. fn may be called from several goroutines
// at once.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressFrom(ctx context.Context) func(Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn
}

// copyItem is one item carrying a copy, as the copy path's Query saw it.
type copyItem struct {
	planner.CopyTarget
	row mapping.Row // the copier's row decoded from its keys
	id  string
}

type fanCount struct{ updated, skipped, left int64 }

// findCopies queries f's copy path for the items that copy the source
// row whose key column is keyVal.
func (ex *Executor) findCopies(ctx context.Context, f *planner.FanOut, keyVal value.Value) ([]copyItem, error) {
	in, err := f.FindInput(keyVal)
	if err != nil || in == nil {
		return nil, err
	}
	r := ex.newRun(nil)
	items, err := r.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	m := f.Copier().Mapping()
	var out []copyItem
	for _, it := range items {
		if m.Classify(it, []*mapping.Entity{f.Copier()}) == nil {
			continue
		}
		c := copyItem{row: f.Copier().Decode(it), id: m.ItemID(it)}
		c.Key = map[string]types.AttributeValue{}
		for _, attr := range m.BaseKeyAttrs() {
			c.Key[attr] = it[attr]
		}
		if av, ok := it[f.Copy.Column]; ok {
			c.Current = value.FromAttr(av)
		}
		out = append(out, c)
	}
	return out, nil
}

// fanOut brings the copies of one written source row in step with it.
// Each copy that differs is rewritten with a guard on the value the
// Query saw, so a copy changed in between is skipped, and in the same
// transaction as a check that the source still holds the value written,
// so a fan-out overtaken by a later change of the source writes nothing
// stale (rewriteCopies). Because index reads are eventually consistent
// (a just-written copy may be missing or stale), the Query is repeated
// until it shows no copy still to try, at most planner.MaxRounds times.
// A re-run after an interruption finds the copies not yet rewritten: the
// fan-out is idempotent.
func (ex *Executor) fanOut(ctx context.Context, f *planner.FanOut, src mapping.Row) (fanCount, error) {
	var n fanCount
	keyVal := src[f.SourceKey()]
	if keyVal == nil {
		return n, nil
	}
	want := src[f.Copy.SourceColumn]
	if f.Deleted {
		want = nil
	}
	tried := map[string]bool{}
	for range planner.MaxRounds {
		all, err := ex.findCopies(ctx, f, keyVal)
		if err != nil {
			return n, err
		}
		var stale []copyItem
		for _, c := range all {
			if !tried[c.id] && value.Key(c.Current) != value.Key(want) {
				tried[c.id] = true
				stale = append(stale, c)
			}
		}
		if len(stale) == 0 {
			return n, nil
		}
		m, err := ex.rewriteCopies(ctx, f, src, stale, want, n)
		n = m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// copyRun is the rewrite of one batch of copies of one source row.
type copyRun struct {
	ex     *Executor
	f      *planner.FanOut
	src    mapping.Row
	srcKey map[string]types.AttributeValue
	want   value.Value
	n      fanCount
	stale  int64 // copies this rewrite was given
	done   int64 // of them, copies updated, skipped or found right
	report func(Progress)
}

func (cr *copyRun) progress() {
	if cr.report != nil {
		cr.report(Progress{Copy: cr.f.Copier().Name + "." + cr.f.Copy.Column, Source: cr.f.Copy.Source.Name + " " + keyDesc(cr.f.Copy.Source, cr.src),
			Stale: cr.stale, Updated: cr.n.updated, Skipped: cr.n.skipped})
	}
}

// rewriteCopies sets each stale copy to want, guarded by the value it was
// seen with. The copies go in TransactWriteItems of up to
// planner.CopiesPerTransact updates, fewer when their estimated size
// would pass DynamoDB's 4 MB limit (a long value copied many times), each
// with a ConditionCheck that the source item exists and still holds want:
// a copy is never written with a value its source no longer holds. A
// failed source check means a later change of the source owns the
// copies: the rewrite stops with a conflict. A copy whose own guard fails
// is dropped (skipped, or already right when it holds want) and the rest
// are sent again. The transactions go one after the other: run together,
// their checks of the one source item would conflict. n holds the counts
// so far; the result adds this rewrite's.
func (ex *Executor) rewriteCopies(ctx context.Context, f *planner.FanOut, src mapping.Row, stale []copyItem, want value.Value, n fanCount) (fanCount, error) {
	srcKey, err := f.Copy.Source.BaseKey(src)
	if err != nil {
		return n, err
	}
	cr := &copyRun{ex: ex, f: f, src: src, srcKey: srcKey, want: want, n: n, stale: int64(len(stale)), report: progressFrom(ctx)}
	var rest []copyItem
	for _, c := range stale {
		if f.Copier().Mapping().ItemID(c.Key) == f.Copier().Mapping().ItemID(srcKey) {
			// The source item copies itself: no transaction may touch
			// one item twice, so its update carries the source's check.
			if err := cr.updateSelf(ctx, c); err != nil {
				return cr.finish(err)
			}
			continue
		}
		rest = append(rest, c)
	}
	if len(rest) == 0 {
		return cr.n, nil
	}
	sizes := make([]int, len(rest))
	for i, c := range rest {
		sizes[i] = cr.size(c)
	}
	start := 0
	for _, end := range limits.Batches(sizes, planner.CopiesPerTransact, cr.checkSize()) {
		if err := cr.batch(ctx, rest[start:end]); err != nil {
			return cr.finish(err)
		}
		start = end
	}
	return cr.n, nil
}

// size estimates what the update of copy c adds to a transaction: its
// key, the value written and the value its guard compares with.
func (cr *copyRun) size(c copyItem) int {
	n := limits.ItemSize(c.Key) + len(cr.f.Copy.Column) + len(value.Text(cr.want))
	if c.Current != nil {
		n += len(value.Text(c.Current))
	}
	return n
}

// checkSize estimates the ConditionCheck on the source each transaction
// carries: the source's key and the value it must hold.
func (cr *copyRun) checkSize() int {
	return limits.ItemSize(cr.srcKey) + len(cr.f.Copy.SourceColumn) + len(value.Text(cr.want))
}

func (cr *copyRun) finish(err error) (fanCount, error) {
	cr.n.left += cr.stale - cr.done
	return cr.n, err
}

// sourceMoved is the error of a fan-out overtaken by a later change of
// its source.
func (cr *copyRun) sourceMoved(now map[string]types.AttributeValue) error {
	e := cr.f.Copy.Source
	what := "no longer holds " + cr.f.Copy.SourceColumn + " = " + value.Literal(cr.want)
	if now != nil {
		var cur value.Value
		if av, ok := now[cr.f.Copy.SourceColumn]; ok {
			cur = value.FromAttr(av)
		}
		what += " (it holds " + value.Literal(cur) + ")"
	}
	base := errs.New(errs.Conflict, "%s %s %s: a newer change of %s %s is fanning out to %s.%s; this statement's fan-out stopped and wrote nothing stale (%d copies updated, %d skipped, %d left to the newer change)",
		e.Name, keyDesc(e, cr.src), what, e.Name, keyDesc(e, cr.src), cr.f.Copier().Name, cr.f.Copy.Column, cr.n.updated, cr.n.skipped, cr.stale-cr.done)
	return &errs.ConditionFailedError{Base: base, Entity: e.Name, Key: keyStrings(cr.srcKey)}
}

// batch writes up to planner.CopiesPerTransact copies, all in one
// TransactWriteItems when nothing is in the way. A transaction cancelled
// only by conflicts or throttling is resent with the same token (the SDK
// wrote it into tx; DYNAMODB.md 3.4); one whose answer was lost, once
// with the same token, which DynamoDB answers without writing again.
// Copies whose guard failed are dropped, and the others are sent in a new
// transaction with a new token. The reasons come in TransactItems order
// (3.3), each with the item it found (ALL_OLD); a backend that returns
// no item, or stops at the first failed condition (minidyn), has the
// copies still pending read again to tell which to drop.
func (cr *copyRun) batch(ctx context.Context, pending []copyItem) error {
	build := func() (*dynamodb.TransactWriteItemsInput, error) {
		targets := make([]planner.CopyTarget, len(pending))
		for i, c := range pending {
			targets[i] = c.CopyTarget
		}
		return cr.f.TransactInput(cr.srcKey, cr.want, targets)
	}
	tx, err := build()
	if err != nil {
		return err
	}
	resent, retries, start := false, 0, time.Now()
	for len(pending) > 0 {
		_, err := cr.ex.client.TransactWriteItems(ctx, tx, cr.ex.optFns(ctx)...)
		if err == nil {
			cr.n.updated += int64(len(pending))
			cr.done += int64(len(pending))
			cr.progress()
			return nil
		}
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			if resent || rejected(err) || tx.ClientRequestToken == nil || ctx.Err() != nil {
				return backendError("TransactWriteItems", err)
			}
			resent = true
			continue
		}
		reasons := tce.CancellationReasons
		if len(reasons) != len(tx.TransactItems) {
			return backendError("TransactWriteItems", err)
		}
		if retryable(reasons) {
			if err := retry.BackoffSince(ctx, start, retries, err); err != nil {
				return backendError("TransactWriteItems", err)
			}
			retries++
			continue
		}
		if aws.ToString(reasons[0].Code) == "ConditionalCheckFailed" {
			return cr.sourceMoved(reasons[0].Item)
		}
		var keep []copyItem
		unknown := false
		for i, c := range pending {
			r := reasons[i+1]
			switch code := aws.ToString(r.Code); code {
			case "", "None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
				keep = append(keep, c)
			case "ConditionalCheckFailed":
				if r.Item == nil {
					unknown = true
					keep = append(keep, c)
					continue
				}
				cr.drop(r.Item, resent)
			default:
				return note(backendError("TransactWriteItems", err), "%s %s: %s", cr.f.Copier().Name, keyDesc(cr.f.Copier(), c.row), code)
			}
		}
		if unknown {
			if keep, err = cr.reread(ctx, keep, resent); err != nil {
				return err
			}
		}
		cr.progress()
		pending = keep
		if tx, err = build(); err != nil {
			return err
		}
		resent, retries = false, 0
	}
	return nil
}

// drop counts a copy whose guard failed: already right when it holds
// want (after a resend, most likely by this rewrite's own first send,
// so counted as updated), else skipped; item is the copy as found, nil
// when it is gone.
func (cr *copyRun) drop(item map[string]types.AttributeValue, resent bool) {
	cr.done++
	var cur value.Value
	if av, ok := item[cr.f.Copy.Column]; ok {
		cur = value.FromAttr(av)
	}
	switch {
	case item != nil && value.Key(cur) == value.Key(cr.want):
		if resent {
			cr.n.updated++
		}
	default:
		cr.n.skipped++
	}
}

// reread reads the pending copies again, strongly consistent, and drops
// (counting them) those that are gone or no longer hold the value the
// Query saw: the copies a transaction without the failed items' values
// was cancelled by.
func (cr *copyRun) reread(ctx context.Context, pending []copyItem, resent bool) ([]copyItem, error) {
	keys := make([]map[string]types.AttributeValue, len(pending))
	for i, c := range pending {
		keys[i] = c.Key
	}
	in, err := cr.f.RereadInput(keys)
	if err != nil {
		return nil, err
	}
	items, err := cr.ex.batchGetAll(ctx, in)
	if err != nil {
		return nil, err
	}
	found := map[string]map[string]types.AttributeValue{}
	for _, it := range items {
		found[cr.f.Copier().Mapping().ItemID(it)] = it
	}
	var keep []copyItem
	for _, c := range pending {
		it := found[c.id]
		var cur value.Value
		if av, ok := it[cr.f.Copy.Column]; ok {
			cur = value.FromAttr(av)
		}
		if it != nil && value.Key(cur) == value.Key(c.Current) {
			keep = append(keep, c)
			continue
		}
		cr.drop(it, resent)
	}
	return keep, nil
}

// updateSelf rewrites a copy held by the source item itself, in one
// UpdateItem whose guard is the copy's and the source's.
func (cr *copyRun) updateSelf(ctx context.Context, c copyItem) error {
	in, err := cr.f.SelfUpdateInput(c.CopyTarget, cr.want)
	if err != nil {
		return err
	}
	_, err = cr.ex.client.UpdateItem(ctx, in, cr.ex.optFns(ctx)...)
	if ccf, ok := isConditionFailed(err); ok {
		if ccf.Item == nil || value.Key(value.FromAttr(ccf.Item[cr.f.Copy.SourceColumn])) != value.Key(cr.want) {
			return cr.sourceMoved(ccf.Item)
		}
		cr.drop(ccf.Item, false)
		cr.progress()
		return nil
	}
	if err != nil {
		return backendError("UpdateItem", err)
	}
	cr.n.updated++
	cr.done++
	cr.progress()
	return nil
}
