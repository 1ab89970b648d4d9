package draft

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// column is an attribute column of an entity.
type column struct {
	name    string
	typ     string
	held    int            // items holding it
	counts  map[string]int // items by the type of value they hold
	example map[string]string
	note    string // why the type is a guess
}

// columnTypes are the types a mapping column may have, in the order
// that breaks ties between equally common ones.
var columnTypes = []string{"S", "N", "BOOL", "M", "L", "SS", "NS", "B"}

// typeName returns the DynamoDB type of a value.
func typeName(av types.AttributeValue) string {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberM:
		return "M"
	}
	return "NULL"
}

// attributeColumns gives the entity a column for every attribute its
// items hold (and its facet declares) that no template covers, typed as
// most of its values are, or as the model declares it.
func (d *drafter) attributeColumns(e *entity) {
	skip := func(name string) bool {
		_, templated := e.keys[name]
		return templated || name == d.typeAttr || slices.Contains(d.t.baseKeys(), name)
	}
	for _, it := range e.items {
		for name, av := range it {
			t := typeName(av)
			if skip(name) || t == "NULL" {
				continue
			}
			c := e.cols[name]
			if c == nil {
				c = &column{name: name, counts: map[string]int{}, example: map[string]string{}}
				e.cols[name] = c
			}
			c.held++
			c.counts[t]++
			if s, ok := text(av); ok && (c.example[t] == "" || s < c.example[t]) {
				c.example[t] = s
			}
		}
	}
	for _, name := range e.declared {
		if !skip(name) && e.cols[name] == nil {
			e.cols[name] = &column{name: name, counts: map[string]int{}, example: map[string]string{}}
		}
	}
	for _, name := range sortedKeys(e.cols) {
		c := e.cols[name]
		if name == "*" {
			// SQL reads * as every column: a mapping cannot have it.
			e.notes = append(e.notes, "attribute * cannot be a column (SQL reads * as every column): left out")
			delete(e.cols, name)
			continue
		}
		if !d.typeColumn(e, c) {
			delete(e.cols, name)
			continue
		}
		if d.typeAttr == electroDBType && name == electroDBVersion {
			d.electroVersion(e, c)
		}
	}
}

// typeColumn decides a column's type and says why where it guessed; it
// returns false for a column dynosql cannot read (binary sets).
func (d *drafter) typeColumn(e *entity, c *column) bool {
	declared := d.t.AttrTypes[c.name]
	if !slices.Contains(columnTypes, declared) {
		declared = ""
	}
	best := ""
	for _, t := range columnTypes {
		if c.counts[t] > c.counts[best] {
			best = t
		}
	}
	switch {
	case declared != "":
		c.typ = declared
		c.note = declaredNote(e, c)
		return true
	case best == "" && c.held > 0:
		e.notes = append(e.notes, fmt.Sprintf("attribute %s holds binary sets (BS), which dynosql does not read: left out", c.name))
		return false
	case best == "":
		c.typ = "S"
		c.note = "no sample value: S is a guess"
		return true
	}
	c.typ = best
	if c.counts[best] < c.held {
		c.note = c.typeCounts(best)
	}
	if c.held < len(e.items) {
		c.note = join(fmt.Sprintf("in %d of %d items", c.held, len(e.items)), c.note)
	}
	return true
}

// declaredNote says where the sample disagrees with a model's type.
func declaredNote(e *entity, c *column) string {
	switch {
	case c.typ == "S" && c.counts["S"] > 0 && c.counts["S"] == c.held && allNumbers(e, c.name):
		return "S in the model, though its sample values are numbers (" + count(c.held, "value") + ")"
	case c.held > c.counts[c.typ]:
		return fmt.Sprintf("%s in the model; the sample holds %s", c.typ, c.typeCounts(""))
	case c.held == 0 && len(e.items) > 0:
		return "no sample item holds it"
	}
	return ""
}

// typeCounts describes the types a column's values have, the chosen one
// first: "N in 40 items, S in 2 (such as "n/a")".
func (c *column) typeCounts(chosen string) string {
	var parts []string
	if chosen != "" {
		parts = append(parts, fmt.Sprintf("%s in %d items", chosen, c.counts[chosen]))
	}
	for _, t := range append(slices.Clone(columnTypes), "BS") {
		if t == chosen || c.counts[t] == 0 {
			continue
		}
		p := fmt.Sprintf("%s in %d", t, c.counts[t])
		if ex := c.example[t]; ex != "" {
			p += " (such as " + quote(ex) + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// allNumbers reports whether every string value of attr in the entity's
// items spells a number.
func allNumbers(e *entity, attr string) bool {
	for _, it := range e.items {
		if s, ok := it[attr].(*types.AttributeValueMemberS); ok && !numberRe.MatchString(s.Value) {
			return false
		}
	}
	return true
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// quote writes s as a double-quoted string, cut to a readable length.
func quote(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "..."
	}
	return fmt.Sprintf("%q", s)
}

// quoteList quotes up to n of values, sorted, and says how many more.
func quoteList(values []string, n int) string {
	vs := slices.Clone(values)
	slices.Sort(vs)
	vs = slices.Compact(vs)
	var parts []string
	for _, v := range vs[:min(n, len(vs))] {
		parts = append(parts, quote(v))
	}
	s := strings.Join(parts, ", ")
	if len(vs) > n {
		s += fmt.Sprintf(" (%d more)", len(vs)-n)
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
