package planner

import (
	"slices"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// What each read asks DynamoDB for: its projection and the conditions
// DynamoDB checks for it (FilterExpression).

// project lists the attributes a read asks for: the needed columns that
// are stored as attributes, and every key attribute of the entities read
// (the keys tell entities apart and hold the key columns), and the type
// attribute where keys alone cannot tell an item's entity. Through a
// global index, only what the index projects.
func (b *selectBuilder) project(reads []Read, path *mapping.AccessPath) []string {
	m := b.mapping(reads[0].Slot)
	set := map[string]bool{}
	for _, attr := range m.BaseKeyAttrs() {
		set[attr] = true
	}
	var ix *mapping.Index
	if path != nil && !path.IsBase() {
		ix = m.Indexes[path.Index]
		set[ix.PartitionKey] = true
		if ix.SortKey != "" {
			set[ix.SortKey] = true
		}
	}
	projects := func(attr string) bool { return ix == nil || ix.Local || ix.Projects(attr) }
	for _, r := range reads {
		if b.needed[r.Slot][AllColumns] {
			return nil // every attribute: no ProjectionExpression
		}
	}
	for _, r := range reads {
		e := b.sc.slots[r.Slot].Entity
		for c := range b.needed[r.Slot] {
			if e.IsKeyColumn(c) {
				if attr := b.keyAttrFor(e, c, ix); attr != "" {
					set[attr] = true
				}
				continue
			}
			if projects(c) {
				set[c] = true
			}
		}
		p := e.Base()
		if path != nil {
			p = path
		}
		if m.TypeAttribute != "" && !m.Alone(e, p) && projects(m.TypeAttribute) {
			set[m.TypeAttribute] = true
		}
	}
	return sortedNames(set)
}

// keyAttrFor returns "" when key column c can be parsed from the base
// key (always read) or from the index keys being read, else the other key
// attribute whose template holds it.
func (b *selectBuilder) keyAttrFor(e *mapping.Entity, c string, ix *mapping.Index) string {
	holds := func(attr string) bool {
		k := e.Key(attr)
		return attr != "" && k != nil && slices.Contains(k.Columns(), c)
	}
	m := e.Mapping()
	if holds(m.PartitionKey) || holds(m.SortKey) || (ix != nil && (holds(ix.PartitionKey) || holds(ix.SortKey))) {
		return ""
	}
	for _, attr := range e.KeyAttrs() {
		if holds(attr) && (ix == nil || ix.Local || ix.Projects(attr)) {
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
			ok = ok && !sl.Entity.IsKeyColumn(col.Name) && b.mapping(slot).ProjectsAll(path, sl.Entity, []string{col.Name})
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
		return isCol(x.Expr)
	case *parser.And:
		return pushable(x.L) && pushable(x.R)
	case *parser.Or:
		return pushable(x.L) && pushable(x.R)
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
