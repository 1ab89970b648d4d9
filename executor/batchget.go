package executor

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
)

// batchSide reads a BatchGet's keys for the outer rows of a join as they
// come: it gathers the distinct keys not asked for yet and sends them
// 100 to a BatchGetItem, across outer pages, so that every request but
// the last is full. A key is asked for once while rows wait for it, and
// a constant key (one that depends on no outer row) once per statement.
type batchSide struct {
	r     *run
	bg    *planner.BatchGet
	attrs []string             // the key attributes that tell items apart
	reads [][]planner.Read     // each lookup's read, as classify takes it
	known map[string]*keyState // by key id: the keys asked for or gathered
	// next is the job the gathered keys will be sent in; keys are its
	// keys, by id.
	next *job
	keys map[string]map[string]types.AttributeValue
}

// keyState is one key of a batchSide: the job that reads it, how many
// waiting rows want it, and its item decoded for each lookup.
type keyState struct {
	id     string
	j      *job
	refs   int
	pinned bool // a constant key: kept for every outer row
	rows   map[int]mapping.Row
}

func newBatchSide(r *run, bg *planner.BatchGet) *batchSide {
	m := bg.Lookups[0].Read.Of.Mapping()
	attrs := m.BaseKeyAttrs()
	if len(bg.Project) > 0 {
		// The planner leaves out of the projection only key attributes
		// that hold the same constant in every key asked for.
		attrs = slices.DeleteFunc(slices.Clone(attrs), func(a string) bool { return !slices.Contains(bg.Project, a) })
	}
	reads := make([][]planner.Read, len(bg.Lookups))
	for i, l := range bg.Lookups {
		reads[i] = []planner.Read{l.Read}
	}
	return &batchSide{r: r, bg: bg, attrs: attrs, reads: reads, known: map[string]*keyState{}}
}

// id identifies an item, or a key asked for, by the attributes that
// tell the items apart.
func (s *batchSide) id(item map[string]types.AttributeValue) string {
	return mapping.KeyID(item, s.attrs)
}

func (s *batchSide) ahead() (first, most int) {
	return limits.BatchGetKeys, 2 * s.r.ex.opts.Concurrency * limits.BatchGetKeys
}

func (s *batchSide) want(ctx context.Context, w *waiting) error {
	w.keys = make([][]*keyState, len(s.bg.Lookups))
	for li, l := range s.bg.Lookups {
		keys, err := l.Render(s.r.binder(w.t))
		if err != nil {
			return err
		}
		for _, key := range keys {
			id := s.id(key)
			ks := s.known[id]
			if ks == nil {
				if s.next == nil {
					s.next, s.keys = newJob(), map[string]map[string]types.AttributeValue{}
				}
				ks = &keyState{id: id, j: s.next, pinned: l.Constant()}
				s.known[id] = ks
				s.keys[id] = key
				if len(s.keys) == limits.BatchGetKeys {
					s.flush(ctx, false)
				}
			}
			ks.refs++
			w.keys[li] = append(w.keys[li], ks)
			w.addJob(ks.j)
		}
	}
	return nil
}

// flush sends the gathered keys in one BatchGetItem, sorted (so that a
// request does not depend on the order of the outer rows), and sends
// again what DynamoDB leaves unprocessed. With last, the outer rows are
// all read and the join waits: the request runs in the caller.
func (s *batchSide) flush(ctx context.Context, last bool) {
	if s.next == nil {
		return
	}
	j, keys := s.next, s.keys
	s.next, s.keys = nil, nil
	run := s.r.start
	if last {
		run = s.r.runJob
	}
	run(ctx, j, func(ctx context.Context) error {
		ids := slices.SortedFunc(maps.Keys(keys), func(a, b string) int {
			for _, attr := range s.attrs {
				if c := strings.Compare(mapping.Text(keys[a][attr]), mapping.Text(keys[b][attr])); c != 0 {
					return c
				}
			}
			return 0
		})
		chunk := make([]map[string]types.AttributeValue, len(ids))
		for i, id := range ids {
			chunk[i] = keys[id]
		}
		in, err := s.bg.Build(chunk)
		if err != nil {
			return err
		}
		items, err := s.r.ex.batchGetAll(ctx, in)
		j.byID = make(map[string]map[string]types.AttributeValue, len(items))
		for _, item := range items {
			j.byID[s.id(item)] = item
		}
		return err
	})
}

// rows returns the partial tuples of w's lookups: the cross product of
// each lookup's rows. A key whose item is missing, or is not the
// lookup's entity, yields nothing; the join kind decides what is kept.
// A key lookup meets no NumberMisfit item (it renders the key as dynosql
// writes it); the error is a CaseMisfit item's.
func (s *batchSide) rows(w *waiting) ([]tuple, error) {
	partial := []tuple{s.r.empty()}
	for li, l := range s.bg.Lookups {
		var found []mapping.Row
		for _, ks := range w.keys[li] {
			row, err := s.decode(ks, li)
			if err != nil {
				return nil, err
			}
			if row != nil {
				found = append(found, row)
			}
		}
		var next []tuple
		for _, p := range partial {
			for _, row := range found {
				t := make(tuple, len(p))
				copy(t, p)
				t[l.Read.Slot] = row
				next = append(next, t)
			}
		}
		partial = next
	}
	return partial, nil
}

// decode returns the row of key ks's item for lookup li, or nil; each
// item is classified once per lookup.
func (s *batchSide) decode(ks *keyState, li int) (mapping.Row, error) {
	if row, ok := ks.rows[li]; ok {
		return row, nil
	}
	var row mapping.Row
	if item, ok := ks.j.byID[ks.id]; ok {
		e, r, err := classifyItem(item, s.reads[li])
		if err != nil {
			return nil, err
		}
		row = r
		claimed := 0
		if e != nil {
			claimed = 1
		}
		s.r.log.add(s.bg, s.reads[li], 1, claimed)
	}
	if ks.rows == nil {
		ks.rows = map[int]mapping.Row{}
	}
	ks.rows[li] = row
	return row, nil
}

// release drops the keys no waiting row wants any more, constant ones
// aside: what a join holds stays bounded by the rows it reads ahead.
func (s *batchSide) release(w *waiting) {
	for _, kss := range w.keys {
		for _, ks := range kss {
			if ks.refs--; ks.refs == 0 && !ks.pinned {
				delete(s.known, ks.id)
			}
		}
	}
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
