package draft

import (
	"fmt"
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
	notes  []string // what merging sibling clusters guessed
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
		merged, changed := d.mergeSiblings(order)
		if !changed {
			break
		}
		order = merged
	}
	slices.SortStableFunc(order, func(a, b *cluster) int { return len(b.items) - len(a.items) })
	return order
}

// slot is a place in a cluster's keys: segment pos of base key attr.
type slot struct{ attr, pos int }

// member is a cluster of a sibling set, with the word that sets it
// apart and where that word is.
type member struct {
	c    *cluster
	word string
	at   []slot
}

// mergeSiblings merges, once, each set of clusters that differ only in
// one word (in one segment, or in every segment that holds it: PK = SK =
// REPO#alice#alpha) and whose words look like values; it reports
// whether it merged anything. Whatever it merges it says why, in the
// merged cluster's notes.
func (d *drafter) mergeSiblings(clusters []*cluster) ([]*cluster, bool) {
	sets := map[string][]member{}
	var keys []string
	for _, c := range clusters {
		seen := map[string]bool{}
		for a, sh := range c.shapes {
			for p, g := range sh.Segs {
				if g.Var {
					continue
				}
				places := [][]slot{{{a, p}}}
				if g.Lit != "" {
					places = append(places, c.slotsOf(g.Lit))
				}
				for _, at := range places {
					k := c.withVars(at).key()
					if seen[k] {
						continue
					}
					seen[k] = true
					if _, ok := sets[k]; !ok {
						keys = append(keys, k)
					}
					sets[k] = append(sets[k], member{c, g.Lit, at})
				}
			}
		}
	}
	gone := map[*cluster]bool{}
	var out []*cluster
	for _, k := range keys {
		set := sets[k]
		if len(set) < 2 || slices.ContainsFunc(set, func(m member) bool { return gone[m.c] }) {
			continue
		}
		why := d.looksLikeValues(set, clusters)
		if why == "" {
			continue
		}
		m := set[0].c.withVars(set[0].at)
		var words []string
		for _, s := range set {
			m.items = append(m.items, s.c.items...)
			m.notes = append(m.notes, s.c.notes...)
			words = append(words, s.word)
			gone[s.c] = true
		}
		m.notes = append(m.notes, fmt.Sprintf("%d different words in one place of its keys (%s) are taken for values of a column, not literal text: %s",
			len(words), quoteList(words, 3), why))
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

// slotsOf returns every place of the cluster's keys that holds the
// literal word w.
func (c *cluster) slotsOf(w string) []slot {
	var at []slot
	for a, sh := range c.shapes {
		for p, g := range sh.Segs {
			if !g.Var && g.Lit == w {
				at = append(at, slot{a, p})
			}
		}
	}
	return at
}

// looksLikeValues decides whether the words that tell sibling clusters
// apart are values, and returns why ("" when they are labels):
//   - there are more of them than a design has labels;
//   - they are not in capitals (PROFILE and SETTINGS are labels even when
//     seen once) and are seen less than twice each on average;
//   - other items hold the same words in the same place as values (the
//     PROFILE items' PK = {pk} next to PK = alice / ORDER#1);
//   - they are not in capitals and each goes with one value of the rest
//     of its key, not all the same one (REPO#alice#alpha, REPO#bob#beta:
//     each repository's stars), where labels go with many
//     (u#1#follower, u#2#follower);
//   - they are not in capitals, are a whole partition key each, and at
//     least three partitions hold items keyed alike (PK = alice, bob,
//     carol with SK = ORDER#...).
func (d *drafter) looksLikeValues(set []member, all []*cluster) string {
	if len(set) > maxLabels {
		return "more of them than a design has labels"
	}
	items, upper := 0, true
	for _, m := range set {
		items += len(m.c.items)
		upper = upper && isUpper(m.word)
	}
	if !upper && items < 2*len(set) {
		return "each is in one or two items"
	}
	if d.valuesElsewhere(set, all) {
		return "other items hold the same words there as values"
	}
	if upper {
		return ""
	}
	tuples := map[string]bool{}
	bare := true
	for _, m := range set {
		t, ok := d.restOfKey(m)
		if !ok {
			return ""
		}
		tuples[t] = true
		bare = bare && t == ""
	}
	switch {
	case !bare && len(tuples) > 1 && !tuples[""]:
		return "each goes with one value of the rest of its key"
	case bare && len(set) >= 3 && d.onlyPartitionKey(set):
		return "each is a whole partition key, and the partitions hold items keyed alike"
	}
	return ""
}

// valuesElsewhere reports whether clusters outside the set hold, as
// values in the same place, at least two of the set's words and at least
// half of them.
func (d *drafter) valuesElsewhere(set []member, all []*cluster) bool {
	in := map[*cluster]bool{}
	for _, m := range set {
		in[m.c] = true
	}
	seen := map[string]bool{}
	for _, m := range set {
		for _, at := range m.at {
			attr := d.t.baseKeys()[at.attr]
			n := len(m.c.shapes[at.attr].Segs)
			for _, o := range all {
				if in[o] || len(o.shapes[at.attr].Segs) != n || !o.shapes[at.attr].Segs[at.pos].Var {
					continue
				}
				for _, it := range o.items {
					if _, texts := shapeOf(it[attr], d.sep, attr); at.pos < len(texts) {
						seen[texts[at.pos]] = true
					}
				}
			}
		}
	}
	found := 0
	for _, m := range set {
		if seen[m.word] {
			found++
		}
	}
	return found >= 2 && 2*found >= len(set)
}

// restOfKey returns the values the other segments of the member's
// word's key attributes hold, as one text, when every item of its
// cluster holds the same ones; false when they differ.
func (d *drafter) restOfKey(m member) (string, bool) {
	var attrs []int
	for _, at := range m.at {
		if !slices.Contains(attrs, at.attr) {
			attrs = append(attrs, at.attr)
		}
	}
	rest := ""
	for i, it := range m.c.items {
		var parts []string
		for _, a := range attrs {
			attr := d.t.baseKeys()[a]
			_, texts := shapeOf(it[attr], d.sep, attr)
			for p, g := range m.c.shapes[a].Segs {
				if g.Var && p < len(texts) {
					parts = append(parts, texts[p])
				}
			}
		}
		t := strings.Join(parts, "\x00")
		if i > 0 && t != rest {
			return "", false
		}
		rest = t
	}
	return rest, true
}

// onlyPartitionKey reports whether every member's word is in the
// partition key alone.
func (d *drafter) onlyPartitionKey(set []member) bool {
	for _, m := range set {
		for _, at := range m.at {
			if at.attr != 0 {
				return false
			}
		}
	}
	return true
}

// withVars returns a copy of c, without items, whose segments at are
// values.
func (c *cluster) withVars(at []slot) *cluster {
	w := &cluster{typ: c.typ, shapes: make([]shape, len(c.shapes))}
	for i, sh := range c.shapes {
		w.shapes[i] = shape{Type: sh.Type, Segs: slices.Clone(sh.Segs)}
	}
	for _, s := range at {
		w.shapes[s.attr].Segs[s.pos] = seg{Var: true}
	}
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
