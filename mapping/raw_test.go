package mapping_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
)

// A table read without a mapping is one open entity: its key attributes
// are columns of their own types, keyed by themselves, and its indexes
// (global and local) are access paths.
func TestRawReadsATableAsOneOpenEntity(t *testing.T) {
	k := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	def := func(n string, t types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: t}
	}
	desc := &types.TableDescription{TableName: aws.String("my-orders"),
		KeySchema:            []types.KeySchemaElement{k("customer", types.KeyTypeHash), k("ts", types.KeyTypeRange)},
		AttributeDefinitions: []types.AttributeDefinition{def("customer", "S"), def("ts", "N"), def("status", "S"), def("amount", "N")},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndexDescription{{IndexName: aws.String("byStatus"),
			KeySchema: []types.KeySchemaElement{k("status", types.KeyTypeHash), k("ts", types.KeyTypeRange)}, Projection: &types.Projection{ProjectionType: "KEYS_ONLY"}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndexDescription{{IndexName: aws.String("byAmount"),
			KeySchema: []types.KeySchemaElement{k("customer", types.KeyTypeHash), k("amount", types.KeyTypeRange)}, Projection: &types.Projection{ProjectionType: "ALL"}}},
	}
	m, err := mapping.Raw(desc)
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.Entity("my-orders")
	if err != nil {
		t.Fatal(err)
	}
	if !e.Raw() || !e.Open || e.Columns["ts"] != "N" || e.Columns["status"] != "S" || m.KeyType("ts") != mapping.KeyN {
		t.Errorf("entity %+v", e.Columns)
	}
	var paths []string
	for _, p := range e.Paths() {
		paths = append(paths, p.Index+"/"+p.PKAttr+"/"+p.SKAttr)
	}
	if got := paths; len(got) != 3 || got[0] != "/customer/ts" || got[1] != "byAmount/customer/amount" || got[2] != "byStatus/status/ts" {
		t.Errorf("paths = %v", got)
	}
	if !m.Indexes["byAmount"].Local || m.Indexes["byStatus"].Projection != "KEYS_ONLY" {
		t.Errorf("indexes %+v %+v", m.Indexes["byAmount"], m.Indexes["byStatus"])
	}
}

// A description without key types (the embedded backend's) cannot be
// read raw: a numeric key guessed as S would find no item, quietly.
func TestRawRefusesKeysOfUnknownType(t *testing.T) {
	desc := &types.TableDescription{TableName: aws.String("t1"),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}}}
	_, err := mapping.Raw(desc)
	if err == nil || !strings.Contains(err.Error(), "no type for its key attribute(s) id") {
		t.Fatalf("err = %v", err)
	}
}

// An index keyed by the table's own key attributes (the inverted index of
// an adjacency list) holds every item: read raw, it is not sparse, and
// the mapping loads.
func TestRawTakesAnInvertedIndexForComplete(t *testing.T) {
	k := func(n string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: kt}
	}
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	desc := &types.TableDescription{TableName: aws.String("Adj"),
		KeySchema:            []types.KeySchemaElement{k("PK", types.KeyTypeHash), k("SK", types.KeyTypeRange)},
		AttributeDefinitions: []types.AttributeDefinition{def("PK"), def("SK"), def("GSI1PK")},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndexDescription{
			{IndexName: aws.String("Inverted"), KeySchema: []types.KeySchemaElement{k("SK", types.KeyTypeHash), k("PK", types.KeyTypeRange)}},
			{IndexName: aws.String("GSI1"), KeySchema: []types.KeySchemaElement{k("GSI1PK", types.KeyTypeHash), k("SK", types.KeyTypeRange)}},
		},
	}
	m, err := mapping.Raw(desc)
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.Entity("Adj")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Optional) != 1 || e.Optional[0] != "GSI1" {
		t.Errorf("optional = %v, want [GSI1]", e.Optional)
	}
}
