package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// namesTable is what the tests of attribute names share: a DB, the
// client under it and the DynamoDB table they read.
type namesTable struct {
	db     *dynosql.DB
	client *dynamodb.Client
	table  string
}

// newPkN creates, on DynamoDB Local, a table keyed by a number id alone,
// dropped when the test ends.
func newPkN(t *testing.T) namesTable {
	t.Helper()
	client := ddblocal.Client(t)
	n := namesTable{client: client, table: ddblocal.UniqueTable(t, "PkN")}
	_, err := client.CreateTable(context.Background(), &dynamodb.CreateTableInput{TableName: aws.String(n.table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(n.table)})
	})
	return n
}

func (n namesTable) rows(t *testing.T, sql string, want ...[]value.Value) {
	t.Helper()
	rows, err := n.db.Query(context.Background(), sql)
	if err != nil {
		t.Errorf("%s: %v", sql, err)
		return
	}
	defer rows.Close()
	var got [][]value.Value
	for rows.Next() {
		got = append(got, rows.RawValues())
	}
	if err := rows.Err(); err != nil {
		t.Errorf("%s: %v", sql, err)
		return
	}
	if diff := oracle.SameRows(got, want, false); diff != "" {
		t.Errorf("%s:\n%s", sql, diff)
	}
}

func (n namesTable) exec(t *testing.T, sql string, affected int64) {
	t.Helper()
	res, err := n.db.Exec(context.Background(), sql)
	if err != nil {
		t.Errorf("%s: %v", sql, err)
		return
	}
	if res.RowsAffected != affected {
		t.Errorf("%s: %d rows affected, want %d", sql, res.RowsAffected, affected)
	}
}

// item reads the item under key whole with the plain SDK client, as
// another program sharing the table would.
func (n namesTable) item(t *testing.T, key map[string]types.AttributeValue) map[string]any {
	t.Helper()
	out, err := n.client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(n.table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Item == nil {
		return nil
	}
	m := map[string]any{}
	for k, v := range out.Item {
		if l, ok := v.(*types.AttributeValueMemberL); ok {
			var els []string
			for _, e := range l.Value {
				els = append(els, fmt.Sprint(value.FromAttr(e)))
			}
			m[k] = strings.Join(els, ",")
			continue
		}
		m[k] = fmt.Sprint(value.FromAttr(v))
	}
	return m
}

func (n namesTable) put(t *testing.T, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := n.client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(n.table), Item: item}); err != nil {
		t.Fatal(err)
	}
}

// An attribute name is any string: x[0] is the attribute of that name,
// not element 0 of list x, and a[b] or c] are names like any other. The
// SDK's expression builder reads brackets as list indexes; dynosql must
// name every attribute as itself wherever it names one: projections,
// filters, SET and REMOVE, the guards of writes and of moves, and in
// EXPLAIN. Read raw (no mapping: every attribute a column), on DynamoDB
// Local only: the embedded backend's DescribeTable gives no key types,
// so it reads no table raw (TestMappedAttributeNamesWithBrackets covers
// it).
func TestRawAttributeNamesAreWholeNames(t *testing.T) {
	ctx := context.Background()
	n := newPkN(t)
	num := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n.put(t, map[string]types.AttributeValue{"id": num("88"), "x[0]": str("br"),
		"x": &types.AttributeValueMemberL{Value: []types.AttributeValue{str("orig0"), str("orig1")}}})
	n.put(t, map[string]types.AttributeValue{"id": num("66"), "a[b]": str("ab"), "c]": str("cc"), "[": str("open"),
		"%5B": str("pct"), "d.e": str("de"), "v": str("v")})
	n.put(t, map[string]types.AttributeValue{"id": num("55"), "v": str("w")})
	var err error
	if n.db, err = dynosql.Open(ctx, nil, n.client); err != nil {
		t.Fatal(err)
	}
	key := func(id string) map[string]types.AttributeValue { return map[string]types.AttributeValue{"id": num(id)} }
	T := "`" + n.table + "`"

	// Reads: a projection, a filter, an IN of keys.
	n.rows(t, "SELECT id, `x[0]` FROM "+T+" WHERE id = 88", []value.Value{value.Number("88"), "br"})
	n.rows(t, "SELECT id FROM "+T+" WHERE id IN (88, 1) AND `x[0]` = 'br'", []value.Value{value.Number("88")})
	n.rows(t, "SELECT id, `a[b]`, `c]`, `[`, `%5B`, `d.e` FROM "+T+" WHERE id = 66",
		[]value.Value{value.Number("66"), "ab", "cc", "open", "pct", "de"})
	n.rows(t, "SELECT id FROM "+T+" WHERE id IN (66, 55) AND `%5B` = 'pct' AND `[` IS NOT NULL", []value.Value{value.Number("66")})
	// Statements that do not name them, over items that hold them.
	n.rows(t, "SELECT id, v FROM "+T+" WHERE id IN (66, 55, 88)",
		[]value.Value{value.Number("66"), "v"}, []value.Value{value.Number("55"), "w"}, []value.Value{value.Number("88"), nil})

	// EXPLAIN and the code it writes name the attributes as they are.
	for _, format := range []string{"", "cli", "go"} {
		sql := "UPDATE " + T + " SET `x[0]` = 'new', `c]` = NULL WHERE id = 88 AND `a[b]` = 'ab'"
		var text string
		if format == "" {
			p, err := n.db.Explain(sql)
			if err != nil {
				t.Fatal(err)
			}
			text = p.String()
		} else if text, err = n.db.ExplainAs(sql, format); err != nil {
			t.Fatalf("FORMAT %s: %v", format, err)
		}
		for _, name := range []string{"x[0]", "c]", "a[b]"} {
			if !strings.Contains(text, name) {
				t.Errorf("EXPLAIN (FORMAT %q) does not name %s:\n%s", format, name, text)
			}
		}
		if format != "go" && strings.Contains(text, "%5B") {
			t.Errorf("EXPLAIN (FORMAT %q) names a stand-in:\n%s", format, text)
		}
	}

	// Writes: SET of x[0] leaves the list x alone; SET NULL removes.
	n.exec(t, "UPDATE "+T+" SET `x[0]` = 'new' WHERE id = 88", 1)
	if got, want := n.item(t, key("88")), map[string]any{"id": "88", "x[0]": "new", "x": "orig0,orig1"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after SET `x[0]`: %v, want %v", got, want)
	}
	n.exec(t, "UPDATE "+T+" SET `c]` = 'c2', `[` = NULL WHERE id IN (66, 55) AND `a[b]` = 'ab'", 1)
	if got, want := n.item(t, key("66")), map[string]any{"id": "66", "a[b]": "ab", "c]": "c2", "%5B": "pct", "d.e": "de", "v": "v"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after SET `c]`, REMOVE `[`: %v, want %v", got, want)
	}
	// Moves: the guard names every attribute the item holds.
	n.exec(t, "UPDATE "+T+" SET id = 89 WHERE id = 88", 1)
	if got, want := n.item(t, key("89")), map[string]any{"id": "89", "x[0]": "new", "x": "orig0,orig1"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the move to 89: %v, want %v", got, want)
	}
	n.exec(t, "UPDATE "+T+" SET id = 65 WHERE id = 66", 1)
	if got := n.item(t, key("65")); got["a[b]"] != "ab" || got["c]"] != "c2" {
		t.Errorf("after the move to 65: %v", got)
	}
	// Deletes, guarded by what was read.
	n.exec(t, "DELETE FROM "+T+" WHERE id IN (65, 55) AND `c]` = 'c2'", 1)
	n.exec(t, "DELETE FROM "+T+" WHERE id = 89 AND `x[0]` = 'new'", 1)
	n.rows(t, "SELECT id FROM "+T+" WHERE id IN (89, 88, 66, 65, 55)", []value.Value{value.Number("55")})
}

// A column named * would be read as SELECT *'s every column: it is
// refused, before anything is sent, and SELECT * still reads an item
// that holds an attribute of that name.
func TestAColumnNamedStarIsRefused(t *testing.T) {
	ctx := context.Background()
	n := newPkN(t)
	n.put(t, map[string]types.AttributeValue{"id": &types.AttributeValueMemberN{Value: "77"},
		"*": &types.AttributeValueMemberS{Value: "star"}, "v": &types.AttributeValueMemberS{Value: "w"}})
	var err error
	if n.db, err = dynosql.Open(ctx, nil, n.client); err != nil {
		t.Fatal(err)
	}
	T := "`" + n.table + "`"
	for _, sql := range []string{
		"SELECT `*` FROM " + T + " WHERE id = 77",
		"SELECT id FROM " + T + " WHERE id = 77 AND `*` = 'star'",
		"UPDATE " + T + " SET `*` = 'x' WHERE id = 77",
		"INSERT INTO " + T + " (id, `*`) VALUES (78, 'x')",
	} {
		_, err := n.db.Explain(sql)
		if !errors.Is(err, dynosql.ErrUnsupported) || !strings.Contains(err.Error(), "column named *") {
			t.Errorf("%s: got %v, want a column named * refused", sql, err)
		}
	}
	n.rows(t, "SELECT * FROM "+T+" WHERE id = 77", []value.Value{value.Number("77"), "star", "w"})
	n.rows(t, "SELECT id, v FROM "+T+" WHERE id = 77", []value.Value{value.Number("77"), "w"})
}

// Mapped attribute names are any string too: key attributes, columns
// and copies named with brackets, on both backends, through key
// conditions, filters, guarded inserts, updates, a copy fan-out, a move
// and a delete.
func TestMappedAttributeNamesWithBrackets(t *testing.T) {
	const design = `
table: Brackets
partition_key: "P[k]"
sort_key: "S]"
entities:
  users:
    keys: {"P[k]": "U#{id}", "S]": "USER"}
    columns: {id: S, "name[0]": S}
  posts:
    keys: {"P[k]": "U#{author}", "S]": "POST#{pid}"}
    columns: {pid: S, author: S, "author[0]": S, "t[1]": S}
    copies:
      "author[0]": {from: "users.name[0]", key: author}
`
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, design, "")
			n := namesTable{db: fx.DB, client: fx.Client, table: fx.Mapping.Table}
			str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
			post := func(pid string) map[string]types.AttributeValue {
				return map[string]types.AttributeValue{"P[k]": str("U#u1"), "S]": str("POST#" + pid)}
			}
			n.exec(t, "INSERT INTO users (id, `name[0]`) VALUES ('u1', 'Ann')", 1)
			n.exec(t, "INSERT INTO posts (pid, author, `author[0]`, `t[1]`) VALUES ('p1', 'u1', 'Ann', 'T1'), ('p2', 'u1', 'Ann', 'T2')", 2)
			n.rows(t, "SELECT pid, `author[0]`, `t[1]` FROM posts WHERE author = 'u1' AND pid > 'p1' AND `t[1]` = 'T2'",
				[]value.Value{"p2", "Ann", "T2"})
			n.rows(t, "SELECT `name[0]` FROM users WHERE id = 'u1'", []value.Value{"Ann"})
			// The copies follow their source.
			n.exec(t, "UPDATE users SET `name[0]` = 'Bea' WHERE id = 'u1'", 1)
			n.rows(t, "SELECT pid, `author[0]` FROM posts WHERE author = 'u1'", []value.Value{"p1", "Bea"}, []value.Value{"p2", "Bea"})
			if got := n.item(t, post("p1")); got["author[0]"] != "Bea" || got["author"] != "u1" {
				t.Errorf("post p1 after the fan-out: %v", got)
			}
			n.exec(t, "UPDATE posts SET `t[1]` = NULL WHERE author = 'u1' AND pid = 'p1'", 1)
			if got := n.item(t, post("p1")); got["t[1]"] != nil {
				t.Errorf("post p1 after SET `t[1]` = NULL: %v", got)
			}
			n.exec(t, "UPDATE posts SET pid = 'p3' WHERE author = 'u1' AND pid = 'p2'", 1)
			n.exec(t, "DELETE FROM posts WHERE author = 'u1' AND `t[1]` IS NULL", 1)
			n.rows(t, "SELECT pid, `author[0]`, `t[1]` FROM posts WHERE author = 'u1'", []value.Value{"p3", "Bea", "T2"})
		})
	}
}
