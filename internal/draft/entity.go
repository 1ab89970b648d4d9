package draft

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// entity is one drafted logical table.
type entity struct {
	name    string
	nameWhy string // why the name is a guess; "" when it is not
	typ     string // its value of the type attribute
	facet   string // the Workbench facet it comes from
	items   []Item
	keys    map[string]*tmpl // key attribute → template
	vars    []*variable      // template columns, in template order
	cols    map[string]*column
	// declared lists the attributes a facet declares; alias names its
	// key values (key attribute → alias).
	declared []string
	alias    map[string]string
	optional []string
	notes    []string // comment lines above the entity
	// notColumns holds the table's own key attributes and the type
	// attribute: never a column's source (neither is an attribute the
	// entity has a template for).
	notColumns map[string]bool
	// electro holds the key attributes whose templates were read in
	// ElectroDB's format, and their casing.
	electro map[string]*electroKey
	fixed   map[string]string // attributes every item holds alike (ElectroDB's version)
}

// tmpl is a key template being drafted.
type tmpl struct {
	attr  string
	parts []part
	held  int      // items that hold the attribute
	notes []string // what did not fit
}

// part is literal text or a column.
type part struct {
	lit string
	v   *variable
}

// variable is a template column: its values in the entity's items.
type variable struct {
	name  string
	rank  int    // how well the name is backed (see nameVars)
	why   string // why the name is a guess; "" when it is not
	typ   string // S, N or B
	label string // the word before it in its template ("" when bare)
	vals  map[int]string
	attrs []string // the key attributes whose templates hold it
	root  *variable
	// fixed: the key format names the column (ElectroDB's labels), so
	// neither naming nor sharing changes it.
	fixed bool
}

func (v *variable) find() *variable {
	for v.root != nil {
		v = v.root
	}
	return v
}

// buildEntity drafts an entity from items (of facet g, if not nil): a
// template for every key attribute they hold, the indexes those
// templates put them in, shared template columns, and attribute columns.
// Names come later (nameVars).
func (d *drafter) buildEntity(items []Item, g *Group) *entity {
	e := &entity{items: slices.Clone(items), keys: map[string]*tmpl{}, cols: map[string]*column{}, notColumns: map[string]bool{}}
	if g != nil {
		e.facet, e.declared, e.alias = g.Name, g.Attrs, g.Alias
	}
	for _, a := range d.t.baseKeys() {
		e.notColumns[a] = true
	}
	if d.typeAttr != "" {
		e.notColumns[d.typeAttr] = true
	}
	slices.SortStableFunc(e.items, func(a, b Item) int { return strings.Compare(d.keyText(a), d.keyText(b)) })
	electroVars := map[string]*variable{}
	for _, attr := range d.t.keyAttrs() {
		if d.typeAttr == electroDBType {
			if k := d.electroTemplate(e, attr, electroVars); k != nil {
				e.keys[attr] = k.t
				if e.electro == nil {
					e.electro = map[string]*electroKey{}
				}
				e.electro[attr] = k
				continue
			}
		}
		if t := d.buildTemplate(e, attr); t != nil {
			e.keys[attr] = t
		}
	}
	d.pruneIndexes(e)
	e.shareVars()
	d.dropUntellable(e)
	d.attributeColumns(e)
	return e
}

// buildTemplate drafts the template of one key attribute from the values
// the entity's items hold: the most common number of segments, literal
// where every value holds the same word, a column elsewhere.
func (d *drafter) buildTemplate(e *entity, attr string) *tmpl {
	type obs struct {
		i     int
		sh    shape
		texts []string
	}
	var all []obs
	count := map[int]int{}
	for i, it := range e.items {
		av, ok := it[attr]
		if !ok || isNull(av) {
			continue
		}
		sh, texts := shapeOf(av, d.sep, attr)
		if sh.Type == "" {
			continue
		}
		all = append(all, obs{i, sh, texts})
		count[len(sh.Segs)]++
	}
	if len(all) == 0 {
		return nil
	}
	n := len(all[0].sh.Segs)
	for _, o := range all {
		if count[len(o.sh.Segs)] > count[n] {
			n = len(o.sh.Segs)
		}
	}
	t := &tmpl{attr: attr, held: len(all)}
	var fit []obs
	var misfit []string
	for _, o := range all {
		if len(o.sh.Segs) == n {
			fit = append(fit, o)
		} else {
			misfit = append(misfit, d.valueText(e.items[o.i][attr]))
		}
	}
	if len(misfit) > 0 {
		t.notes = append(t.notes, fmt.Sprintf("%d of %d values have another shape, such as %s", len(misfit), len(all), quoteList(misfit, 2)))
	}
	label := ""
	for p := range n {
		if p > 0 {
			t.parts = append(t.parts, part{lit: d.sep})
		}
		lit, same := fit[0].texts[p], true
		for _, o := range fit {
			same = same && !o.sh.Segs[p].Var && o.texts[p] == lit
		}
		if same {
			afterValue := len(t.parts) > 1 && t.parts[len(t.parts)-2].v != nil
			if wordRe.MatchString(lit) && !isUpper(lit) && (afterValue || (n == 1 && attr == d.t.PartitionKey && len(e.items) > 1)) {
				t.notes = append(t.notes, fmt.Sprintf("%s is taken for literal text, as every %s here holds it; if it is a value (a name), write a {column} in its place", quote(lit), d.noun()))
			}
			t.parts = append(t.parts, part{lit: lit})
			if wordRe.MatchString(lit) {
				label = lit
			}
			continue
		}
		v := &variable{typ: fit[0].sh.Type, label: label, vals: map[int]string{}, attrs: []string{attr}}
		for _, o := range fit {
			v.vals[o.i] = o.texts[p]
		}
		t.parts = append(t.parts, part{v: v})
		e.vars = append(e.vars, v)
	}
	t.parts = joinLiterals(t.parts)
	return t
}

// joinLiterals merges neighbouring literal parts.
func joinLiterals(parts []part) []part {
	var out []part
	for _, p := range parts {
		if n := len(out); n > 0 && p.v == nil && out[n-1].v == nil {
			out[n-1].lit += p.lit
			continue
		}
		out = append(out, p)
	}
	return out
}

// pruneIndexes keeps the indexes whose keys the entity's items hold (all
// of them, or some: optional), and drops the templates of key attributes
// no kept index uses: such an attribute is an ordinary column here. A
// template that would give the entity one key of a global index but not
// the other is dropped too, with the indexes that need it: the mapping
// refuses half an index.
func (d *drafter) pruneIndexes(e *entity) {
	for {
		used := map[string]bool{}
		for _, a := range d.t.baseKeys() {
			used[a] = true
		}
		var in []Index
		for _, ix := range d.t.Indexes {
			if e.inIndex(ix) {
				in = append(in, ix)
				used[ix.PartitionKey], used[ix.SortKey] = true, true
			}
		}
		half := ""
		for _, ix := range d.t.Indexes {
			pk, sk := e.keys[ix.PartitionKey] != nil && used[ix.PartitionKey], ix.SortKey != "" && e.keys[ix.SortKey] != nil && used[ix.SortKey]
			if !ix.Local && !e.inIndex(ix) && (pk || sk) {
				half = ix.PartitionKey
				if sk {
					half = ix.SortKey
				}
			}
		}
		if half != "" && !slices.Contains(d.t.baseKeys(), half) {
			e.dropTemplate(half)
			continue
		}
		for _, attr := range sortedKeys(e.keys) {
			if !used[attr] {
				e.dropTemplate(attr)
			}
		}
		for _, ix := range in {
			held := min(heldBy(e.keys[ix.PartitionKey], len(e.items)), heldBy(e.keys[ix.SortKey], len(e.items)))
			if held < len(e.items) {
				e.optional = append(e.optional, ix.Name)
				e.notes = append(e.notes, fmt.Sprintf("%d of its %s are in %s (sparse index)", held, count(len(e.items), d.noun()), ix.Name))
			}
		}
		return
	}
}

// dropTemplate makes a key attribute an ordinary column of the entity;
// its template's columns go with it, but those another template holds.
func (e *entity) dropTemplate(attr string) {
	t := e.keys[attr]
	delete(e.keys, attr)
	e.vars = slices.DeleteFunc(e.vars, func(v *variable) bool {
		if !slices.Contains(t.vars(), v) {
			return false
		}
		for _, o := range e.keys {
			if slices.Contains(o.vars(), v) {
				return false
			}
		}
		return true
	})
}

// dropUntellable leaves out of the entity a sparse index whose key
// templates hold only literal text and columns of the base key (GSI1PK:
// "OPEN", GSI1SK: "{date}#{id}" for the open orders): every row has
// those, so a mapping cannot say which rows are in the index, and
// mapping refuses it. The items stay readable through the table; the
// index's key attributes become ordinary columns, which dynosql neither
// reads the index by nor writes for the index.
func (d *drafter) dropUntellable(e *entity) {
	var base []*variable
	for _, a := range d.t.baseKeys() {
		base = append(base, e.keys[a].vars()...)
	}
	for _, name := range slices.Clone(e.optional) {
		ix := d.index(name)
		var attrs, keys []string
		tells := false
		for _, a := range []string{ix.PartitionKey, ix.SortKey} {
			t := e.keys[a]
			if a == "" || t == nil || slices.Contains(d.t.baseKeys(), a) {
				continue
			}
			attrs = append(attrs, a)
			for _, v := range t.vars() {
				tells = tells || !slices.Contains(base, v)
			}
		}
		if tells {
			continue
		}
		for _, it := range e.items {
			if len(keys) == 0 && slices.ContainsFunc(attrs, func(a string) bool { return it[a] != nil }) {
				for _, a := range attrs {
					keys = append(keys, a+" = "+d.valueText(it[a]))
				}
			}
		}
		held := min(heldBy(e.keys[ix.PartitionKey], len(e.items)), heldBy(e.keys[ix.SortKey], len(e.items)))
		e.dropOptional(name)
		d.untellable[name] = true
		for _, a := range attrs {
			e.dropTemplate(a)
		}
		d.dropHalves(e)
		e.notes = append(e.notes, fmt.Sprintf("Index %s is left out of its keys: %d of its %s are in it, but their keys there (such as %s) hold only literal text "+
			"and parts of the table's key, which every item has, so a mapping cannot tell which items are in it. The items are read through the table; "+
			"dynosql does not read %s for them, nor write its keys (%s) on INSERT or UPDATE. To use %s, map its keys with a column only the items in it hold",
			name, held, count(len(e.items), d.noun()), strings.Join(keys, ", "), name, strings.Join(attrs, ", "), name))
	}
}

// dropHalves drops the templates that, once others are gone, would give
// the entity one key of a global index but not the other.
func (d *drafter) dropHalves(e *entity) {
	for changed := true; changed; {
		changed = false
		for _, ix := range d.t.Indexes {
			if ix.Local || e.inIndex(ix) {
				continue
			}
			for _, a := range []string{ix.PartitionKey, ix.SortKey} {
				if e.keys[a] != nil && !slices.Contains(d.t.baseKeys(), a) {
					e.dropTemplate(a)
					e.dropOptional(ix.Name)
					changed = true
				}
			}
		}
	}
}

// dropOptional forgets that the entity is in a sparse index.
func (e *entity) dropOptional(name string) {
	e.optional = slices.DeleteFunc(e.optional, func(n string) bool { return n == name })
	e.notes = slices.DeleteFunc(e.notes, func(n string) bool { return strings.HasSuffix(n, " are in "+name+" (sparse index)") })
}

// index returns the table's index of that name.
func (d *drafter) index(name string) Index {
	for _, ix := range d.t.Indexes {
		if ix.Name == name {
			return ix
		}
	}
	return Index{}
}

func heldBy(t *tmpl, n int) int {
	if t == nil {
		return n
	}
	return t.held
}

// vars returns the template's columns.
func (t *tmpl) vars() []*variable {
	var vs []*variable
	if t == nil {
		return nil
	}
	for _, p := range t.parts {
		if p.v != nil {
			vs = append(vs, p.v)
		}
	}
	return vs
}

// shareVars makes one column of template columns that hold the same
// value in every item holding both (USER#{u} and #METADATA#{u}), unless
// their labels say they are different things (o#12345 and c#12345).
func (e *entity) shareVars() {
	members := map[*variable][]*variable{}
	for _, v := range e.vars {
		members[v] = []*variable{v}
	}
	for i, a := range e.vars {
		for _, b := range e.vars[i+1:] {
			ra, rb := a.find(), b.find()
			if ra == rb || !e.canShare(a, b) || sameTemplate(e, members[ra], members[rb]) {
				continue
			}
			rb.root = ra
			members[ra] = append(members[ra], members[rb]...)
			for idx, s := range rb.vals {
				ra.vals[idx] = s
			}
			ra.attrs = append(ra.attrs, rb.attrs...)
			if ra.label == "" {
				ra.label = rb.label
			}
		}
	}
	var roots []*variable
	for _, v := range e.vars {
		if v.root == nil {
			roots = append(roots, v)
		}
	}
	for _, t := range e.keys {
		for i := range t.parts {
			if t.parts[i].v != nil {
				t.parts[i].v = t.parts[i].v.find()
			}
		}
	}
	e.vars = roots
}

// canShare reports whether two template columns are one: equal wherever
// both have a value, and labelled alike (a bare or generic label agrees
// with any) or both equal to the same attribute.
func (e *entity) canShare(a, b *variable) bool {
	if a.typ != b.typ || a.fixed || b.fixed {
		return false
	}
	common := 0
	distinct := map[string]bool{}
	for i, s := range a.vals {
		if t, ok := b.vals[i]; ok {
			if s != t {
				return false
			}
			common++
			distinct[s] = true
		}
	}
	if common == 0 || (e.named(a) && e.named(b)) {
		return false // two telling key attributes (OrderId, IsOpen) are two columns
	}
	la, lb := sharingLabel(a.label), sharingLabel(b.label)
	switch {
	case la != "" && la == lb:
		return true
	case la == "" && lb == "":
		// Nothing but the values says they are one: one value the
		// whole sample repeats ("00" in two timestamps) is a
		// coincidence, not evidence.
		if len(distinct) > 1 {
			return true
		}
	case la == "" || lb == "":
		return true
	}
	for _, n := range e.matchingAttrs(a) {
		if slices.Contains(e.matchingAttrs(b), n) {
			return true
		}
	}
	return false
}

// named reports whether a column is the whole template of a key
// attribute with a telling name (IsOpen: "{IsOpen}").
func (e *entity) named(v *variable) bool {
	for _, attr := range v.attrs {
		if t := e.keys[attr]; t != nil && len(t.parts) == 1 && !isGeneric(attr) {
			return true
		}
	}
	return false
}

// genericWords are sort-key words that name no entity and no value
// (PROFILE, #METADATA#): they neither name a column nor keep two apart.
var genericWords = []string{"profile", "meta", "metadata", "info", "details", "detail", "data", "root", "main", "summary", "header", "item", "record", "entity"}

func isGenericWord(s string) bool { return slices.Contains(genericWords, strings.ToLower(s)) }

func sharingLabel(l string) string {
	if isGenericWord(l) {
		return ""
	}
	return strings.ToLower(l)
}

// sameTemplate reports whether two sets of columns hold two of one
// template's columns: those must stay apart.
func sameTemplate(e *entity, a, b []*variable) bool {
	for _, t := range e.keys {
		vs := t.vars()
		inA := slices.ContainsFunc(vs, func(v *variable) bool { return slices.Contains(a, v) })
		inB := slices.ContainsFunc(vs, func(v *variable) bool { return slices.Contains(b, v) })
		if inA && inB {
			return true
		}
	}
	return false
}

// matchingAttrs returns the non-key attributes that hold the column's
// value, as text, in every item it has one in; sorted.
func (e *entity) matchingAttrs(v *variable) []string {
	var names []string
	first := true
	for i, s := range v.vals {
		var here []string
		for name, av := range e.items[i] {
			if t, ok := text(av); ok && t == s {
				here = append(here, name)
			}
		}
		if first {
			names, first = here, false
			continue
		}
		names = slices.DeleteFunc(names, func(n string) bool { return !slices.Contains(here, n) })
	}
	names = slices.DeleteFunc(names, func(n string) bool {
		_, templated := e.keys[n]
		return templated || e.notColumns[n] || !validColumn(n)
	})
	slices.Sort(names)
	return names
}

// validColumn reports whether a name can be a template column.
func validColumn(name string) bool { return name != "" && !strings.ContainsAny(name, "{}#") }

func isNull(av types.AttributeValue) bool {
	_, null := av.(*types.AttributeValueMemberNULL)
	return null
}
