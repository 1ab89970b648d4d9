package executor

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/planner"
)

func (r *run) getItem(ctx context.Context, g *planner.GetItem) ([]tuple, error) {
	in, err := g.Build(r.binder(nil))
	if err != nil || in == nil {
		return nil, err
	}
	out, err := r.ex.client.GetItem(ctx, in, r.ex.optFns(ctx)...)
	if err != nil {
		return nil, backendError("GetItem", err)
	}
	if out.Item == nil {
		r.log.add(g, []planner.Read{g.Read}, 0, 0)
		return nil, nil
	}
	return r.classify(g, []map[string]types.AttributeValue{out.Item}, []planner.Read{g.Read}), nil
}

// queryPage sends one page of a Query.
func (r *run) queryPage(ctx context.Context, in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
	out, err := r.ex.client.Query(ctx, in, r.ex.optFns(ctx)...)
	if err != nil {
		return nil, backendError("Query", err)
	}
	return out, nil
}

// queryAll pages a Query to the end. DynamoDB stops each page after 1 MB
// read (before the filter), so a page may be empty with more to come: only
// a missing LastEvaluatedKey ends it.
func (r *run) queryAll(ctx context.Context, in *dynamodb.QueryInput) ([]map[string]types.AttributeValue, error) {
	var items []map[string]types.AttributeValue
	page := *in
	for {
		out, err := r.queryPage(ctx, &page)
		if err != nil {
			return nil, err
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items, nil
		}
		page.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// queryIter streams one partition page by page.
type queryIter struct {
	r     *run
	q     *planner.Query
	in    *dynamodb.QueryInput
	buf   []tuple
	start bool
	done  bool
	order *orderCheck
}

func (it *queryIter) next(ctx context.Context) (tuple, error) {
	for len(it.buf) == 0 {
		if it.done {
			return nil, nil
		}
		if !it.start {
			it.start = true
			ins, err := it.q.Build(it.r.binder(nil))
			if err != nil || len(ins) == 0 {
				it.done = true
				return nil, err
			}
			it.in = ins[0]
			if it.q.Order != nil {
				it.order = newOrderCheck(it.q)
			}
		}
		out, err := it.r.queryPage(ctx, it.in)
		if err != nil {
			return nil, err
		}
		if it.q.CountOnly {
			// Rows without columns: all COUNT(*) needs is how many.
			it.buf = slices.Repeat([]tuple{it.r.empty()}, int(out.Count))
			it.r.log.add(it.q, it.q.Reads, int(out.Count), int(out.Count))
		} else {
			it.buf = it.r.classify(it.q, out.Items, it.q.Reads)
		}
		if len(out.LastEvaluatedKey) == 0 {
			it.done = true
		} else {
			it.in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		if it.order != nil {
			if err := it.order.check(it.buf); err != nil {
				return nil, err
			}
		}
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}

// queryEach runs q for each outer row (each of its partition values), in
// parallel up to the concurrency limit, and returns the inner tuples of
// all of them, in order.
func (r *run) queryEach(ctx context.Context, q *planner.Query, outers []tuple) ([]tuple, error) {
	per, err := r.queryPerOuter(ctx, q, outers)
	if err != nil {
		return nil, err
	}
	var flat []tuple
	for _, ts := range per {
		flat = append(flat, ts...)
	}
	return flat, nil
}

// queryPerOuter runs q for each outer row and returns, for each, the
// inner tuples its Queries read.
func (r *run) queryPerOuter(ctx context.Context, q *planner.Query, outers []tuple) ([][]tuple, error) {
	var jobs []int // the outer row of each input
	var inputs []*dynamodb.QueryInput
	for i, t := range outers {
		ins, err := q.Build(r.binder(t))
		if err != nil {
			return nil, err
		}
		for _, in := range ins {
			jobs = append(jobs, i)
			inputs = append(inputs, in)
		}
	}
	results := make([][]map[string]types.AttributeValue, len(inputs))
	err := r.ex.parallel(ctx, len(inputs), func(ctx context.Context, i int) error {
		items, err := r.queryAll(ctx, inputs[i])
		results[i] = items
		return err
	})
	if err != nil {
		return nil, err
	}
	per := make([][]tuple, len(outers))
	for i, outer := range jobs {
		per[outer] = append(per[outer], r.classify(q, results[i], q.Reads)...)
	}
	return per, nil
}
