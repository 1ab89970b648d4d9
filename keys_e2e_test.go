package dynosql_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
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

// complaintsMapping is the complaints design's communications, keyed
// comm#{comm_date}#{comm_id} in the complaint's partition.
const complaintsMapping = `
table: Complaints
partition_key: PK
sort_key: SK
entities:
  communications:
    keys: {PK: "{complaint_id}", SK: "comm#{comm_date}#{comm_id}"}
    columns: {complaint_id: S, comm_date: S, comm_id: S, comm_text: S}
`

// keyShape is a design with rows and statements, reads and writes in
// order, whose answers and counts must be SQLite's. A statement SQLite
// spells otherwise (a copied column is a join there) gives its spelling
// after sqliteSpelling.
type keyShape struct {
	name, mapping, rows string
	design              string // a testdata design instead of mapping and rows
	stmts               []string
}

// sqliteSpelling and copiesUpdated end a statement of a keyShape: SQLite's
// spelling of it ("-" for none: REPAIR COPIES), and how many copies a
// write must report updated.
const (
	sqliteSpelling = " -- sqlite: "
	copiesUpdated  = " -- copies: "
)

// keyShapes are key designs real tables have that planned wrong before
// (quiet wrong answers found by review), each with rows and statements,
// writes included, whose answers must be SQLite's.
var keyShapes = []keyShape{
	{
		// The complaints design's comm#{comm_date}#{comm_id}: a date
		// holding a space sorts below its prefix in the key ("2023-05-10
		// late" before "2023-05-10#c1"). Read in key order descending
		// with a LIMIT, it came past the LIMIT and was never read. Read
		// backward, the rows past the LIMIT whose date extends the least
		// one read with a character below "#" (" late", "!", " late!")
		// come too, and the Sort step puts them in place.
		name:    "ORDER BY a composite sort key's column, descending",
		mapping: complaintsMapping,
		rows: `{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-10","comm_id":"c1","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-10","comm_id":"c2","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-10 late","comm_id":"c3","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-10 late!","comm_id":"c4","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-10!","comm_id":"c5","comm_text":"u"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-09","comm_id":"c6","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-09 x","comm_id":"c7","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-11","comm_id":"c8","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-1","comm_id":"c9","comm_text":"t"}}
{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2023-05-10a","comm_id":"c10","comm_text":"u"}}
{"entity":"communications","row":{"complaint_id":"X2","comm_date":"2023-05-12","comm_id":"c11","comm_text":"t"}}
`,
		stmts: []string{
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id DESC LIMIT 1",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id DESC LIMIT 2",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id DESC LIMIT 3",
			"SELECT comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id DESC LIMIT 2 OFFSET 3",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id LIMIT 6",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id DESC LIMIT 9",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC, comm_id DESC LIMIT 20",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' AND comm_date < '2023-05-10a' ORDER BY comm_date DESC, comm_id DESC LIMIT 2",
			// Filtered on the client, the rows counted are those kept.
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' AND comm_text = 't' ORDER BY comm_date DESC, comm_id DESC LIMIT 2",
			"SELECT comm_date, comm_id FROM communications WHERE complaint_id = 'X1' AND comm_text LIKE '%t' ORDER BY comm_date DESC, comm_id DESC LIMIT 2",
		},
	},
	{
		// The DynamoDB Book's GitHub design keys a repository
		// REPO#{owner}#{name} in both keys: the columns owner, name,
		// owner, name were expanded twice, so an IN list read every key
		// twice and returned every row twice.
		name: "a column in both base keys, apart",
		mapping: `
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
`,
		rows: `{"entity":"repos","row":{"owner":"alexdebrie","name":"dynamodb-book","stars":1200}}
{"entity":"repos","row":{"owner":"alexdebrie","name":"serverless-cost","stars":80}}
{"entity":"repos","row":{"owner":"aws","name":"dynamodb-book","stars":3}}
{"entity":"issues","row":{"owner":"alexdebrie","name":"dynamodb-book","number":"0001","title":"Typo"}}
{"entity":"issues","row":{"owner":"alexdebrie","name":"dynamodb-book","number":"0002","title":"GSI overloading"}}
{"entity":"issues","row":{"owner":"aws","name":"dynamodb-book","number":"0001","title":"Fork"}}
`,
		stmts: []string{
			"SELECT owner, name, stars FROM repos WHERE owner = 'alexdebrie' AND name IN ('dynamodb-book', 'serverless-cost')",
			"SELECT owner, name, stars FROM repos WHERE owner IN ('alexdebrie', 'aws') AND name IN ('dynamodb-book', 'nothing')",
			"SELECT r.name, r.stars, i.number, i.title FROM repos r JOIN issues i ON i.owner = r.owner AND i.name = r.name WHERE r.owner IN ('alexdebrie', 'aws') AND r.name = 'dynamodb-book'",
			"UPDATE repos SET stars = 4 WHERE owner IN ('alexdebrie', 'aws') AND name = 'dynamodb-book'",
			"SELECT owner, name, stars FROM repos WHERE owner IN ('alexdebrie', 'aws') AND name = 'dynamodb-book'",
		},
	},
	{
		// An index whose sort key repeats a column of its partition key:
		// the sort key of the first IN value was used for every
		// partition, so only that value's rows were read, updated or
		// deleted.
		name: "a column in both keys of an index, with IN",
		mapping: `
table: Orgs
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  members:
    keys: {PK: "M#{id}", SK: "M#{id}", GSI1PK: "ORG#{org}", GSI1SK: "ORG#{org}#U#{user}"}
    columns: {id: S, org: S, user: S, role: S}
`,
		rows: `{"entity":"members","row":{"id":"1","org":"a","user":"x","role":"r1"}}
{"entity":"members","row":{"id":"2","org":"b","user":"x","role":"r2"}}
{"entity":"members","row":{"id":"3","org":"a","user":"y","role":"r3"}}
{"entity":"members","row":{"id":"4","org":"b","user":"y","role":"r4"}}
{"entity":"members","row":{"id":"5","org":"c","user":"x","role":"r5"}}
`,
		stmts: []string{
			"SELECT id, org, user FROM members WHERE org IN ('a', 'b', 'c') AND user = 'x'",
			"UPDATE members SET role = 'admin' WHERE org IN ('a', 'b') AND user = 'x'",
			"DELETE FROM members WHERE org IN ('c', 'b') AND user = 'y'",
			"SELECT id, org, user, role FROM members WHERE org IN ('a', 'b', 'c')",
		},
	},
	{
		// A sparse index whose keys hold columns stored elsewhere too:
		// the columns were read from its key attributes only, which the
		// items outside the index lack, so they came back NULL; and a
		// write guarded on such an attribute skipped those items.
		name: "columns of a sparse index's keys",
		mapping: `
table: Tasks
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  tasks:
    keys: {PK: "P#{proj}", SK: "T#{id}", GSI1PK: "OPEN#{assignee}", GSI1SK: "DUE#{due}#{id}"}
    columns: {proj: S, id: S, assignee: S, due: S, title: S}
    optional: [GSI1]
`,
		rows: `{"entity":"tasks","row":{"proj":"p","id":"1","assignee":"ann","due":"2024-05-01","title":"a"}}
{"entity":"tasks","row":{"proj":"p","id":"2","due":"2024-05-02","title":"b"}}
{"entity":"tasks","row":{"proj":"p","id":"3","assignee":"ann","title":"c"}}
`,
		stmts: []string{
			"SELECT id, assignee, due, title FROM tasks WHERE proj = 'p'",
			"SELECT * FROM tasks WHERE proj = 'p' AND id = '2'",
			"SELECT title FROM tasks WHERE proj = 'p' AND assignee = 'ann'",
			"SELECT title FROM tasks WHERE proj = 'p' AND due > '2024'",
			"SELECT id, title FROM tasks WHERE assignee = 'ann' AND due IS NOT NULL",
			"UPDATE tasks SET title = 'X' WHERE proj = 'p' AND assignee = 'ann'",
			"DELETE FROM tasks WHERE proj = 'p' AND due IS NULL",
			"SELECT id, assignee, due, title FROM tasks WHERE proj = 'p'",
		},
	},
	{
		// An entity that holds an index's key attributes as plain
		// columns puts its items in that index: COUNT(*) through it let
		// DynamoDB count them as the other entity's (Select=COUNT).
		name: "another entity's items in an index by plain columns",
		mapping: `
table: Notes
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  users:
    keys: {PK: "U#{id}", SK: "USER", GSI1PK: "{status}", GSI1SK: "USER"}
    columns: {id: S, status: S, name: S}
  notes:
    keys: {PK: "N#{nid}", SK: "NOTE"}
    columns: {nid: S, GSI1PK: S, GSI1SK: S, body: S}
`,
		rows: `{"entity":"users","row":{"id":"u1","status":"open","name":"Ann"}}
{"entity":"notes","row":{"nid":"n1","GSI1PK":"open","GSI1SK":"USER","body":"hello"}}
`,
		stmts: []string{
			"SELECT COUNT(*) FROM users WHERE status = 'open'",
			"SELECT id, name FROM users WHERE status = 'open'",
		},
	},
	{
		// A value holding the separator is never in a key (writes refuse
		// it), so b = 'a#' matches nothing; but its key prefix Q#a##
		// meets b = 'a' with d = '#...', and the equality, taken as kept
		// by the key, went unchecked: rows read, counted, updated and
		// deleted that the WHERE does not match. And a range open at the
		// top ended at the prefix plus U+10FFFF, below keys that go on
		// past that character.
		name: "values the key cannot hold, and the last character there is",
		mapping: `
table: Pairs
partition_key: PK
sort_key: SK
entities:
  pairs:
    keys: {PK: "P#{a}", SK: "Q#{b}#{d}"}
    columns: {a: S, b: S, d: S, w: S}
`,
		rows: `{"entity":"pairs","row":{"a":"x","b":"a","d":"#","w":"1"}}
{"entity":"pairs","row":{"a":"x","b":"a","d":"#z","w":"2"}}
{"entity":"pairs","row":{"a":"x","b":"a","d":"z","w":"3"}}
{"entity":"pairs","row":{"a":"x","b":"a","d":"z#1","w":"4"}}
{"entity":"pairs","row":{"a":"x","b":"a","d":"\udbff\udfff\udbff\udfff","w":"5"}}
{"entity":"pairs","row":{"a":"x","b":"\udbff\udfffz","d":"1","w":"6"}}
{"entity":"pairs","row":{"a":"x","b":"\udbff\udfff","d":"\udbff\udfffz","w":"7"}}
`,
		stmts: []string{
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b = 'a#'",
			"SELECT COUNT(*) FROM pairs WHERE a = 'x' AND b = 'a#'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b = 'a#' AND d >= '#'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b = 'a#z'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b >= 'b'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b > 'a'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b >= '\U0010FFFFa'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b <= 'a'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b = 'a' AND d >= 'z'",
			"SELECT b, d, w FROM pairs WHERE a = 'x' AND b LIKE '\U0010FFFF%'",
			"UPDATE pairs SET w = 'hit' WHERE a = 'x' AND b = 'a#'",
			"DELETE FROM pairs WHERE a = 'x' AND b = 'a#'",
			"UPDATE pairs SET w = 'top' WHERE a = 'x' AND b >= '\U0010FFFF'",
			"SELECT b, d, w FROM pairs WHERE a = 'x'",
		},
	},
	{
		// The embedded server (minidyn) keeps an item a PutItem takes out
		// of a sparse index in it, without its key; deleting or moving
		// the item then lost other items' entries, and reads and writes
		// through the index missed rows with no error. Taken out there by
		// a delete and a put, the index stays right; DynamoDB needed
		// nothing.
		name:   "an item taken out of a sparse index, then deleted",
		design: "battleroyale",
		stmts: []string{
			"UPDATE games SET open_timestamp = NULL WHERE game_id = '1f43c2c5-7207-4a2f-ba23-e1ceee2800fb'",
			"SELECT game_id, open_timestamp FROM games WHERE map = 'Green Grasslands' AND open_timestamp IS NOT NULL",
			"DELETE FROM games WHERE game_id = '1f43c2c5-7207-4a2f-ba23-e1ceee2800fb'",
			"SELECT game_id, open_timestamp FROM games WHERE map = 'Green Grasslands' AND open_timestamp IS NOT NULL",
			"SELECT game_id, open_timestamp FROM games WHERE map = 'Urban Underground' AND open_timestamp IS NOT NULL",
			"UPDATE games SET people = people + 1 WHERE map = 'Green Grasslands' AND open_timestamp IS NOT NULL",
			"SELECT game_id, people FROM games WHERE map = 'Green Grasslands' AND open_timestamp IS NOT NULL",
		},
	},
	{
		name:   "an item taken out of a sparse index, then moved",
		design: "complaints",
		stmts: []string{
			"SELECT COUNT(*) FROM communications WHERE agentID = 'AgentA' AND comm_date LIKE '2023-0%'",
			"UPDATE communications SET agentID = NULL WHERE complaint_id = 'Complaint2010' AND comm_id = 'comm51'",
			"UPDATE communications SET comm_date = '2099-01-01' WHERE complaint_id = 'Complaint2010' AND comm_id = 'comm51'",
			"SELECT COUNT(*) FROM communications WHERE agentID = 'AgentA' AND comm_date LIKE '2023-0%'",
			"SELECT comm_id, comm_date FROM communications WHERE complaint_id = 'Complaint2010'",
		},
	},
	{
		// The AWS product catalog keys every entity by Id alone and
		// tells them apart by ProductCategory: an UPDATE or DELETE by
		// key of one entity changed the other entity's item there.
		name:   "entities sharing a key, told apart by their type",
		design: "productcatalog",
		stmts: []string{
			"UPDATE sporting_goods SET Price = 1 WHERE Id = 123",
			"DELETE FROM books WHERE Id = 123",
			"DELETE FROM books WHERE Id = 789 AND Price IS NOT NULL",
			"UPDATE books SET Title = 'X' WHERE Id IN (123, 789)",
			"SELECT Id, Title, Price FROM bicycles WHERE Id = 123",
			"SELECT Id, Brand, Price FROM home_improvement WHERE Id = 789",
		},
	},
}

// Each statement of keyShapes, indexShapes, writeShapes, copyShapes and designShapes, in order, returns SQLite's rows or
// changes the same number of rows as SQLite, on every backend.
func TestKeyShapesAgreeWithSQLite(t *testing.T) {
	for _, shape := range slices.Concat(keyShapes, indexShapes, writeShapes, copyShapes, designShapes) {
		for _, b := range testkit.Backends() {
			t.Run(shape.name+"/"+b.Name, func(t *testing.T) {
				t.Parallel()
				var fx *testkit.Fixture
				if shape.design != "" {
					fx = testkit.Load(t, b, shape.design)
				} else {
					fx = testkit.LoadText(t, b, shape.mapping, shape.rows)
				}
				ctx := context.Background()
				for _, stmt := range shape.stmts {
					stmt, copies, counted := strings.Cut(stmt, copiesUpdated)
					sql, sqlite, _ := strings.Cut(stmt, sqliteSpelling)
					if !strings.HasPrefix(sql, "SELECT") {
						res, err := fx.DB.Exec(ctx, sql)
						if err != nil {
							t.Fatalf("%s: %v", sql, err)
						}
						if counted && strconv.FormatInt(res.CopiesUpdated, 10) != copies {
							t.Errorf("%s: %d copies updated, want %s", sql, res.CopiesUpdated, copies)
						}
						if sqlite == "-" {
							continue // nothing for SQLite to do
						}
						want, err := fx.Oracle.Exec(cmp.Or(sqlite, sql))
						if err != nil {
							t.Fatalf("sqlite: %s: %v", stmt, err)
						}
						if res.RowsAffected != want {
							t.Errorf("%s: %d rows affected, SQLite %d", sql, res.RowsAffected, want)
						}
						continue
					}
					t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql, SQLite: sqlite}) })
				}
			})
		}
	}
}

// An item is told apart by its type attribute first: one another program
// put where only warehouse items' keys go, but typed as a customer or as
// nothing the mapping knows, is no warehouse item, for reads, counts and
// writes alike, as SQLite (which never saw it) says.
func TestItemsOfAnotherTypeAreNotTheEntitys(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "onlineshop")
			ctx := context.Background()
			for wh, typ := range map[string]string{"w#W3": "zzz", "w#W4": "customer"} {
				_, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table), Item: map[string]types.AttributeValue{
					"PK": s("p#12345"), "SK": s(wh), "EntityType": s(typ), "Quantity": &types.AttributeValueMemberN{Value: "7"}}})
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, sql := range []string{
				"SELECT product_id, warehouse_id, Quantity FROM warehouse_items WHERE product_id = '12345'",
				"SELECT COUNT(*) FROM warehouse_items WHERE product_id = '12345'",
				"SELECT warehouse_id FROM warehouse_items WHERE product_id = '12345' AND warehouse_id = 'W4'",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
			for _, sql := range []string{
				"UPDATE warehouse_items SET Quantity = 0 WHERE product_id = '12345'",
				"DELETE FROM warehouse_items WHERE product_id = '12345' AND warehouse_id = 'W4'",
			} {
				res, err := fx.DB.Exec(ctx, sql)
				if err != nil {
					t.Fatalf("%s: %v", sql, err)
				}
				want, err := fx.Oracle.Exec(sql)
				if err != nil {
					t.Fatal(err)
				}
				if res.RowsAffected != want {
					t.Errorf("%s: %d rows affected, SQLite %d", sql, res.RowsAffected, want)
				}
			}
		})
	}
}

// paddedIssues is the DynamoDB Book's GitHub issues, the number typed N
// as a user would first write it or S; the table's own program pads it
// (ISSUE#00000010).
const paddedIssues = `
table: Issues
partition_key: PK
sort_key: SK
entities:
  issues:
    keys: {PK: "REPO#{repo}", SK: "ISSUE#{number}"}
    columns: {repo: S, number: %s, title: S}
`

// issueComments are the issues' comments under them: a number holds no
// '#', so they are told apart from issues.
const issueComments = `
  comments:
    keys: {PK: "REPO#{repo}", SK: "ISSUE#{number}#C#{cid}"}
    columns: {repo: S, number: N, cid: S}
`

// An item whose key spells a number otherwise than dynosql writes it
// (zero-padded) is one no lookup by that number finds: a read that meets
// it stops, naming the item and the mapping's fix, rather than answering
// as if it were not there; a write reading it writes nothing. Declared S,
// the number is read and found as the table spells it.
func TestAKeyNumberSpelledOtherwiseStopsTheRead(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			rows := `{"entity":"issues","row":{"repo":"r","number":9,"title":"nine"}}
{"entity":"comments","row":{"repo":"r","number":9,"cid":"c1"}}
`
			fx := testkit.LoadText(t, b, fmt.Sprintf(paddedIssues, "N")+issueComments, rows)
			ctx := context.Background()
			for _, sk := range []string{"ISSUE#00000010", "ISSUE#00000010#C#c2"} {
				_, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table),
					Item: map[string]types.AttributeValue{"PK": s("REPO#r"), "SK": s(sk), "title": s("ten")}})
				if err != nil {
					t.Fatal(err)
				}
			}
			misfit := "the item PK=REPO#r, SK=ISSUE#00000010 has the key shape of issues, but SK holds its number column number as 00000010, where dynosql writes 10"
			for _, sql := range []string{
				"SELECT number, title FROM issues WHERE repo = 'r'",
				"SELECT COUNT(*) FROM issues WHERE repo = 'r' AND number > 5",
				"SELECT c.cid FROM comments c JOIN issues i ON i.repo = c.repo WHERE c.repo = 'r' AND c.cid = 'c1'",
				"UPDATE issues SET title = 'x' WHERE repo = 'r'",
			} {
				_, err := fx.Query(ctx, sql)
				if strings.HasPrefix(sql, "UPDATE") {
					_, err = fx.DB.Exec(ctx, sql)
				}
				var e *dynosql.Error
				if !errors.Is(err, dynosql.ErrMapping) || !strings.Contains(err.Error(), misfit) ||
					!errors.As(err, &e) || !strings.Contains(e.Hint, "declare number: S among the columns of issues") {
					t.Errorf("%s: got %v, want the read stopped at the padded item", sql, err)
				}
			}
			// The comment ISSUE#00000010#C#c2 is no issue: the comments
			// read and the issue's own lookup are as before.
			got, err := fx.Query(ctx, "SELECT number, title FROM issues WHERE repo = 'r' AND number = 9")
			if err != nil || len(got) != 1 || got[0][1] != "nine" {
				t.Errorf("the issue 9 after the refused UPDATE: %v, %v; want it read, its title unchanged", got, err)
			}

			typedS := testkit.LoadText(t, b, fmt.Sprintf(paddedIssues, "S"), "")
			for _, sk := range []string{"ISSUE#00000009", "ISSUE#00000010"} {
				_, err := typedS.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(typedS.Mapping.Table),
					Item: map[string]types.AttributeValue{"PK": s("REPO#r"), "SK": s(sk), "title": s(sk)}})
				if err != nil {
					t.Fatal(err)
				}
			}
			got, err = typedS.Query(ctx, "SELECT number FROM issues WHERE repo = 'r' AND number >= '00000010'")
			if err != nil || len(got) != 1 || got[0][0] != "00000010" {
				t.Errorf("declared S: %v, %v; want the number as the table spells it", got, err)
			}
		})
	}
}

// In storefront's ORDER#{date}#{id}#ITEM, an id holding '#' may sort
// before its prefix in the key ("o#1" before "o": '1' is below 'I'), so
// ORDER BY id with a LIMIT, read in key order, would return "o#1" where
// SQL says "o". The order check stops it, naming the value, as it does
// for characters below '#'. Descending, the read goes on past such rows.
func TestAnOrderTheKeyMisstatesIsRefused(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "storefront")
			ctx := context.Background()
			insert := "INSERT INTO orders (customer, date, id, status, total) VALUES " +
				"('c77', '2024-05-20', 'o', 'open', 1), ('c77', '2024-05-20', 'o#1', 'open', 1), ('c77', '2024-05-20', 'o#2', 'open', 1)"
			if _, err := fx.DB.Exec(ctx, insert); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Oracle.Exec(insert); err != nil {
				t.Fatal(err)
			}
			_, err := fx.Query(ctx, "SELECT id FROM orders WHERE customer = 'c77' AND date = '2024-05-20' ORDER BY id LIMIT 1")
			if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), `id "o#1" holds "#", which does not sort above "#"`) {
				t.Errorf("got %v, want the order check to refuse the id holding '#'", err)
			}
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT id FROM orders WHERE customer = 'c77' AND date = '2024-05-20' ORDER BY id"})
			// Read backward, "o" comes first and "o#2" after it: the
			// read goes on past the LIMIT for ids extending "o" with a
			// character at or below '#'.
			for _, limit := range []string{"1", "2"} {
				fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT id FROM orders WHERE customer = 'c77' AND date = '2024-05-20' ORDER BY id DESC LIMIT " + limit})
			}
		})
	}
}

// The latest rows by a composite sort key's first column (ORDER BY
// comm_date DESC LIMIT n) are read backward, a page of n+1 items and no
// more when no date extends another below "#": not the whole partition
// sorted on the client.
func TestTheLatestRowsOfACompositeKeyReadFewItems(t *testing.T) {
	var rows strings.Builder
	for day := 1; day <= 40; day++ {
		fmt.Fprintf(&rows, `{"entity":"communications","row":{"complaint_id":"X1","comm_date":"2024-01-%02d","comm_id":"c%d"}}`+"\n", day, day)
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, complaintsMapping, rows.String())
			stats := dynosql.NewStats()
			got, err := fx.Query(dynosql.WithStats(context.Background(), stats), "SELECT comm_id FROM communications WHERE complaint_id = 'X1' ORDER BY comm_date DESC LIMIT 2")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0][0] != "c40" || got[1][0] != "c39" {
				t.Errorf("got %v, want c40 and c39", got)
			}
			if sn := stats.Snapshot(); sn.Requests["Query"] != 1 || sn.Items > 3 {
				t.Errorf("sent %s; want one Query reading at most 3 of the 40 items", sn.Line())
			}
		})
	}
}
