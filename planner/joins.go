package planner

import (
	"slices"
	"sort"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Join order: the first read from constants (the driver), then one
// lookup step per remaining slot, bound by the rows already read.

// driver chooses the first read. A partition Query is preferred when there
// is one, so that point reads of other tables can ride along in the next
// BatchGetItem; reads of the same partition merge into one Query.
func (b *selectBuilder) driver() (Node, error) {
	var queries, points []*access
	for s := range b.sc.slots {
		if b.left[s] {
			continue
		}
		a := bestAccess(b.sc.slots[s], s, b.facts(s), b.p.opts.Quirks)
		switch {
		case a == nil:
		case a.point:
			points = append(points, a)
		default:
			queries = append(queries, a)
		}
	}
	if len(queries) == 0 && len(points) == 0 {
		for s := range b.sc.slots {
			if a := b.scanAccess(s); a != nil && !b.left[s] {
				return b.single(a, nil)
			}
		}
		return nil, b.refuse(0)
	}
	if len(queries) > 0 {
		best := queries[0]
		for _, a := range queries[1:] {
			if a.score > best.score {
				best = a
			}
		}
		return b.readGroup(b.group(best))
	}
	if group := b.group(points[0]); len(group) > 1 {
		return b.readGroup(group)
	}
	if len(points) == 1 && len(points[0].keys) == 1 {
		return b.single(points[0], nil)
	}
	// Only point reads from constants: every key of one table in one
	// batch (the other tables' come next, as lookups).
	points = b.sameTable(points)
	bg := b.batchGet(points[0].slot)
	for _, a := range points {
		b.markExact(a)
		bg.Lookups = append(bg.Lookups, &Lookup{Read: b.readOn(a.slot, nil), Keys: a.keys})
		b.placed[a.slot] = true
	}
	bg.Project = b.batchProject(bg)
	return b.filterCovered(bg), nil
}

// group returns the driver read a with the reads of other slots that
// live in the same partition (a student's profile and enrollments), when
// one Query of the partition can serve them all: at least one of them
// must be a partition read, or point reads would serve better.
func (b *selectBuilder) group(a *access) []*access {
	group := []*access{a}
	key := a.pkText()
	if key == "" {
		return group
	}
	partitionRead := !a.point
	for s := range b.sc.slots {
		if s == a.slot || (b.left[s] && !b.precededBy(s, group)) || b.mapping(s) != b.mapping(a.slot) {
			// One Query reads one partition of one table.
			continue
		}
		o := bestAccessOn(b.sc.slots[s], s, a.path, b.facts(s), b.p.opts.Quirks)
		if o != nil && o.pkText() == key {
			group = append(group, o)
			partitionRead = partitionRead || !o.point
		}
	}
	if !partitionRead {
		return group[:1]
	}
	sort.Slice(group, func(i, j int) bool { return group[i].slot < group[j].slot })
	return group
}

// readGroup plans one Query for a group of reads of one partition, joined
// on the client; a group of one is an ordinary read.
func (b *selectBuilder) readGroup(group []*access) (Node, error) {
	if len(group) == 1 {
		return b.single(group[0], nil)
	}
	a := group[0]
	for _, g := range group {
		if !b.mapping(g.slot).ProjectsAll(g.path, b.sc.slots[g.slot].Entity, sortedNames(b.needed[g.slot])) {
			return nil, errs.New(errs.Unsupported, "reading several tables from one partition of index %s, which does not project every needed attribute", a.path.Index).
				WithHint("project ALL attributes in %s", a.path.Index)
		}
	}
	q := &Query{Table: b.mapping(a.slot).Table, Index: a.path.Index, Local: a.path.Local, PK: a.pk, SK: commonSortSpec(group),
		Consistent: b.consistent(a.path), m: b.mapping(a.slot)}
	pj := &PartitionJoin{Input: q}
	for _, g := range group {
		// The one Query reads by partition (and by sort key only if all
		// share it): only those parts of each read's key are exact.
		b.markExact(&access{slot: g.slot, pk: g.pk, sk: q.SK})
		q.Reads = append(q.Reads, b.read(g.slot))
	}
	// Before the steps' ON conditions are applied: their columns are
	// read (see wanted).
	q.Project = b.project(q.Reads, a.path)
	for _, g := range group {
		b.placed[g.slot] = true
		step := PartitionStep{Slot: g.slot, Alias: b.sc.slots[g.slot].Alias, Kind: b.joinKind(g.slot)}
		if len(pj.Steps) > 0 {
			if b.left[g.slot] {
				step.On = and(b.leftOn[g.slot])
			} else {
				step.On = and(b.covered())
				if b.markSemiJoin(g.slot) {
					step.Kind = Semi
				}
			}
		}
		pj.Steps = append(pj.Steps, step)
	}
	return b.filterCovered(pj), nil
}

// precededBy reports whether every slot before left-joined slot s is in group.
func (b *selectBuilder) precededBy(s int, group []*access) bool {
	for i := 0; i < s; i++ {
		if !slices.ContainsFunc(group, func(a *access) bool { return a.slot == i }) && !b.placed[i] {
			return false
		}
	}
	return true
}

// commonSortSpec is the sort-key condition every read of a group shares,
// or a whole-partition one (nil) when they differ.
func commonSortSpec(group []*access) *SortSpec {
	first := group[0].sk
	for _, g := range group {
		if first == nil || g.sk == nil || g.point || g.sk.String() != first.String() {
			return nil
		}
	}
	return first
}

// bestAccessOn is bestAccess restricted to one path.
func bestAccessOn(sl Slot, slot int, path *mapping.AccessPath, f facts, q Quirks) *access {
	for _, p := range sl.Entity.Paths() {
		if p.Index == path.Index {
			return tryPath(slot, p, f, q)
		}
	}
	return nil
}

// single plans the read of one slot: the driver when outer is nil, else a
// lookup joined to outer.
func (b *selectBuilder) single(a *access, outer Node) (Node, error) {
	sl := b.sc.slots[a.slot]
	rd := b.readOn(a.slot, nil)
	b.markExact(a)
	var leaf Node
	refetch := false
	switch {
	case a.point && len(a.keys) == 1 && !a.bound && outer == nil:
		g := &GetItem{Table: b.mapping(a.slot).Table, Key: a.keys[0], Read: rd, Consistent: b.p.opts.Consistent, m: b.mapping(a.slot)}
		g.Project = b.project([]Read{rd}, nil)
		leaf = g
	case a.point:
		bg := b.batchGet(a.slot)
		bg.Lookups = []*Lookup{{Read: rd, Keys: a.keys}}
		bg.Project = b.batchProject(bg)
		leaf = bg
	case a.scan:
		rd.Alone = false // a Scan meets every entity's items
		refetch = !b.mapping(a.slot).ProjectsAll(a.path, sl.Entity, sortedNames(b.needed[a.slot]))
		s := b.scan(a)
		if !refetch {
			s.Filter = b.pushdown(a.slot, a.path)
		}
		leaf = s
	default:
		refetch = !b.mapping(a.slot).ProjectsAll(a.path, sl.Entity, sortedNames(b.needed[a.slot]))
		rd = b.readOn(a.slot, a)
		q := &Query{Table: b.mapping(a.slot).Table, Index: a.path.Index, Local: a.path.Local, PK: a.pk, SK: a.sk, Reads: []Read{rd},
			Consistent: b.consistent(a.path), Bound: a.bound, m: b.mapping(a.slot)}
		q.Project = b.project(q.Reads, a.path)
		if refetch {
			// The base items are read next, by key: the index read
			// needs only their keys.
			q.Project = b.projectColumns(q.Reads, a.path, b.keys)
		}
		if !refetch {
			q.Filter = b.pushdown(a.slot, a.path)
		}
		leaf = q
	}
	b.placed[a.slot] = true
	node := leaf
	if outer != nil {
		j := &Join{Outer: outer, Inner: leaf, Kind: b.joinKind(a.slot), Slots: []int{a.slot}}
		switch {
		case b.left[a.slot] && refetch:
			return nil, errs.New(errs.Unsupported, "%s of %s through index %s, which does not project every column the statement needs", j.Kind, sl.Alias, a.path.Index).
				WithHint("project ALL attributes in %s, or join %s by its full key", a.path.Index, sl.Alias)
		case b.left[a.slot]:
			j.On = and(b.leftOn[a.slot])
		case !refetch:
			j.On = and(b.covered())
			if b.markSemiJoin(a.slot) {
				j.Kind = Semi
			}
		}
		node = j
	}
	if refetch {
		node = b.refetch(node, a.slot)
	}
	return b.filterCovered(node), nil
}

// refetch follows an index read that lacks needed attributes with a
// BatchGetItem of the base items; the predicate is then checked on them.
func (b *selectBuilder) refetch(input Node, slot int) Node {
	sl := b.sc.slots[slot]
	base := sl.Entity.Base()
	bind := map[string]parser.Expr{}
	for _, c := range sl.Entity.BaseKeyColumns() {
		bind[c] = &parser.Column{Table: sl.Alias, Name: c, Pos: -1}
	}
	key := []*KeyValue{{Key: base.PK, Bind: bind}}
	if base.SK != nil {
		key = append(key, &KeyValue{Key: base.SK, Bind: bind})
	}
	bg := b.batchGet(slot)
	bg.Lookups = []*Lookup{{Read: b.readOn(slot, nil), Keys: [][]*KeyValue{key}}}
	bg.Project = b.batchProject(bg)
	return &Refetch{Input: input, Get: bg, Slot: slot}
}

// lookupStep reads the next slots, bound by columns of rows already read.
// Every full-key lookup that is possible now shares one BatchGetItem.
func (b *selectBuilder) lookupStep(outer Node) (Node, error) {
	var points []*access
	var leftPoint, bestQuery *access
	first := -1
	for s := range b.sc.slots {
		if !b.placeable(s) {
			continue
		}
		if first < 0 {
			first = s
		}
		a := bestAccess(b.sc.slots[s], s, b.facts(s), b.p.opts.Quirks)
		switch {
		case a == nil:
		case a.point && b.left[s]:
			if leftPoint == nil {
				leftPoint = a
			}
		case a.point:
			points = append(points, a)
		case bestQuery == nil || a.score > bestQuery.score:
			bestQuery = a
		}
	}
	switch {
	case len(points) > 1:
		points = b.sameTable(points)
		bg := b.batchGet(points[0].slot)
		j := &Join{Outer: outer, Inner: bg, Kind: Inner}
		for _, a := range points {
			b.markExact(a)
			bg.Lookups = append(bg.Lookups, &Lookup{Read: b.readOn(a.slot, nil), Keys: a.keys})
			j.Slots = append(j.Slots, a.slot)
			b.placed[a.slot] = true
		}
		bg.Project = b.batchProject(bg)
		j.On = and(b.covered())
		return b.filterCovered(j), nil
	case len(points) == 1:
		return b.single(points[0], outer)
	case leftPoint != nil:
		return b.single(leftPoint, outer)
	case bestQuery != nil:
		return b.single(bestQuery, outer)
	}
	if first < 0 {
		return nil, errs.New(errs.Internal, "no table can be read next")
	}
	return nil, b.refuse(first)
}

// readOn returns the read of slot s by its full base key (a nil) or by
// access a's Query, with Alone set when the request can meet no other
// entity's items: its key templates overlap no other entity's on the
// path, and a Query's key condition keeps to the sort key template's
// own prefix (a partition holds other entities' items too).
func (b *selectBuilder) readOn(s int, a *access) Read {
	rd := b.read(s)
	e := rd.Of
	switch {
	case a == nil:
		rd.Alone = e.Mapping().Alone(e, e.Base())
	case a.path.SK == nil:
		rd.Alone = e.Mapping().Alone(e, a.path) && keysTheItem(e.Mapping(), a.path)
	case a.sk != nil && a.sk.Condition(Explaining) != nil:
		// Past the prefix the WHERE fixes, only a last string column
		// takes any text: other keys under the prefix may be no item
		// of e's ("ORDER#{id}#META" meets "ORDER#o1#ITEM#1"). Through
		// an index not keyed on the table's keys, an item no entity
		// describes may hold e's index keys under base keys of its own.
		rd.Alone = e.Mapping().Alone(e, a.path) && keysTheItem(e.Mapping(), a.path) &&
			a.sk.Key.MatchesAllUnder(a.sk.IsFixed)
	}
	return rd
}

// mapping returns the mapping of slot s's entity: the table it lives in.
func (b *selectBuilder) mapping(s int) *mapping.Mapping { return b.sc.slots[s].Entity.Mapping() }

// batchGet returns an empty BatchGet of slot s's table.
func (b *selectBuilder) batchGet(s int) *BatchGet {
	m := b.mapping(s)
	return &BatchGet{Table: m.Table, Consistent: b.p.opts.Consistent, m: m}
}

// sameTable keeps the point reads of the first one's table: one
// BatchGetItem reads one table here.
func (b *selectBuilder) sameTable(points []*access) []*access {
	var out []*access
	for _, a := range points {
		if b.mapping(a.slot) == b.mapping(points[0].slot) {
			out = append(out, a)
		}
	}
	return out
}
