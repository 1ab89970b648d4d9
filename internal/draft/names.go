package draft

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// How well a template column's name is backed, best last.
const (
	rankFallback = iota // the key attribute's name ("pk")
	rankGuess           // a label, a type, or the values' shape
	rankKey             // a telling key attribute name or a facet's alias
	rankAttr            // an attribute that holds the same value
)

var (
	dateRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timeRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}`)
	numberRe = regexp.MustCompile(`^-?\d+(\.\d+)?([eE][-+]?\d+)?$`)
)

// nameVars names an entity's template columns by the best evidence:
// an attribute that holds the same value, a telling key name or facet
// alias, then the values' shape (date), the label before it (USER →
// user_id), the entity's type; as a last resort the key attribute.
func (d *drafter) nameVars(e *entity) {
	for _, v := range e.vars {
		if v.fixed {
			continue
		}
		v.name, v.rank, v.why = d.bestName(e, v)
		if v.rank != rankAttr || v.typ != "S" {
			continue
		}
		if e.numberColumn(v) {
			v.typ = "N" // ORDER#{n} with n a number: the key holds its decimal text
		} else if nums, strs := e.heldAs(v); nums > 0 {
			v.why = join(v.why, fmt.Sprintf("typed S, though %s holds a number in %d of %d items and text in %d: declare %s: N if that text is a mistake",
				v.name, nums, nums+strs, strs, v.name))
		}
	}
}

// heldAs counts the items that hold the attribute a column was named
// after as a number, and as a string.
func (e *entity) heldAs(v *variable) (nums, strs int) {
	for i := range v.vals {
		switch e.items[i][v.name].(type) {
		case *types.AttributeValueMemberN:
			nums++
		case *types.AttributeValueMemberS:
			strs++
		}
	}
	return nums, strs
}

// numberColumn reports whether the attribute a column was named after
// holds numbers whose text is the column's text in the key, as dynosql
// renders a number into a key.
func (e *entity) numberColumn(v *variable) bool {
	for i, s := range v.vals {
		n, ok := e.items[i][v.name].(*types.AttributeValueMemberN)
		if !ok || n.Value != s {
			return false
		}
		if canon, ok := value.ParseNumber(s); !ok || string(canon) != s {
			return false
		}
	}
	return len(v.vals) > 0
}

func (d *drafter) bestName(e *entity, v *variable) (name string, rank int, why string) {
	// A key attribute with a telling name that holds the value alone
	// (customer_id: "{customer_id}") names it, before any attribute that
	// happens to hold the same values.
	for _, attr := range v.attrs {
		if t := e.keys[attr]; t != nil && len(t.parts) == 1 && !isGeneric(attr) && validColumn(attr) {
			return attr, rankAttr, ""
		}
	}
	attrs := e.matchingAttrs(v)
	var without string // an attribute items hold without the column
	attrs = slices.DeleteFunc(attrs, func(a string) bool {
		if n := e.heldWithout(v, a); n > 0 {
			without = join(without, fmt.Sprintf("not named %s: %d of its %s hold %s without %s", a, n, count(len(e.items), d.noun()), a, strings.Join(v.attrs, " or ")))
			return true
		}
		return false
	})
	defer func() {
		if without != "" && rank < rankAttr {
			why = join(why, without)
		}
	}()
	if len(attrs) > 0 {
		name = attrs[0]
		for _, a := range attrs {
			if v.label != "" && strings.Contains(strings.ToLower(a), strings.ToLower(v.label)) {
				name = a
				break
			}
		}
		if len(attrs) > 1 {
			// The sample cannot tell which one the key holds: the
			// column reads the key, and hides the attribute named.
			others := slices.DeleteFunc(slices.Clone(attrs), func(a string) bool { return a == name })
			why = fmt.Sprintf("%s holds the same value in every sampled item: rename this column to it if that is what the key holds", strings.Join(others, " and "))
		}
		return name, rankAttr, why
	}
	for _, attr := range v.attrs {
		t := e.keys[attr]
		if t == nil || len(t.vars()) != 1 {
			continue
		}
		if alias := e.alias[attr]; alias != "" && !isGeneric(alias) && validColumn(alias) {
			return alias, rankKey, ""
		}
	}
	if all(v, dateRe) {
		return "date", rankGuess, "named after its values, which are dates"
	}
	if all(v, timeRe) {
		return "timestamp", rankGuess, "named after its values, which are timestamps"
	}
	if owner := d.owners[v.label]; owner != "" {
		return snake(owner) + "_id", rankGuess, fmt.Sprintf("named after %s, whose keys begin with %s%s", owner, v.label, d.sep)
	}
	if v.label != "" && !isGenericWord(v.label) {
		return snake(v.label) + "_id", rankGuess, "named after " + v.label
	}
	if e.typ != "" {
		return snake(e.typ) + "_id", rankGuess, "named after the type " + e.typ
	}
	if e.facet != "" {
		return snake(e.facet) + "_id", rankGuess, "named after the facet " + e.facet
	}
	return snake(v.attrs[0]), rankFallback, "nothing in the keys names it"
}

// heldWithout counts the entity's items that hold attribute a but no
// value of the column: items a sparse index leaves out (a shipped order
// has a Status but no GSI1PK). Naming the column after a would tell
// dynosql that every item with an a is in the index.
func (e *entity) heldWithout(v *variable, a string) int {
	n := 0
	for i, it := range e.items {
		if _, ok := v.vals[i]; ok {
			continue
		}
		if av, ok := it[a]; ok && !isNull(av) {
			n++
		}
	}
	return n
}

func all(v *variable, re *regexp.Regexp) bool {
	for _, s := range v.vals {
		if !re.MatchString(s) {
			return false
		}
	}
	return len(v.vals) > 0
}

// findOwners finds, for the labels of the keys (c#, sh#), the type or
// facet of the entity whose own id they prefix, so that a column after
// c# is customer_id wherever it appears: the entity whose base keys hold
// that label alone, else the one whose sort key ends with it; either
// way, a name that starts as the label does.
func (d *drafter) findOwners() {
	d.owners = map[string]string{}
	owner := func(e *entity) string {
		if e.typ != "" {
			return e.typ
		}
		return e.facet
	}
	claim := func(label string, e *entity) {
		name := owner(e)
		if label == "" || name == "" || d.owners[label] != "" || isGenericWord(label) ||
			!strings.HasPrefix(snake(name), strings.ToLower(label[:1])) {
			return
		}
		d.owners[label] = name
	}
	for _, e := range d.entities {
		labels := map[string]bool{}
		for _, a := range d.t.baseKeys() {
			for _, v := range e.keys[a].vars() {
				labels[v.label] = true
			}
		}
		if len(labels) == 1 {
			for l := range labels {
				claim(l, e)
			}
		}
	}
	for _, e := range d.entities {
		if sk := e.keys[d.t.SortKey]; sk != nil {
			if vs := sk.vars(); len(vs) > 0 {
				claim(vs[len(vs)-1].label, e)
			}
		}
	}
}

// skeleton is a template with one column marked: where a column sits,
// for giving columns in the same place of two entities' keys one name.
func skeleton(t *tmpl, v *variable) string {
	var b strings.Builder
	b.WriteString(t.attr + "\x00")
	for _, p := range t.parts {
		switch {
		case p.v == v:
			b.WriteString("{*}")
		case p.v != nil:
			b.WriteString("{}")
		default:
			b.WriteString(p.lit)
		}
	}
	return b.String()
}

// unifyNames gives a guessed column the name another entity's column has
// in the same place of the same key attribute, when that one is well
// backed: the comments of a complaint (no complaint_id attribute) share
// the partition of its metadata item (which has one).
func (d *drafter) unifyNames() {
	best := map[string]*variable{}
	for _, e := range d.entities {
		for _, v := range e.vars {
			for _, t := range e.templatesOf(v) {
				k := skeleton(t, v)
				if b := best[k]; v.rank >= rankKey && (b == nil || v.rank > b.rank) {
					best[k] = v
				}
			}
		}
	}
	for _, e := range d.entities {
		for _, v := range e.vars {
			if v.rank >= rankKey {
				continue
			}
			for _, t := range e.templatesOf(v) {
				if b := best[skeleton(t, v)]; b != nil && !e.hasName(b.name) {
					v.name, v.rank, v.why = b.name, rankGuess, ""
					break
				}
			}
		}
	}
}

// templatesOf returns the entity's templates that hold v, in key order.
func (e *entity) templatesOf(v *variable) []*tmpl {
	var ts []*tmpl
	for _, attr := range sortedKeys(e.keys) {
		if slices.Contains(e.keys[attr].vars(), v) {
			ts = append(ts, e.keys[attr])
		}
	}
	return ts
}

func (e *entity) hasName(name string) bool {
	if _, ok := e.cols[name]; ok {
		return true
	}
	return slices.ContainsFunc(e.vars, func(v *variable) bool { return v.name == name })
}

// settleNames makes the entity's column names unique and loadable: an
// attribute column a template column was named after becomes that
// column; a name another attribute or a key attribute already has gets a
// number.
func (d *drafter) settleNames(e *entity) {
	// A column may not take the name of a key attribute the entity has a
	// template for (but its own) or of the type attribute: the item
	// holds those under that name.
	taken := map[string]bool{d.typeAttr: true}
	for a := range e.keys {
		taken[a] = true
	}
	for _, v := range e.vars {
		if v.rank == rankAttr {
			delete(e.cols, v.name)
		}
	}
	for name := range e.cols {
		taken[name] = true
	}
	for _, v := range e.vars {
		// A column named after the key attribute whose whole template it
		// is (CustomerId: "{CustomerId}") may share that name.
		own := slices.ContainsFunc(v.attrs, func(a string) bool {
			t := e.keys[a]
			return a == v.name && t != nil && len(t.parts) == 1
		})
		if !taken[v.name] || own {
			taken[v.name] = true
			continue
		}
		for i := 2; ; i++ {
			if n := fmt.Sprintf("%s_%d", v.name, i); !taken[n] {
				v.name = n
				taken[n] = true
				break
			}
		}
	}
}

// snake turns a name into lower snake case: orderItem → order_item,
// "Sporting Goods" → sporting_goods, GSI1PK → gsi1pk.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsUpper(r):
			lowerBefore := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			lowerAfter := i > 0 && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])
			if lowerBefore || lowerAfter {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte('_')
		}
	}
	out := strings.Trim(regexp.MustCompile(`_+`).ReplaceAllString(b.String(), "_"), "_")
	if out == "" {
		return "x"
	}
	if unicode.IsDigit(rune(out[0])) {
		out = "t_" + out
	}
	return out
}

// plural makes an entity name of a thing's name, as SQL tables are
// named: user → users, category → categories; a name already ending in s,
// or of one or two letters (a label such as u or sh), stays as it is.
func plural(s string) string {
	switch {
	case len(s) <= 2 || strings.HasSuffix(s, "s"):
		return s
	case strings.HasSuffix(s, "y") && !strings.ContainsAny(s[len(s)-2:len(s)-1], "aeiou"):
		return s[:len(s)-1] + "ies"
	case strings.HasSuffix(s, "x") || strings.HasSuffix(s, "ch") || strings.HasSuffix(s, "sh"):
		return s + "es"
	}
	return s + "s"
}

// sqlName returns name, or a variant the SQL parser accepts as a table
// name when name is a keyword (keys, values).
func sqlName(name string) string {
	if _, err := parser.Parse("SELECT * FROM " + name); err == nil {
		return name
	}
	return name + "_t"
}
