package planner

import (
	"maps"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// The query graph: what each column of a slot is known to equal, and the
// constant ranges on it, from the WHERE and ON conjuncts.

// binding is what a column is known to equal: one expression (a literal
// or an earlier row's column), or a list of literals (IN).
type binding []parser.Expr

// facts gathers what the conjuncts say of slot s's columns. Its ranges
// and non-NULL columns depend on the conjuncts alone, so they are worked
// out once per slot; its bindings change as tables are read.
func (b *selectBuilder) facts(s int) facts {
	if b.fixedFacts == nil {
		b.fixedFacts = make([]*facts, len(b.sc.slots))
	}
	fixed := b.fixedFacts[s]
	if fixed == nil {
		fixed = &facts{ranges: b.ranges(s), nonNull: b.nonNull(s)}
		b.fixedFacts[s] = fixed
	}
	return facts{binds: b.bindings(s), ranges: fixed.ranges, nonNull: fixed.nonNull}
}

// nonNull returns the columns of slot s that are never NULL in a row the
// statement keeps: the columns of the base key, which every item has, and
// those a conjunct keeps from being NULL: a comparison, IN, BETWEEN or
// LIKE on the column, or IS NOT NULL (each is unknown, so false, on NULL).
func (b *selectBuilder) nonNull(s int) map[string]bool {
	sl := b.sc.slots[s]
	conds := b.pool
	if b.left[s] {
		conds = b.leftOn[s]
	}
	out := map[string]bool{}
	for _, c := range sl.Entity.BaseKeyColumns() {
		out[c] = true
	}
	mark := func(e parser.Expr) {
		if c, ok := e.(*parser.Column); ok && c.Table == sl.Alias {
			out[c.Name] = true
		}
	}
	for _, c := range conds {
		switch x := c.(type) {
		case *parser.Compare:
			mark(x.L)
			mark(x.R)
		case *parser.In:
			mark(x.Expr)
		case *parser.Between:
			mark(x.Expr)
		case *parser.Like:
			mark(x.Expr)
		case *parser.IsNull:
			if x.Not {
				mark(x.Expr)
			}
		}
	}
	return out
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
				} else if b.bindable(o) {
					binds[col] = binding{o}
				}
			}
		}
		return binds
	}
	// Only columns an equality or IN list names have a class: the others
	// bind to nothing.
	for _, ref := range b.cls.cols {
		col := ref.Name
		if _, ok := sl.Entity.Columns[col]; !ok || ref.Table != sl.Alias {
			continue
		}
		if lit := b.cls.constant(ref); lit != nil {
			binds[col] = binding{lit}
		} else if list := b.cls.inList(ref); list != nil {
			binds[col] = list
		} else if m := b.cls.member(ref, b.bindable); m != nil {
			binds[col] = binding{m}
		}
	}
	return binds
}

// bindable reports whether a later read may be keyed by column c: its
// table has been read, and its rows are in the joined tuples (a semi
// join leaves them out).
func (b *selectBuilder) bindable(c *parser.Column) bool {
	s := b.sc.slotOf(c)
	return b.placed[s] && !b.semiJoined[s]
}

// ranges returns the constant range conditions on each column of slot s,
// as the bounds the key codec narrows a sort key with; the codec decides
// which ones a key can use.
func (b *selectBuilder) ranges(s int) map[string][]mapping.Bound {
	sl := b.sc.slots[s]
	conds := b.pool
	if b.left[s] {
		conds = b.leftOn[s]
	}
	out := map[string][]mapping.Bound{}
	add := func(col *parser.Column, op string, v value.Value) {
		if col.Table == sl.Alias && v != nil && value.TypeName(v) == sl.Entity.Columns[col.Name] {
			out[col.Name] = append(out[col.Name], mapping.Bound{Op: op, Value: v})
		}
	}
	for _, c := range conds {
		switch x := c.(type) {
		case *parser.Compare:
			col, lit, op := x.L, x.R, x.Op
			if _, ok := col.(*parser.Column); !ok {
				col, lit, op = x.R, x.L, flipped[x.Op]
			}
			cc, ok1 := col.(*parser.Column)
			l, ok2 := lit.(*parser.Literal)
			if ok1 && ok2 && op != "=" && op != "<>" {
				add(cc, op, l.Value)
			}
		case *parser.Between:
			cc, ok := x.Expr.(*parser.Column)
			lo, ok1 := x.Lo.(*parser.Literal)
			hi, ok2 := x.Hi.(*parser.Literal)
			if ok && ok1 && ok2 && !x.Not {
				add(cc, ">=", lo.Value)
				add(cc, "<=", hi.Value)
			}
		case *parser.Like:
			cc, ok := x.Expr.(*parser.Column)
			if prefix, okp := likePrefix(x); ok && okp && !x.Not {
				add(cc, "prefix", prefix)
			}
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
		if !ok {
			return inCond{}, false
		}
		if l.Value == nil {
			continue // NULL equals nothing: c IN (x, NULL) keeps what c = x keeps
		}
		if k := value.Key(l.Value); !seen[k] {
			seen[k] = true
			vals = append(vals, l)
		}
	}
	if len(vals) == 0 {
		return inCond{}, false
	}
	return inCond{col: c.Name, values: vals}, true
}

// colRef names a column of a slot: a map key that costs no allocation,
// as planning looks columns up often.
type colRef struct{ table, name string }

func colKey(c *parser.Column) colRef { return colRef{c.Table, c.Name} }

// String is the column as written qualified, which orders columns for
// stable plans.
func (r colRef) String() string { return r.table + "." + r.name }

// classes groups columns that inner equalities make equal, with the
// constant (or IN list) each group is known to equal.
type classes struct {
	parent map[colRef]colRef
	cols   map[colRef]*parser.Column
	consts map[colRef]*parser.Literal
	ins    map[colRef]binding
}

func newClasses(pool []parser.Expr) *classes {
	c := &classes{parent: map[colRef]colRef{}, cols: map[colRef]*parser.Column{},
		consts: map[colRef]*parser.Literal{}, ins: map[colRef]binding{}}
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

func (c *classes) find(col *parser.Column) colRef {
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

// root returns the class of the column keyed k without adding the
// column: one no equality names is a class of its own.
func (c *classes) root(k colRef) colRef {
	for {
		p, ok := c.parent[k]
		if !ok || p == k {
			return k
		}
		k = p
	}
}

func (c *classes) constant(col *parser.Column) *parser.Literal {
	return c.consts[c.root(colKey(col))]
}

func (c *classes) inList(col *parser.Column) binding {
	root := c.root(colKey(col))
	if c.consts[root] != nil {
		return nil
	}
	return c.ins[root]
}

// member returns another column of col's class that ok accepts, choosing
// the first in name order so plans are stable.
func (c *classes) member(col *parser.Column, ok func(*parser.Column) bool) *parser.Column {
	self := colKey(col)
	root := c.root(self)
	var first *parser.Column
	firstName := ""
	for k, other := range c.cols {
		if k == self || c.root(k) != root || !ok(other) {
			continue
		}
		if name := k.String(); first == nil || name < firstName {
			first, firstName = other, name
		}
	}
	return first
}

// markExact marks as applied the WHERE conjuncts that the read's key
// already guarantees: an equality or IN list on a key column whose values
// the key was built from. Re-checking them would only clutter EXPLAIN.
func (b *selectBuilder) markExact(a *access) {
	if b.left[a.slot] {
		return
	}
	vals := map[string]map[string]bool{} // key column → literal keys used
	ent := b.sc.slots[a.slot].Entity
	add := func(bind map[string]parser.Expr) {
		for c, e := range bind {
			// A case-folded key holds other values than the literal too.
			if lit, ok := e.(*parser.Literal); ok && !ent.Folds(c) {
				if vals[c] == nil {
					vals[c] = map[string]bool{}
				}
				vals[c][value.Key(lit.Value)] = true
			}
		}
	}
	for _, kv := range a.pk {
		add(kv.Bind)
	}
	for _, k := range a.keys {
		for _, kv := range k {
			add(kv.Bind)
		}
	}
	if a.sk != nil && !a.point {
		fixed := map[string]parser.Expr{}
		for c, e := range a.sk.Fixed {
			// A value the key cannot hold: the prefix meets other values.
			if lit, ok := e.(*parser.Literal); !ok || a.sk.Key.ReadsBack(c, lit.Value) {
				fixed[c] = e
			}
		}
		add(fixed)
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
