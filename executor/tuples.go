package executor

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// tuple is one joined row in flight: an entity row per slot, nil where a
// slot is not read yet or a LEFT JOIN found nothing.
type tuple []mapping.Row

// tupleIter yields tuples; a nil tuple with a nil error is the end.
type tupleIter interface {
	next(ctx context.Context) (tuple, error)
}

// tuples returns the iterator that runs read step n.
func (r *run) tuples(n planner.Node) (tupleIter, error) {
	switch x := n.(type) {
	case *planner.GetItem:
		return &onceIter{fill: func(ctx context.Context) ([]tuple, error) { return r.getItem(ctx, x) }}, nil
	case *planner.Query:
		if len(x.PK) == 1 {
			return &queryIter{r: r, q: x}, nil
		}
		return &onceIter{fill: func(ctx context.Context) ([]tuple, error) { return r.queryEach(ctx, x) }}, nil
	case *planner.Scan:
		return &scanIter{r: r, s: x}, nil
	case *planner.BatchGet:
		return r.join(&onceIter{items: []tuple{r.empty()}}, x, planner.Inner, nil)
	case *planner.Join:
		outer, err := r.tuples(x.Outer)
		if err != nil {
			return nil, err
		}
		return r.join(outer, x.Inner, x.Kind, x.On)
	case *planner.Refetch:
		// The base item read by key replaces the slot's row.
		in, err := r.tuples(x.Input)
		if err != nil {
			return nil, err
		}
		return r.join(in, x.Get, planner.Inner, nil)
	case *planner.PartitionJoin:
		in, err := r.tuples(x.Input)
		return &partitionIter{r: r, pj: x, in: in}, err
	case *planner.Filter:
		in, err := r.tuples(x.Input)
		return &filterIter{r: r, in: in, cond: x.Cond}, err
	case *planner.TopRead:
		in, err := r.tuples(x.Input)
		return &topIter{in: in, top: x}, err
	case *planner.Dedupe:
		in, err := r.tuples(x.Input)
		return &dedupeIter{r: r, in: in, slots: x.Slots, seen: map[string]bool{}}, err
	case *planner.SubqueryDistinct:
		in, err := r.tuples(x.Input)
		return &subqueryDistinctIter{r: r, in: in, step: x, seen: map[string]bool{}}, err
	case *planner.Union:
		u := &unionIter{r: r, seen: map[string]bool{}}
		for _, n := range x.Branches {
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

// empty returns a tuple with no slot read yet.
func (r *run) empty() tuple { return make(tuple, len(r.slots)) }

// binder resolves the columns of earlier slots in t, for the request
// builders.
func (r *run) binder(t tuple) planner.Binder {
	return func(c *parser.Column) value.Value {
		if row := t[r.alias[c.Table]]; row != nil {
			return row[c.Name]
		}
		return nil
	}
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
	row := e.t[e.r.alias[c.Table]]
	if row == nil {
		return nil
	}
	if c.Name == planner.AllColumns {
		all := make(map[string]value.Value, len(row))
		for k, v := range row {
			all[k] = v
		}
		return all
	}
	return row[c.Name]
}

func (e tupleEnv) aggregate(*parser.Func) value.Value { return nil }

// classify turns items one request returned into one-slot tuples, one
// per read whose entity the item belongs to. Items of no entity of the
// statement are counted against the step (see readLog), never dropped
// unseen; one that is a read's after all, its number spelled otherwise
// in a key (Entity.NumberMisfit), stops the read.
func (r *run) classify(step planner.Node, items []map[string]types.AttributeValue, reads []planner.Read) ([]tuple, error) {
	out := make([]tuple, 0, len(items))
	// The tuples are cut from one allocation of one per item, another
	// when reads of one entity (a self-join) need more.
	var slab tuple
	claimed := 0
	for _, item := range items {
		e, row, err := classifyItem(item, reads)
		if err != nil {
			return nil, err
		}
		if e == nil {
			for _, rd := range reads {
				if err := rd.Of.NumberMisfit(item); err != nil {
					return nil, err
				}
			}
			continue
		}
		claimed++
		for _, rd := range reads {
			if rd.Of == e {
				if len(slab)+len(r.slots) > cap(slab) {
					slab = make(tuple, 0, len(items)*len(r.slots))
				}
				n := len(slab)
				slab = slab[:n+len(r.slots)]
				t := slab[n : n+len(r.slots) : n+len(r.slots)]
				t[rd.Slot] = row
				out = append(out, t)
			}
		}
	}
	r.log.add(step, reads, len(items), claimed)
	return out, nil
}

// classifyItem returns the entity of reads that item belongs to and its
// row, or nil; or the error of an item whose case-folded key and
// attributes disagree (Entity.CaseMisfit).
func classifyItem(item map[string]types.AttributeValue, reads []planner.Read) (*mapping.Entity, mapping.Row, error) {
	if len(reads) == 1 && reads[0].Alone {
		// No other entity's item can come back: the keys read need
		// only fit (they may be none).
		if row, ok := reads[0].Of.Claim(item); ok {
			return claimed(reads[0].Of, item, row)
		}
		return nil, nil, nil
	}
	var entities [4]*mapping.Entity
	candidates := entities[:0]
	for _, rd := range reads {
		candidates = append(candidates, rd.Of)
	}
	e := candidates[0].Mapping().Classify(item, candidates) // one request reads one table
	if e == nil {
		return nil, nil, nil
	}
	return claimed(e, item, e.Decode(item))
}

// claimed is classifyItem's answer for an item e claims, as row.
func claimed(e *mapping.Entity, item map[string]types.AttributeValue, row mapping.Row) (*mapping.Entity, mapping.Row, error) {
	if err := e.CaseMisfit(item); err != nil {
		return nil, nil, err
	}
	return e, row, nil
}

// readLog counts, per read step, the items DynamoDB returned and those an
// entity of the statement claimed: an item no entity claims is a sign
// that the mapping does not describe the table's items.
type readLog struct {
	mu    sync.Mutex
	steps []planner.Node
	count map[planner.Node]*readCount
	notes []string // other warnings of the statement's reads
}

// note adds a warning about the statement's reads.
func (l *readLog) note(w string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notes = append(l.notes, w)
}

type readCount struct {
	reads             []planner.Read
	returned, claimed int
}

func (l *readLog) add(step planner.Node, reads []planner.Read, returned, claimed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.count == nil {
		l.count = map[planner.Node]*readCount{}
	}
	c, ok := l.count[step]
	if !ok {
		c = &readCount{reads: reads}
		l.count[step] = c
		l.steps = append(l.steps, step)
	}
	c.returned += returned
	c.claimed += claimed
}

// unclaimed returns the number of items no entity claimed, and a warning
// for each read step that returned items of which none was claimed.
func (l *readLog) unclaimed() (int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	warnings := append([]string(nil), l.notes...)
	for _, step := range l.steps {
		c := l.count[step]
		n += c.returned - c.claimed
		if c.returned > 0 && c.claimed == 0 {
			title, _ := step.Describe()
			var names []string
			for _, rd := range c.reads {
				names = append(names, rd.Entity)
			}
			warnings = append(warnings, fmt.Sprintf("%s returned %d items, and none of them is a %s item by the mapping: "+
				"check that the mapping describes the table's items (key templates, key types, type attribute)",
				strings.SplitN(title, "  ", 2)[0], c.returned, strings.Join(names, " or ")))
		}
	}
	return n, warnings
}
