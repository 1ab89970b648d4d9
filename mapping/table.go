package mapping

import (
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
)

// CheckTable compares the mapping with the table DynamoDB describes: key
// attribute names and types, index names, kinds (global or local) and
// keys. It records each index's real projection, which decides whether a
// read through it must fetch the base items afterwards, and each key
// attribute's real type.
func (m *Mapping) CheckTable(desc *types.TableDescription) error {
	pk, sk := KeyNames(desc.KeySchema)
	if pk != m.PartitionKey || sk != m.SortKey {
		return errs.New(errs.Mapping, "mapping %s: table %s is keyed by (%s, %s), the mapping says (%s, %s)",
			m.Source, m.Table, pk, orNone(sk), m.PartitionKey, orNone(m.SortKey)).
			WithHint("fix partition_key and sort_key in the mapping")
	}
	type found struct {
		schema     []types.KeySchemaElement
		projection *types.Projection
		local      bool
		size       Size
	}
	m.Size = Size{Items: aws.ToInt64(desc.ItemCount), Bytes: aws.ToInt64(desc.TableSizeBytes)}
	indexes := map[string]found{}
	for _, g := range desc.GlobalSecondaryIndexes {
		indexes[aws.ToString(g.IndexName)] = found{g.KeySchema, g.Projection, false, Size{aws.ToInt64(g.ItemCount), aws.ToInt64(g.IndexSizeBytes)}}
	}
	for _, l := range desc.LocalSecondaryIndexes {
		indexes[aws.ToString(l.IndexName)] = found{l.KeySchema, l.Projection, true, Size{aws.ToInt64(l.ItemCount), aws.ToInt64(l.IndexSizeBytes)}}
	}
	for _, name := range m.IndexNames() {
		ix := m.Indexes[name]
		f, ok := indexes[name]
		if !ok {
			return errs.New(errs.Mapping, "mapping %s: indexes.%s: table %s has no such index", m.Source, name, m.Table).
				WithHint("create the index, or remove it from the mapping; the table's indexes: %s", strings.Join(orNoneList(slices.Sorted(maps.Keys(indexes))), ", "))
		}
		if ix.Local && !f.local {
			return errs.New(errs.Mapping, "mapping %s: indexes.%s: the mapping says local, but it is a global secondary index of %s", m.Source, name, m.Table).
				WithHint("remove local: true")
		}
		gpk, gsk := KeyNames(f.schema)
		if gpk != ix.PartitionKey || gsk != ix.SortKey {
			return errs.New(errs.Mapping, "mapping %s: indexes.%s: the index is keyed by (%s, %s), the mapping says (%s, %s)",
				m.Source, name, gpk, orNone(gsk), ix.PartitionKey, orNone(ix.SortKey))
		}
		if f.local && !ix.Local {
			ix.Local = true
			for _, e := range m.Entities {
				for _, p := range e.paths {
					p.Local = p.Local || p.Index == name
				}
			}
		}
		ix.Size = f.size
		if f.projection != nil {
			ix.Projection = string(f.projection.ProjectionType)
			ix.Include = slices.Clone(f.projection.NonKeyAttributes)
		}
	}
	return m.checkKeyTypes(desc.AttributeDefinitions)
}

func orNoneList(names []string) []string {
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}

// checkKeyTypes takes each key attribute's type from the table and
// refuses a template that cannot render it: literal text or a string
// column in an N or B key, a number where the table keeps binaries.
func (m *Mapping) checkKeyTypes(defs []types.AttributeDefinition) error {
	for _, d := range defs {
		attr, t := aws.ToString(d.AttributeName), KeyType(d.AttributeType)
		if _, used := m.keyTypes[attr]; !used {
			continue
		}
		for _, name := range m.EntityNames() {
			k := m.Entities[name].keys[attr]
			if k == nil || k.Type == t {
				continue
			}
			if t == KeyS && k.Type == KeyN {
				k.Type = KeyS // the number is written as text, and sorts as text
				continue
			}
			return errs.New(errs.Mapping, "mapping %s: entities.%s.keys.%s: table %s keeps %s as a %s, but the template %q makes a %s",
				m.Source, name, attr, m.Table, attr, typeName[t], k.Raw, typeName[k.Type]).
				WithHint("%s", typeHint(t, k))
		}
		m.keyTypes[attr] = t
	}
	return nil
}

func typeHint(t KeyType, k *Key) string {
	switch {
	case t == KeyN && len(k.Parts) == 1:
		return "declare the column " + k.Parts[0].Column + " as N"
	case t == KeyN:
		return "an N key holds one number column alone: write the template as {column} with the column declared N"
	case t == KeyB:
		return "a B key holds one binary column alone: write the template as {column} with the column declared B"
	}
	return "declare the template's column as S, or write literal text around it"
}

// KeyNames returns the partition and sort key attributes of a key schema
// as DynamoDB describes it; sk is "" without a sort key.
func KeyNames(schema []types.KeySchemaElement) (pk, sk string) {
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
// demand, with every index projecting as the mapping says (ALL by
// default) and every key attribute typed as its templates render it.
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
		if ix.Local {
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
				IndexName: aws.String(name), KeySchema: schema(ix.PartitionKey, ix.SortKey), Projection: p,
			})
			continue
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(name), KeySchema: schema(ix.PartitionKey, ix.SortKey), Projection: p,
		})
	}
	for _, a := range m.KeyAttrs() {
		if attrs[a] {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
				AttributeName: aws.String(a), AttributeType: types.ScalarAttributeType(m.keyTypes[a]),
			})
		}
	}
	return in
}

// ProjectsAll reports whether reading through path returns every
// attribute in cols, so that no fetch of the base item is needed. A
// local index fetches what it does not project from the table itself.
func (m *Mapping) ProjectsAll(path *AccessPath, e *Entity, cols []string) bool {
	if path.IsBase() || path.Local {
		return true
	}
	ix := m.Indexes[path.Index]
	for _, c := range cols {
		if e.IsKeyColumn(c) && m.keyDerivable(path, e, c) {
			continue
		}
		if !ix.Projects(c) {
			return false
		}
	}
	return true
}

// Filters reports whether a read of path can filter on attribute attr,
// not a key: DynamoDB filters an index's items as the index holds them,
// before it fetches anything from the table (a local index's too).
func (m *Mapping) Filters(path *AccessPath, attr string) bool {
	return path.IsBase() || m.Indexes[path.Index].Projects(attr)
}

// Projects reports whether the index carries attribute attr besides its
// keys and the table's.
func (ix *Index) Projects(attr string) bool {
	switch ix.Projection {
	case "ALL":
		return true
	case "INCLUDE":
		return slices.Contains(ix.Include, attr)
	}
	return false
}

// keyDerivable reports whether col can be parsed from a key attribute an
// index item carries: the index's own keys and the base table's keys.
func (m *Mapping) keyDerivable(path *AccessPath, e *Entity, col string) bool {
	for _, attr := range []string{path.PKAttr, path.SKAttr, m.PartitionKey, m.SortKey} {
		if k := e.keys[attr]; attr != "" && k != nil && slices.Contains(k.Columns(), col) && !e.Folds(col) {
			return true
		}
	}
	return false
}
