package backend_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

func loadMapping(t *testing.T, name string) *mapping.Mapping {
	t.Helper()
	m, err := mapping.Load(filepath.Join("..", "..", "testdata", name, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func embedded(t *testing.T) *dynamodb.Client {
	t.Helper()
	e, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	c, err := backend.NewClient(t.Context(), backend.Options{Endpoint: e.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMain(m *testing.M) { ddblocal.Main(m) }

func TestLoadingTheSchoolDatasetWritesEveryRow(t *testing.T) {
	backends := []struct {
		name   string
		client func(*testing.T) *dynamodb.Client
	}{
		{"embedded", embedded},
		{"DynamoDB Local", func(t *testing.T) *dynamodb.Client { return ddblocal.Client(t) }},
	}
	for _, b := range backends {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			loadSchool(t, b.client(t))
		})
	}
}

func loadSchool(t *testing.T, c *dynamodb.Client) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m := loadMapping(t, "school")
	m.Table = ddblocal.UniqueTable(t, m.Table)
	if err := backend.CreateTable(ctx, c, m); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("..", "..", "testdata", "school", "data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	begin := time.Now()
	n, err := backend.Load(ctx, c, m, f)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d items in %v", n, time.Since(begin).Round(time.Millisecond))
	if n < 700 {
		t.Fatalf("loaded %d items, want the whole dataset", n)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(m.Table),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "STU#a91"},
			"SK": &types.AttributeValueMemberS{Value: "PROFILE"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if name := value.FromAttr(got.Item["name"]); name != "Ann Lee" {
		t.Errorf("a91's name = %v, want Ann Lee", name)
	}
	if _, ok := got.Item["year"].(*types.AttributeValueMemberN); !ok {
		t.Errorf("a91's year = %#v, want a number", got.Item["year"])
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(m.Table),
		IndexName:                 aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "CRS#math204"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if q.Count == 0 {
		t.Error("GSI1 holds no enrollment of math204")
	}
	if err := backend.DeleteTable(ctx, c, m); err != nil {
		t.Fatal(err)
	}
}

func TestReadDatasetNamesTheLineAndColumnOfABadValue(t *testing.T) {
	m := loadMapping(t, "school")
	cases := []struct{ name, data, want string }{
		{"a string in a number column", `{"entity":"students","row":{"id":"x1","year":"two"}}`, `line 1: column students.year (N)`},
		{"an unknown column", "\n" + `{"entity":"students","row":{"id":"x1","nam":"A"}}`, `line 2: students has no column nam; did you mean name?`},
		{"an unknown entity", `{"entity":"studnets","row":{"id":"x1"}}`, `line 1: unknown table studnets; did you mean students?`},
		{"a line that is not JSON", `{"entity":`, `line 1: not a {"entity"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := backend.ReadDataset(strings.NewReader(tc.data), m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestReadDatasetConvertsEachJSONValueToItsColumnType(t *testing.T) {
	m := loadMapping(t, "blog")
	rows, err := backend.ReadDataset(strings.NewReader(
		`{"entity":"posts","row":{"id":"p1","authorId":"12","title":null,"tags":["go",1.50]}}`), m)
	if err != nil {
		t.Fatal(err)
	}
	row := rows[0].Row
	if _, ok := row["title"]; ok {
		t.Error("a null column is present in the row")
	}
	tags, ok := row["tags"].([]value.Value)
	if !ok || len(tags) != 2 || tags[0] != "go" || tags[1] != value.Number("1.5") {
		t.Errorf("tags = %#v, want [go 1.5]", row["tags"])
	}
}

func TestWriteRefusesTwoRowsWithTheSameKey(t *testing.T) {
	m := loadMapping(t, "school")
	rows, err := backend.ReadDataset(strings.NewReader(
		`{"entity":"courses","row":{"id":"c1"}}`+"\n"+`{"entity":"courses","row":{"id":"c1","title":"x"}}`), m)
	if err != nil {
		t.Fatal(err)
	}
	_, err = backend.Write(t.Context(), nil, m, rows)
	if err == nil || !strings.Contains(err.Error(), "line 2: courses has the same key as line 1") {
		t.Fatalf("error = %v", err)
	}
}
