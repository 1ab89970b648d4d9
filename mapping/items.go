package mapping

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/value"
)

// Row is one entity row: column name → value. A missing column is NULL.
type Row = map[string]value.Value

// Classify returns the entity among candidates whose base-table key
// templates match the item's keys, or nil. Items are never told apart by a
// type attribute, which a KEYS_ONLY index would not carry.
func (m *Mapping) Classify(item map[string]types.AttributeValue, candidates []*Entity) *Entity {
	pk, _ := item[m.PartitionKey].(*types.AttributeValueMemberS)
	if pk == nil {
		return nil
	}
	var sk *types.AttributeValueMemberS
	if m.SortKey != "" {
		if sk, _ = item[m.SortKey].(*types.AttributeValueMemberS); sk == nil {
			return nil
		}
	}
	for _, e := range candidates {
		if _, ok := e.Templates[m.PartitionKey].Match(pk.Value); !ok {
			continue
		}
		if sk != nil {
			if _, ok := e.Templates[m.SortKey].Match(sk.Value); !ok {
				continue
			}
		}
		return e
	}
	return nil
}

// Decode turns an item of entity e into a row: declared columns from their
// attributes, and key columns parsed back from every key template the item
// carries (an item need not repeat STU#a91's "a91" in an id attribute).
func (e *Entity) Decode(item map[string]types.AttributeValue) Row {
	row := make(Row, len(e.Columns))
	for col := range e.Columns {
		if av, ok := item[col]; ok {
			if v := value.FromAttr(av); v != nil {
				row[col] = v
			}
		}
	}
	for attr, t := range e.Templates {
		s, ok := item[attr].(*types.AttributeValueMemberS)
		if !ok {
			continue
		}
		parts, ok := t.Match(s.Value)
		if !ok {
			continue
		}
		for col, text := range parts {
			if _, have := row[col]; have {
				continue
			}
			if v, err := e.Convert(col, text); err == nil {
				row[col] = v
			}
		}
	}
	return row
}

// KeyItem renders the entity's templates for the given key attributes
// from row, as an SDK key (or the key part of an item).
func (e *Entity) KeyItem(row Row, attrs ...string) (map[string]types.AttributeValue, error) {
	key := make(map[string]types.AttributeValue, len(attrs))
	for _, attr := range attrs {
		if attr == "" {
			continue
		}
		s, err := e.Templates[attr].Render(row)
		if err != nil {
			return nil, err
		}
		key[attr] = &types.AttributeValueMemberS{Value: s}
	}
	return key, nil
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
		pk, sk := other.Templates[path.PKAttr], other.Templates[path.SKAttr]
		if pk == nil || (path.SKAttr != "" && sk == nil) {
			continue // not in this index
		}
		if mayOverlap(pk, path.PK) && (path.SK == nil || mayOverlap(sk, path.SK)) {
			return false
		}
	}
	return true
}
