package draft

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// drafter holds the state of one draft.
type drafter struct {
	in       Input
	t        *Table
	sep      string
	typeAttr string
	typeHeld int // sampled items holding the type attribute
	total    int // sampled items
	entities []*entity
	unfit    []unfit
	// owners maps key labels (c, sh) to the type or facet whose id
	// they prefix (see findOwners).
	owners map[string]string
	// untellable holds the sparse indexes left out of some entity's keys
	// because they would tell nothing of which items they hold.
	untellable map[string]bool
}

// unfit is sampled items left out of every entity, and why.
type unfit struct {
	why   string
	items []Item
}

func newDrafter(in Input) *drafter {
	d := &drafter{in: in, t: &in.Table, untellable: map[string]bool{}}
	// The order items come in (a Scan's) must not change the draft.
	d.in.Items = slices.Clone(in.Items)
	slices.SortStableFunc(d.in.Items, func(a, b Item) int { return strings.Compare(d.keyText(a), d.keyText(b)) })
	all := slices.Clone(in.Items)
	for _, g := range in.Groups {
		all = append(all, g.Items...)
	}
	d.total = len(all)
	d.sep = chooseSeparator(d.t.keyAttrs(), all)
	d.typeAttr, d.typeHeld = findTypeAttribute(in.Items, in.Groups)
	return d
}

// infer drafts the entities: one per group, and one per key shape (or
// type) of the ungrouped items.
func (d *drafter) infer() {
	for _, g := range d.in.Groups {
		d.addGroup(g)
	}
	if len(d.in.Items) > 0 {
		byType := map[string]bool{}
		for _, c := range d.clusterItems(d.in.Items) {
			if c.typ != "" && byType[c.typ] {
				// One type, two key shapes: the larger one is the entity.
				d.unfit = append(d.unfit, unfit{fmt.Sprintf("of type %s, with keys shaped unlike the rest of its type", c.typ), c.items})
				continue
			}
			byType[c.typ] = true
			e := d.buildEntity(c.items, nil)
			e.typ = c.typ
			e.notes = append(e.notes, c.notes...)
			d.entities = append(d.entities, e)
		}
	}
	// A mapping entity needs a column: items whose keys are all literal
	// text and that hold nothing else (a marker item) cannot be one.
	d.entities = slices.DeleteFunc(d.entities, func(e *entity) bool {
		if len(e.vars) > 0 || len(e.cols) > 0 || len(e.items) == 0 {
			return false
		}
		d.unfit = append(d.unfit, unfit{"whose keys are literal text and that hold no other attribute, which no entity can describe", e.items})
		return true
	})
	if len(d.entities) == 0 {
		d.entities = append(d.entities, d.emptyEntity())
	}
	d.separate()
	d.findOwners()
	for _, e := range d.entities {
		d.nameVars(e)
	}
	d.unifyNames()
	for _, e := range d.entities {
		d.settleNames(e)
	}
	d.nameEntities()
	if len(d.in.Groups) == 0 {
		slices.SortFunc(d.entities, func(a, b *entity) int { return strings.Compare(a.name, b.name) })
	}
}

// addGroup drafts the entity of a Workbench facet; items whose keys have
// another shape than most of the facet's are left out.
func (d *drafter) addGroup(g Group) {
	items := g.Items
	if cs := d.clusterItems(items); len(cs) > 1 {
		items = cs[0].items
		for _, c := range cs[1:] {
			d.unfit = append(d.unfit, unfit{"of facet " + g.Name + ", with keys shaped unlike the rest of it", c.items})
		}
	}
	e := d.buildEntity(items, &g)
	if len(items) > 0 {
		e.typ = d.typeOf(items[0])
	} else {
		e = d.emptyEntity()
		e.facet, e.declared, e.alias = g.Name, g.Attrs, g.Alias
		d.attributeColumns(e)
		e.notes = append(e.notes, "the facet has no sample item: its keys are guessed to be bare values")
	}
	d.entities = append(d.entities, e)
}

// emptyEntity is the entity of a table whose sample is empty: keyed by
// the bare key values.
func (d *drafter) emptyEntity() *entity {
	e := &entity{keys: map[string]*tmpl{}, cols: map[string]*column{}, notColumns: map[string]bool{}}
	for _, attr := range d.t.baseKeys() {
		v := &variable{typ: d.t.keyType(attr), vals: map[int]string{}, attrs: []string{attr}}
		e.keys[attr] = &tmpl{attr: attr, parts: []part{{v: v}}}
		e.vars = append(e.vars, v)
	}
	if len(d.in.Groups) == 0 {
		e.notes = append(e.notes, "the sample holds no item: one entity keyed by the bare key values")
	}
	return e
}

// separate makes the entities distinguishable, as the mapping requires:
// two whose keys could match one item, and that the type attribute does
// not tell apart, become one (when their keys have one shape) or the
// smaller is left out.
func (d *drafter) separate() {
	for changed := true; changed; {
		changed = false
		for i, a := range d.entities {
			for j := i + 1; j < len(d.entities) && !changed; j++ {
				b := d.entities[j]
				if (a.typ != "" && b.typ != "") || !d.overlap(a, b) {
					continue
				}
				if len(b.items) > len(a.items) {
					a, b = b, a
				}
				keep := slices.DeleteFunc(slices.Clone(d.entities), func(e *entity) bool { return e == a || e == b })
				if d.sameShape(a, b) && a.facet == "" && b.facet == "" {
					m := d.buildEntity(append(slices.Clone(a.items), b.items...), nil)
					m.typ = a.typ
					m.notes = append(m.notes, "two key shapes merged: their keys could not be told apart")
					keep = append(keep, m)
				} else {
					why := "whose keys cannot be told apart from those of " + d.example(a)
					if len(b.items) == 0 {
						d.in.dropped = append(d.in.dropped, fmt.Sprintf("Facet %s is left out: it has no sample item, and keys guessed bare cannot be told apart from those of %s", b.facet, d.example(a)))
					} else {
						d.unfit = append(d.unfit, unfit{why, b.items})
					}
					keep = append(keep, a)
				}
				d.entities, changed = keep, true
			}
			if changed {
				break
			}
		}
	}
}

// overlap reports whether an item could match both entities' base keys,
// as the mapping judges it: literal text at both ends of each template.
func (d *drafter) overlap(a, b *entity) bool {
	for _, attr := range d.t.baseKeys() {
		if !mayOverlap(a.keys[attr], b.keys[attr]) {
			return false
		}
	}
	return true
}

func mayOverlap(a, b *tmpl) bool {
	if a == nil || b == nil {
		return true
	}
	if a.literal() && b.literal() {
		return a.parts[0].lit == b.parts[0].lit
	}
	pa, pb := a.prefix(), b.prefix()
	if !strings.HasPrefix(pa, pb) && !strings.HasPrefix(pb, pa) {
		return false
	}
	sa, sb := a.suffix(), b.suffix()
	return strings.HasSuffix(sa, sb) || strings.HasSuffix(sb, sa)
}

func (t *tmpl) literal() bool { return len(t.parts) == 1 && t.parts[0].v == nil }

func (t *tmpl) prefix() string {
	if t.parts[0].v == nil {
		return t.parts[0].lit
	}
	return ""
}

func (t *tmpl) suffix() string {
	if p := t.parts[len(t.parts)-1]; p.v == nil {
		return p.lit
	}
	return ""
}

// sameShape reports whether two entities' base templates have the same
// number of separated parts, so one template can cover both.
func (d *drafter) sameShape(a, b *entity) bool {
	for _, attr := range d.t.baseKeys() {
		ta, tb := a.keys[attr], b.keys[attr]
		if ta == nil || tb == nil || len(ta.parts) != len(tb.parts) {
			return false
		}
	}
	return true
}

// nameEntities names each entity after its type or facet, or else after
// the words of its keys; names are unique and valid SQL table names.
func (d *drafter) nameEntities() {
	taken := map[string]bool{}
	// Entities named by their partition key's word (USER#{u} / PROFILE:
	// users) choose first, before those named by a sort key's word
	// (GAME#{g} / USER#{u}, a game's players), which have other names
	// to fall back on.
	order := slices.Clone(d.entities)
	slices.SortStableFunc(order, func(a, b *entity) int { return d.bySortKey(a) - d.bySortKey(b) })
	for _, e := range order {
		var candidates []string
		switch {
		case e.typ != "":
			candidates = []string{plural(snake(e.typ))}
		case e.facet != "":
			candidates = []string{plural(snake(e.facet))}
		default:
			candidates = d.keyNames(e)
			e.nameWhy = "its name is guessed from its keys"
		}
		e.name = ""
		for _, c := range candidates {
			if c = sqlName(c); !taken[c] {
				e.name = c
				break
			}
		}
		for i := 2; e.name == ""; i++ {
			if c := fmt.Sprintf("%s_%d", sqlName(candidates[0]), i); !taken[c] {
				e.name = c
			}
		}
		taken[e.name] = true
	}
}

// bySortKey is 1 for an entity named after a word of its sort key that
// is not its partition key's: an item keyed by itself (GROUP#{g} /
// GROUP#{g}) has first claim on the name (groups), before the edges
// that point at it (USER#{u} / GROUP#{g}).
func (d *drafter) bySortKey(e *entity) int {
	sk := e.keys[d.t.SortKey]
	if e.typ != "" || e.facet != "" || sk == nil || sk.literal() || isGenericWord(firstWord(sk)) || firstWord(sk) == "" {
		return 0
	}
	if len(words(sk)) == 1 && strings.EqualFold(firstWord(sk), lastWord(e.keys[d.t.PartitionKey])) {
		return 0 // keyed by itself: named after its partition key's word already
	}
	return 1
}

// keyNames proposes entity names from the keys, best first: the sort
// key's first word before a column (ORDER#{date}#{id} → orders), the
// partition key's word with a telling literal sort key (u#{id} / count →
// u_count), the partition key's last word (u#{id}#follower → followers),
// the name of a bare partition key's column (complaint_id → complaints),
// the table's name.
func (d *drafter) keyNames(e *entity) []string {
	var out []string
	pk, sk := e.keys[d.t.PartitionKey], e.keys[d.t.SortKey]
	pkWord, skWord, skLit := lastWord(pk), "", ""
	if sk != nil && !sk.literal() && !isGenericWord(firstWord(sk)) {
		skWord = firstWord(sk)
	}
	// A sort key that repeats the partition key's word and goes on
	// (ORDER#{id} / ORDER#{id}#ITEM#{n}) keys what the partition's item
	// holds: order_items, not orders.
	if ws := words(sk); skWord != "" && len(ws) > 1 && strings.EqualFold(skWord, pkWord) {
		out = append(out, plural(snake(skWord+"_"+ws[len(ws)-1])))
	}
	if sk != nil && sk.literal() && !isGenericWord(strings.Trim(sk.parts[0].lit, d.sep)) {
		skLit = sk.parts[0].lit
	}
	if len(skWord) > 2 {
		out = append(out, plural(snake(skWord)))
	}
	if pkWord != "" && skLit != "" && !strings.Contains(strings.ToLower(pkWord), strings.ToLower(skLit)) {
		out = append(out, snake(pkWord+"_"+skLit))
	}
	if pkWord != "" {
		out = append(out, plural(snake(pkWord)))
	}
	if skWord != "" {
		out = append(out, plural(snake(skWord)))
	}
	if pkWord != "" && skWord != "" {
		out = append(out, plural(snake(pkWord+"_"+skWord)))
	}
	if pk != nil && len(pk.parts) == 1 && pk.parts[0].v != nil && pk.parts[0].v.rank >= rankKey {
		if name := strings.TrimSuffix(strings.TrimSuffix(snake(pk.parts[0].v.name), "_id"), "id"); name != "" {
			out = append(out, plural(name))
		}
	}
	if skLit != "" {
		out = append(out, snake(d.t.Name+"_"+skLit))
	}
	return append(out, snake(d.t.Name))
}

// words returns the literal words of a template, in order.
func words(t *tmpl) []string {
	if t == nil {
		return nil
	}
	var ws []string
	for _, p := range t.parts {
		if p.v != nil {
			continue
		}
		for _, w := range strings.FieldsFunc(p.lit, func(r rune) bool {
			return r != '_' && r != '-' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z')
		}) {
			if wordRe.MatchString(w) {
				ws = append(ws, w)
			}
		}
	}
	return ws
}

func lastWord(t *tmpl) string {
	if ws := words(t); len(ws) > 0 {
		return ws[len(ws)-1]
	}
	return ""
}

// firstWord returns the template's first literal word ("" without one).
func firstWord(t *tmpl) string {
	if ws := words(t); len(ws) > 0 {
		return ws[0]
	}
	return ""
}

// noun is what the draft calls the items it reads: a live table's are
// sampled, a model's are samples.
func (d *drafter) noun() string {
	if d.in.Open {
		return "sampled item"
	}
	return "sample item"
}

// example names an entity's items for comments: the key of its first.
func (d *drafter) example(e *entity) string {
	if len(e.items) == 0 {
		return "facet " + e.facet
	}
	return "the item " + d.keyText(e.items[0])
}

// keyText writes an item's base key for comments: PK = "USER#u1", SK = "PROFILE".
func (d *drafter) keyText(it Item) string {
	var parts []string
	for _, a := range d.t.baseKeys() {
		parts = append(parts, a+" = "+d.valueText(it[a]))
	}
	return strings.Join(parts, ", ")
}

// valueText writes a key value for comments: strings quoted, numbers
// as they are, binaries in hex.
func (d *drafter) valueText(av types.AttributeValue) string {
	s, ok := text(av)
	switch {
	case av == nil:
		return "(none)"
	case !ok:
		return "(" + typeName(av) + ")"
	case typeName(av) == "S":
		return quote(s)
	}
	return s
}
