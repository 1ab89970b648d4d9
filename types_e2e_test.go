package dynosql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/driver"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

const typesMapping = `
table: Docs
partition_key: PK
sort_key: SK
entities:
  recs:
    keys: {PK: "R#{r}", SK: "{id}"}
    columns: {r: S, id: S, n: N, f: BOOL, b: B, l: L, m: M, ss: SS, ns: NS}
`

// DynamoDB holds no empty set. An empty []string or value.NumberSet must
// be refused before anything is sent, on every backend, never stored as
// something else (minidyn stores another attribute's value in its place).
func TestEmptySetsAreRefusedNotStored(t *testing.T) {
	ctx := context.Background()
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, typesMapping, "")
			for i, c := range []struct {
				col string
				arg any
			}{{"ss", []string{}}, {"ns", value.NumberSet{}}, {"ss", value.StringSet{}}} {
				id := fmt.Sprintf("e%d", i)
				_, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id, "+c.col+") VALUES ('a', ?, ?)", id, c.arg)
				if !errors.Is(err, dynosql.ErrInvalid) {
					t.Errorf("INSERT of an empty %T into %s: %v, want it refused as invalid", c.arg, c.col, err)
				}
				got, err := fx.Query(ctx, "SELECT "+c.col+" FROM recs WHERE r = 'a' AND id = ?", id)
				if err != nil || len(got) != 0 && got[0][0] != nil {
					t.Errorf("after the INSERT of an empty %T, %s reads %v, %v", c.arg, c.col, got, err)
				}
			}
			if _, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id, ss) VALUES ('a', 'u', ?)", []string{"x"}); err != nil {
				t.Fatal(err)
			}
			_, err := fx.DB.Exec(ctx, "UPDATE recs SET ss = ? WHERE r = 'a' AND id = 'u'", []string{})
			if !errors.Is(err, dynosql.ErrInvalid) {
				t.Errorf("UPDATE to an empty set: %v, want it refused as invalid", err)
			}
			if got, err := fx.Query(ctx, "SELECT ss FROM recs WHERE r = 'a' AND id = 'u'"); err != nil || fmt.Sprint(got) != "[[[x]]]" {
				t.Errorf("after the UPDATE, ss reads %v, %v; want [x] kept", got, err)
			}
		})
	}
}

// A set holds each member once: DynamoDB refuses a string or number set
// with a member repeated (1 and 1.0 are one number), so dynosql refuses
// it before sending, naming the column and the member, on every backend.
func TestSetsWithARepeatedMemberAreRefusedBeforeSending(t *testing.T) {
	ctx := context.Background()
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, typesMapping, "")
			for i, c := range []struct {
				col, member string
				arg         any
			}{{"ss", `"a"`, []string{"a", "b", "a"}}, {"ns", "1", value.NumberSet{"1", "2", "1.0"}}} {
				id := fmt.Sprintf("d%d", i)
				_, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id, "+c.col+") VALUES ('a', ?, ?)", id, c.arg)
				if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "recs."+c.col+": the set holds "+c.member+" twice") {
					t.Errorf("INSERT of %v into %s: %v, want it refused as invalid, naming the column and %s", c.arg, c.col, err, c.member)
				}
				if _, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id) VALUES ('a', ?)", id); err != nil {
					t.Fatal(err)
				}
				_, err = fx.DB.Exec(ctx, "UPDATE recs SET "+c.col+" = ? WHERE r = 'a' AND id = ?", c.arg, id)
				if !errors.Is(err, dynosql.ErrInvalid) {
					t.Errorf("UPDATE to %v: %v, want it refused as invalid", c.arg, err)
				}
			}
		})
	}
}

// A []string written into a list (L) column is a list: stored as L, its
// order and duplicates kept, and found again by the list it is.
func TestStringSlicesIntoListColumnsStayLists(t *testing.T) {
	ctx := context.Background()
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, typesMapping, "")
			for id, arg := range map[string][]string{"x1": {"b", "a"}, "x2": {"b", "b", "a"}} {
				if _, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id, l) VALUES ('a', ?, ?)", id, arg); err != nil {
					t.Errorf("INSERT of %q into a list: %v", arg, err)
					continue
				}
				item := rawItem(t, fx, id)
				if _, ok := item["l"].(*types.AttributeValueMemberL); !ok {
					t.Errorf("INSERT of %q into the list column l stored %T", arg, item["l"])
				}
				got, err := fx.Query(ctx, "SELECT l FROM recs WHERE r = 'a' AND id = ?", id)
				if want := fmt.Sprint([][]value.Value{{listOf(arg)}}); err != nil || fmt.Sprint(got) != want {
					t.Errorf("%q into a list reads back %v, %v; want %s", arg, got, err, want)
				}
				for _, a := range []any{toAny(arg), arg} {
					if got, err := fx.Query(ctx, "SELECT id FROM recs WHERE r = 'a' AND l = ?", a); err != nil || fmt.Sprint(got) != "[["+id+"]]" {
						t.Errorf("l = %#v finds %v, %v; want %s", a, got, err, id)
					}
				}
			}
			// An empty []string cannot be told from an empty set before
			// its column is known: refused, saying how to give an empty list.
			if _, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id, l) VALUES ('a', 'x3', ?)", []string{}); !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "[]any{} for an empty list") {
				t.Errorf("INSERT of an empty []string into a list: %v", err)
			}
			if _, err := fx.DB.Exec(ctx, "UPDATE recs SET l = ? WHERE r = 'a' AND id = 'x1'", []string{"z", "y", "z"}); err != nil {
				t.Errorf("UPDATE of a list to a []string: %v", err)
			} else if _, ok := rawItem(t, fx, "x1")["l"].(*types.AttributeValueMemberL); !ok {
				t.Errorf("UPDATE of a list column to a []string stored %T", rawItem(t, fx, "x1")["l"])
			}
		})
	}
}

func listOf(s []string) []value.Value {
	l := make([]value.Value, len(s))
	for i, e := range s {
		l[i] = e
	}
	return l
}

func toAny(s []string) []any {
	l := make([]any, len(s))
	for i, e := range s {
		l[i] = e
	}
	return l
}

// A binary inside a list or map is not the string of its base64 text:
// DISTINCT, COUNT(DISTINCT), GROUP BY and joins keep them apart, as
// DynamoDB's = does.
func TestBinariesInsideDocumentsAreNotTheirBase64Text(t *testing.T) {
	ctx := context.Background()
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, typesMapping, "")
			ins := "INSERT INTO recs (r, id, l, m) VALUES ('a', ?, ?, ?)"
			for _, args := range [][]any{
				{"p1", []any{[]byte("a")}, map[string]any{"k": []byte("a")}},
				{"p2", []any{"YQ=="}, map[string]any{"k": "YQ=="}}, // base64 of "a"
				{"p3", []any{[]any{"a"}}, map[string]any{"k": []any{"a"}}},
				{"p4", []any{[]string{"a"}}, map[string]any{"k": []string{"a"}}}, // a string set inside
			} {
				if _, err := fx.DB.Exec(ctx, ins, args...); err != nil {
					t.Fatal(err)
				}
			}
			same := func(sql, want string) {
				t.Helper()
				if got, err := fx.Query(ctx, sql); err != nil || fmt.Sprint(got) != want {
					t.Errorf("%s\n got  %v, %v\n want %s", sql, got, err, want)
				}
			}
			same("SELECT COUNT(DISTINCT l), COUNT(DISTINCT m) FROM recs WHERE r = 'a'", "[[4 4]]")
			if got, err := fx.Query(ctx, "SELECT DISTINCT l FROM recs WHERE r = 'a'"); err != nil || len(got) != 4 {
				t.Errorf("SELECT DISTINCT l: %v, %v; want 4 rows", got, err)
			}
			same("SELECT a.id, c.id FROM recs a JOIN recs c ON c.r = 'a' AND c.l = a.l AND c.id <> a.id WHERE a.r = 'a'", "[]")
			same("SELECT a.id, c.id FROM recs a JOIN recs c ON c.r = 'a' AND c.m = a.m AND c.id <> a.id WHERE a.r = 'a'", "[]")
		})
	}
}

// FALSE orders before TRUE (ORDER BY, MIN and MAX say so, as SQLite's 0
// and 1 do), so a range over a BOOL column answers as SQLite does rather
// than failing in DynamoDB's filter, which orders no booleans.
func TestRangesOverBooleansAgreeWithSQLite(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, typesMapping, `{"entity": "recs", "row": {"r": "a", "id": "t", "f": true}}
{"entity": "recs", "row": {"r": "a", "id": "u", "f": false}}
{"entity": "recs", "row": {"r": "a", "id": "v"}}`)
			for _, sql := range []string{
				"SELECT id FROM recs WHERE r = 'a' AND f < TRUE",
				"SELECT id FROM recs WHERE r = 'a' AND f >= FALSE",
				"SELECT id FROM recs WHERE r = 'a' AND f BETWEEN FALSE AND TRUE",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
		})
	}
}

// rawItem reads recs item R#a/id as DynamoDB holds it.
func rawItem(t *testing.T, fx *testkit.Fixture, id string) map[string]types.AttributeValue {
	t.Helper()
	out, err := fx.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(fx.Mapping.Table),
		Key: map[string]types.AttributeValue{"PK": sAV("R#a"), "SK": sAV(id)}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// A list or map holding <, > or & reads as the one JSON text however it
// is scanned: into a *string or a *[]byte, through the Go API or
// database/sql, and as the shell prints it. Into a *[]byte and through
// database/sql it came from json.Marshal, which writes < as \u003c: the
// same value, another text, so comparing or hashing the texts differed.
func TestDocumentsHoldingAnglesScanAsOneText(t *testing.T) {
	ctx := context.Background()
	fx := testkit.LoadText(t, testkit.Backends()[1], typesMapping, "")
	if _, err := fx.DB.Exec(ctx, "INSERT INTO recs (r, id, l, m) VALUES ('a', 'h', ?, ?)", []any{"a<b", "x&y>"}, map[string]any{"k<": "v&"}); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT l, m FROM recs WHERE r = 'a' AND id = 'h'"
	want := [2]string{`["a<b","x&y>"]`, `{"k<":"v&"}`}
	rows, err := fx.DB.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var s [2]string
	var b [2][]byte
	for rows.Next() {
		if err := rows.Scan(&s[0], &s[1]); err != nil {
			t.Fatal(err)
		}
		if err := rows.Scan(&b[0], &b[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var d [2]string
	db := sql.OpenDB(driver.NewConnector(fx.DB))
	defer func() { _ = db.Close() }()
	if err := db.QueryRowContext(ctx, q).Scan(&d[0], &d[1]); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if s[i] != want[i] || string(b[i]) != want[i] || d[i] != want[i] {
			t.Errorf("column %d: *string %s, *[]byte %s, database/sql %s; want %s every time", i+1, s[i], b[i], d[i], want[i])
		}
	}
}
