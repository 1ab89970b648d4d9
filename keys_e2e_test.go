package dynosql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// Keys are shared with every other program that reads or writes the
// table, so they must be the ones the mapping's templates spell, literal
// text after the last column included: what dynosql writes is found under
// keys written here by hand, and items another program put under such
// keys read back through SQL. (A template that lost its last literal would
// agree with itself, and with SQLite, everywhere else.)
func TestStoredKeysAreTheTemplatesSpelledOut(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "storefront")
			ctx := context.Background()
			get := func(pk, sk string) map[string]types.AttributeValue {
				t.Helper()
				out, err := fx.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(fx.Mapping.Table),
					Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}})
				if err != nil {
					t.Fatal(err)
				}
				if out.Item == nil {
					t.Errorf("no item under PK %q, SK %q", pk, sk)
				}
				return out.Item
			}
			// Written from data.jsonl through the mapping.
			if it := get("CUST#c07", "ORDER#2023-07-01#x#ITEM#ITEM"); it != nil {
				if got := value.FromAttr(it["GSI1PK"]); got != "ORDER#x#ITEM#META" {
					t.Errorf("GSI1PK = %v, want ORDER#x#ITEM#META", got)
				}
			}
			get("POST#7#META", "POST")
			if _, err := fx.DB.Exec(ctx, "INSERT INTO posts (id, author, date, title, likes) VALUES (42000, 'c01', '2025-02-03', 'Hand-made', 1)"); err != nil {
				t.Fatal(err)
			}
			if it := get("POST#42000#META", "POST"); it != nil {
				if got := value.FromAttr(it["GSI1SK"]); got != "POST#2025-02-03#42000#P" {
					t.Errorf("GSI1SK = %v, want POST#2025-02-03#42000#P", got)
				}
			}
			// Put by another program, read through SQL.
			_, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table), Item: map[string]types.AttributeValue{
				"PK": s("CUST#c13"), "SK": s("ORDER#2025-03-04#h#1#ITEM"), "GSI1PK": s("ORDER#h#1#META"), "GSI1SK": s("ORDER"),
				"customer": s("c13"), "date": s("2025-03-04"), "id": s("h#1"), "status": s("open"),
				"total": &types.AttributeValueMemberN{Value: "12.5"}}})
			if err != nil {
				t.Fatal(err)
			}
			want := [][]value.Value{{"c13", "2025-03-04", "h#1", value.Number("12.5")}}
			for _, sql := range []string{
				"SELECT customer, date, id, total FROM orders WHERE customer = 'c13'",
				"SELECT customer, date, id, total FROM orders WHERE id = 'h#1'",
				"SELECT customer, date, id, total FROM orders WHERE customer = 'c13' AND date = '2025-03-04' AND id = 'h#1'",
			} {
				got, err := fx.Query(ctx, sql)
				if err != nil {
					t.Fatal(err)
				}
				if diff := oracle.SameRows(got, want, true); diff != "" {
					t.Errorf("%s: the item put by hand\n%s", sql, diff)
				}
			}
		})
	}
}

// A column can appear in both keys of an item, apart from the other
// columns: The DynamoDB Book's GitHub design keys a repository
// REPO#{owner}#{name} / REPO#{owner}#{name}. Reading such keys from IN
// lists must read each key once and return each row once, as SQLite
// does; a column counted twice made every key twice, and every row.
func TestAColumnInBothKeysReadsEachKeyOnce(t *testing.T) {
	const design = `
table: GitHub
partition_key: PK
sort_key: SK
entities:
  repos:
    keys: {PK: "REPO#{owner}#{name}", SK: "REPO#{owner}#{name}"}
    columns: {owner: S, name: S, stars: N}
  issues:
    keys: {PK: "REPO#{owner}#{name}", SK: "ISSUE#{number}"}
    columns: {owner: S, name: S, number: S, title: S}
`
	const data = `{"entity":"repos","row":{"owner":"alexdebrie","name":"dynamodb-book","stars":1200}}
{"entity":"repos","row":{"owner":"alexdebrie","name":"serverless-cost","stars":80}}
{"entity":"repos","row":{"owner":"aws","name":"dynamodb-book","stars":3}}
{"entity":"issues","row":{"owner":"alexdebrie","name":"dynamodb-book","number":"0001","title":"Typo"}}
{"entity":"issues","row":{"owner":"alexdebrie","name":"dynamodb-book","number":"0002","title":"GSI overloading"}}
{"entity":"issues","row":{"owner":"aws","name":"dynamodb-book","number":"0001","title":"Fork"}}
`
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			m, err := mapping.Parse("github.yaml", []byte(design))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := backend.ReadDataset(strings.NewReader(data), m)
			if err != nil {
				t.Fatal(err)
			}
			fx := testkit.LoadRows(t, b, m, rows)
			for _, sql := range []string{
				"SELECT owner, name, stars FROM repos WHERE owner = 'alexdebrie' AND name IN ('dynamodb-book', 'serverless-cost')",
				"SELECT owner, name, stars FROM repos WHERE owner IN ('alexdebrie', 'aws') AND name IN ('dynamodb-book', 'nothing')",
				"SELECT r.name, r.stars, i.number, i.title FROM repos r JOIN issues i ON i.owner = r.owner AND i.name = r.name WHERE r.owner IN ('alexdebrie', 'aws') AND r.name = 'dynamodb-book'",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
		})
	}
}
