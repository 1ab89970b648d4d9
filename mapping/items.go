package mapping

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
)

// Row is one entity row: column name → value. A missing column is NULL.
type Row = map[string]value.Value

// Item renders the item stored for row: its non-NULL columns (and, for
// an open entity, the undeclared attributes row holds), every key
// attribute the entity's templates give, the type attribute and the
// fixed attributes. The key attributes of an optional index are left
// out, all of them, when a column they need is NULL: the item is then not
// in that index.
func (e *Entity) Item(row Row) (map[string]types.AttributeValue, error) {
	it := make(map[string]types.AttributeValue, len(row)+len(e.keys)+1)
	for col, v := range row {
		if v != nil && (e.Columns[col] != "" || (e.Open && e.isAttributeName(col))) {
			it[col] = value.ToAttr(v)
		}
	}
	skip := e.sparseAttrs(row)
	for _, attr := range e.KeyAttrs() {
		k := e.keys[attr]
		if skip[attr] {
			// An index key attribute that is the column itself is
			// written as the column even when the row stays out of the
			// index: it must still be a value a key can hold.
			if _, ok := it[attr]; ok {
				if _, err := k.Value(row); err != nil {
					return nil, e.keyError(k, row, err)
				}
			}
			continue
		}
		av, err := k.Value(row)
		if err != nil {
			return nil, e.keyError(k, row, err)
		}
		it[attr] = av
	}
	if e.Type != "" {
		it[e.m.TypeAttribute] = sAttr(e.Type)
	}
	for attr, v := range e.Fixed {
		it[attr] = sAttr(v)
	}
	return it, nil
}

// StoredKey returns what Item stores in key attribute attr for row: nil
// when it stores nothing there, because a column of the key is NULL or
// attr belongs to an optional index the row stays out of, unless attr is
// a column itself (map: "{map}"), which Item writes as the column even
// out of the index.
func (e *Entity) StoredKey(attr string, row Row) types.AttributeValue {
	k := e.keys[attr]
	if k == nil {
		return nil
	}
	if e.sparseAttrs(row)[attr] {
		// As Item does: a guard asking for no such attribute would fail
		// on every item out of the index that holds the column, and the
		// write of its row be skipped as if it had changed.
		if v := row[attr]; v != nil && (e.Columns[attr] != "" || (e.Open && e.isAttributeName(attr))) {
			return value.ToAttr(v)
		}
		return nil
	}
	av, err := k.Value(row)
	if err != nil {
		return nil
	}
	return av
}

// sparseAttrs returns the key attributes of the optional indexes that
// row leaves out: those of an index a column of whose templates is NULL.
func (e *Entity) sparseAttrs(row Row) map[string]bool {
	skip := map[string]bool{}
	for _, p := range e.paths {
		if !p.Optional {
			continue
		}
		attrs := []string{p.PKAttr, p.SKAttr}
		missing := false
		for _, attr := range attrs {
			if k := e.keys[attr]; attr != "" && e.optAttrs[attr] {
				for _, c := range k.Columns() {
					missing = missing || row[c] == nil
				}
			}
		}
		if missing {
			for _, attr := range attrs {
				if e.optAttrs[attr] {
					skip[attr] = true
				}
			}
		}
	}
	return skip
}

// keyError names what keeps key k from being rendered from row.
func (e *Entity) keyError(k *Key, row Row, err error) *errs.Error {
	for _, c := range k.Columns() {
		if row[c] == nil {
			return errs.New(errs.Invalid, "%s needs a value for %s: it is part of the key %s = %q", e.Name, c, k.Attr, k.Raw).
				WithHint("give %s a non-empty value", c)
		}
	}
	return errs.New(errs.Invalid, "%s key %s = %q: %v", e.Name, k.Attr, k.Raw, err)
}

// KeyItem renders row's key attributes attrs (the base key, say), as an
// SDK key.
func (e *Entity) KeyItem(row Row, attrs ...string) (map[string]types.AttributeValue, error) {
	key := make(map[string]types.AttributeValue, len(attrs))
	for _, attr := range attrs {
		k := e.keys[attr]
		av, err := k.Value(row)
		if err != nil {
			return nil, e.keyError(k, row, err)
		}
		key[attr] = av
	}
	return key, nil
}

// BaseKey renders row's base-table key.
func (e *Entity) BaseKey(row Row) (map[string]types.AttributeValue, error) {
	return e.KeyItem(row, e.m.BaseKeyAttrs()...)
}

// Classify returns the entity among candidates that an item belongs to:
// the one whose base-table key templates match the item's keys and, when
// the item carries the type attribute, whose type it names. It returns
// nil when none does, or when several match and nothing tells them apart
// (an index that does not project the type attribute).
func (m *Mapping) Classify(item map[string]types.AttributeValue, candidates []*Entity) *Entity {
	typ := ""
	if m.TypeAttribute != "" {
		if s, ok := item[m.TypeAttribute].(*types.AttributeValueMemberS); ok {
			typ = s.Value
		}
	}
	var found *Entity
	for _, e := range candidates {
		if typ != "" && e.Type != "" && e.Type != typ {
			continue
		}
		if !e.matchesBaseKey(item) {
			continue
		}
		if found != nil && found != e {
			return nil
		}
		found = e
	}
	return found
}

func (e *Entity) matchesBaseKey(item map[string]types.AttributeValue) bool {
	for _, attr := range e.m.BaseKeyAttrs() {
		if !e.keys[attr].parseInto(item[attr], nil) {
			return false
		}
	}
	return true
}

// Decode turns an item of entity e into a row: key columns parsed back
// from every key template the item carries (an item need not repeat
// STU#a91's "a91" in an id attribute), the other declared columns from
// their attributes, and, for an open entity, every other attribute the
// item holds under its own name.
func (e *Entity) Decode(item map[string]types.AttributeValue) Row {
	row, _ := e.decode(item, false)
	return row
}

// Claim is Decode for an item that must be e's: false when a key
// attribute it holds does not have e's template or type, or its
// entity-type attribute names another entity. Each key is parsed once.
func (e *Entity) Claim(item map[string]types.AttributeValue) (Row, bool) {
	if typ, ok := item[e.m.TypeAttribute].(*types.AttributeValueMemberS); ok && e.m.TypeAttribute != "" && e.Type != "" && typ.Value != e.Type {
		return nil, false
	}
	return e.decode(item, true)
}

// decode makes the row; strict stops at the first key attribute that is
// not of e's shape, where Decode skips it.
func (e *Entity) decode(item map[string]types.AttributeValue, strict bool) (Row, bool) {
	row := make(Row, len(e.Columns))
	for _, attr := range e.KeyAttrs() {
		av, ok := item[attr]
		if !ok {
			continue
		}
		if !e.keys[attr].parseInto(av, row) && strict {
			return nil, false
		}
	}
	for name, av := range item {
		if _, have := row[name]; have {
			continue
		}
		_, declared := e.Columns[name]
		if !declared && (!e.Open || !e.isAttributeName(name)) {
			continue
		}
		if v := value.FromAttr(av); v != nil {
			row[name] = v // as stored, even when not of the declared type
		} else if e.raw {
			row[name] = nil // stored as NULL: SELECT * shows the attribute
		}
	}
	return row, true
}

// NumberMisfit explains why an item that no entity claims is e's after
// all, written by a program that spells a number column otherwise in a
// key (ISSUE#00000010 for the template ISSUE#{number}): every key it
// holds has e's shape, one holds a number in other text than dynosql
// writes, and no entity of the mapping claims it. Reading on without it
// would answer as if it were not there, so the read stops with the
// error returned; nil when the item is not such a one.
func (e *Entity) NumberMisfit(item map[string]types.AttributeValue) *errs.Error {
	// Reads meet many items of other entities (a partition holds several):
	// an entity no number is written into a string key for is done
	// without splitting any key.
	if !e.numberInText {
		return nil
	}
	var attr, col, text string
	for _, a := range e.KeyAttrs() {
		av, ok := item[a]
		if !ok {
			continue
		}
		k := e.keys[a]
		if c, t, off := k.offNumber(av); off {
			if attr == "" {
				attr, col, text = a, c, t
			}
		} else if !k.parseInto(av, nil) {
			return nil
		}
	}
	if attr == "" || e.m.Classify(item, e.m.EntityList()) != nil {
		return nil
	}
	n, _ := value.ParseNumber(text)
	return errs.New(errs.Mapping, "the item %s has the key shape of %s, but %s holds its number column %s as %s, where dynosql writes %s: WHERE %s = %s would not find it, and a read that left it out would answer as if it were not there",
		e.m.KeyText(item), e.Name, attr, col, text, n, col, n).
		WithHint("if the table writes %s so (zero-padded, say), declare %s: S among the columns of %s and compare it as text (%s = '%s')", col, col, e.Name, col, text)
}

// CaseMisfit checks an item e claims against its case-folded keys
// (key_casing): each string column such a key holds only folded is read
// from its own attribute, which must be there and fold to the key's
// text. Otherwise the row would show the column NULL, or a value the key
// was not made from, so the read stops with the error returned.
func (e *Entity) CaseMisfit(item map[string]types.AttributeValue) *errs.Error {
	if len(e.folded) == 0 {
		return nil
	}
	for _, a := range e.KeyAttrs() {
		k := e.keys[a]
		key, ok := item[a].(*types.AttributeValueMemberS)
		if k.Case == "" || !ok {
			continue
		}
		var buf [8]string
		texts, fits := k.split(key.Value, buf[:0])
		if !fits {
			continue
		}
		cols := k.Columns()
		for i, col := range cols {
			if e.Columns[col] != "S" {
				continue
			}
			switch v, ok := item[col].(*types.AttributeValueMemberS); {
			case !ok:
				return errs.New(errs.Mapping, "the item %s of %s holds %s only %s-cased in %s (%q), and no %s attribute of type S that gives its value",
					e.m.KeyText(item), e.Name, col, k.Case, a, texts[i], col).
					WithHint("give every item of %s its %s attribute, as ElectroDB does; or read the key's text as it is, without key_casing for %s", e.Name, col, a)
			case k.fold(v.Value) != texts[i]:
				return errs.New(errs.Mapping, "the item %s of %s has %s = %q, but its key %s holds %q, not %q",
					e.m.KeyText(item), e.Name, col, v.Value, a, texts[i], k.fold(v.Value)).
					WithHint("the key was made from another value than the attribute holds; rewrite the item so that they agree")
			}
		}
	}
	return nil
}

// ItemID identifies an item by its base-table key, as text: equal for two
// reads of one item and only for them, each key value behind its length
// (a value may hold any character, a separator too).
func (m *Mapping) ItemID(item map[string]types.AttributeValue) string {
	return KeyID(item, m.BaseKeyAttrs())
}

// KeyID is ItemID over the key attributes attrs only (those that tell
// apart the items a read can return).
func KeyID(item map[string]types.AttributeValue, attrs []string) string {
	var buf [96]byte // most keys fit: one allocation, the string
	b := buf[:0]
	for _, attr := range attrs {
		b = value.AppendLengthPrefixed(b, Text(item[attr]))
	}
	return string(b)
}

// KeyText writes an item's base-table key for messages: PK=STU#a91,
// SK=PROFILE (an attribute a read did not project is left out).
func (m *Mapping) KeyText(item map[string]types.AttributeValue) string {
	var parts []string
	for _, attr := range m.BaseKeyAttrs() {
		if av, ok := item[attr]; ok {
			parts = append(parts, attr+"="+Text(av))
		}
	}
	return strings.Join(parts, ", ")
}

// Alone reports whether, through path, a read of entity e's items can
// meet no item of another entity: every other entity that defines the
// path's keys has templates that cannot match the same key. A Query that
// counts items without reading them (Select=COUNT) is right only then.
func (m *Mapping) Alone(e *Entity, path *AccessPath) bool {
	for _, other := range m.Entities {
		if other == e {
			continue
		}
		// An entity holding the index's key attributes as plain columns
		// is in it with any keys (no path).
		op, in := m.indexPath(other, path.Index)
		if in && (op == nil || m.keysOverlap(path, op)) {
			return false
		}
	}
	return true
}
