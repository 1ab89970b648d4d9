package planner

import (
	"maps"
	"slices"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// What each read asks DynamoDB for: its projection and the conditions
// DynamoDB checks for it (FilterExpression).

// project lists the attributes a read asks for: the stored attributes of
// the columns wanted of it, a key attribute for each wanted key column,
// and, unless the read can meet no other entity's items (Read.Alone),
// the base key attributes and the type attribute that tell entities
// apart. Through a global index, only what the index projects.
func (b *selectBuilder) project(reads []Read, path *mapping.AccessPath) []string {
	return b.projectColumns(reads, path, b.wanted)
}

// projectColumns is project for the columns cols gives of each slot.
func (b *selectBuilder) projectColumns(reads []Read, path *mapping.AccessPath, cols func(slot int) map[string]bool) []string {
	m := b.mapping(reads[0].Slot)
	for _, r := range reads {
		if b.needed[r.Slot][AllColumns] {
			return nil // every attribute: no ProjectionExpression
		}
	}
	if path == nil {
		path = reads[0].Of.Base()
	}
	var ix *mapping.Index
	if !path.IsBase() {
		ix = m.Indexes[path.Index]
	}
	projects := func(attr string) bool { return ix == nil || ix.Local || ix.Projects(attr) }
	set := map[string]bool{}
	if len(reads) > 1 || !reads[0].Alone {
		for _, attr := range m.BaseKeyAttrs() {
			set[attr] = true
		}
	}
	for _, r := range reads {
		e := r.Of
		want := cols(r.Slot)
		for _, c := range sortedNames(want) {
			switch {
			case !e.IsKeyColumn(c) || e.Folds(c):
				if projects(c) {
					set[c] = true
				}
			case !readFrom(set, e, c, ix):
				attr := keyAttrFor(e, c, ix)
				if attr != "" {
					set[attr] = true
				}
				// Items outside an optional index lack its key
				// attributes, so those are no sure source of a column:
				// the column's own attribute, which dynosql writes for
				// every column, comes too.
				if (attr == "" || sparse(e, attr, ix)) && projects(c) {
					set[c] = true
				}
			}
		}
		// An item is told apart by its type first: one typed as another
		// entity, or as none the mapping knows, is not e's even where
		// its keys could only be e's.
		if m.TypeAttribute != "" && (!m.Alone(e, path) || e.Type != "") && projects(m.TypeAttribute) {
			set[m.TypeAttribute] = true
		}
	}
	if !set[m.PartitionKey] && !slices.ContainsFunc(m.BaseKeyAttrs(), func(a string) bool { return set[a] }) {
		// An item none of whose projected attributes is stored comes back
		// empty, or not at all: a key attribute, which every item has,
		// tells that it is there.
		set[m.PartitionKey] = true
	}
	return sortedNames(set)
}

// readFrom reports whether key column c of e comes with one of the
// attributes in set that every item read has.
func readFrom(set map[string]bool, e *mapping.Entity, c string, ix *mapping.Index) bool {
	for attr := range set {
		if holds(e, attr, c) && !sparse(e, attr, ix) {
			return true
		}
	}
	return false
}

// holds reports whether e's template of key attribute attr holds column c.
func holds(e *mapping.Entity, attr, c string) bool {
	k := e.Key(attr)
	return attr != "" && k != nil && slices.Contains(k.Columns(), c)
}

// keyAttrFor returns the key attribute to read key column c from: a base
// key attribute (every index carries them, and a read that checks its
// items' keys checks those first), else one of the index's keys, else
// another key attribute the index projects, one every item has before a
// sparse one; "" if none holds it.
func keyAttrFor(e *mapping.Entity, c string, ix *mapping.Index) string {
	m := e.Mapping()
	attrs := m.BaseKeyAttrs()
	if ix != nil {
		attrs = append(attrs, ix.PartitionKey, ix.SortKey)
	}
	candidates := slices.Concat(attrs, e.KeyAttrs())
	for _, wantSparse := range []bool{false, true} {
		for _, attr := range candidates {
			if holds(e, attr, c) && sparse(e, attr, ix) == wantSparse &&
				(ix == nil || ix.Local || slices.Contains(attrs, attr) || ix.Projects(attr)) {
				return attr
			}
		}
	}
	return ""
}

// sparse reports whether attr is a key attribute of an optional index of
// e other than ix, the index read: items outside that index lack it.
func sparse(e *mapping.Entity, attr string, ix *mapping.Index) bool {
	return e.IsOptionalKeyAttr(attr) && (ix == nil || (attr != ix.PartitionKey && attr != ix.SortKey))
}

// wanted returns the columns of slot that its read must return: those
// the output shows, and those of every condition on it still to be
// checked. It is called when the slot's read is planned, when the only
// conditions on it applied already are those its key guarantees
// (markExact): their columns need not be read. Where the whole WHERE is
// checked again (a Union's branches), every column it names is wanted.
func (b *selectBuilder) wanted(slot int) map[string]bool {
	if b.whole {
		return b.needed[slot]
	}
	w := maps.Clone(b.shown[slot])
	add := func(e parser.Expr) {
		for c := range columnsOf(e) {
			if b.sc.slotOf(c) == slot {
				w[c.Name] = true
			}
		}
	}
	for i, c := range b.pool {
		if !b.used[i] {
			add(c)
		}
	}
	for _, c := range flatten(b.leftOn) {
		add(c)
	}
	return w
}

// keys returns the base key columns of slot.
func (b *selectBuilder) keys(slot int) map[string]bool {
	keys := map[string]bool{}
	for _, c := range b.sc.slots[slot].Entity.BaseKeyColumns() {
		keys[c] = true
	}
	return keys
}

// keepKeys makes the rows of slot carry their base key columns, where a
// later step tells rows apart by them.
func (b *selectBuilder) keepKeys(slot int) {
	for c := range b.keys(slot) {
		b.needed[slot][c] = true
		b.shown[slot][c] = true
	}
}

// batchProject is the projection of a BatchGet: its reads' columns and
// the base key attributes that tell its items apart (see BatchGet).
func (b *selectBuilder) batchProject(bg *BatchGet) []string {
	attrs := b.project(bg.reads(), nil)
	if attrs == nil {
		return nil
	}
	for _, attr := range bg.m.BaseKeyAttrs() {
		first := bg.Lookups[0].Read.Of.Key(attr)
		for _, l := range bg.Lookups {
			k := l.Read.Of.Key(attr)
			if len(k.Columns()) > 0 || k.Raw != first.Raw {
				attrs = append(attrs, attr)
				break
			}
		}
	}
	return sortedNames(setOf(attrs))
}

func setOf(names []string) map[string]bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return set
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
		if len(slots) != 1 || slots[0] != slot || !pushable(c) {
			continue
		}
		ok := true
		for col := range columnsOf(c) {
			ok = ok && (!sl.Entity.IsKeyColumn(col.Name) || sl.Entity.Folds(col.Name)) && b.mapping(slot).Filters(path, col.Name)
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
		if x.Op != "=" && !orderedLit(x.L) && !orderedLit(x.R) {
			return false // DynamoDB orders only S, N and B: a range over BOOL or a document fails its filter
		}
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
		if x.Not || !isCol(x.Expr) || !orderedLit(x.Lo) || !orderedLit(x.Hi) {
			return false
		}
		// DynamoDB rejects a BETWEEN whose bounds are reversed; SQL just
		// matches nothing, which the client's check does.
		c, ok := value.Compare(x.Lo.(*parser.Literal).Value, x.Hi.(*parser.Literal).Value)
		return ok && c <= 0
	case *parser.IsNull:
		return isCol(x.Expr)
	case *parser.And:
		return pushable(x.L) && pushable(x.R)
	case *parser.Or:
		return pushable(x.L) && pushable(x.R)
	}
	return false
}

// orderedLit reports whether e is a literal of a type DynamoDB's <, <=,
// >, >= and BETWEEN take: a string, a number or a binary.
func orderedLit(e parser.Expr) bool {
	l, ok := e.(*parser.Literal)
	if !ok {
		return false
	}
	switch l.Value.(type) {
	case string, value.Number, value.Binary:
		return true
	}
	return false
}

// likePrefix returns the literal text before the first wildcard of a LIKE
// pattern, escapes applied (LIKE 'a\_b%' gives a_b), when the pattern
// is a string literal that starts with some.
func likePrefix(l *parser.Like) (string, bool) {
	lit, ok := l.Pattern.(*parser.Literal)
	if !ok {
		return "", false
	}
	s, ok := lit.Value.(string)
	if !ok {
		return "", false
	}
	toks := parser.LikeTokens(s, l.Escape)
	if len(toks) == 0 || toks[0].Wild != 0 {
		return "", false
	}
	return toks[0].Lit, true
}
