// Package draft writes a first mapping for a table nobody has described
// yet: from a sample of its items (`dynosql mapping draft`) or from a
// NoSQL Workbench data model (`dynosql mapping import`). It infers
// entities from the shapes of the key values (USER#u1 / ORDER#2024-05-01#o1
// becomes USER#{user_id} / ORDER#{date}#{order_id}), an entity-type
// attribute where the items carry one, each entity's indexes and column
// types, and says in YAML comments wherever it guessed. A draft always
// loads (mapping.Parse) and reads back the items it was drawn from.
package draft

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one DynamoDB item.
type Item = map[string]types.AttributeValue

// Table is what is known of a table's schema, from DescribeTable or a
// Workbench model.
type Table struct {
	Name         string
	PartitionKey string
	SortKey      string // "" for a table without one
	// KeyTypes holds S, N or B for every key attribute of the table and
	// its indexes.
	KeyTypes map[string]string
	Indexes  []Index
	// AttrTypes holds the declared types of other attributes (a Workbench
	// model declares them); the sample's values decide the others.
	AttrTypes map[string]string
}

// Index is a secondary index.
type Index struct {
	Name         string
	PartitionKey string // a local index's is the table's
	SortKey      string
	Local        bool
	Projection   string // ALL, KEYS_ONLY or INCLUDE
	Include      []string
}

// Group is items known to belong to one entity: a Workbench facet.
type Group struct {
	Name  string // the facet's name
	Items []Item
	// Attrs lists the attributes the facet declares, columns even where
	// no sample item holds them.
	Attrs []string
	// Alias names the facet's key values (key attribute → alias, such as
	// PK → UserId), for naming template columns.
	Alias map[string]string
}

// Input is what a draft is made from.
type Input struct {
	Table  Table
	Items  []Item  // items of no known entity, to be grouped by their keys
	Groups []Group // items already grouped (Workbench facets)
	// Header holds the comment lines that open the draft: where it comes
	// from.
	Header []string
	// Open marks every entity open: reading a sample, the draft may not
	// have seen every attribute.
	Open bool

	dropped []string // indexes left out, and why
}

// Draft returns the mapping drafted from in, as YAML with comments. It
// fails only on a bug: whatever the items, the draft must load.
func Draft(in Input) ([]byte, error) {
	d := newDrafter(in)
	d.infer()
	return d.finish()
}

// keyAttrs returns every key attribute of the table and its indexes: the
// table's first, then each index's in index order.
func (t *Table) keyAttrs() []string {
	attrs := []string{t.PartitionKey}
	if t.SortKey != "" {
		attrs = append(attrs, t.SortKey)
	}
	for _, ix := range t.Indexes {
		for _, a := range []string{ix.PartitionKey, ix.SortKey} {
			if a != "" && !slices.Contains(attrs, a) {
				attrs = append(attrs, a)
			}
		}
	}
	return attrs
}

// baseKeys returns the table's key attributes.
func (t *Table) baseKeys() []string {
	if t.SortKey == "" {
		return []string{t.PartitionKey}
	}
	return []string{t.PartitionKey, t.SortKey}
}

// keyType returns a key attribute's type, S when not known.
func (t *Table) keyType(attr string) string {
	if k := t.KeyTypes[attr]; k != "" {
		return k
	}
	return "S"
}
