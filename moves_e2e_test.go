package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
)

// An UPDATE that sets a key column moves the item: it reads it whole and
// writes it under the new key. Everything the statement does not change
// must arrive as it was stored, of the same DynamoDB type: a move is not
// a reason to turn a binary set into a list or to drop a NULL.

// thingsDesign is an open entity (attributes it does not declare are
// read and written by name) with a declared column, note, that other
// programs may store as DynamoDB's NULL.
const thingsDesign = `
table: Things
partition_key: PK
sort_key: SK
entities:
  things:
    keys: {PK: "T#{id}", SK: "META"}
    columns: {id: S, note: S, n: N}
    open: true
`

// rawTable creates a table no mapping describes, keyed by pk (S) and sk
// of type skType, on the fixture's backend, and returns its name as SQL
// writes it: the DB reads it raw, its attributes as columns.
func rawTable(t *testing.T, fx *testkit.Fixture, pkType, skType types.ScalarAttributeType) string {
	t.Helper()
	name := ddblocal.UniqueTable(t, "Raw")
	ctx := context.Background()
	_, err := fx.Client.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: pkType},
			{AttributeName: aws.String("sk"), AttributeType: skType}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = fx.Client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	return name
}

func put(t *testing.T, fx *testkit.Fixture, table string, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := fx.Client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, fx *testkit.Fixture, table string, key map[string]types.AttributeValue) map[string]types.AttributeValue {
	t.Helper()
	out, err := fx.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// with returns item with the attributes of changes put in.
func with(item map[string]types.AttributeValue, changes map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := maps.Clone(item)
	maps.Copy(out, changes)
	return out
}

// avText writes an attribute value with its DynamoDB type at every level,
// sets sorted and maps by key, so that two items compare as text.
func avText(av types.AttributeValue) string {
	switch x := av.(type) {
	case nil:
		return "(absent)"
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("{S %q}", x.Value)
	case *types.AttributeValueMemberN:
		return "{N " + x.Value + "}"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("{B %x}", x.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("{BOOL %v}", x.Value)
	case *types.AttributeValueMemberNULL:
		return fmt.Sprintf("{NULL %v}", x.Value)
	case *types.AttributeValueMemberSS:
		return fmt.Sprintf("{SS %q}", slices.Sorted(slices.Values(x.Value)))
	case *types.AttributeValueMemberNS:
		return fmt.Sprintf("{NS %v}", slices.Sorted(slices.Values(x.Value)))
	case *types.AttributeValueMemberBS:
		var bs []string
		for _, b := range x.Value {
			bs = append(bs, fmt.Sprintf("%x", b))
		}
		slices.Sort(bs)
		return fmt.Sprintf("{BS %v}", bs)
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range x.Value {
			parts = append(parts, avText(e))
		}
		return "{L [" + strings.Join(parts, " ") + "]}"
	case *types.AttributeValueMemberM:
		return "{M " + itemText(x.Value) + "}"
	}
	return fmt.Sprintf("{? %T}", av)
}

func itemText(item map[string]types.AttributeValue) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(item)) {
		parts = append(parts, k+": "+avText(item[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// sameItem fails t, naming each attribute that differs, when got is not want.
func sameItem(t *testing.T, what string, got, want map[string]types.AttributeValue) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: no item", what)
		return
	}
	for _, k := range slices.Sorted(maps.Keys(with(want, got))) {
		if g, w := avText(got[k]), avText(want[k]); g != w {
			t.Errorf("%s: attribute %s is %s, want %s as stored", what, k, g, w)
		}
	}
}

// storedKinds is an item of every kind of value DynamoDB stores, a NULL,
// a binary set and sets, lists and maps holding them included.
func storedKinds() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"nothing": &types.AttributeValueMemberNULL{Value: true},
		"blobs":   &types.AttributeValueMemberBS{Value: [][]byte{{1, 2}, {3}}},
		"names":   &types.AttributeValueMemberSS{Value: []string{"x", "y"}},
		"nums":    &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"flag":    &types.AttributeValueMemberBOOL{Value: true},
		"bin":     &types.AttributeValueMemberB{Value: []byte{0, 255}},
		"text":    &types.AttributeValueMemberS{Value: "t"},
		"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberNULL{Value: true},
			&types.AttributeValueMemberBS{Value: [][]byte{{9}}}, &types.AttributeValueMemberS{Value: "s"}}},
		"map": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"gone": &types.AttributeValueMemberNULL{Value: true},
			"blobs": &types.AttributeValueMemberBS{Value: [][]byte{{7}}}, "n": &types.AttributeValueMemberN{Value: "3"}}},
	}
}

func sAV(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nAV(n string) types.AttributeValue { return &types.AttributeValueMemberN{Value: n} }

// A move of a raw table's item, by key and over a partition, keeps every
// attribute it does not set as stored. DynamoDB Local only: the embedded
// server reports no key types, so it reads no table raw.
func TestAMoveOfARawItemKeepsWhatItDoesNotSet(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[0], thingsDesign, "")
	table := rawTable(t, fx, types.ScalarAttributeTypeS, types.ScalarAttributeTypeN)
	stored := with(storedKinds(), map[string]types.AttributeValue{"pk": sAV("a"), "sk": nAV("1")})
	put(t, fx, table, stored)
	key := func(pk, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": sAV(pk), "sk": nAV(sk)}
	}
	for _, c := range []struct {
		sql      string
		from, to map[string]types.AttributeValue
		set      map[string]types.AttributeValue // what the SET changes besides the key; nil removes
	}{
		{"UPDATE `" + table + "` SET pk = 'b' WHERE pk = 'a' AND sk = 1", key("a", "1"), key("b", "1"), nil},
		{"UPDATE `" + table + "` SET sk = 2 WHERE pk = 'b'", key("b", "1"), key("b", "2"), nil},
		{"UPDATE `" + table + "` SET pk = 'c', flag = false, text = NULL WHERE pk = 'b' AND sk = 2", key("b", "2"), key("c", "2"),
			map[string]types.AttributeValue{"flag": &types.AttributeValueMemberBOOL{}, "text": nil}},
	} {
		moveOne(t, fx, c.sql)
		stored = with(stored, c.to)
		for attr, v := range c.set {
			if v == nil {
				delete(stored, attr)
			} else {
				stored[attr] = v
			}
		}
		sameItem(t, c.sql, get(t, fx, table, c.to), stored)
		if old := get(t, fx, table, c.from); old != nil {
			t.Errorf("%s: the old item is still there: %s", c.sql, itemText(old))
		}
	}
}

// A move of a mapped entity's item keeps a declared column stored as
// NULL, and the attributes an open entity reads by name, as stored; so
// does the rewrite the embedded backend does for arithmetic.
func TestAMoveOfAMappedItemKeepsWhatItDoesNotSet(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, thingsDesign, "")
			key := thingKey
			stored := with(storedKinds(), with(key("1"), map[string]types.AttributeValue{
				"id": sAV("1"), "n": nAV("1"), "note": &types.AttributeValueMemberNULL{Value: true}}))
			put(t, fx, fx.Mapping.Table, stored)
			for _, c := range []struct {
				sql     string
				at      string
				changes map[string]types.AttributeValue
			}{
				{"UPDATE things SET id = '2' WHERE id = '1'", "2", with(key("2"), map[string]types.AttributeValue{"id": sAV("2")})},
				{"UPDATE things SET n = n + 1 WHERE id = '2'", "2", map[string]types.AttributeValue{"n": nAV("2")}},
			} {
				moveOne(t, fx, c.sql)
				stored = with(stored, c.changes)
				sameItem(t, c.sql, get(t, fx, fx.Mapping.Table, key(c.at)), stored)
			}
			if old := get(t, fx, fx.Mapping.Table, key("1")); old != nil {
				t.Errorf("the old item is still there: %s", itemText(old))
			}
		})
	}
}

// A move is guarded by every attribute being as it was read, so that a
// change made in between is neither lost nor overwritten; DynamoDB takes
// a condition of at most 300 operators (each comparison and each AND
// counts) and 4 KB, which an item of more than about 150 attributes
// passes. Such a move is refused, saying so, with nothing written; the
// largest item whose guard DynamoDB takes moves. On both backends: the
// embedded server would take the long condition, but the refusal is
// dynosql's own, so that a move that works there works on DynamoDB.
func TestAMoveWhoseGuardDynamoDBWouldRefuseSaysSo(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, thingsDesign, "")
			key := thingKey
			wide := func(id string, attrs int) map[string]types.AttributeValue {
				item := with(key(id), map[string]types.AttributeValue{"id": sAV(id)})
				for i := range attrs {
					item[fmt.Sprintf("a%03d", i)] = nAV(fmt.Sprint(i))
				}
				return item
			}
			// The guard compares SK, id and the a attributes, and checks that
			// note and n are still absent: 145 a attributes make 149 conditions
			// after attribute_exists(PK), 299 operators with their ANDs.
			const most = 145
			for _, c := range []struct {
				id, sql, limit string
				attrs          int
			}{
				{"1", "UPDATE things SET id = '2' WHERE id = '1'", "301 operators, where it takes at most 300", most + 1},
				{"3", "UPDATE things SET id = '4' WHERE id IN ('3')", "301 operators, where it takes at most 300", most + 1},
				{"5", "UPDATE things SET id = '6' WHERE id = '5'", "bytes, where it takes at most 4 KB", 300},
			} {
				put(t, fx, fx.Mapping.Table, wide(c.id, c.attrs))
				stats := executor.NewStats()
				_, err := fx.DB.Exec(executor.WithStats(context.Background(), stats), c.sql)
				msg := fmt.Sprint(err)
				if !errors.Is(err, dynosql.ErrUnsupported) || !strings.Contains(msg, "things (id='"+c.id+"') was not updated") ||
					!strings.Contains(msg, fmt.Sprintf("the %d attributes", c.attrs+3)) || !strings.Contains(msg, c.limit) ||
					strings.Contains(msg, "may or may not") {
					t.Errorf("%s: got %v, want the move refused, naming the row, its attributes and DynamoDB's limit", c.sql, err)
				}
				if h := hintOf(err); !strings.Contains(h, "INSERT") || strings.Contains(h, "report") {
					t.Errorf("%s: hint %q, want what to do instead", c.sql, h)
				}
				noWrites(t, c.sql, stats)
				sameItem(t, c.sql, get(t, fx, fx.Mapping.Table, key(c.id)), wide(c.id, c.attrs))
			}
			for _, id := range []string{"2", "4", "6"} {
				if moved := get(t, fx, fx.Mapping.Table, key(id)); moved != nil {
					t.Errorf("an item was written under T#%s: %d attributes", id, len(moved))
				}
			}
			// The embedded server rewrites an item where DynamoDB would
			// REMOVE an attribute in place; that rewrite is not held to
			// DynamoDB's limit, which the statement never meets there.
			const remove = "UPDATE things SET n = NULL WHERE id = '5'"
			if res, err := fx.DB.Exec(context.Background(), remove); err != nil || res.RowsAffected != 1 {
				t.Errorf("%s: %v; want 1 row updated", remove, err)
			}
			sameItem(t, remove, get(t, fx, fx.Mapping.Table, key("5")), wide("5", 300))
			put(t, fx, fx.Mapping.Table, wide("7", most))
			const sql = "UPDATE things SET id = '8' WHERE id = '7'"
			if res, err := fx.DB.Exec(context.Background(), sql); err != nil || res.RowsAffected != 1 {
				t.Fatalf("%s: %v; want the item of %d attributes moved", sql, err, most+3)
			}
			sameItem(t, sql, get(t, fx, fx.Mapping.Table, key("8")), with(wide("7", most), with(key("8"), map[string]types.AttributeValue{"id": sAV("8")})))
		})
	}
}

// A move whose new key (or another value it computes) is a number
// DynamoDB cannot hold, past 38 significant digits, is refused before
// anything is written, saying which value and why, as an INSERT of it
// is. DynamoDB Local only: the embedded server holds numbers as float64s
// and refuses the 38-digit number the test starts from, and it reads no
// table raw.
func TestAMoveToANumberDynamoDBCannotHoldIsRefused(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[0], thingsDesign, "")
	table := rawTable(t, fx, types.ScalarAttributeTypeN, types.ScalarAttributeTypeS)
	const big = "12345678901234567890123456789012345678" // 38 digits
	raw := map[string]types.AttributeValue{"pk": nAV(big), "sk": sAV("x"), "blobs": &types.AttributeValueMemberBS{Value: [][]byte{{1}}}}
	put(t, fx, table, raw)
	mapped := map[string]types.AttributeValue{"PK": sAV("T#big"), "SK": sAV("META"), "id": sAV("big"), "n": nAV("-" + big)}
	put(t, fx, fx.Mapping.Table, mapped)
	for _, c := range []struct {
		sql, table, gives string
		item              map[string]types.AttributeValue
	}{
		{"UPDATE `" + table + "` SET pk = pk + 0.1 WHERE pk = " + big + " AND sk = 'x'", table, "pk " + big + ".1", raw},
		{"UPDATE `" + table + "` SET pk = pk + 0.1 WHERE pk = " + big, table, "pk " + big + ".1", raw},
		{"UPDATE things SET id = 'big2', n = n - 0.1 WHERE id = 'big'", fx.Mapping.Table, "n -" + big + ".1", mapped},
	} {
		stats := executor.NewStats()
		_, err := fx.DB.Exec(executor.WithStats(context.Background(), stats), c.sql)
		msg := fmt.Sprint(err)
		if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(msg, "gives "+c.gives+", which has 39 significant digits") ||
			strings.Contains(msg, "may or may not") {
			t.Errorf("%s: got %v, want the new value named as past DynamoDB's 38 digits", c.sql, err)
		}
		if h := hintOf(err); h == "" || strings.Contains(h, "report") {
			t.Errorf("%s: hint %q, want what to do instead", c.sql, h)
		}
		noWrites(t, c.sql, stats)
		key := map[string]types.AttributeValue{"pk": c.item["pk"], "sk": c.item["sk"]}
		if c.item["PK"] != nil {
			key = map[string]types.AttributeValue{"PK": c.item["PK"], "SK": c.item["SK"]}
		}
		sameItem(t, c.sql, get(t, fx, c.table, key), c.item)
	}
	// A 38-digit result moves.
	const sql = "UPDATE things SET id = 'big3', n = n + 1 WHERE id = 'big'"
	if res, err := fx.DB.Exec(context.Background(), sql); err != nil || res.RowsAffected != 1 {
		t.Fatalf("%s: %v; want the row moved", sql, err)
	}
	want := with(mapped, map[string]types.AttributeValue{"PK": sAV("T#big3"), "id": sAV("big3"), "n": nAV("-12345678901234567890123456789012345677")})
	sameItem(t, sql, get(t, fx, fx.Mapping.Table, map[string]types.AttributeValue{"PK": sAV("T#big3"), "SK": sAV("META")}), want)
}

// noWrites fails t when stats counted a write request.
func noWrites(t *testing.T, sql string, stats *executor.Stats) {
	t.Helper()
	for op := range stats.Snapshot().Requests {
		switch op {
		case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem":
			t.Errorf("%s: sent %s, want nothing written", sql, op)
		}
	}
}

// moveOne runs sql, which must change one row.
func moveOne(t *testing.T, fx *testkit.Fixture, sql string) {
	t.Helper()
	res, err := fx.DB.Exec(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if res.RowsAffected != 1 {
		t.Errorf("%s: %d rows affected, want 1", sql, res.RowsAffected)
	}
}

// thingKey is the base key of thingsDesign's row id.
func thingKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": sAV("T#" + id), "SK": sAV("META")}
}

const indexedNameDesign = `
table: Blog
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
  GSI2: {partition_key: GSI2PK, sort_key: GSI2SK}
entities:
  users:
    keys: {PK: "USER#{id}", SK: "PROFILE", GSI2PK: "NAME#{name}", GSI2SK: "USER#{id}"}
    columns: {id: S, name: S}
  posts:
    keys: {PK: "POST#{id}", SK: "META", GSI1PK: "USER#{authorId}", GSI1SK: "POST#{id}"}
    columns: {id: S, authorId: S, authorName: S, title: S}
    copies:
      authorName: {from: users.name, key: authorId}
`
const indexedNameRows = `{"entity":"users","row":{"id":"12","name":"Mara"}}
{"entity":"posts","row":{"id":"p1","authorId":"12","authorName":"Mara","title":"a"}}
{"entity":"posts","row":{"id":"p2","authorId":"12","authorName":"Mara","title":"b"}}
`

// A rewrite of a row under the same base key (SET of a column an index
// key is built from) is one PutItem guarded by the item as read. When its
// answer is lost the SDK sends it again, and the resend's guard fails on
// the item the first send wrote: the row must count as updated and its
// copies be rewritten, not be passed for skipped (0 rows affected, no
// error, the copies keeping the old name).
func TestAMoveResentAfterALostAnswerIsCounted(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			var armed atomic.Bool
			fx := testkit.LoadText(t, b, indexedNameDesign, indexedNameRows, dropFirstAnswer("PutItem", &armed))
			armed.Store(true)
			res, err := fx.DB.Exec(context.Background(), "UPDATE users SET name = 'Renamed' WHERE id = '12'")
			if err != nil {
				t.Fatal(err)
			}
			if armed.Load() {
				t.Fatal("no PutItem answer was lost: the test proves nothing")
			}
			if got := query(t, fx.DB, "SELECT name FROM users WHERE id = '12'"); fmt.Sprint(got) != "[[Renamed]]" {
				t.Fatalf("users 12: %v", got)
			}
			if res.RowsAffected != 1 {
				t.Errorf("%d rows affected, want 1: the row was renamed", res.RowsAffected)
			}
			if stale := query(t, fx.DB, "CHECK COPIES FOR users WHERE id = '12'"); len(stale) != 0 {
				t.Errorf("%d copies keep the old name, and the UPDATE said nothing", len(stale))
			}
		})
	}
}

// On the embedded server, SET NULL of a sparse index key deletes the item
// and puts it back (UpdateRows.Reinsert). When the DeleteItem's answer is
// lost the SDK sends it again, and the resend's guard fails on the item
// the first send deleted: the item must still be put back, not left
// deleted with 0 rows affected and no error.
func TestAReinsertResentAfterALostAnswerKeepsTheRow(t *testing.T) {
	var armed atomic.Bool
	fx := testkit.LoadText(t, testkit.Backends()[1], numberKeysTxDesign, numberKeysTxRows, dropFirstAnswer("DeleteItem", &armed))
	armed.Store(true)
	res, err := fx.DB.Exec(context.Background(), "UPDATE items SET status = NULL WHERE acct = 'a' AND n = 1")
	if err != nil {
		t.Fatal(err)
	}
	if armed.Load() {
		t.Fatal("no DeleteItem answer was lost: the test proves nothing")
	}
	got := query(t, fx.DB, "SELECT n, status, title FROM items WHERE acct = 'a' AND n = 1")
	if fmt.Sprint(got) != "[[1 <nil> t1]]" {
		t.Errorf("items (a, 1): %v, want it kept with status NULL", got)
	}
	if res.RowsAffected != 1 {
		t.Errorf("%d rows affected, want 1", res.RowsAffected)
	}
}

// On the embedded server, a move that also takes the item out of a sparse
// index (SET n = 2, status = NULL) is a move like any other: a delete and
// a put in one transaction. It was sent as the reinsert of an item under
// its own key, the delete first: onto a taken key the put then failed and
// the row was gone, where SQLite (and DynamoDB Local) leave it as it was
// (found by the random write differential, on complaints).
func TestAMoveOutOfASparseIndexOntoATakenKeyKeepsTheRow(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[1], numberKeysTxDesign, numberKeysTxRows)
	ctx := context.Background()
	_, err := fx.DB.Exec(ctx, "UPDATE items SET n = 2, status = NULL WHERE acct = 'a' AND n = 1")
	if !errors.Is(err, dynosql.ErrConflict) {
		t.Errorf("a move onto (a, 2): %v, want a conflict", err)
	}
	if got := query(t, fx.DB, "SELECT n, status, title FROM items WHERE acct = 'a' AND n IN (1, 2)"); fmt.Sprint(got) != "[[1 open t1] [2 open t2]]" {
		t.Errorf("items (a, 1) and (a, 2): %v, want both as they were", got)
	}
	execAgree(t, fx, testkit.Select{SQL: "UPDATE items SET n = 9, status = NULL WHERE acct = 'a' AND n = 1"})
	for _, q := range []string{
		"SELECT n, due, status, title, cnt FROM items WHERE acct = 'a'",
		"SELECT acct, n FROM items WHERE status = 'open' AND due > '2000'",
	} {
		fx.AgreeWithSQLite(t, testkit.Select{SQL: q})
	}
}
