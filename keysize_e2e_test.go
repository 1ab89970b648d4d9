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
	"github.com/dynosql/dynosql/internal/testkit"
)

// A design whose key attributes have each of DynamoDB's limits: PK and
// the global index's email partition keys (2048 bytes), SK and the local
// index's Status sort keys (1024 bytes).
const keySizeMapping = `
table: KeySizes
partition_key: PK
sort_key: SK
indexes:
  ByStatus: {local: true, sort_key: Status}
  ByEmail: {partition_key: email}
entities:
  users:
    keys: {PK: "U#{id}", SK: "P", Status: "{status}", email: "{email}"}
    columns: {id: S, status: S, email: S, name: S}
    optional: [ByStatus, ByEmail]
  orders:
    keys: {PK: "U#{uid}", SK: "O#{oid}"}
    columns: {uid: S, oid: S}
`

// A binary sort key, whose limit counts its bytes.
const binaryKeyMapping = `
table: KeyBlobs
partition_key: PK
sort_key: SK
entities:
  blobs:
    keys: {PK: "{p}", SK: "{b}"}
    columns: {p: S, b: B}
`

// DynamoDB stores no key longer than 2048 bytes (partition keys) or 1024
// (sort keys), of the table or an index, and refuses a request naming
// one. SQL's answer to a read by such a key is no row; a write of one is
// refused before anything is sent, on every backend (the embedded one
// stored them, so a demo accepted what AWS refuses); a range whose bound
// is longer than any key is refused, no shorter bound being exact.
func TestKeysLongerThanDynamoDBStores(t *testing.T) {
	ctx := context.Background()
	long := func(n int) string { return strings.Repeat("x", n) }
	pkMax := long(2048 - len("U#")) // PK = "U#" + id: exactly 2048 bytes
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, keySizeMapping, "")
			blobs := testkit.LoadText(t, b, binaryKeyMapping, "")
			// exec runs a write, or a read for its error.
			exec := func(sql string, args ...any) (dynosql.Result, error) {
				db := fx
				if strings.Contains(sql, "blobs") {
					db = blobs
				}
				if strings.HasPrefix(sql, "SELECT") {
					_, err := db.Query(ctx, sql, args...)
					return dynosql.Result{}, err
				}
				return db.DB.Exec(ctx, sql, args...)
			}
			mustExec := func(sql string, args ...any) {
				t.Helper()
				if _, err := exec(sql, args...); err != nil {
					t.Fatalf("%.80s: %v", sql, err)
				}
			}
			// Keys of exactly the limits are stored.
			mustExec("INSERT INTO users (id, status, email, name) VALUES ('1', 's', 'e', 'a')")
			mustExec("INSERT INTO users (id, status, email, name) VALUES (?, ?, ?, 'b')", pkMax, long(1024), long(2048))
			mustExec("INSERT INTO orders (uid, oid) VALUES ('1', ?)", long(1024-len("O#")))
			mustExec("INSERT INTO blobs (p, b) VALUES ('1', ?)", make([]byte, 1024))
			stored := itemCount(t, fx) + itemCount(t, blobs)

			refused := []struct {
				sql   string
				args  []any
				limit string
			}{
				{"INSERT INTO users (id, name) VALUES (?, 'c')", []any{pkMax + "x"}, "2048"},
				{"INSERT INTO users (id, status, name) VALUES ('2', ?, 'c')", []any{long(1025)}, "1024"},
				// 342 three-byte characters: 1026 bytes, not 342.
				{"INSERT INTO users (id, status, name) VALUES ('2', ?, 'c')", []any{strings.Repeat("€", 342)}, "1024"},
				{"INSERT INTO users (id, email, name) VALUES ('2', ?, 'c')", []any{long(2049)}, "2048"},
				{"INSERT INTO orders (uid, oid) VALUES ('1', ?)", []any{long(1023)}, "1024"},
				{"INSERT INTO blobs (p, b) VALUES ('1', ?)", []any{make([]byte, 1025)}, "1024"},
				{"UPDATE users SET status = ? WHERE id = '1'", []any{long(1025)}, "1024"},
				{"UPDATE users SET email = ? WHERE id = '1'", []any{long(2049)}, "2048"},
				{"SELECT oid FROM orders WHERE uid = '1' AND oid > ?", []any{long(1100)}, "1024"},
			}
			for _, c := range refused {
				_, err := exec(c.sql, c.args...)
				if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), c.limit+" bytes") {
					t.Errorf("%s with a value of %d bytes: %v; want it refused as invalid, naming the %s-byte limit",
						c.sql, len(fmt.Sprintf("%s", c.args[0])), err, c.limit)
				}
			}
			if n := itemCount(t, fx) + itemCount(t, blobs); n != stored {
				t.Errorf("the refused writes left %d items, want the %d stored before them", n, stored)
			}
			if got, err := fx.Query(ctx, "SELECT status FROM users WHERE id = '1'"); err != nil || fmt.Sprint(got) != "[[s]]" {
				t.Errorf("after the refused UPDATE, status reads %v, %v; want s", got, err)
			}

			// Reads by a key no item can have find nothing; an IN list's
			// other values are still read.
			for _, q := range []struct {
				sql  string
				arg  any
				want string
			}{
				{"SELECT name FROM users WHERE id = ?", pkMax + "x", "[]"},
				{"SELECT name FROM users WHERE id IN ('1', ?)", pkMax + "x", "[[a]]"},
				{"SELECT name FROM users WHERE id = '1' AND status = ?", long(1025), "[]"},
				{"SELECT name FROM users WHERE email = ?", long(2049), "[]"},
				{"SELECT uid FROM orders WHERE uid = '1' AND oid = ?", long(1023), "[]"},
				{"SELECT uid FROM orders WHERE uid = '1' AND oid LIKE ?", long(1023) + "%", "[]"},
			} {
				got, err := fx.Query(ctx, q.sql, q.arg)
				if err != nil || fmt.Sprint(got) != q.want {
					t.Errorf("%s with a longer key than DynamoDB stores: %v, %v; want %s", q.sql, got, err, q.want)
				}
			}
			if got, err := blobs.Query(ctx, "SELECT p FROM blobs WHERE p = '1' AND b = ?", make([]byte, 1025)); err != nil || len(got) != 0 {
				t.Errorf("a read by a binary sort key of 1025 bytes: %v, %v; want no row", got, err)
			}
			// So do UPDATE and DELETE by it, or by an empty one, as in SQLite.
			for _, sql := range []string{"UPDATE users SET name = 'z' WHERE id = ?", "DELETE FROM users WHERE id = ?"} {
				for _, id := range []string{pkMax + "x", ""} {
					if res, err := exec(sql, id); err != nil || res.RowsAffected != 0 {
						t.Errorf("%s by a key of %d bytes: %+v, %v; want no row affected", sql, len(id), res, err)
					}
				}
			}
		})
	}
}

// itemCount counts the table's items with a Scan: what a refused write
// must not change.
func itemCount(t *testing.T, fx *testkit.Fixture) int32 {
	t.Helper()
	out, err := fx.Client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(fx.Mapping.Table), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	return out.Count
}

// AWS's overloaded index (GSI1 on SK and Data). An entity that is not in
// GSI1 by its templates may still hold Data as a plain column ("the
// attribute itself", checkColumnNames): DynamoDB puts the item in GSI1
// all the same, and keeps at most 1024 bytes in that sort key. A check
// of key templates alone sent such a write: DynamoDB refused it with a
// hint to report a dynosql bug, and the embedded backend stored it.
const overloadedColumnMapping = `
table: Overloaded
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: SK, sort_key: Data}
entities:
  employees:
    keys: {PK: "HR-{id}", SK: "EMPLOYEE", Data: "{name}"}
    columns: {id: S, name: S}
  notes:
    keys: {PK: "NOTE-{id}", SK: "NOTE"}
    columns: {id: S, Data: S}
`

func TestIndexKeyColumnsLongerThanDynamoDBStoresAreRefused(t *testing.T) {
	ctx := context.Background()
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, overloadedColumnMapping, "")
			if _, err := fx.DB.Exec(ctx, "INSERT INTO notes (id, Data) VALUES ('1', 'short')"); err != nil {
				t.Fatal(err)
			}
			stored := itemCount(t, fx)
			for _, sql := range []string{
				"INSERT INTO notes (id, Data) VALUES ('2', ?)",
				"UPDATE notes SET Data = ? WHERE id = '1'",
			} {
				_, err := fx.DB.Exec(ctx, sql, strings.Repeat("d", 1025))
				if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "1024 bytes") {
					t.Errorf("%s with 1025 bytes in GSI1's sort key Data: %v; want it refused as invalid, naming the 1024-byte limit", sql, err)
				}
			}
			if n := itemCount(t, fx); n != stored {
				t.Errorf("the refused INSERT left %d items, want %d", n, stored)
			}
		})
	}
}

// A sort key of two columns: a range on the second under an equality on
// the first is a BETWEEN whose bounds share the prefix the equality
// fixes.
const eventsMapping = `
table: Events
partition_key: PK
sort_key: SK
entities:
  events:
    keys: {PK: "U#{uid}", SK: "E#{day}#{seq}"}
    columns: {uid: S, day: S, seq: S}
`

// The range's own value is short; the day the WHERE fixes is longer than
// any sort key, so no item has it and SQL finds no row, as it does for
// day = ? alone. It was refused as "a range over the sort key SK", with
// a hint to compare with a shorter value (the value compared is 'a').
func TestRangeUnderAnEqualityLongerThanAKeyFindsNoRow(t *testing.T) {
	ctx := context.Background()
	day := strings.Repeat("d", 1100)
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, eventsMapping, "")
			if _, err := fx.DB.Exec(ctx, "INSERT INTO events (uid, day, seq) VALUES ('1', '2024', 'b')"); err != nil {
				t.Fatal(err)
			}
			for _, sql := range []string{
				"SELECT seq FROM events WHERE uid = '1' AND day = ?",
				"SELECT seq FROM events WHERE uid = '1' AND day = ? AND seq > 'a'",
				"SELECT seq FROM events WHERE uid = '1' AND day = ? AND seq BETWEEN 'a' AND 'c'",
			} {
				got, err := fx.Query(ctx, sql, day)
				if err != nil || fmt.Sprint(got) != "[]" {
					t.Errorf("%s with a day of %d bytes: %v, %v; want no row", sql, len(day), got, err)
				}
			}
		})
	}
}
