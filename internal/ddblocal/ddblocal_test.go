package ddblocal_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/mapping"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

func TestDynamoDBLocalStartsAndAnswers(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	c := ddblocal.Client(t)
	t.Logf("DynamoDB Local answered after %v", time.Since(begin).Round(time.Millisecond))
	if _, err := c.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
}

func TestTwoTestsGetDistinctTablesOnOneServer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c := ddblocal.Client(t)
	m, err := mapping.Load("../../testdata/school/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	first, second := ddblocal.UniqueTable(t, "School"), ddblocal.UniqueTable(t, "School")
	if strings.EqualFold(first, second) {
		t.Fatalf("UniqueTable returned %s twice", first)
	}
	for _, name := range []string{first, second} {
		m.Table = name
		if err := backend.CreateTable(ctx, c, m); err != nil {
			t.Fatal(err)
		}
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(out.Table.GlobalSecondaryIndexes); n != 1 {
			t.Errorf("%s has %d indexes, want GSI1", name, n)
		}
		if err := backend.DeleteTable(ctx, c, m); err != nil {
			t.Fatal(err)
		}
	}
}
