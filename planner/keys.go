package planner

import (
	"errors"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// Binder gives the value of a column of a row read earlier: the executor
// reads it from the row in flight; EXPLAIN gives a mapping.Placeholder.
type Binder func(*parser.Column) value.Value

// Explaining is the Binder of EXPLAIN: each column stands for itself.
func Explaining(c *parser.Column) value.Value {
	return mapping.Placeholder("{" + c.Table + "." + c.Name + "}")
}

// bindValue evaluates a key binding: a literal, or a column through b.
func bindValue(e parser.Expr, b Binder) value.Value {
	switch x := e.(type) {
	case *parser.Literal:
		return x.Value
	case *parser.Column:
		return b(x)
	}
	return nil
}

func bindRow(bind map[string]parser.Expr, b Binder) mapping.Row {
	row := make(mapping.Row, len(bind))
	for col, e := range bind {
		row[col] = bindValue(e, b)
	}
	return row
}

// KeyValue is the value a step gives one key attribute: the attribute's
// key codec with each template column bound to a constant or to a column
// of a row read earlier.
type KeyValue struct {
	Key *mapping.Key
	// Bind maps a template column to a *parser.Literal or to a
	// *parser.Column of an earlier slot.
	Bind map[string]parser.Expr
}

// Attr returns the key attribute's name.
func (k *KeyValue) Attr() string { return k.Key.Attr }

// Constant reports whether the value depends on no earlier row.
func (k *KeyValue) Constant() bool {
	for _, e := range k.Bind {
		if _, ok := e.(*parser.Literal); !ok {
			return false
		}
	}
	return true
}

// Value renders the key attribute's value for the row b reads from.
func (k *KeyValue) Value(b Binder) (types.AttributeValue, error) {
	return k.Key.Value(bindRow(k.Bind, b))
}

// String shows the value as EXPLAIN prints it.
func (k *KeyValue) String() string {
	av, err := k.Value(Explaining)
	if err != nil {
		return "?"
	}
	return literal(av)
}

// KeyCaseError returns, for a key error, the statement's error where an item
// may hold the key but dynosql cannot render it (mapping.CaseError); nil
// for the others, which mean that no item has the key.
func KeyCaseError(err error) error {
	var ce *mapping.CaseError
	if !errors.As(err, &ce) {
		return nil
	}
	return errs.New(errs.Invalid, "%v", err).
		WithHint("read such rows through a key or index that does not hold the value, and compare it in the WHERE there")
}

// renderKey renders a full key (each attribute of kvs) for the row b
// reads from; an error means a column the key needs is NULL or does not
// fit, so no item can have that key.
func renderKey(kvs []*KeyValue, b Binder) (map[string]types.AttributeValue, error) {
	key := make(map[string]types.AttributeValue, len(kvs))
	for _, kv := range kvs {
		av, err := kv.Value(b)
		if err != nil {
			return nil, err
		}
		key[kv.Attr()] = av
	}
	return key, nil
}

// SortSpec is the sort-key part of a Query's key condition: the leading
// template columns Fixed (equal to constants or to earlier rows'
// columns) and Bounds on the column after them.
type SortSpec struct {
	Key    *mapping.Key
	Fixed  map[string]parser.Expr
	Bounds []mapping.Bound
}

// IsFixed reports whether the WHERE fixes column c of the sort key.
func (s *SortSpec) IsFixed(c string) bool { _, ok := s.Fixed[c]; return ok }

// Condition renders the sort-key condition for the row b reads from.
func (s *SortSpec) Condition(b Binder) *mapping.SortCondition {
	return s.Key.Condition(bindRow(s.Fixed, b), s.Bounds)
}

// String shows the condition as EXPLAIN prints it, for comparing two
// reads' conditions.
func (s *SortSpec) String() string {
	c := s.Condition(Explaining)
	if c == nil {
		return ""
	}
	if c.Empty {
		return "empty"
	}
	parts := []string{s.Key.Attr, c.Op}
	for _, v := range c.Values {
		parts = append(parts, literal(v))
	}
	return strings.Join(parts, " ")
}

// sortedNames returns a map's keys in order, for stable plans.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m)) // sized once: planning calls this often
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
