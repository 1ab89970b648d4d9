package executor

import (
	"context"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
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
	return r.classify(g, []map[string]types.AttributeValue{out.Item}, []planner.Read{g.Read})
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
	page  []map[string]types.AttributeValue // the page's items not yet classified
	buf   []tuple
	start bool
	done  bool
	order *orderCheck
}

func (it *queryIter) next(ctx context.Context) (tuple, error) {
	for len(it.buf) == 0 {
		if len(it.page) > 0 {
			// One item at a time, each let go once it is a row, so that
			// a page is held in one form, not as items and rows at once.
			item := it.page[0]
			it.page[0], it.page = nil, it.page[1:]
			var err error
			if it.buf, err = it.r.classify(it.q, []map[string]types.AttributeValue{item}, it.q.Reads); err != nil {
				return nil, err
			}
			continue
		}
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
				it.order = newOrderCheck(it.r, it.q)
			}
		}
		out, err := it.r.queryPage(ctx, it.in)
		if err != nil {
			return nil, err
		}
		switch {
		case it.q.CountOnly:
			// Rows without columns: all COUNT(*) needs is how many.
			it.buf = slices.Repeat([]tuple{it.r.empty()}, int(out.Count))
			it.r.log.add(it.q, it.q.Reads, int(out.Count), int(out.Count))
		case it.order != nil:
			// The order check reads the whole page, the row past the
			// LIMIT included, so the page is classified at once.
			if it.buf, err = it.r.classify(it.q, out.Items, it.q.Reads); err != nil {
				return nil, err
			}
			if err := it.order.check(it.buf); err != nil {
				return nil, err
			}
		default:
			it.page = out.Items
		}
		if len(out.LastEvaluatedKey) == 0 {
			it.done = true
		} else {
			it.in.ExclusiveStartKey = out.LastEvaluatedKey
			if it.in.Limit != nil {
				// The page fell short of the rows the statement wants:
				// items of other entities share the range (DynamoDB's
				// Limit counts them too). Asking twice as many each page
				// bounds both the round trips and the items read past
				// need.
				it.in.Limit = aws.Int32(int32(min(2*int64(*it.in.Limit), math.MaxInt32)))
			}
		}
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}

// queryEach runs q, a Query bound to no outer row, once per partition
// value, in parallel up to the concurrency limit, and returns the tuples
// of all of them, in order.
func (r *run) queryEach(ctx context.Context, q *planner.Query) ([]tuple, error) {
	inputs, err := q.Build(r.binder(r.empty()))
	if err != nil {
		return nil, err
	}
	results := make([][]map[string]types.AttributeValue, len(inputs))
	err = r.ex.parallel(ctx, len(inputs), func(ctx context.Context, i int) error {
		items, err := r.queryAll(ctx, inputs[i])
		results[i] = items
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []tuple
	for _, items := range results {
		rows, err := r.classify(q, items, q.Reads)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// querySide reads a Query's partitions for the outer rows of a join as
// they come: the Query (one per partition value) of each row starts at
// once, within the statement's concurrency. Outer rows that bind the
// same key share one read, so each distinct key is sent once: while any
// row in flight wants it, and afterwards as long as the reads kept hold
// no more than limits.JoinCacheItems items. A Query bound to no outer
// column has one key, sent once whatever the budget.
type querySide struct {
	r      *run
	q      *planner.Query
	known  map[string]*partitionRead // by requestID
	cached int                       // items held by the reads in known
}

// partitionRead is the read of one distinct key: its jobs, how many
// waiting rows want it, and its rows once classified.
type partitionRead struct {
	id    string
	jobs  []*job
	refs  int
	rows  []tuple
	items int
	ready bool
}

func (s *querySide) ahead() (first, most int) {
	if !s.q.Bound {
		return limits.BatchGetKeys, 2 * s.r.ex.opts.Concurrency * limits.BatchGetKeys
	}
	return 1, 2 * s.r.ex.opts.Concurrency
}

func (s *querySide) want(ctx context.Context, w *waiting) error {
	ins, err := s.q.Build(s.r.binder(w.t))
	if err != nil {
		return err
	}
	id := requestID(ins)
	pr := s.known[id]
	if pr == nil {
		pr = &partitionRead{id: id}
		for _, in := range ins {
			j := newJob()
			s.r.start(ctx, j, func(ctx context.Context) error {
				items, err := s.r.queryAll(ctx, in)
				j.items = items
				return err
			})
			pr.jobs = append(pr.jobs, j)
		}
		if s.known == nil {
			s.known = map[string]*partitionRead{}
		}
		s.known[id] = pr
	}
	pr.refs++
	w.partition = pr
	for _, j := range pr.jobs {
		w.addJob(j)
	}
	return nil
}

func (s *querySide) flush(context.Context, bool) {}

// release forgets w's read when no other row wants it and keeping it
// would pass the budget.
func (s *querySide) release(w *waiting) {
	pr := w.partition
	pr.refs--
	if pr.refs == 0 && s.q.Bound && s.cached > s.r.ex.opts.joinCacheItems {
		delete(s.known, pr.id)
		s.cached -= pr.items
	}
}

func (s *querySide) rows(w *waiting) ([]tuple, error) {
	pr := w.partition
	if !pr.ready {
		for _, j := range pr.jobs {
			rows, err := s.r.classify(s.q, j.items, s.q.Reads)
			if err != nil {
				return nil, err
			}
			pr.rows = append(pr.rows, rows...)
			pr.items += len(j.items)
			j.items = nil
		}
		pr.ready = true
		s.cached += pr.items
	}
	return pr.rows, nil
}

// requestID tells apart the Queries of two outer rows: the same text and
// values send the same request. Only key values vary from row to row;
// each part goes behind its length, since a value may hold any byte.
func requestID(ins []*dynamodb.QueryInput) string {
	var b []byte
	for _, in := range ins {
		b = value.AppendLengthPrefixed(b, aws.ToString(in.IndexName))
		b = value.AppendLengthPrefixed(b, aws.ToString(in.KeyConditionExpression))
		b = value.AppendLengthPrefixed(b, strconv.Itoa(len(in.ExpressionAttributeValues)))
		for _, name := range slices.Sorted(maps.Keys(in.ExpressionAttributeValues)) {
			b = value.AppendLengthPrefixed(b, name)
			b = value.AppendLengthPrefixed(b, mapping.Text(in.ExpressionAttributeValues[name]))
		}
	}
	return string(b)
}
