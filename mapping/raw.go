package mapping

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
)

// Raw returns the mapping of a DynamoDB table read without a mapping
// file: one entity named as the table, whose columns are the item's
// attributes. Each key attribute (of the table and of its indexes) is a
// column of its own type, its template the column alone ("{PK}"); every
// other attribute is read by name with the type the item holds (the
// entity is open), and SELECT * shows every attribute the items hold
// (Entity.Raw). The table's indexes are the mapping's, as DescribeTable
// gives them.
func Raw(desc *types.TableDescription) (*Mapping, error) {
	name := aws.ToString(desc.TableName)
	attrTypes := map[string]string{}
	for _, d := range desc.AttributeDefinitions {
		attrTypes[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	m := &Mapping{Source: "the table " + name + " (no mapping)", Table: name, Indexes: map[string]*Index{}}
	m.PartitionKey, m.SortKey = KeyNames(desc.KeySchema)
	e := &Entity{Keys: map[string]string{}, Columns: map[string]string{}, Open: true, raw: true}
	var untyped []string
	key := func(attr string) {
		if attr != "" {
			e.Keys[attr] = "{" + attr + "}"
			e.Columns[attr] = attrTypes[attr]
			if attrTypes[attr] == "" && !slices.Contains(untyped, attr) {
				untyped = append(untyped, attr)
			}
		}
	}
	key(m.PartitionKey)
	key(m.SortKey)
	index := func(n string, schema []types.KeySchemaElement, p *types.Projection, local bool) {
		pk, sk := KeyNames(schema)
		ix := &Index{PartitionKey: pk, SortKey: sk, Local: local, Projection: "ALL"}
		if p != nil {
			ix.Projection, ix.Include = string(p.ProjectionType), p.NonKeyAttributes
		}
		m.Indexes[n] = ix
		key(pk)
		key(sk)
	}
	for _, g := range desc.GlobalSecondaryIndexes {
		index(aws.ToString(g.IndexName), g.KeySchema, g.Projection, false)
	}
	for _, l := range desc.LocalSecondaryIndexes {
		index(aws.ToString(l.IndexName), l.KeySchema, l.Projection, true)
	}
	if len(untyped) > 0 {
		// Guessing S would read a numeric key as no item at all.
		return nil, errs.New(errs.Unsupported, "the description of table %s gives no type for its key attribute(s) %s, so its keys cannot be read raw", name, strings.Join(untyped, ", ")).
			WithHint("give the table a mapping that declares the key types (--mapping); the embedded backend does not report them")
	}
	// Items need not be in an index: every index is sparse here, but
	// one keyed by the table's own key attributes only (an inverted
	// index, SK / PK), which holds every item.
	for n, ix := range m.Indexes {
		if !m.isBaseKeyAttr(ix.PartitionKey) || !m.isBaseKeyAttr(ix.SortKey) {
			e.Optional = append(e.Optional, n)
		}
	}
	m.Entities = map[string]*Entity{name: e}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("reading table %s raw: %w", name, err)
	}
	if err := m.CheckTable(desc); err != nil {
		return nil, err
	}
	return m, nil
}

// Raw reports whether the entity is a table read without a mapping:
// SELECT * shows every attribute its items hold.
func (e *Entity) Raw() bool { return e.raw }

// isBaseKeyAttr reports whether attr is one of the table's key attributes
// ("" counts as one: an index without a sort key).
func (m *Mapping) isBaseKeyAttr(attr string) bool {
	return attr == "" || attr == m.PartitionKey || attr == m.SortKey
}
