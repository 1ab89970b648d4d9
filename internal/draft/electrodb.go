package draft

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// ElectroDB (a TypeScript library) writes an item's entity in
// __edb_e__ and its keys as "$<service>#<label>_<value>#..." (partition)
// and "$<entity>_<version>#<label>_<value>#..." or
// "$<collection>#<entity>_<version>#..." (sort), each label the
// attribute's name, the whole key lower-cased by default (casing "upper"
// and "none" are options). Every attribute is kept beside the keys, so
// the draft can read each "<label>_<value>" as the attribute it holds,
// and the keys' case from the attributes' own.

// electroDBType is the attribute ElectroDB names each item's entity in,
// electroDBVersion the one it names the model's version in: ElectroDB
// reads an item as its entity's only when both match the model.
const (
	electroDBType    = "__edb_e__"
	electroDBVersion = "__edb_v__"
)

// electroCasings are the key_casing words, in the order the draft tries
// them: lower is ElectroDB's default.
var electroCasings = []string{"lower", "upper", "none"}

// electroKey is one key attribute's template read in ElectroDB's format,
// and the case its values are written in.
type electroKey struct {
	t      *tmpl
	casing string // lower, upper or none; "" when the template holds no column
	proven bool   // the sample shows the casing: a value not already in it, or no other casing fits
}

// electroSample is one key attribute's values in an entity's items,
// split at '#', with the attributes that could be read from them.
type electroSample struct {
	e          *entity
	attr       string
	idx        []int      // the items holding attr
	segs       [][]string // their values' segments, as many in each
	candidates []string   // electroCandidates of those items
}

// electroTemplate reads the template of key attribute attr in ElectroDB's
// format from the entity's items, with vars holding the entity's columns
// read so far (attribute → column, shared by its templates). It returns
// nil when the values do not all follow the format; the caller then
// drafts the template as for any table.
func (d *drafter) electroTemplate(e *entity, attr string, vars map[string]*variable) *electroKey {
	x := &electroSample{e: e, attr: attr}
	for i, it := range e.items {
		av, ok := it[attr]
		if !ok || isNull(av) {
			continue
		}
		s, ok := av.(*types.AttributeValueMemberS)
		if !ok || !strings.HasPrefix(s.Value, "$") {
			return nil
		}
		x.idx = append(x.idx, i)
		x.segs = append(x.segs, strings.Split(s.Value, "#"))
		if len(x.segs[len(x.segs)-1]) != len(x.segs[0]) {
			return nil // a value holding '#', or another shape
		}
	}
	if len(x.idx) == 0 {
		return nil
	}
	x.candidates = e.electroCandidates(d, x.idx)
	var found []*electroKey
	for _, casing := range electroCasings {
		if k := x.read(casing); k != nil {
			found = append(found, k)
		}
	}
	if len(found) == 0 {
		return nil
	}
	if len(found) == 1 {
		found[0].proven = true // no other casing reads these keys
	}
	for _, k := range found {
		if k.proven || k.casing == "" {
			return k.adopt(e, attr, vars)
		}
	}
	// No sampled value tells the cases apart (all digits, say): lower is
	// ElectroDB's default.
	return found[0].adopt(e, attr, vars)
}

// read reads the template under one casing: position by position, a
// segment is "<label>_<value>" of the same attribute in every item, or
// the same literal text in every item.
func (x *electroSample) read(casing string) *electroKey {
	k := &electroKey{t: &tmpl{attr: x.attr, held: len(x.idx)}}
	var used []string
	for p := range x.segs[0] {
		if p > 0 { // the first segment is the service's, the entity's or the collection's
			k.t.parts = append(k.t.parts, part{lit: "#"})
			if a, label, ok := x.attrAt(p, casing); ok && !slices.Contains(used, a) {
				used = append(used, a)
				k.t.parts = append(k.t.parts, part{lit: label + "_"}, part{v: &variable{name: a}})
				k.casing = casing
				k.proven = k.proven || x.changedByFold(a, casing)
				continue
			}
		}
		lit := x.segs[0][p]
		if x.varies(p) {
			return nil
		}
		if casing != "none" && mapping.FoldCase(lit, casing) != lit {
			return nil // the mapping would refuse literal text in another case
		}
		k.t.parts = append(k.t.parts, part{lit: lit})
	}
	k.t.parts = joinLiterals(k.t.parts)
	return k
}

// attrAt finds the attribute whose value segment p holds in every item,
// after a label: the attribute's name (in any case), or, where the model
// gave it another label, the same text before a value that changes from
// item to item. It returns the attribute and the label as written.
func (x *electroSample) attrAt(p int, casing string) (string, string, bool) {
	var custom []string
	customLabel := ""
	for _, a := range x.candidates {
		label, ok := x.label(p, a, casing)
		switch {
		case !ok:
		case strings.EqualFold(label, a):
			return a, label, true
		case label != "" && x.varies(p):
			custom, customLabel = append(custom, a), label
		}
	}
	if len(custom) == 1 {
		return custom[0], customLabel, true
	}
	return "", "", false // none, or two attributes the sample cannot tell apart
}

// label returns the text before "_<value of a>" in segment p, when every
// item's segment ends so and that text is the same in every item.
func (x *electroSample) label(p int, a, casing string) (string, bool) {
	label := ""
	for j, i := range x.idx {
		v, _ := text(x.e.items[i][a])
		l, ok := strings.CutSuffix(x.segs[j][p], "_"+mapping.FoldCase(v, casing))
		if !ok || (j > 0 && l != label) {
			return "", false
		}
		label = l
	}
	return label, true
}

// varies reports whether segment p is not the same in every item.
func (x *electroSample) varies(p int) bool {
	return slices.ContainsFunc(x.segs, func(s []string) bool { return s[p] != x.segs[0][p] })
}

// changedByFold reports whether some item's value of attribute a is not
// already in the casing: a key holding it folded shows the casing.
func (x *electroSample) changedByFold(a, casing string) bool {
	return slices.ContainsFunc(x.idx, func(i int) bool {
		v, _ := text(x.e.items[i][a])
		return mapping.FoldCase(v, casing) != v
	})
}

// electroCandidates lists, in name order, the attributes that every item
// holding the key holds as a string or as a number in its canonical text
// (as dynosql writes a number into a key), and that can be columns.
func (e *entity) electroCandidates(d *drafter, idx []int) []string {
	var out []string
	for a := range e.items[idx[0]] {
		if e.notColumns[a] || a == d.typeAttr || !validColumn(a) {
			continue
		}
		if !slices.ContainsFunc(idx, func(i int) bool { return !keyText(e.items[i][a]) }) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// keyText reports whether av can be read back from a key's text.
func keyText(av types.AttributeValue) bool {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return true
	case *types.AttributeValueMemberN:
		canon, ok := value.ParseNumber(x.Value)
		return ok && string(canon) == x.Value
	}
	return false
}

// adopt puts the template's columns into the entity: one column per
// attribute, shared by every template that holds it, named after it and
// typed as its values.
func (k *electroKey) adopt(e *entity, attr string, vars map[string]*variable) *electroKey {
	for i, p := range k.t.parts {
		if p.v == nil {
			continue
		}
		a := p.v.name
		v := vars[a]
		if v == nil {
			v = &variable{name: a, rank: rankAttr, typ: "S", vals: map[int]string{}, fixed: true}
			for j, it := range e.items {
				if s, ok := text(it[a]); ok {
					v.vals[j] = s
				}
			}
			if e.heldAsNumbers(a) {
				v.typ = "N"
			}
			vars[a] = v
			e.vars = append(e.vars, v)
		}
		v.attrs = append(v.attrs, attr)
		k.t.parts[i].v = v
	}
	return k
}

// heldAsNumbers reports whether every item holding attribute a holds a
// number.
func (e *entity) heldAsNumbers(a string) bool {
	held := false
	for _, it := range e.items {
		switch it[a].(type) {
		case nil:
		case *types.AttributeValueMemberN:
			held = true
		default:
			return false
		}
	}
	return held
}

// keyCasing is the entity's key_casing as the mapping writes it: one
// word when every key template was read in ElectroDB's format under that
// casing (literal-only ones already in it), else each such key by name;
// "" when no key is folded.
func (e *entity) keyCasing() string {
	var attrs []string
	casings := map[string]bool{}
	whole := true // every key read in ElectroDB's format
	for _, attr := range sortedKeys(e.keys) {
		k := e.electro[attr]
		if k == nil {
			whole = false
			continue
		}
		if k.casing != "" && k.casing != "none" {
			attrs = append(attrs, attr)
			casings[k.casing] = true
		}
	}
	if len(attrs) == 0 {
		return ""
	}
	if whole && len(casings) == 1 {
		casing := e.electro[attrs[0]].casing
		if !slices.ContainsFunc(sortedKeys(e.keys), func(attr string) bool {
			k := e.electro[attr]
			return k.casing == "none" || (k.casing == "" && mapping.FoldCase(e.keys[attr].text(), casing) != e.keys[attr].text())
		}) {
			return casing
		}
	}
	var pairs []string
	for _, attr := range attrs {
		pairs = append(pairs, yamlKey(attr)+": "+e.electro[attr].casing)
	}
	return "{" + strings.Join(pairs, ", ") + "}"
}

// electroNotes says which keys no sampled value shows the case of.
func (e *entity) electroNotes() []string {
	var unsure []string
	for _, attr := range sortedKeys(e.keys) {
		if k := e.electro[attr]; k != nil && k.casing != "" && !k.proven {
			unsure = append(unsure, attr)
		}
	}
	if len(unsure) == 0 {
		return nil
	}
	return []string{"no sampled value shows the case of " + strings.Join(unsure, ", ") + ": key_casing " + e.electro[unsure[0]].casing +
		" is ElectroDB's default; make it none there if the model sets casing: \"none\""}
}

// electroVersion makes ElectroDB's model version a fixed attribute, which
// INSERT writes, when every item holds one string there; else it stays a
// column that says why it matters.
func (d *drafter) electroVersion(e *entity, c *column) {
	version := ""
	for _, it := range e.items {
		s, ok := it[electroDBVersion].(*types.AttributeValueMemberS)
		if !ok || (version != "" && s.Value != version) {
			c.note = join(c.note, "ElectroDB's model version, which its items do not all hold alike: ElectroDB reads a row as its entity's only if it holds the version, so give it on every INSERT")
			return
		}
		version = s.Value
	}
	e.fixed = map[string]string{electroDBVersion: version}
	delete(e.cols, c.name)
}
