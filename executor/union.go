package executor

import (
	"context"
	"strings"

	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

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

// tupleKey is equal for tuples holding the same items in the given slots
// (all when none are given): the base key of each slot's row (a row
// always holds the columns of its base key).
func (r *run) tupleKey(t tuple, slots ...int) string {
	if slots == nil {
		for i := range t {
			slots = append(slots, i)
		}
	}
	var b strings.Builder
	for _, i := range slots {
		if row := t[i]; row != nil {
			key, _ := r.slots[i].Entity.BaseKey(row)
			b.WriteString(r.slots[i].Entity.Mapping().ItemID(key))
		}
		b.WriteString("\x02")
	}
	return b.String()
}

// dedupeIter passes the first tuple of each combination of the rows of
// slots: a semi join's outer rows, once each.
type dedupeIter struct {
	r     *run
	in    tupleIter
	slots []int
	seen  map[string]bool
}

func (it *dedupeIter) next(ctx context.Context) (tuple, error) {
	for {
		t, err := it.in.next(ctx)
		if err != nil || t == nil {
			return nil, err
		}
		if k := it.r.tupleKey(t, it.slots...); !it.seen[k] {
			it.seen[k] = true
			return t, nil
		}
	}
}

// subqueryDistinctIter passes the first tuple of each combination of the
// values of its step's columns; with none, the first tuple only.
type subqueryDistinctIter struct {
	r    *run
	in   tupleIter
	step *planner.SubqueryDistinct
	seen map[string]bool
}

func (it *subqueryDistinctIter) next(ctx context.Context) (tuple, error) {
	if len(it.step.Columns) == 0 && len(it.seen) > 0 {
		return nil, nil // the first row stood for all: read no more
	}
	for {
		t, err := it.in.next(ctx)
		if err != nil || t == nil {
			return nil, err
		}
		var k []byte
		en := &tupleEnv{it.r, t}
		for _, c := range it.step.Columns {
			v, err := eval(c, en)
			if err != nil {
				return nil, err
			}
			k = value.AppendKey(k, v)
		}
		if !it.seen[string(k)] {
			it.seen[string(k)] = true
			return t, nil
		}
	}
}
