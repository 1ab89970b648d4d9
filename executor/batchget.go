package executor

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/planner"
)

// lookup reads every key the lookups need for the outer rows with
// BatchGetItem and returns, for each outer row, the partial tuples found
// (the cross product of its lookups' rows). A row missing from an inner
// lookup yields nothing; the join kind decides what is kept.
func (r *run) lookup(ctx context.Context, bg *planner.BatchGet, outers []tuple) ([][]tuple, error) {
	keys := map[string]map[string]types.AttributeValue{}
	wants := make([][][]string, len(outers)) // per outer row, per lookup, the key ids
	for i, o := range outers {
		wants[i] = make([][]string, len(bg.Lookups))
		for li, l := range bg.Lookups {
			for _, key := range l.Render(r.binder(o)) {
				id := l.Read.Of.Mapping().ItemID(key)
				keys[id] = key
				wants[i][li] = append(wants[i][li], id)
			}
		}
	}
	items, err := r.batchGet(ctx, bg, keys)
	if err != nil {
		return nil, err
	}
	per := make([][]tuple, len(outers))
	for i := range outers {
		partial := []tuple{r.empty()}
		for li, l := range bg.Lookups {
			var found []tuple
			for _, id := range wants[i][li] {
				if item, ok := items[id]; ok {
					found = append(found, r.classify(bg, []map[string]types.AttributeValue{item}, []planner.Read{l.Read})...)
				}
			}
			var next []tuple
			for _, p := range partial {
				for _, f := range found {
					t := make(tuple, len(p))
					copy(t, p)
					t[l.Read.Slot] = f[l.Read.Slot]
					next = append(next, t)
				}
			}
			partial = next
		}
		per[i] = partial
	}
	return per, nil
}

// batchGet fetches items by key, 100 distinct keys a request, requests in
// parallel, retrying unprocessed keys with backoff until all are read or
// the context ends. It returns the items by key id.
func (r *run) batchGet(ctx context.Context, bg *planner.BatchGet, keys map[string]map[string]types.AttributeValue) (map[string]map[string]types.AttributeValue, error) {
	ids := make([]string, 0, len(keys))
	for id := range keys {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	chunks := (len(ids) + limits.BatchGetKeys - 1) / limits.BatchGetKeys
	results := make([][]map[string]types.AttributeValue, chunks)
	err := r.ex.parallel(ctx, chunks, func(ctx context.Context, c int) error {
		var chunk []map[string]types.AttributeValue
		for _, id := range ids[c*limits.BatchGetKeys : min((c+1)*limits.BatchGetKeys, len(ids))] {
			chunk = append(chunk, keys[id])
		}
		in, err := bg.Build(chunk)
		if err != nil {
			return err
		}
		items, err := r.ex.batchGetAll(ctx, in)
		results[c] = items
		return err
	})
	if err != nil {
		return nil, err
	}
	found := map[string]map[string]types.AttributeValue{}
	for _, items := range results {
		for _, item := range items {
			found[bg.Lookups[0].Read.Of.Mapping().ItemID(item)] = item
		}
	}
	return found, nil
}

// batchGetAll sends one BatchGetItem (of one table) and sends again
// whatever DynamoDB leaves unprocessed, with backoff, until every key is
// read or the context ends.
func (ex *Executor) batchGetAll(ctx context.Context, in *dynamodb.BatchGetItemInput) ([]map[string]types.AttributeValue, error) {
	var items []map[string]types.AttributeValue
	req := *in
	start := time.Now()
	for attempt := 0; ; attempt++ {
		out, err := ex.client.BatchGetItem(ctx, &req, ex.optFns(ctx)...)
		if err != nil {
			return nil, backendError("BatchGetItem", err)
		}
		for _, its := range out.Responses {
			items = append(items, its...)
		}
		if len(out.UnprocessedKeys) == 0 {
			return items, nil
		}
		left := 0
		for _, ka := range out.UnprocessedKeys {
			left += len(ka.Keys)
		}
		if left == 0 {
			return items, nil
		}
		req.RequestItems = out.UnprocessedKeys
		if err := retry.BackoffSince(ctx, start, attempt, fmt.Errorf("%d keys left unprocessed", left)); err != nil {
			return nil, backendError("BatchGetItem", err)
		}
	}
}
