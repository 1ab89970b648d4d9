package executor

import (
	"context"

	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// outerBatch is how many outer rows one lookup step gathers: enough for a
// full BatchGetItem of 100 keys.
const outerBatch = 100

// joinIter extends each outer row with what the inner step reads for it,
// a batch of outer rows at a time, and keeps what the join kind says.
type joinIter struct {
	r     *run
	inner planner.Node // a *BatchGet or a *Query
	kind  planner.JoinKind
	on    parser.Expr
	outer tupleIter
	// refetch, for a Refetch step, is the slot whose row the inner read
	// replaces; 0 otherwise (Inner is then keyed by earlier slots).
	refetch int
	buf     []tuple
	done    bool
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
		inner, err := it.innerRows(ctx, outers)
		if err != nil {
			return nil, err
		}
		for i, o := range outers {
			joined, err := it.r.extend(o, inner[i], it.kind, it.on)
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

// innerRows returns, for each outer row, the partial tuples the inner
// step read for it.
func (it *joinIter) innerRows(ctx context.Context, outers []tuple) ([][]tuple, error) {
	switch in := it.inner.(type) {
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
	return nil, internal("no lookup for %T", it.inner)
}

// extend combines outer row o with each inner partial tuple and keeps, by
// the join kind: each combination for which on holds (Inner); those, or o
// alone with NULLs when there are none (LeftOuter); o once if there is
// one (Semi); o if there is none (Anti).
func (r *run) extend(o tuple, inner []tuple, kind planner.JoinKind, on parser.Expr) ([]tuple, error) {
	var out []tuple
	for _, in := range inner {
		t := make(tuple, len(o))
		copy(t, o)
		for s, row := range in {
			if row != nil {
				t[s] = row
			}
		}
		if on != nil {
			ok, err := eval(on, tupleEnv{r, t})
			if err != nil {
				return nil, err
			}
			if !truth(ok) {
				continue
			}
		}
		if kind == planner.Semi {
			return []tuple{o}, nil
		}
		if kind == planner.Anti {
			return nil, nil
		}
		out = append(out, t)
	}
	if len(out) == 0 && (kind == planner.LeftOuter || kind == planner.Anti) {
		out = append(out, o)
	}
	return out, nil
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
		bySlot := map[int][]tuple{}
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
					bySlot[s] = append(bySlot[s], t)
				}
			}
		}
		it.buf = bySlot[it.pj.Steps[0].Slot]
		for _, step := range it.pj.Steps[1:] {
			var next []tuple
			for _, o := range it.buf {
				joined, err := it.r.extend(o, bySlot[step.Slot], step.Kind, step.On)
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
