package draft

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// cluster is sampled items whose base keys have one shape (and one type,
// where the table has a type attribute): one entity's items.
type cluster struct {
	typ    string
	shapes []shape // one per base key attribute
	items  []Item
}

func (c *cluster) key() string {
	parts := []string{c.typ}
	for _, s := range c.shapes {
		parts = append(parts, s.key())
	}
	return strings.Join(parts, "\x01")
}

// maxLabels is how many different literals one segment may hold across
// sibling shapes before they are taken for values (usernames, not labels).
const maxLabels = 12

// clusterItems groups items by the shape of their base keys (and their
// type), then merges shapes that differ in one segment only, where that
// segment holds many different words seen once or twice each: values
// that happened to read as labels (USER#Alice, a bare PK of usernames).
func (d *drafter) clusterItems(items []Item) []*cluster {
	byKey := map[string]*cluster{}
	var order []*cluster
	for _, it := range items {
		c := &cluster{typ: d.typeOf(it)}
		for _, a := range d.t.baseKeys() {
			sh, _ := shapeOf(it[a], d.sep, a)
			c.shapes = append(c.shapes, sh)
		}
		k := c.key()
		if have := byKey[k]; have != nil {
			have.items = append(have.items, it)
			continue
		}
		c.items = []Item{it}
		byKey[k] = c
		order = append(order, c)
	}
	for {
		merged, changed := mergeSiblings(order)
		if !changed {
			break
		}
		order = merged
	}
	slices.SortStableFunc(order, func(a, b *cluster) int { return len(b.items) - len(a.items) })
	return order
}

// mergeSiblings merges, once, each set of clusters that differ only in
// the literal of one segment and whose literals look like values; it
// reports whether it merged anything.
func mergeSiblings(clusters []*cluster) ([]*cluster, bool) {
	type slot struct{ attr, pos int }
	sets := map[string][]*cluster{}
	var keys []string
	slots := map[string]slot{}
	for _, c := range clusters {
		for a, sh := range c.shapes {
			for p, g := range sh.Segs {
				if g.Var {
					continue
				}
				w := c.withVar(a, p)
				k := w.key()
				if _, ok := sets[k]; !ok {
					keys = append(keys, k)
					slots[k] = slot{a, p}
				}
				sets[k] = append(sets[k], c)
			}
		}
	}
	gone := map[*cluster]bool{}
	var out []*cluster
	for _, k := range keys {
		set := sets[k]
		if len(set) < 2 || slices.ContainsFunc(set, func(c *cluster) bool { return gone[c] }) || !looksLikeValues(set, slots[k].attr, slots[k].pos) {
			continue
		}
		m := set[0].withVar(slots[k].attr, slots[k].pos)
		for _, c := range set {
			m.items = append(m.items, c.items...)
			gone[c] = true
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return clusters, false
	}
	for _, c := range clusters {
		if !gone[c] {
			out = append(out, c)
		}
	}
	return out, true
}

// looksLikeValues decides whether the literals sibling clusters hold in
// one segment are values: more of them than a design has labels, or
// words seen less than twice each on average that are not in capitals
// (PROFILE and SETTINGS are labels even when seen once).
func looksLikeValues(set []*cluster, attr, pos int) bool {
	if len(set) > maxLabels {
		return true
	}
	items, upper := 0, true
	for _, c := range set {
		items += len(c.items)
		upper = upper && isUpper(c.shapes[attr].Segs[pos].Lit)
	}
	return !upper && items < 2*len(set)
}

// withVar returns a copy of c, without items, whose segment pos of key
// attribute attr is a value.
func (c *cluster) withVar(attr, pos int) *cluster {
	w := &cluster{typ: c.typ, shapes: make([]shape, len(c.shapes))}
	for i, sh := range c.shapes {
		w.shapes[i] = shape{Type: sh.Type, Segs: slices.Clone(sh.Segs)}
	}
	w.shapes[attr].Segs[pos] = seg{Var: true}
	return w
}

// typeOf returns the item's value of the type attribute, "" without one.
func (d *drafter) typeOf(it Item) string {
	if d.typeAttr == "" {
		return ""
	}
	if s, ok := it[d.typeAttr].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// typeNames are attributes that libraries and habits use to name each
// item's entity, most telling first: EntityType (NoSQL Workbench
// samples), _et (DynamoDB Toolbox), __edb_e__ (ElectroDB), __typename
// (Amplify), _type (OneTable), __en (TypeDORM).
var typeNames = []string{
	"EntityType", "entityType", "entity_type", "_et", "__edb_e__", "__typename", "_type", "__en",
	"Entity", "entity", "_entity", "ItemType", "itemType", "item_type", "RecordType", "recordType",
	"record_type", "Kind", "kind", "_kind", "type", "Type", "_t",
}

// findTypeAttribute returns the attribute that names each item's entity,
// and how many items hold it: the first of typeNames that nearly every
// item holds as a string, with values that repeat. With groups
// (Workbench facets), it must also hold one value per group, a different
// one in each.
func findTypeAttribute(items []Item, groups []Group) (string, int) {
	all := slices.Clone(items)
	for _, g := range groups {
		all = append(all, g.Items...)
	}
	if len(all) == 0 {
		return "", 0
	}
	for _, name := range typeNames {
		held, values := 0, map[string]bool{}
		for _, it := range all {
			if s, ok := it[name].(*types.AttributeValueMemberS); ok && s.Value != "" {
				held++
				values[s.Value] = true
			}
		}
		// Nearly every item names its entity, and the names repeat: an
		// attribute unique to each item is an id, not a type.
		if held*10 < len(all)*9 || len(values) > 100 || (len(values) == held && held > 10) {
			continue
		}
		if len(groups) > 0 && !onePerGroup(name, groups) {
			continue
		}
		return name, held
	}
	return "", 0
}

// onePerGroup reports whether every item of a group holds the same value
// of attr, and no two groups the same one.
func onePerGroup(attr string, groups []Group) bool {
	seen := map[string]bool{}
	for _, g := range groups {
		v := ""
		for i, it := range g.Items {
			s, ok := it[attr].(*types.AttributeValueMemberS)
			if !ok || (i > 0 && s.Value != v) {
				return false
			}
			v = s.Value
		}
		if v == "" {
			continue
		}
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}
