package dynosql_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/testkit"
)

// overloadedMapping is AWS's overloaded index (GSI1 on the table's sort
// key and a Data attribute whose meaning depends on the item),
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-gsi-overloading.html.
const overloadedMapping = `
table: OverloadedForeign
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: SK, sort_key: Data}
entities:
  employees:
    keys: {PK: "HR-EMP#{emp}", SK: "EMPLOYEE", Data: "{name}"}
    columns: {emp: S, name: S, title: S}
  placements:
    keys: {PK: "HR-EMP#{emp}", SK: "WAREHOUSE#{wh}", Data: "{since}#{emp}"}
    columns: {emp: S, wh: S, since: S}
`

const overloadedRows = `{"entity":"employees","row":{"emp":"e1","name":"Ann","title":"boss"}}
{"entity":"employees","row":{"emp":"e2","name":"Bob","title":"clerk"}}
{"entity":"employees","row":{"emp":"e3","name":"Annie","title":"clerk"}}
{"entity":"placements","row":{"emp":"e1","wh":"w1","since":"2020-01-01"}}
{"entity":"placements","row":{"emp":"e2","wh":"w1","since":"2021-01-01"}}
{"entity":"placements","row":{"emp":"e3","wh":"w2","since":"2022-06-01"}}
`

// Items no entity describes in an overloaded index's partitions (another
// program's contractors under SK = EMPLOYEE, with Data): reads, counts
// and writes through the index leave them out, and leave them alone.
func TestItemsNoEntityDescribesInAnOverloadedIndexAreNoRows(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	foreign := [][3]string{{"CONTRACTOR#c1", "EMPLOYEE", "Ann"}, {"CONTRACTOR#c2", "WAREHOUSE#w1", "2020-05-05#c2"}, {"HR-EMP#e1", "EMPLOYEE#OLD", "Ann"}}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, overloadedMapping, overloadedRows)
			ctx := context.Background()
			for _, k := range foreign {
				if _, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table),
					Item: map[string]types.AttributeValue{"PK": s(k[0]), "SK": s(k[1]), "Data": s(k[2])}}); err != nil {
					t.Fatal(err)
				}
			}
			for _, sql := range []string{
				"SELECT emp, name FROM employees WHERE name = 'Ann'",
				"SELECT COUNT(*) FROM employees WHERE name = 'Ann'",
				"SELECT COUNT(*) FROM employees WHERE name LIKE 'A%'",
				"SELECT emp FROM employees WHERE emp = 'e1'",
				"SELECT COUNT(*) FROM employees WHERE emp = 'e1'",
				"SELECT emp, since FROM placements WHERE wh = 'w1'",
				"SELECT COUNT(*) FROM placements WHERE wh = 'w1'",
				"SELECT COUNT(*) FROM placements WHERE wh = 'w1' AND since > '2020'",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
			for _, sql := range []string{
				"UPDATE employees SET title = 'x' WHERE name = 'Ann'",
				"UPDATE placements SET since = '2000-01-01' WHERE wh = 'w1'",
				"DELETE FROM employees WHERE name LIKE 'A%'",
			} {
				execAgree(t, fx, testkit.Select{SQL: sql})
			}
			for _, k := range foreign {
				out, err := fx.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(fx.Mapping.Table),
					Key: map[string]types.AttributeValue{"PK": s(k[0]), "SK": s(k[1])}})
				if err != nil {
					t.Fatal(err)
				}
				if len(out.Item) != 3 {
					t.Errorf("foreign item %v: %v", k, out.Item)
				}
			}
		})
	}
}

// An item no entity describes under an enrollment's index keys but a
// sort key of its own (another program's note in a student's partition,
// listed in the course's GSI1 partition): not an enrollment.
func TestAnItemUnderAnEnrollmentsIndexKeysButNotItsSortKeyIsNoRow(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			ctx := context.Background()
			if _, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table),
				Item: map[string]types.AttributeValue{"PK": s("STU#a91"), "SK": s("NOTE#1"), "GSI1PK": s("CRS#math204"), "GSI1SK": s("STU#a91")}}); err != nil {
				t.Fatal(err)
			}
			for _, sql := range []string{
				"SELECT student_id FROM enrollments WHERE course_id = 'math204'",
				"SELECT COUNT(*) FROM enrollments WHERE course_id = 'math204'",
				"SELECT COUNT(student_id) FROM enrollments WHERE course_id = 'math204'",
				"SELECT course_id FROM enrollments WHERE student_id = 'a91'",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
			for _, sql := range []string{
				"UPDATE enrollments SET grade = 'Z' WHERE course_id = 'math204'",
				"DELETE FROM enrollments WHERE course_id = 'math204'",
			} {
				execAgree(t, fx, testkit.Select{SQL: sql})
			}
			out, err := fx.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(fx.Mapping.Table),
				Key: map[string]types.AttributeValue{"PK": s("STU#a91"), "SK": s("NOTE#1")}})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Item) != 4 {
				t.Errorf("the item no entity describes was written or deleted: %v", out.Item)
			}
		})
	}
}
