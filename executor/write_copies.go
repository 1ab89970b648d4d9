package executor

import (
	"context"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
)

// Progress reports how far the rewrite of one source row's copies has
// got; it is sent after every copy written or skipped.
type Progress struct {
	Copy    string // the copy column, as entity.column
	Source  string // the source row, as entity (key)
	Stale   int64  // copies found that differ from the source, so far
	Updated int64  // copies rewritten
	Skipped int64  // copies left because they changed in between
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
	key mapping.Row // the copier's row decoded from its keys
	id  string
	av  map[string]types.AttributeValue // base key attributes
	cur value.Value                     // the copy's value; nil when absent
}

type fanCount struct{ updated, skipped, left int64 }

// findCopies queries f's copy path for the items that copy the source
// row whose key column is keyVal.
func (ex *Executor) findCopies(ctx context.Context, f *planner.FanOut, keyVal value.Value) ([]copyItem, error) {
	p := f.Copy.Path
	pk, err := p.PK.Render(mapping.Row{f.Copy.KeyColumn: keyVal})
	if err != nil {
		return nil, nil // a key no copy can hold
	}
	kc := expression.Key(p.PKAttr).Equal(expression.Value(&types.AttributeValueMemberS{Value: pk}))
	if prefix := f.SKPrefix(); prefix != "" {
		kc = kc.And(expression.Key(p.SKAttr).BeginsWith(prefix))
	}
	proj, _ := projection(f.Project())
	expr, err := expression.NewBuilder().WithKeyCondition(kc).WithProjection(proj).Build()
	if err != nil {
		return nil, internal("building the copies' Query: %v", err)
	}
	in := &dynamodb.QueryInput{TableName: aws.String(f.Table), KeyConditionExpression: expr.KeyCondition(),
		ProjectionExpression: expr.Projection(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	if !p.IsBase() {
		in.IndexName = aws.String(p.Index)
	}
	items, err := ex.newRun(nil).queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	var out []copyItem
	for _, it := range items {
		if ex.m.Classify(it, []*mapping.Entity{f.Copier}) == nil {
			continue
		}
		c := copyItem{key: f.Copier.Decode(it), id: itemID(ex.m, it), av: map[string]types.AttributeValue{}}
		for _, attr := range []string{ex.m.PartitionKey, ex.m.SortKey} {
			if attr != "" {
				c.av[attr] = it[attr]
			}
		}
		if av, ok := it[f.Copy.Column]; ok {
			c.cur = value.FromAttr(av)
		}
		out = append(out, c)
	}
	return out, nil
}

// fanOut brings the copies of one written source row in step with it.
// Each copy that differs is rewritten with a guard on the value the
// Query saw, so a copy changed in between is skipped. Because index
// reads are eventually consistent (a just-written copy may be missing
// or stale), the Query is repeated until it shows no copy still to try,
// at most planner.MaxRounds times. A re-run after an interruption finds
// the copies not yet rewritten: the fan-out is idempotent.
func (ex *Executor) fanOut(ctx context.Context, f *planner.FanOut, src mapping.Row) (fanCount, error) {
	var n fanCount
	keyVal := src[f.SourceKey]
	if keyVal == nil {
		return n, nil
	}
	want := src[f.Copy.SourceColumn]
	tried := map[string]bool{}
	for range planner.MaxRounds {
		all, err := ex.findCopies(ctx, f, keyVal)
		if err != nil {
			return n, err
		}
		var stale []copyItem
		for _, c := range all {
			if !tried[c.id] && value.Key(c.cur) != value.Key(want) {
				tried[c.id] = true
				stale = append(stale, c)
			}
		}
		if len(stale) == 0 {
			return n, nil
		}
		u, s, err := ex.rewriteCopies(ctx, f, src, stale, want)
		n.updated += u
		n.skipped += s
		if err != nil {
			n.left = int64(len(stale)) - u - s
			return n, err
		}
	}
	return n, nil
}

// rewriteCopies sets each stale copy to want, guarded by the value it was
// seen with, in parallel; it returns the copies updated and skipped.
func (ex *Executor) rewriteCopies(ctx context.Context, f *planner.FanOut, src mapping.Row, stale []copyItem, want value.Value) (int64, int64, error) {
	var updated, skipped atomic.Int64
	report := progressFrom(ctx)
	prog := func() {
		if report != nil {
			report(Progress{Copy: f.Copier.Name + "." + f.Copy.Column, Source: f.Copy.Source.Name + " " + keyDesc(f.Copy.Source, src),
				Stale: int64(len(stale)), Updated: updated.Load(), Skipped: skipped.Load()})
		}
	}
	name := expression.Name(f.Copy.Column)
	err := ex.eachWrite(ctx, len(stale), func(ctx context.Context, i int) error {
		c := stale[i]
		var ub expression.UpdateBuilder
		if want == nil {
			ub = ub.Remove(name)
		} else {
			ub = ub.Set(name, expression.Value(value.ToAttr(want)))
		}
		seen := expression.AttributeNotExists(name)
		if c.cur != nil {
			seen = expression.Equal(name, expression.Value(value.ToAttr(c.cur)))
		}
		expr, err := expression.NewBuilder().WithUpdate(ub).
			WithCondition(expression.And(expression.AttributeExists(expression.Name(ex.m.PartitionKey)), seen)).Build()
		if err != nil {
			return internal("building a copy's UpdateItem: %v", err)
		}
		_, err = ex.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(f.Table), Key: c.av,
			UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
			ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			ReturnConsumedCapacity:              types.ReturnConsumedCapacityTotal}, ex.optFns(ctx)...)
		if ccf, ok := isConditionFailed(err); ok {
			// Already right (a stale index entry) is not a skip.
			if ccf.Item == nil || value.Key(value.FromAttr(ccf.Item[f.Copy.Column])) != value.Key(want) {
				skipped.Add(1)
			}
			prog()
			return nil
		}
		if err != nil {
			return backendError("UpdateItem", err)
		}
		updated.Add(1)
		prog()
		return nil
	})
	return updated.Load(), skipped.Load(), err
}

// copyDiff is one copy that differs from its source.
type copyDiff struct {
	f    *planner.FanOut
	src  mapping.Row
	copy copyItem
}

// diffs reads the source rows of a CHECK or REPAIR and returns every copy
// of them that differs.
func (ex *Executor) diffs(ctx context.Context, cc *planner.CopyCheck) ([]copyDiff, error) {
	rows, err := ex.readRows(ctx, cc.Read, cc.Slots)
	if err != nil {
		return nil, err
	}
	var out []copyDiff
	for _, src := range rows {
		for _, f := range cc.FanOuts {
			all, err := ex.findCopies(ctx, f, src[f.SourceKey])
			if err != nil {
				return nil, err
			}
			for _, c := range all {
				if value.Key(c.cur) != value.Key(src[f.Copy.SourceColumn]) {
					out = append(out, copyDiff{f: f, src: src, copy: c})
				}
			}
		}
	}
	return out, nil
}

// checkCopies lists the copies that differ, one row each.
func (ex *Executor) checkCopies(ctx context.Context, cc *planner.CopyCheck) ([][]value.Value, error) {
	ds, err := ex.diffs(ctx, cc)
	if err != nil {
		return nil, err
	}
	var rows [][]value.Value
	for _, d := range ds {
		rows = append(rows, []value.Value{d.f.Copier.Name, keyDesc(d.f.Copier, d.copy.key), d.f.Copy.Column, d.copy.cur,
			cc.Source.Name + " " + keyDesc(cc.Source, d.src), d.src[d.f.Copy.SourceColumn]})
	}
	return rows, nil
}

// repair rewrites the copies that differ, each guarded by the value seen.
func (ex *Executor) repair(ctx context.Context, cc *planner.CopyCheck) (*Result, error) {
	ds, err := ex.diffs(ctx, cc)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for len(ds) > 0 {
		// One rewrite per (copy, source row), in order.
		f, src := ds[0].f, ds[0].src
		var group []copyItem
		var rest []copyDiff
		for _, d := range ds {
			if d.f == f && keyDesc(cc.Source, d.src) == keyDesc(cc.Source, src) {
				group = append(group, d.copy)
			} else {
				rest = append(rest, d)
			}
		}
		u, s, err := ex.rewriteCopies(ctx, f, src, group, src[f.Copy.SourceColumn])
		res.Affected += u
		res.CopiesUpdated += u
		res.CopiesSkipped += s
		if err != nil {
			return res, note(err, "%d copies were repaired before the error; run REPAIR COPIES again to finish", res.CopiesUpdated)
		}
		ds = rest
	}
	return res, nil
}

// sliceRows yields rows computed in advance.
type sliceRows struct{ rows [][]value.Value }

func (s *sliceRows) next(context.Context) ([]value.Value, error) {
	if len(s.rows) == 0 {
		return nil, nil
	}
	r := s.rows[0]
	s.rows = s.rows[1:]
	return r, nil
}
