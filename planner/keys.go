package planner

import (
	"maps"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// KeyValue is the value a step gives one key attribute: a template whose
// columns are bound to constants or to columns of rows read earlier.
type KeyValue struct {
	Attr     string
	Template *mapping.Template
	// Bind maps a template column to a *parser.Literal or to a
	// *parser.Column of an earlier slot.
	Bind map[string]parser.Expr
	// Prefix renders only up to the first unbound column (begins_with and
	// range bounds); otherwise every column must be bound.
	Prefix bool
	// Append is added after the prefix: a range bound or a LIKE prefix.
	Append parser.Expr
	// Max adds the highest code point after the prefix: the upper bound of
	// a "greater than" range that must stay inside the template's prefix.
	Max bool
}

// MaxRune ends the upper bound of an open range: no key character sorts
// after it in UTF-8 byte order.
const MaxRune = "\U0010FFFF"

// Constant reports whether the value depends on no earlier row.
func (k *KeyValue) Constant() bool {
	for _, e := range k.Bind {
		if _, ok := e.(*parser.Literal); !ok {
			return false
		}
	}
	if k.Append != nil {
		_, ok := k.Append.(*parser.Literal)
		return ok
	}
	return true
}

// Render computes the key text; lookup resolves a bound column of an
// earlier slot (it is not called for literals).
func (k *KeyValue) Render(lookup func(*parser.Column) value.Value) (string, error) {
	vals := map[string]value.Value{}
	for col, e := range k.Bind {
		vals[col] = evalKeyPart(e, lookup)
	}
	if !k.Prefix {
		return k.Template.Render(vals)
	}
	prefix, _ := k.Template.PrefixUntil(vals)
	switch {
	case k.Append != nil:
		return prefix + value.Text(evalKeyPart(k.Append, lookup)), nil
	case k.Max:
		return prefix + MaxRune, nil
	}
	return prefix, nil
}

func evalKeyPart(e parser.Expr, lookup func(*parser.Column) value.Value) value.Value {
	switch x := e.(type) {
	case *parser.Literal:
		return x.Value
	case *parser.Column:
		return lookup(x)
	}
	return nil
}

// String shows the value as EXPLAIN prints it: constants filled in,
// bound columns as {alias.column}.
func (k *KeyValue) String() string {
	var b strings.Builder
	for _, p := range k.Template.Parts {
		if p.Column == "" {
			b.WriteString(p.Literal)
			continue
		}
		e, ok := k.Bind[p.Column]
		if !ok {
			break
		}
		switch x := e.(type) {
		case *parser.Literal:
			b.WriteString(value.Text(x.Value))
		case *parser.Column:
			b.WriteString("{" + x.Table + "." + x.Name + "}")
		}
	}
	if k.Append != nil {
		if lit, ok := k.Append.(*parser.Literal); ok {
			b.WriteString(value.Text(lit.Value))
		} else {
			b.WriteString("{" + parser.Format(k.Append) + "}")
		}
	}
	if k.Max {
		b.WriteString(`\U0010FFFF`)
	}
	return `"` + b.String() + `"`
}

// SortCond is the sort-key part of a key condition.
type SortCond struct {
	Attr string
	Op   string // "=", "<", "<=", ">", ">=", "between", "begins_with"
	// Values holds one value, or two for between.
	Values []*KeyValue
}

// String shows the condition as EXPLAIN prints it.
func (c *SortCond) String() string {
	switch c.Op {
	case "between":
		return c.Attr + " BETWEEN " + c.Values[0].String() + " AND " + c.Values[1].String()
	case "begins_with":
		return "begins_with(" + c.Attr + ", " + c.Values[0].String() + ")"
	}
	return c.Attr + " " + c.Op + " " + c.Values[0].String()
}

// keyString prints a full key, attributes in the order given.
func keyString(vals []*KeyValue) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = v.Attr + " = " + v.String()
	}
	return strings.Join(s, ", ")
}

// sortedNames returns a map's keys in order, for stable plans.
func sortedNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
