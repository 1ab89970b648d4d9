package mapping

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
)

// CheckTable compares the mapping with the table DynamoDB describes: key
// attribute names, index names and keys. It records each index's real
// projection, which decides whether a read through it must fetch the base
// items afterwards.
func (m *Mapping) CheckTable(desc *types.TableDescription) error {
	pk, sk := keyNames(desc.KeySchema)
	if pk != m.PartitionKey || sk != m.SortKey {
		return errs.New(errs.Mapping, "mapping %s: table %s is keyed by (%s, %s), the mapping says (%s, %s)",
			m.Source, m.Table, pk, orNone(sk), m.PartitionKey, orNone(m.SortKey)).
			WithHint("fix partition_key and sort_key in the mapping")
	}
	found := map[string]types.GlobalSecondaryIndexDescription{}
	for _, g := range desc.GlobalSecondaryIndexes {
		found[aws.ToString(g.IndexName)] = g
	}
	for _, name := range m.IndexNames() {
		ix := m.Indexes[name]
		g, ok := found[name]
		if !ok {
			return errs.New(errs.Mapping, "mapping %s: indexes.%s: table %s has no such global secondary index", m.Source, name, m.Table).
				WithHint("create the index, or remove it from the mapping")
		}
		gpk, gsk := keyNames(g.KeySchema)
		if gpk != ix.PartitionKey || gsk != ix.SortKey {
			return errs.New(errs.Mapping, "mapping %s: indexes.%s: the index is keyed by (%s, %s), the mapping says (%s, %s)",
				m.Source, name, gpk, orNone(gsk), ix.PartitionKey, orNone(ix.SortKey))
		}
		if g.Projection != nil {
			ix.Projection = string(g.Projection.ProjectionType)
			ix.Include = slices.Clone(g.Projection.NonKeyAttributes)
		}
	}
	return nil
}

func keyNames(schema []types.KeySchemaElement) (pk, sk string) {
	for _, k := range schema {
		if k.KeyType == types.KeyTypeHash {
			pk = aws.ToString(k.AttributeName)
		} else {
			sk = aws.ToString(k.AttributeName)
		}
	}
	return pk, sk
}

func orNone(s string) string {
	if s == "" {
		return "no sort key"
	}
	return s
}

// CreateTableInput describes the table the mapping expects, billed on
// demand, with every index projecting as the mapping says (ALL by default).
func (m *Mapping) CreateTableInput() *dynamodb.CreateTableInput {
	attrs := map[string]bool{}
	schema := func(pk, sk string) []types.KeySchemaElement {
		attrs[pk] = true
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			attrs[sk] = true
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return ks
	}
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(m.Table),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   schema(m.PartitionKey, m.SortKey),
	}
	for _, name := range m.IndexNames() {
		ix := m.Indexes[name]
		p := &types.Projection{ProjectionType: types.ProjectionType(ix.Projection)}
		if ix.Projection == "INCLUDE" {
			p.NonKeyAttributes = ix.Include
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(name), KeySchema: schema(ix.PartitionKey, ix.SortKey), Projection: p,
		})
	}
	for _, a := range m.KeyAttrs() {
		if attrs[a] {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
				AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS,
			})
		}
	}
	return in
}

// ProjectsAll reports whether reading through path returns every
// attribute in cols, so that no fetch of the base item is needed.
func (m *Mapping) ProjectsAll(path *AccessPath, e *Entity, cols []string) bool {
	if path.IsBase() {
		return true
	}
	ix := m.Indexes[path.Index]
	for _, c := range cols {
		if e.IsKeyColumn(c) && m.keyDerivable(path, e, c) {
			continue
		}
		switch ix.Projection {
		case "ALL":
		case "INCLUDE":
			if !slices.Contains(ix.Include, c) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// keyDerivable reports whether col can be parsed from a key attribute an
// index item carries: the index's own keys and the base table's keys.
func (m *Mapping) keyDerivable(path *AccessPath, e *Entity, col string) bool {
	for _, attr := range []string{path.PKAttr, path.SKAttr, m.PartitionKey, m.SortKey} {
		if t := e.Templates[attr]; attr != "" && t != nil && slices.Contains(t.Columns(), col) {
			return true
		}
	}
	return false
}
