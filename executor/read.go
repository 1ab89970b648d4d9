package executor

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// tuple is one joined row in flight: an entity row per slot, nil where a
// slot is not read yet or a LEFT JOIN found nothing.
type tuple []mapping.Row

// tupleIter yields tuples; a nil tuple with a nil error is the end.
type tupleIter interface {
	next(ctx context.Context) (tuple, error)
}

// outerBatch is how many outer rows one lookup step gathers: enough for a
// full BatchGetItem of 100 keys.
const outerBatch = 100

func (r *run) tuples(n planner.Node) (tupleIter, error) {
	switch x := n.(type) {
	case *planner.GetItem:
		return &onceIter{fill: func(ctx context.Context) ([]tuple, error) { return r.getItem(ctx, x) }}, nil
	case *planner.Query:
		if len(x.PK) == 1 {
			return &queryIter{r: r, q: x}, nil
		}
		unit := []tuple{make(tuple, len(r.plan.Slots))}
		return &onceIter{fill: func(ctx context.Context) ([]tuple, error) { return r.queryEach(ctx, x, unit) }}, nil
	case *planner.BatchGet:
		return &joinIter{r: r, j: &planner.Join{Inner: x}, outer: &onceIter{items: []tuple{make(tuple, len(r.plan.Slots))}}}, nil
	case *planner.Join:
		outer, err := r.tuples(x.Outer)
		return &joinIter{r: r, j: x, outer: outer}, err
	case *planner.PartitionJoin:
		in, err := r.tuples(x.Input)
		return &partitionIter{r: r, pj: x, in: in}, err
	case *planner.Filter:
		in, err := r.tuples(x.Input)
		return &filterIter{r: r, in: in, cond: x.Cond}, err
	case *planner.Union:
		u := &unionIter{r: r, seen: map[string]bool{}}
		for _, n := range x.Inputs {
			in, err := r.tuples(n)
			if err != nil {
				return nil, err
			}
			u.inputs = append(u.inputs, in)
		}
		return u, nil
	}
	return nil, internal("no executor for plan step %T", n)
}

// onceIter yields tuples computed by one call of fill.
type onceIter struct {
	fill  func(ctx context.Context) ([]tuple, error)
	items []tuple
	done  bool
}

func (o *onceIter) next(ctx context.Context) (tuple, error) {
	if !o.done && o.fill != nil {
		o.done = true
		items, err := o.fill(ctx)
		if err != nil {
			return nil, err
		}
		o.items = items
	}
	if len(o.items) == 0 {
		return nil, nil
	}
	t := o.items[0]
	o.items = o.items[1:]
	return t, nil
}

// lookupFn resolves a column of an earlier slot in t.
func (r *run) lookupFn(t tuple) func(*parser.Column) value.Value {
	return func(c *parser.Column) value.Value {
		if row := t[r.slots[c.Table]]; row != nil {
			return row[c.Name]
		}
		return nil
	}
}

// renderKey renders a full key from t, or false if a bound value is
// missing (a NULL column cannot be part of a key).
func (r *run) renderKey(kvs []*planner.KeyValue, t tuple) (map[string]types.AttributeValue, string, bool) {
	key := make(map[string]types.AttributeValue, len(kvs))
	ids := make([]string, 0, len(kvs))
	for _, kv := range kvs {
		s, err := kv.Render(r.lookupFn(t))
		if err != nil {
			return nil, "", false
		}
		key[kv.Attr] = &types.AttributeValueMemberS{Value: s}
		ids = append(ids, kv.Attr+"="+s)
	}
	return key, strings.Join(ids, "\x00"), true
}

func itemID(m *mapping.Mapping, item map[string]types.AttributeValue) string {
	id := ""
	for _, attr := range []string{m.PartitionKey, m.SortKey} {
		if s, ok := item[attr].(*types.AttributeValueMemberS); ok {
			if id != "" {
				id += "\x00"
			}
			id += attr + "=" + s.Value
		}
	}
	return id
}

// classify turns items into one-slot tuples, one per read whose entity
// the item's keys match; items of other entities are dropped.
func (r *run) classify(items []map[string]types.AttributeValue, reads []planner.Read) []tuple {
	entities := make([]*mapping.Entity, 0, len(reads))
	for _, rd := range reads {
		entities = append(entities, r.ex.m.Entities[rd.Entity])
	}
	var out []tuple
	for _, item := range items {
		e := r.ex.m.Classify(item, entities)
		if e == nil {
			continue
		}
		row := e.Decode(item)
		for _, rd := range reads {
			if rd.Entity == e.Name {
				t := make(tuple, len(r.plan.Slots))
				t[rd.Slot] = row
				out = append(out, t)
			}
		}
	}
	return out
}

func (r *run) getItem(ctx context.Context, g *planner.GetItem) ([]tuple, error) {
	key, _, ok := r.renderKey(g.Key, nil)
	if !ok {
		return nil, nil
	}
	in := &dynamodb.GetItemInput{TableName: aws.String(g.Table), Key: key, ConsistentRead: aws.Bool(g.Consistent),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	if p, ok := projection(g.Project); ok {
		expr, err := expression.NewBuilder().WithProjection(p).Build()
		if err != nil {
			return nil, internal("projection: %v", err)
		}
		in.ProjectionExpression, in.ExpressionAttributeNames = expr.Projection(), expr.Names()
	}
	out, err := r.ex.client.GetItem(ctx, in, r.ex.optFns(ctx)...)
	if err != nil {
		return nil, backendError("GetItem", err)
	}
	if out.Item == nil {
		return nil, nil
	}
	return r.classify([]map[string]types.AttributeValue{out.Item}, []planner.Read{g.Read}), nil
}

// queryInputs builds the Query requests of q for outer row t: one per
// partition value.
func (r *run) queryInputs(q *planner.Query, t tuple) ([]*dynamodb.QueryInput, error) {
	var sk []string
	if q.SK != nil {
		for _, kv := range q.SK.Values {
			s, err := kv.Render(r.lookupFn(t))
			if err != nil {
				return nil, nil
			}
			sk = append(sk, s)
		}
	}
	var ins []*dynamodb.QueryInput
	for _, pkv := range q.PK {
		pk, err := pkv.Render(r.lookupFn(t))
		if err != nil {
			continue
		}
		b := expression.NewBuilder().WithKeyCondition(keyCondition(q, pk, sk))
		if q.Filter != nil {
			f, err := condition(q.Filter)
			if err != nil {
				return nil, err
			}
			b = b.WithFilter(f)
		}
		if p, ok := projection(q.Project); ok {
			b = b.WithProjection(p)
		}
		expr, err := b.Build()
		if err != nil {
			return nil, internal("building the Query expression: %v", err)
		}
		in := &dynamodb.QueryInput{
			TableName:                 aws.String(q.Table),
			KeyConditionExpression:    expr.KeyCondition(),
			FilterExpression:          expr.Filter(),
			ProjectionExpression:      expr.Projection(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
			ConsistentRead:            aws.Bool(q.Consistent),
			ScanIndexForward:          aws.Bool(!q.Desc),
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
		}
		if q.Index != "" {
			in.IndexName = aws.String(q.Index)
		}
		if q.Limit > 0 {
			in.Limit = aws.Int32(int32(min(q.Limit, math.MaxInt32)))
		}
		if q.CountOnly {
			in.Select = types.SelectCount
		}
		ins = append(ins, in)
	}
	return ins, nil
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
}

func (it *queryIter) next(ctx context.Context) (tuple, error) {
	for len(it.buf) == 0 {
		if it.done {
			return nil, nil
		}
		if !it.start {
			it.start = true
			ins, err := it.r.queryInputs(it.q, make(tuple, len(it.r.plan.Slots)))
			if err != nil || len(ins) == 0 {
				it.done = true
				return nil, err
			}
			it.in = ins[0]
		}
		out, err := it.r.queryPage(ctx, it.in)
		if err != nil {
			return nil, err
		}
		if it.q.CountOnly {
			// Rows without columns: all COUNT(*) needs is how many.
			it.buf = slices.Repeat([]tuple{make(tuple, len(it.r.plan.Slots))}, int(out.Count))
		} else {
			it.buf = it.r.classify(out.Items, it.q.Reads)
		}
		if len(out.LastEvaluatedKey) == 0 {
			it.done = true
		} else {
			it.in.ExclusiveStartKey = out.LastEvaluatedKey
		}
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}

// queryEach runs q for each outer row (each of its partition values), in
// parallel up to the concurrency limit, and returns the inner tuples for
// each outer row in order. With a single outer row it returns them flat.
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

func (r *run) queryPerOuter(ctx context.Context, q *planner.Query, outers []tuple) ([][]tuple, error) {
	var jobs []int // the outer row of each input
	var inputs []*dynamodb.QueryInput
	for i, t := range outers {
		ins, err := r.queryInputs(q, t)
		if err != nil {
			return nil, err
		}
		for _, in := range ins {
			jobs = append(jobs, i)
			inputs = append(inputs, in)
		}
	}
	results := make([][]map[string]types.AttributeValue, len(inputs))
	err := r.parallel(ctx, len(inputs), func(ctx context.Context, i int) error {
		items, err := r.queryAll(ctx, inputs[i])
		results[i] = items
		return err
	})
	if err != nil {
		return nil, err
	}
	per := make([][]tuple, len(outers))
	for i, outer := range jobs {
		per[outer] = append(per[outer], r.classify(results[i], q.Reads)...)
	}
	return per, nil
}

// parallel runs fn for 0..n-1 with at most Concurrency at once, and
// returns the first error; the others are canceled.
func (r *run) parallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	if n == 1 {
		return fn(ctx, 0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, r.ex.opts.Concurrency)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return backendError("request", ctx.Err())
	}
	return first
}

// joinIter extends each outer row with what the inner step reads for it,
// a batch of outer rows at a time.
type joinIter struct {
	r     *run
	j     *planner.Join
	outer tupleIter
	buf   []tuple
	done  bool
	// constant caches the inner rows of a Query that binds no outer
	// column: it is read once for all outer rows.
	constant []tuple
	read     bool
}

func (it *joinIter) next(ctx context.Context) (tuple, error) {
	for len(it.buf) == 0 {
		if it.done {
			return nil, nil
		}
		var outers []tuple
		for len(outers) < outerBatch {
			t, err := it.outer.next(ctx)
			if err != nil {
				return nil, err
			}
			if t == nil {
				it.done = true
				break
			}
			outers = append(outers, t)
		}
		if len(outers) == 0 {
			return nil, nil
		}
		inner, err := it.inner(ctx, outers)
		if err != nil {
			return nil, err
		}
		for i, o := range outers {
			joined, err := it.r.extend(o, inner[i], it.j)
			if err != nil {
				return nil, err
			}
			it.buf = append(it.buf, joined...)
		}
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}

// inner returns, for each outer row, the partial tuples the inner step
// read for it.
func (it *joinIter) inner(ctx context.Context, outers []tuple) ([][]tuple, error) {
	switch in := it.j.Inner.(type) {
	case *planner.BatchGet:
		return it.r.lookup(ctx, in, outers)
	case *planner.Query:
		if in.Bound {
			return it.r.queryPerOuter(ctx, in, outers)
		}
		if !it.read {
			it.read = true
			ts, err := it.r.queryEach(ctx, in, outers[:1])
			if err != nil {
				return nil, err
			}
			it.constant = ts
		}
		per := make([][]tuple, len(outers))
		for i := range per {
			per[i] = it.constant
		}
		return per, nil
	}
	return nil, internal("no lookup for %T", it.j.Inner)
}

// extend combines outer row o with each inner partial tuple, keeps those
// for which On holds, and for a LEFT join keeps o alone if none did.
func (r *run) extend(o tuple, inner []tuple, j *planner.Join) ([]tuple, error) {
	var out []tuple
	for _, in := range inner {
		t := make(tuple, len(o))
		copy(t, o)
		for s, row := range in {
			if row != nil {
				t[s] = row
			}
		}
		if j.On != nil {
			ok, err := eval(j.On, tupleEnv{r, t})
			if err != nil {
				return nil, err
			}
			if !truth(ok) {
				continue
			}
		}
		out = append(out, t)
	}
	if len(out) == 0 && j.Left {
		out = append(out, o)
	}
	return out, nil
}

// lookup reads every key the lookups need for the outer rows with
// BatchGetItem and returns, for each outer row, the partial tuples found
// (the cross product of its lookups' rows). A row missing from an inner
// lookup yields nothing; the Join decides what LEFT keeps.
func (r *run) lookup(ctx context.Context, bg *planner.BatchGet, outers []tuple) ([][]tuple, error) {
	type want struct{ ids [][]string } // per lookup, the key ids of one outer row
	keys := map[string]map[string]types.AttributeValue{}
	wants := make([]want, len(outers))
	for i, o := range outers {
		wants[i].ids = make([][]string, len(bg.Lookups))
		for li, l := range bg.Lookups {
			if l.Refetch && o[l.Read.Slot] == nil {
				continue
			}
			for _, k := range l.Keys {
				key, id, ok := r.renderKey(k, o)
				if !ok {
					continue
				}
				keys[id] = key
				wants[i].ids[li] = append(wants[i].ids[li], id)
			}
		}
	}
	items, err := r.batchGet(ctx, bg, keys)
	if err != nil {
		return nil, err
	}
	per := make([][]tuple, len(outers))
	for i, o := range outers {
		partial := []tuple{make(tuple, len(o))}
		for li, l := range bg.Lookups {
			if l.Refetch && o[l.Read.Slot] == nil {
				continue
			}
			var found []tuple
			for _, id := range wants[i].ids[li] {
				if item, ok := items[id]; ok {
					found = append(found, r.classify([]map[string]types.AttributeValue{item}, []planner.Read{l.Read})...)
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
	var names map[string]string
	var proj *string
	if p, ok := projection(bg.Project); ok {
		expr, err := expression.NewBuilder().WithProjection(p).Build()
		if err != nil {
			return nil, internal("projection: %v", err)
		}
		names, proj = expr.Names(), expr.Projection()
	}
	chunks := (len(ids) + 99) / 100
	results := make([][]map[string]types.AttributeValue, chunks)
	err := r.parallel(ctx, chunks, func(ctx context.Context, c int) error {
		end := min((c+1)*100, len(ids))
		ka := types.KeysAndAttributes{ProjectionExpression: proj, ExpressionAttributeNames: names,
			ConsistentRead: aws.Bool(bg.Consistent)}
		for _, id := range ids[c*100 : end] {
			ka.Keys = append(ka.Keys, keys[id])
		}
		items, err := r.batchGetChunk(ctx, bg.Table, ka)
		results[c] = items
		return err
	})
	if err != nil {
		return nil, err
	}
	found := map[string]map[string]types.AttributeValue{}
	for _, items := range results {
		for _, item := range items {
			found[itemID(r.ex.m, item)] = item
		}
	}
	return found, nil
}

func (r *run) batchGetChunk(ctx context.Context, table string, ka types.KeysAndAttributes) ([]map[string]types.AttributeValue, error) {
	var items []map[string]types.AttributeValue
	request := map[string]types.KeysAndAttributes{table: ka}
	for attempt := 0; ; attempt++ {
		out, err := r.ex.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: request,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}, r.ex.optFns(ctx)...)
		if err != nil {
			return nil, backendError("BatchGetItem", err)
		}
		items = append(items, out.Responses[table]...)
		left, ok := out.UnprocessedKeys[table]
		if !ok || len(left.Keys) == 0 {
			return items, nil
		}
		request = map[string]types.KeysAndAttributes{table: left}
		if err := retry.Backoff(ctx, attempt); err != nil {
			return nil, backendError("BatchGetItem", err)
		}
	}
}

// partitionIter joins the entities one Query read from a partition.
type partitionIter struct {
	r    *run
	pj   *planner.PartitionJoin
	in   tupleIter
	buf  []tuple
	done bool
}

func (it *partitionIter) next(ctx context.Context) (tuple, error) {
	if !it.done {
		it.done = true
		bySlot := map[int][]mapping.Row{}
		for {
			t, err := it.in.next(ctx)
			if err != nil {
				return nil, err
			}
			if t == nil {
				break
			}
			for s, row := range t {
				if row != nil {
					bySlot[s] = append(bySlot[s], row)
				}
			}
		}
		width := len(it.r.plan.Slots)
		for _, row := range bySlot[it.pj.Steps[0].Slot] {
			t := make(tuple, width)
			t[it.pj.Steps[0].Slot] = row
			it.buf = append(it.buf, t)
		}
		for _, step := range it.pj.Steps[1:] {
			var inner []tuple
			for _, row := range bySlot[step.Slot] {
				t := make(tuple, width)
				t[step.Slot] = row
				inner = append(inner, t)
			}
			j := &planner.Join{Left: step.Left, On: step.On}
			var next []tuple
			for _, o := range it.buf {
				joined, err := it.r.extend(o, inner, j)
				if err != nil {
					return nil, err
				}
				next = append(next, joined...)
			}
			it.buf = next
		}
	}
	if len(it.buf) == 0 {
		return nil, nil
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}

// filterIter keeps the tuples for which cond is true.
type filterIter struct {
	r    *run
	in   tupleIter
	cond parser.Expr
}

func (it *filterIter) next(ctx context.Context) (tuple, error) {
	for {
		t, err := it.in.next(ctx)
		if err != nil || t == nil {
			return nil, err
		}
		v, err := eval(it.cond, tupleEnv{it.r, t})
		if err != nil {
			return nil, err
		}
		if truth(v) {
			return t, nil
		}
	}
}

// tupleEnv evaluates expressions over a joined row.
type tupleEnv struct {
	r *run
	t tuple
}

func (e tupleEnv) column(c *parser.Column) value.Value {
	row := e.t[e.r.slots[c.Table]]
	if row == nil {
		return nil
	}
	return row[c.Name]
}

func (e tupleEnv) aggregate(*parser.Func) value.Value { return nil }

// unionIter reads its inputs one after the other and passes each tuple
// once: tuples are told apart by the base-table keys of their rows, since
// two branches may read one item with different attributes.
type unionIter struct {
	r      *run
	inputs []tupleIter
	seen   map[string]bool
}

func (it *unionIter) next(ctx context.Context) (tuple, error) {
	for len(it.inputs) > 0 {
		t, err := it.inputs[0].next(ctx)
		if err != nil {
			return nil, err
		}
		if t == nil {
			it.inputs = it.inputs[1:]
			continue
		}
		if k := it.r.tupleKey(t); !it.seen[k] {
			it.seen[k] = true
			return t, nil
		}
	}
	return nil, nil
}

// tupleKey is equal for tuples holding the same items: the base key of
// each slot's row (a row always holds the columns of its base key).
func (r *run) tupleKey(t tuple) string {
	m := r.ex.m
	var b strings.Builder
	for i, row := range t {
		if row != nil {
			key, _ := r.plan.Slots[i].Entity.KeyItem(row, m.PartitionKey, m.SortKey)
			b.WriteString(itemID(m, key))
		}
		b.WriteString("\x02")
	}
	return b.String()
}
