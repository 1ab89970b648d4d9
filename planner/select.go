package planner

import (
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Options tune planning.
type Options struct {
	// Consistent asks for strongly consistent reads where DynamoDB allows
	// them: GetItem, BatchGetItem and Query on the base table, never on
	// an index.
	Consistent bool
}

// Planner plans statements against one mapping. It is safe for concurrent
// use: it holds no state between calls.
type Planner struct {
	m    *mapping.Mapping
	opts Options
}

// New returns a Planner for m.
func New(m *mapping.Mapping, opts Options) *Planner {
	return &Planner{m: m, opts: opts}
}

// Mapping returns the mapping the planner plans against.
func (p *Planner) Mapping() *mapping.Mapping { return p.m }

// Plan plans stmt, parsed from sql, with args bound to its placeholders
// in order.
func (p *Planner) Plan(sql string, stmt parser.Statement, args []value.Value) (*Plan, error) {
	switch s := stmt.(type) {
	case *parser.Explain:
		plan, err := p.Plan(sql, s.Statement, args)
		if err != nil {
			return nil, err
		}
		plan.Explain = true
		return plan, nil
	case *parser.Select:
		return p.planSelect(sql, s, args)
	}
	return p.planWrite(sql, stmt, args)
}

// selectBuilder holds what planning one SELECT needs to share.
type selectBuilder struct {
	p      *Planner
	sc     *scope
	sel    *parser.Select
	left   map[int]bool          // slots joined with LEFT JOIN
	leftOn map[int][]parser.Expr // their ON conjuncts
	pool   []parser.Expr         // WHERE and inner ON conjuncts
	used   []bool                // pool conjuncts already applied
	cls    *classes
	needed []map[string]bool // columns each slot must return
	placed map[int]bool
}

func (p *Planner) planSelect(sql string, sel *parser.Select, args []value.Value) (*Plan, error) {
	if len(sel.From) == 0 {
		return nil, errs.New(errs.Unsupported, "SELECT without FROM reads nothing from DynamoDB").
			WithHint("name a table: SELECT ... FROM students WHERE id = ...")
	}
	sc := newScope(sql, p.m)
	for _, t := range sel.From {
		if err := sc.add(t.Name, t.Alias, t.Pos); err != nil {
			return nil, err
		}
	}
	b := &selectBuilder{p: p, sc: sc, sel: sel, left: map[int]bool{}, leftOn: map[int][]parser.Expr{}, placed: map[int]bool{}}
	where, err := sc.resolve(sel.Where, args)
	if err != nil {
		return nil, err
	}
	b.pool = conjuncts(where)
	for i, t := range sel.From {
		if t.On == nil {
			continue
		}
		on, err := sc.resolve(t.On, args)
		if err != nil {
			return nil, err
		}
		for s := range sc.slotsOf(on) {
			if s > i {
				return nil, errs.New(errs.Invalid, "the ON condition of %s refers to %s, which is joined later", sc.slots[i].Alias, sc.slots[s].Alias).
					At(sql, t.Pos).WithHint("move the condition to a later ON or to WHERE")
			}
		}
		if t.Join == parser.JoinLeft {
			b.left[i], b.leftOn[i] = true, conjuncts(on)
		} else {
			b.pool = append(b.pool, conjuncts(on)...)
		}
	}
	b.used = make([]bool, len(b.pool))
	b.cls = newClasses(b.pool)
	out, err := b.output(args)
	if err != nil {
		return nil, err
	}
	b.needed = out.needed(sc, append(slices.Clone(b.pool), flatten(b.leftOn)...))
	root, err := b.reads()
	if errors.Is(err, errs.Refused) && len(sc.slots) == 1 {
		if u := b.union(); u != nil {
			root, err = u, nil
		}
	}
	if err != nil {
		return nil, err
	}
	out.orderByKey(root, sc)
	out.countOnly(root, sc, p.m)
	return &Plan{SQL: sql, Root: out.build(root), Slots: sc.slots, Columns: out.names[:out.visible]}, nil
}

func flatten(m map[int][]parser.Expr) []parser.Expr {
	var out []parser.Expr
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k]...)
	}
	return out
}

// reads plans the key-based reads that produce the joined rows: a driver
// read from constants, then one lookup step per remaining slot (several
// full-key lookups share one BatchGetItem).
func (b *selectBuilder) reads() (Node, error) {
	root, err := b.driver()
	if err != nil {
		return nil, err
	}
	for len(b.placed) < len(b.sc.slots) {
		if root, err = b.lookupStep(root); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// placeable reports whether slot s may be read next: a LEFT JOIN's table
// only after every table before it.
func (b *selectBuilder) placeable(s int) bool {
	if b.placed[s] {
		return false
	}
	if !b.left[s] {
		return true
	}
	for i := 0; i < s; i++ {
		if !b.placed[i] {
			return false
		}
	}
	return true
}

// driver chooses the first read. A partition Query is preferred when there
// is one, so that point reads of other tables can ride along in the next
// BatchGetItem; reads of the same partition merge into one Query.
func (b *selectBuilder) driver() (Node, error) {
	var queries, points []*access
	for s := range b.sc.slots {
		if b.left[s] {
			continue
		}
		a := bestAccess(b.sc.slots[s], s, b.bindings(s), b.ranges(s))
		switch {
		case a == nil:
		case a.point:
			points = append(points, a)
		default:
			queries = append(queries, a)
		}
	}
	if len(queries) == 0 && len(points) == 0 {
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
	// Only point reads from constants: every key in one batch.
	bg := &BatchGet{Table: b.p.m.Table, Consistent: b.p.opts.Consistent}
	for _, a := range points {
		b.markExact(a)
		bg.Lookups = append(bg.Lookups, &Lookup{Read: b.read(a.slot), Keys: a.keys})
		b.placed[a.slot] = true
	}
	bg.Project = b.project(bg.reads(), nil)
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
		if s == a.slot || (b.left[s] && !b.precededBy(s, group)) {
			continue
		}
		o := bestAccessOn(b.sc.slots[s], s, a.path, b.bindings(s), b.ranges(s))
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
		if !b.p.m.ProjectsAll(g.path, b.sc.slots[g.slot].Entity, sortedNames(b.needed[g.slot])) {
			return nil, errs.New(errs.Unsupported, "reading several tables from one partition of index %s, which does not project every needed attribute", a.path.Index).
				WithHint("project ALL attributes in %s", a.path.Index)
		}
	}
	q := &Query{Table: b.p.m.Table, Index: a.path.Index, PK: a.pk, SK: commonSortCond(group), Consistent: b.consistent(a.path)}
	pj := &PartitionJoin{Input: q}
	for _, g := range group {
		// The one Query reads by partition (and by sort key only if all
		// share it): only those parts of each read's key are exact.
		b.markExact(&access{slot: g.slot, pk: g.pk, sk: q.SK})
		q.Reads = append(q.Reads, b.read(g.slot))
		b.placed[g.slot] = true
		step := PartitionStep{Slot: g.slot, Alias: b.sc.slots[g.slot].Alias, Left: b.left[g.slot]}
		if len(pj.Steps) > 0 {
			if step.Left {
				step.On = and(b.leftOn[g.slot])
			} else {
				step.On = and(b.covered())
			}
		}
		pj.Steps = append(pj.Steps, step)
	}
	q.Project = b.project(q.Reads, a.path)
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

func commonSortCond(group []*access) *SortCond {
	first := group[0].sk
	for _, g := range group[1:] {
		if first == nil || g.sk == nil || g.sk.String() != first.String() || g.point {
			return nil
		}
	}
	if group[0].point {
		return nil
	}
	return first
}

// bestAccessOn is bestAccess restricted to one path.
func bestAccessOn(sl Slot, slot int, path *mapping.AccessPath, binds map[string]binding, ranges map[string][]rangeCond) *access {
	for _, p := range sl.Entity.Paths() {
		if p.Index == path.Index {
			return tryPath(slot, p, binds, ranges)
		}
	}
	return nil
}

// single plans the read of one slot: the driver when outer is nil, else a
// lookup joined to outer.
func (b *selectBuilder) single(a *access, outer Node) (Node, error) {
	sl := b.sc.slots[a.slot]
	rd := b.read(a.slot)
	b.markExact(a)
	var leaf Node
	refetch := false
	switch {
	case a.point && len(a.keys) == 1 && !a.bound && outer == nil:
		g := &GetItem{Table: b.p.m.Table, Key: a.keys[0], Read: rd, Consistent: b.p.opts.Consistent}
		g.Project = b.project([]Read{rd}, nil)
		leaf = g
	case a.point:
		bg := &BatchGet{Table: b.p.m.Table, Lookups: []*Lookup{{Read: rd, Keys: a.keys}}, Consistent: b.p.opts.Consistent}
		bg.Project = b.project([]Read{rd}, nil)
		leaf = bg
	default:
		refetch = !b.p.m.ProjectsAll(a.path, sl.Entity, sortedNames(b.needed[a.slot]))
		q := &Query{Table: b.p.m.Table, Index: a.path.Index, PK: a.pk, SK: a.sk, Reads: []Read{rd},
			Consistent: b.consistent(a.path), Bound: a.bound}
		q.Project = b.project(q.Reads, a.path)
		if !refetch {
			q.Filter = b.pushdown(a.slot, a.path)
		}
		leaf = q
	}
	b.placed[a.slot] = true
	node := leaf
	if outer != nil {
		j := &Join{Outer: outer, Inner: leaf, Left: b.left[a.slot], Slots: []int{a.slot}}
		switch {
		case j.Left && refetch:
			return nil, errs.New(errs.Unsupported, "LEFT JOIN of %s through index %s, which does not project every column the statement needs", sl.Alias, a.path.Index).
				WithHint("project ALL attributes in %s, or join %s by its full key", a.path.Index, sl.Alias)
		case j.Left:
			j.On = and(b.leftOn[a.slot])
		case !refetch:
			j.On = and(b.covered())
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
func (b *selectBuilder) refetch(outer Node, slot int) Node {
	sl := b.sc.slots[slot]
	base := sl.Entity.Paths()[0]
	bind := map[string]parser.Expr{}
	for _, c := range append(base.PK.Columns(), skColumns(base)...) {
		bind[c] = &parser.Column{Table: sl.Alias, Name: c, Pos: -1}
	}
	key := []*KeyValue{{Attr: base.PKAttr, Template: base.PK, Bind: bind}}
	if base.SK != nil {
		key = append(key, &KeyValue{Attr: base.SKAttr, Template: base.SK, Bind: bind})
	}
	rd := b.read(slot)
	bg := &BatchGet{Table: b.p.m.Table, Lookups: []*Lookup{{Read: rd, Keys: [][]*KeyValue{key}, Refetch: true}},
		Consistent: b.p.opts.Consistent}
	bg.Project = b.project([]Read{rd}, nil)
	return &Join{Outer: outer, Inner: bg, Slots: []int{slot}}
}

func skColumns(p *mapping.AccessPath) []string {
	if p.SK == nil {
		return nil
	}
	return p.SK.Columns()
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
		a := bestAccess(b.sc.slots[s], s, b.bindings(s), b.ranges(s))
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
		bg := &BatchGet{Table: b.p.m.Table, Consistent: b.p.opts.Consistent}
		j := &Join{Outer: outer, Inner: bg}
		for _, a := range points {
			b.markExact(a)
			bg.Lookups = append(bg.Lookups, &Lookup{Read: b.read(a.slot), Keys: a.keys})
			j.Slots = append(j.Slots, a.slot)
			b.placed[a.slot] = true
		}
		bg.Project = b.project(bg.reads(), nil)
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

func (bg *BatchGet) reads() []Read {
	var rs []Read
	for _, l := range bg.Lookups {
		rs = append(rs, l.Read)
	}
	return rs
}

func (b *selectBuilder) read(slot int) Read {
	sl := b.sc.slots[slot]
	return Read{Slot: slot, Alias: sl.Alias, Entity: sl.Entity.Name}
}

func (b *selectBuilder) consistent(p *mapping.AccessPath) bool {
	return b.p.opts.Consistent && p.IsBase()
}

// covered returns the WHERE and inner ON conjuncts whose tables have all
// been read and that no step has applied yet, and marks them applied.
func (b *selectBuilder) covered() []parser.Expr {
	var out []parser.Expr
	for i, c := range b.pool {
		if b.used[i] {
			continue
		}
		ok := true
		for s := range b.sc.slotsOf(c) {
			ok = ok && b.placed[s]
		}
		if ok {
			b.used[i] = true
			out = append(out, c)
		}
	}
	return out
}

func (b *selectBuilder) filterCovered(n Node) Node {
	if c := b.covered(); len(c) > 0 {
		return &Filter{Input: n, Cond: and(c)}
	}
	return n
}

// refuse explains why slot s cannot be read without a Scan.
func (b *selectBuilder) refuse(s int) error {
	sl := b.sc.slots[s]
	var by []string
	conds := b.pool
	if b.left[s] {
		conds = b.leftOn[s]
	}
	for _, c := range conds {
		for _, col := range columnsOf(c) {
			if col.Table == sl.Alias && !slices.Contains(by, col.Name) {
				by = append(by, col.Name)
			}
		}
	}
	what := "reading " + sl.Entity.Name
	if sl.Alias != sl.Entity.Name {
		what += " " + sl.Alias
	}
	if len(by) > 0 {
		what += " by " + strings.Join(by, ", ")
	} else {
		what += " with no key condition"
	}
	pos := -1
	if s < len(b.sel.From) {
		pos = b.sel.From[s].Pos
	}
	e := errs.New(errs.Refused, "%s would need a Scan of %s", what, b.p.m.Table).At(b.sc.sql, pos)
	hint := "add " + scanHint(sl)
	var nonKey []string
	for _, c := range by {
		if !sl.Entity.IsKeyColumn(c) {
			nonKey = append(nonKey, c)
		}
	}
	if len(nonKey) > 0 {
		hint += ", or add an index keyed on " + strings.Join(nonKey, ", ")
	}
	e.Hint = hint
	return &errs.ScanRefusedError{Base: e, Entity: sl.Entity.Name, Alias: sl.Alias, Table: b.p.m.Table}
}

// project lists the attributes a read asks for: the needed columns that
// are stored as attributes, and every key attribute of the entities read
// (the keys tell entities apart and hold the key columns). Through an
// index, only what the index projects.
func (b *selectBuilder) project(reads []Read, path *mapping.AccessPath) []string {
	set := map[string]bool{b.p.m.PartitionKey: true}
	if b.p.m.SortKey != "" {
		set[b.p.m.SortKey] = true
	}
	var ix *mapping.Index
	if path != nil && !path.IsBase() {
		ix = b.p.m.Indexes[path.Index]
	}
	for _, r := range reads {
		e := b.sc.slots[r.Slot].Entity
		if ix != nil {
			set[ix.PartitionKey] = true
			if ix.SortKey != "" {
				set[ix.SortKey] = true
			}
		}
		for c := range b.needed[r.Slot] {
			if e.IsKeyColumn(c) {
				if attr := b.keyAttrFor(e, c, ix); attr != "" {
					set[attr] = true
				}
				continue
			}
			if ix == nil || ix.Projection == "ALL" || (ix.Projection == "INCLUDE" && slices.Contains(ix.Include, c)) {
				set[c] = true
			}
		}
	}
	return sortedNames(set)
}

// keyAttrFor returns "" when key column c can be parsed from the base
// key (always read) or from the index keys being read, else the other key
// attribute whose template holds it.
func (b *selectBuilder) keyAttrFor(e *mapping.Entity, c string, ix *mapping.Index) string {
	holds := func(attr string) bool {
		t := e.Templates[attr]
		return attr != "" && t != nil && slices.Contains(t.Columns(), c)
	}
	if holds(b.p.m.PartitionKey) || holds(b.p.m.SortKey) || (ix != nil && (holds(ix.PartitionKey) || holds(ix.SortKey))) {
		return ""
	}
	for _, attr := range sortedNames(e.Templates) {
		if holds(attr) && (ix == nil || ix.Projection == "ALL" || slices.Contains(ix.Include, attr)) {
			return attr
		}
	}
	return ""
}

// pushdown returns the conjuncts on slot alone that DynamoDB can evaluate
// as a FilterExpression without ever dropping a row SQL would keep.
func (b *selectBuilder) pushdown(slot int, path *mapping.AccessPath) parser.Expr {
	conds := b.pool
	if b.left[slot] {
		conds = b.leftOn[slot]
	}
	sl := b.sc.slots[slot]
	var out []parser.Expr
	for _, c := range conds {
		slots := b.sc.slotsOf(c)
		if len(slots) != 1 || !slots[slot] || !pushable(c) {
			continue
		}
		ok := true
		for _, col := range columnsOf(c) {
			ok = ok && !sl.Entity.IsKeyColumn(col.Name) && b.p.m.ProjectsAll(path, sl.Entity, []string{col.Name})
		}
		if ok {
			out = append(out, c)
		}
	}
	return and(out)
}

// pushable reports whether e, evaluated by DynamoDB on an item, is false
// whenever SQL's value of e is not true: comparisons of a column with
// literals and their AND and OR. NOT and <> are left to the client, since
// DynamoDB's NOT is true for a missing attribute where SQL's is unknown.
// So is LIKE: a filter saves no read capacity, and the embedded backend
// fails a whole Query when begins_with meets an item without the
// attribute, where DynamoDB says false.
func pushable(e parser.Expr) bool {
	isCol := func(x parser.Expr) bool { _, ok := x.(*parser.Column); return ok }
	isLit := func(x parser.Expr) bool { l, ok := x.(*parser.Literal); return ok && l.Value != nil }
	switch x := e.(type) {
	case *parser.Compare:
		return x.Op != "<>" && ((isCol(x.L) && isLit(x.R)) || (isLit(x.L) && isCol(x.R)))
	case *parser.In:
		if x.Not || !isCol(x.Expr) || len(x.List) > 100 {
			return false
		}
		for _, v := range x.List {
			if !isLit(v) {
				return false
			}
		}
		return true
	case *parser.Between:
		if x.Not || !isCol(x.Expr) || !isLit(x.Lo) || !isLit(x.Hi) {
			return false
		}
		// DynamoDB rejects a BETWEEN whose bounds are reversed; SQL just
		// matches nothing, which the client's check does.
		c, ok := value.Compare(x.Lo.(*parser.Literal).Value, x.Hi.(*parser.Literal).Value)
		return ok && c <= 0
	case *parser.IsNull:
		return x.Not && isCol(x.Expr)
	case *parser.And:
		return pushable(x.L) && pushable(x.R)
	case *parser.Or:
		return pushable(x.L) && pushable(x.R)
	}
	return false
}

// likePrefix returns the literal text before the first wildcard of a LIKE
// pattern, when the pattern is a string literal that starts with some.
func likePrefix(l *parser.Like) (string, bool) {
	lit, ok := l.Pattern.(*parser.Literal)
	if !ok {
		return "", false
	}
	s, ok := lit.Value.(string)
	if !ok {
		return "", false
	}
	i := strings.IndexAny(s, "%_")
	if i < 0 {
		i = len(s)
	}
	return s[:i], i > 0
}

// bindings returns what each column of slot s is known to equal: constants
// (through chains of equalities) or columns of tables already read. A LEFT
// JOIN's table is bound by its ON conditions only.
func (b *selectBuilder) bindings(s int) map[string]binding {
	sl := b.sc.slots[s]
	binds := map[string]binding{}
	if b.left[s] {
		for _, c := range b.leftOn[s] {
			col, other, ok := equality(c, sl.Alias)
			if !ok {
				if in, ok := inList(c, sl.Alias); ok {
					binds[in.col] = in.values
				}
				continue
			}
			switch o := other.(type) {
			case *parser.Literal:
				binds[col] = binding{o}
			case *parser.Column:
				if lit := b.cls.constant(o); lit != nil {
					binds[col] = binding{lit}
				} else if b.placed[b.sc.slotOf(o)] {
					binds[col] = binding{o}
				}
			}
		}
		return binds
	}
	for col := range sl.Entity.Columns {
		ref := &parser.Column{Table: sl.Alias, Name: col, Pos: -1}
		if lit := b.cls.constant(ref); lit != nil {
			binds[col] = binding{lit}
		} else if list := b.cls.inList(ref); list != nil {
			binds[col] = list
		} else if m := b.cls.member(ref, func(c *parser.Column) bool { return b.placed[b.sc.slotOf(c)] }); m != nil {
			binds[col] = binding{m}
		}
	}
	return binds
}

// ranges returns the constant range conditions on each column of slot s.
func (b *selectBuilder) ranges(s int) map[string][]rangeCond {
	sl := b.sc.slots[s]
	conds := b.pool
	if b.left[s] {
		conds = b.leftOn[s]
	}
	out := map[string][]rangeCond{}
	flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}
	for _, c := range conds {
		switch x := c.(type) {
		case *parser.Compare:
			col, lit, op := x.L, x.R, x.Op
			if _, ok := col.(*parser.Column); !ok {
				col, lit, op = x.R, x.L, flip[x.Op]
			}
			cc, ok1 := col.(*parser.Column)
			l, ok2 := lit.(*parser.Literal)
			if ok1 && ok2 && cc.Table == sl.Alias && op != "" && op != "=" && op != "<>" {
				if sv, ok := l.Value.(string); ok {
					out[cc.Name] = append(out[cc.Name], rangeCond{op: op, values: []value.Value{sv}})
				}
			}
		case *parser.Between:
			cc, ok := x.Expr.(*parser.Column)
			lo, ok1 := x.Lo.(*parser.Literal)
			hi, ok2 := x.Hi.(*parser.Literal)
			if ok && ok1 && ok2 && !x.Not && cc.Table == sl.Alias {
				ls, okl := lo.Value.(string)
				hs, okh := hi.Value.(string)
				if okl && okh {
					out[cc.Name] = append(out[cc.Name], rangeCond{op: "between", values: []value.Value{ls, hs}})
				}
			}
		case *parser.Like:
			cc, ok := x.Expr.(*parser.Column)
			if prefix, okp := likePrefix(x); ok && okp && !x.Not && cc.Table == sl.Alias {
				out[cc.Name] = append(out[cc.Name], rangeCond{op: "prefix", values: []value.Value{prefix}})
			}
		}
	}
	// String ranges only narrow string columns.
	for col := range out {
		if sl.Entity.Columns[col] != "S" {
			delete(out, col)
		}
	}
	return out
}

// equality matches "alias.col = other" (either side) for the given alias.
func equality(e parser.Expr, alias string) (string, parser.Expr, bool) {
	c, ok := e.(*parser.Compare)
	if !ok || c.Op != "=" {
		return "", nil, false
	}
	if l, ok := c.L.(*parser.Column); ok && l.Table == alias {
		return l.Name, c.R, true
	}
	if r, ok := c.R.(*parser.Column); ok && r.Table == alias {
		return r.Name, c.L, true
	}
	return "", nil, false
}

type inCond struct {
	col    string
	values binding
}

// inList matches "alias.col IN (literals)".
func inList(e parser.Expr, alias string) (inCond, bool) {
	in, ok := e.(*parser.In)
	if !ok || in.Not {
		return inCond{}, false
	}
	c, ok := in.Expr.(*parser.Column)
	if !ok || (alias != "" && c.Table != alias) {
		return inCond{}, false
	}
	var vals binding
	seen := map[string]bool{}
	for _, v := range in.List {
		l, ok := v.(*parser.Literal)
		if !ok || l.Value == nil {
			return inCond{}, false
		}
		if k := value.Key(l.Value); !seen[k] {
			seen[k] = true
			vals = append(vals, l)
		}
	}
	return inCond{col: c.Name, values: vals}, true
}

func colKey(c *parser.Column) string { return c.Table + "." + c.Name }

// classes groups columns that inner equalities make equal, with the
// constant (or IN list) each group is known to equal.
type classes struct {
	parent map[string]string
	cols   map[string]*parser.Column
	consts map[string]*parser.Literal
	ins    map[string]binding
}

func newClasses(pool []parser.Expr) *classes {
	c := &classes{parent: map[string]string{}, cols: map[string]*parser.Column{},
		consts: map[string]*parser.Literal{}, ins: map[string]binding{}}
	for _, e := range pool {
		cmp, ok := e.(*parser.Compare)
		if !ok || cmp.Op != "=" {
			continue
		}
		l, lok := cmp.L.(*parser.Column)
		r, rok := cmp.R.(*parser.Column)
		if lok && rok {
			c.union(l, r)
		}
	}
	for _, e := range pool {
		if in, ok := inList(e, ""); ok {
			col := e.(*parser.In).Expr.(*parser.Column)
			c.ins[c.find(col)] = in.values
			continue
		}
		cmp, ok := e.(*parser.Compare)
		if !ok || cmp.Op != "=" {
			continue
		}
		col, lit := cmp.L, cmp.R
		if _, ok := col.(*parser.Column); !ok {
			col, lit = cmp.R, cmp.L
		}
		cc, ok1 := col.(*parser.Column)
		l, ok2 := lit.(*parser.Literal)
		if ok1 && ok2 && l.Value != nil {
			if _, have := c.consts[c.find(cc)]; !have {
				c.consts[c.find(cc)] = l
			}
		}
	}
	return c
}

func (c *classes) find(col *parser.Column) string {
	k := colKey(col)
	if _, ok := c.cols[k]; !ok {
		c.cols[k] = col
		c.parent[k] = k
	}
	for c.parent[k] != k {
		c.parent[k] = c.parent[c.parent[k]]
		k = c.parent[k]
	}
	return k
}

func (c *classes) union(a, b *parser.Column) {
	ra, rb := c.find(a), c.find(b)
	if ra != rb {
		c.parent[ra] = rb
	}
}

func (c *classes) constant(col *parser.Column) *parser.Literal {
	return c.consts[c.find(col)]
}

func (c *classes) inList(col *parser.Column) binding {
	root := c.find(col)
	if c.consts[root] != nil {
		return nil
	}
	return c.ins[root]
}

// member returns another column of col's class that ok accepts, choosing
// the first in name order so plans are stable.
func (c *classes) member(col *parser.Column, ok func(*parser.Column) bool) *parser.Column {
	root := c.find(col)
	var keys []string
	for k := range c.cols {
		if k != colKey(col) && c.find(c.cols[k]) == root && ok(c.cols[k]) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Strings(keys)
	return c.cols[keys[0]]
}

// markExact marks as applied the WHERE conjuncts that the read's key
// already guarantees: an equality or IN list on a key column whose values
// the key was built from. Re-checking them would only clutter EXPLAIN.
func (b *selectBuilder) markExact(a *access) {
	if b.left[a.slot] {
		return
	}
	vals := map[string]map[string]bool{} // key column → literal keys used
	add := func(kv *KeyValue) {
		for c, e := range kv.Bind {
			if lit, ok := e.(*parser.Literal); ok {
				if vals[c] == nil {
					vals[c] = map[string]bool{}
				}
				vals[c][value.Key(lit.Value)] = true
			}
		}
	}
	for _, kv := range a.pk {
		add(kv)
	}
	for _, k := range a.keys {
		for _, kv := range k {
			add(kv)
		}
	}
	if a.sk != nil && !a.point {
		for _, kv := range a.sk.Values {
			add(kv)
		}
	}
	alias := b.sc.slots[a.slot].Alias
	same := func(col string, lits []parser.Expr) bool {
		want := map[string]bool{}
		for _, l := range lits {
			want[value.Key(l.(*parser.Literal).Value)] = true
		}
		return len(vals[col]) > 0 && maps.Equal(vals[col], want)
	}
	for i, c := range b.pool {
		if b.used[i] {
			continue
		}
		if col, other, ok := equality(c, alias); ok {
			if lit, isLit := other.(*parser.Literal); isLit && same(col, []parser.Expr{lit}) {
				b.used[i] = true
			}
		} else if in, ok := inList(c, alias); ok && same(in.col, in.values) {
			b.used[i] = true
		}
	}
}

// union plans a one-table statement whose WHERE holds an OR that no key
// serves as a whole but a key serves each branch of (student_id = 'a91'
// OR course_id = 'math204'): one read per branch, a row two branches
// read kept once, and the whole WHERE checked on what comes back.
func (b *selectBuilder) union() Node {
	for i, c := range b.pool {
		or, ok := c.(*parser.Or)
		if !ok {
			continue
		}
		rest := slices.Concat(b.pool[:i], b.pool[i+1:])
		u := &Union{}
		for _, branch := range disjuncts(or) {
			sub := &selectBuilder{p: b.p, sc: b.sc, sel: b.sel, left: b.left, leftOn: b.leftOn,
				needed: b.needed, placed: map[int]bool{}}
			sub.pool = append(slices.Clone(rest), conjuncts(branch)...)
			sub.used = make([]bool, len(sub.pool))
			sub.cls = newClasses(sub.pool)
			n, err := sub.reads()
			if err != nil {
				u = nil
				break
			}
			u.Inputs = append(u.Inputs, n)
		}
		if u != nil {
			return &Filter{Input: u, Cond: and(b.pool)}
		}
	}
	return nil
}

// disjuncts splits e on OR.
func disjuncts(e parser.Expr) []parser.Expr {
	if o, ok := e.(*parser.Or); ok {
		return append(disjuncts(o.L), disjuncts(o.R)...)
	}
	return []parser.Expr{e}
}
