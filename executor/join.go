package executor

import (
	"context"

	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// innerSide is what a join reads for its outer rows as they stream in.
type innerSide interface {
	// want registers outer row w.t: it sets the jobs w waits for and
	// starts the requests that are due.
	want(ctx context.Context, w *waiting) error
	// flush starts the requests for what is gathered but not sent yet;
	// last says the outer rows are all read and the join now waits.
	flush(ctx context.Context, last bool)
	// rows returns the inner partial tuples of w, whose jobs have ended.
	rows(w *waiting) ([]tuple, error)
	// release forgets what w holds.
	release(w *waiting)
	// ahead returns how many outer rows to read ahead of the one being
	// joined: first, when a LIMIT may stop the statement early, and at
	// most.
	ahead() (first, most int)
}

// waiting is an outer row read and not yet joined: what it waits for.
type waiting struct {
	t         tuple
	jobs      []*job
	keys      [][]*keyState  // a BatchGet's keys, per lookup
	partition *partitionRead // a Query's read
}

func (w *waiting) ready() bool {
	for _, j := range w.jobs {
		if !j.ready() {
			return false
		}
	}
	return true
}

func (w *waiting) wait(ctx context.Context) error {
	for _, j := range w.jobs {
		if err := j.wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// addJob adds j to what w waits for, once.
func (w *waiting) addJob(j *job) {
	for _, have := range w.jobs {
		if have == j {
			return
		}
	}
	w.jobs = append(w.jobs, j)
}

// joinIter extends each outer row with what the inner step reads for
// it, and keeps what the join kind says. It is a pipeline: it reads
// outer rows ahead of the one it joins and starts their inner requests
// at once (a BatchGetItem as soon as 100 new keys are gathered, a Query
// per row), so that inner requests overlap each other and the outer
// pages; rows still come out in outer order.
type joinIter struct {
	r     *run
	inner innerSide
	kind  planner.JoinKind
	on    parser.Expr
	outer tupleIter
	queue []*waiting // outer rows read ahead, in order
	ended bool       // the outer rows are all read
	// window is how many outer rows may be read ahead now; under a
	// LIMIT it starts small and doubles each time the join has to wait
	// again (the first wait says nothing), so that a LIMIT met early
	// sends few requests.
	window, most int
	waited       bool
	buf          []tuple
}

// join returns the iterator that joins outer with what inner reads.
func (r *run) join(outer tupleIter, inner planner.Node, kind planner.JoinKind, on parser.Expr) (tupleIter, error) {
	var side innerSide
	switch in := inner.(type) {
	case *planner.BatchGet:
		side = newBatchSide(r, in)
	case *planner.Query:
		side = &querySide{r: r, q: in}
	default:
		return nil, internal("no lookup for %T", inner)
	}
	it := &joinIter{r: r, inner: side, kind: kind, on: on, outer: outer}
	first, most := side.ahead()
	it.window, it.most = most, most
	if r.limited {
		it.window = first
	}
	return it, nil
}

// streams reports whether output step n passes rows on as its input
// yields them, so that a LIMIT above it may end the reads early (a sort
// or an aggregate reads everything first).
func streams(n planner.Node) bool {
	for {
		switch x := n.(type) {
		case *planner.Sort, *planner.Aggregate, *planner.Spread:
			return false
		case *planner.Distinct:
			n = x.Input
		default:
			return true
		}
	}
}

func (it *joinIter) next(ctx context.Context) (tuple, error) {
	for len(it.buf) == 0 {
		for !it.ended && len(it.queue) < it.window {
			t, err := it.outer.next(ctx)
			if err != nil {
				return nil, err
			}
			if t == nil {
				it.ended = true
				break
			}
			w := &waiting{t: t}
			if err := it.inner.want(ctx, w); err != nil {
				return nil, err
			}
			it.queue = append(it.queue, w)
		}
		if len(it.queue) == 0 {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, backendError("request", err) // outer rows joined from memory send nothing that would see it
		}
		head := it.queue[0]
		if !head.ready() {
			// Nothing more is read ahead until the head is joined: what
			// it waits for must be on its way.
			it.inner.flush(ctx, it.ended)
			if it.waited {
				it.window = min(2*it.window, it.most)
			}
			it.waited = true
		}
		// A job that ended before the head came to it may have failed:
		// its rows are missing, not empty.
		if err := head.wait(ctx); err != nil {
			return nil, err
		}
		it.queue = it.queue[1:]
		inner, err := it.inner.rows(head)
		if err != nil {
			return nil, err
		}
		joined, err := it.r.extend(head.t, inner, it.kind, it.on)
		if err != nil {
			return nil, err
		}
		it.inner.release(head)
		it.buf = joined
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}

// extend combines outer row o with each inner partial tuple and keeps, by
// the join kind: each combination for which on holds (Inner); those, or o
// alone with NULLs when there are none (LeftOuter); o once if there is
// one (Semi); o if there is none (Anti).
func (r *run) extend(o tuple, inner []tuple, kind planner.JoinKind, on parser.Expr) ([]tuple, error) {
	var out []tuple
	en := &tupleEnv{r: r} // one env for every joined tuple: eval keeps none
	for _, in := range inner {
		t := make(tuple, len(o))
		copy(t, o)
		for s, row := range in {
			if row != nil {
				t[s] = row
			}
		}
		if on != nil {
			en.t = t
			ok, err := eval(on, en)
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
			for i, o := range it.buf {
				// A cross product can take long: a cancelled statement
				// stops here too.
				if i%1024 == 0 && ctx.Err() != nil {
					return nil, backendError("request", ctx.Err())
				}
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
