package dynosql_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
)

// Tables read raw (no mapping: every attribute a column), of shapes
// people create by hand: numeric, binary and hash-only keys, keys-only
// and INCLUDE indexes, local and sparse, attributes of several types.
// On DynamoDB Local only (the embedded backend gives no key types, so it
// reads no table raw), each expected row written by hand.

type hAV = types.AttributeValue

func hS(s string) hAV         { return &types.AttributeValueMemberS{Value: s} }
func hN(s string) hAV         { return &types.AttributeValueMemberN{Value: s} }
func hB(b ...byte) hAV        { return &types.AttributeValueMemberB{Value: b} }
func hBool(b bool) hAV        { return &types.AttributeValueMemberBOOL{Value: b} }
func hNull() hAV              { return &types.AttributeValueMemberNULL{Value: true} }
func hL(v ...hAV) hAV         { return &types.AttributeValueMemberL{Value: v} }
func hM(m map[string]hAV) hAV { return &types.AttributeValueMemberM{Value: m} }
func hSS(v ...string) hAV     { return &types.AttributeValueMemberSS{Value: v} }
func hNS(v ...string) hAV     { return &types.AttributeValueMemberNS{Value: v} }
func hItem(kv ...any) map[string]hAV {
	it := map[string]hAV{}
	for i := 0; i < len(kv); i += 2 {
		it[kv[i].(string)] = kv[i+1].(hAV)
	}
	return it
}

type hIndex struct {
	name   string
	pk, sk string
	local  bool
	proj   types.ProjectionType
	nonKey []string
}

type hTable struct {
	t      *testing.T
	client *dynamodb.Client
	name   string
	db     *dynosql.DB
}

// newHTable creates a raw table: attrs maps attribute → type (S/N/B),
// keys pk and sk (sk may be ""), and indexes.
func newHTable(t *testing.T, attrs map[string]types.ScalarAttributeType, pk, sk string, idx ...hIndex) *hTable {
	t.Helper()
	client := ddblocal.Client(t)
	h := &hTable{t: t, client: client, name: ddblocal.UniqueTable(t, "Raw")}
	in := &dynamodb.CreateTableInput{TableName: aws.String(h.name), BillingMode: types.BillingModePayPerRequest}
	for a, ty := range attrs {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: ty})
	}
	schema := func(pk, sk string) []types.KeySchemaElement {
		s := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			s = append(s, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return s
	}
	in.KeySchema = schema(pk, sk)
	for _, ix := range idx {
		p := &types.Projection{ProjectionType: ix.proj}
		if ix.proj == "" {
			p.ProjectionType = types.ProjectionTypeAll
		}
		if len(ix.nonKey) > 0 {
			p.NonKeyAttributes = ix.nonKey
		}
		if ix.local {
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{IndexName: aws.String(ix.name), KeySchema: schema(pk, ix.sk), Projection: p})
		} else {
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: aws.String(ix.name), KeySchema: schema(ix.pk, ix.sk), Projection: p})
		}
	}
	if _, err := client.CreateTable(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(h.name)})
	})
	return h
}

func (h *hTable) put(items ...map[string]hAV) {
	h.t.Helper()
	for _, it := range items {
		if _, err := h.client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(h.name), Item: it}); err != nil {
			h.t.Fatal(err)
		}
	}
}

func (h *hTable) open() {
	h.t.Helper()
	db, err := dynosql.Open(context.Background(), nil, h.client)
	if err != nil {
		h.t.Fatal(err)
	}
	h.db = db
	h.t.Cleanup(func() { _ = db.Close() })
}

// sql replaces $T with the table's quoted name.
func (h *hTable) sql(s string) string { return strings.ReplaceAll(s, "$T", "`"+h.name+"`") }

func hRowText(r []value.Value) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = value.Text(v)
		if v != nil {
			parts[i] = value.TypeName(v) + ":" + parts[i]
		}
	}
	return strings.Join(parts, "|")
}

// query runs sql (T is the table) and returns its rows as text, or the
// error text prefixed with "ERROR ".
func (h *hTable) query(sql string) []string {
	h.t.Helper()
	rows, err := h.db.Query(context.Background(), h.sql(sql))
	if err != nil {
		return []string{"ERROR " + err.Error()}
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		out = append(out, hRowText(rows.RawValues()))
	}
	if err := rows.Err(); err != nil {
		out = append(out, "ERROR "+err.Error())
	}
	return out
}

// want checks the rows of sql (as a multiset unless ordered).
func (h *hTable) want(sql string, ordered bool, want ...string) {
	h.t.Helper()
	got := h.query(sql)
	g, w := slices.Clone(got), slices.Clone(want)
	if !ordered {
		slices.Sort(g)
		slices.Sort(w)
	}
	if !slices.Equal(g, w) {
		h.t.Errorf("%s\n got: %q\nwant: %q", h.sql(sql), got, want)
	}
}

func (h *hTable) exec(sql string) (int64, error) {
	res, err := h.db.Exec(context.Background(), h.sql(sql))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected, nil
}

// A table keyed by a string and a number, with a keys-only local index on
// date, a sparse keys-only global index on (status, score), and an
// attribute v holding numbers and strings.
func rawNumTable(t *testing.T) *hTable {
	h := newHTable(t, map[string]types.ScalarAttributeType{"pk": "S", "sk": "N", "date": "S", "status": "S", "score": "N"}, "pk", "sk",
		hIndex{name: "ByDate", local: true, sk: "date", proj: types.ProjectionTypeKeysOnly},
		hIndex{name: "ByStatus", pk: "status", sk: "score", proj: types.ProjectionTypeKeysOnly})
	h.put(
		hItem("pk", hS("p1"), "sk", hN("2"), "date", hS("2024-01-01"), "status", hS("open"), "score", hN("5"), "v", hN("5"), "note", hS("a")),
		hItem("pk", hS("p1"), "sk", hN("10"), "date", hS("2024-03-01"), "status", hS("closed"), "score", hN("50"), "v", hS("5"), "note", hS("b")),
		hItem("pk", hS("p1"), "sk", hN("100"), "status", hS("open"), "v", hN("30"), "note", hS("c")),
		hItem("pk", hS("p1"), "sk", hN("-1"), "date", hS("2023-12-31"), "v", hS("abc")),
		hItem("pk", hS("p1"), "sk", hN("1.5"), "status", hS("open"), "score", hN("7")),
		hItem("pk", hS("p2"), "sk", hN("3"), "date", hS("2024-02-01"), "status", hS("open"), "score", hN("1"), "note", hS("d")),
	)
	h.open()
	return h
}

func TestRawNumericSortKey(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND sk > 9", false, "N:10", "N:100")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' ORDER BY sk DESC LIMIT 2", true, "N:100", "N:10")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' ORDER BY sk", true, "N:-1", "N:1.5", "N:2", "N:10", "N:100")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND sk BETWEEN -1 AND 2", false, "N:-1", "N:1.5", "N:2")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND sk IN (2, 100, 7)", false, "N:2", "N:100")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND sk < 2 ORDER BY sk DESC", true, "N:1.5", "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND sk = 1.50", false, "N:1.5")
	h.want("SELECT sk FROM $T WHERE pk IN ('p1', 'p2') AND sk >= 3 ORDER BY sk", true, "N:3", "N:10", "N:100")
	h.want("SELECT COUNT(*) FROM $T WHERE pk = 'p1' AND sk >= 2", false, "N:3")
}

func TestRawLocalIndexKeysOnly(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk, date, note FROM $T WHERE pk = 'p1' AND date > '2024'", false, "N:2|S:2024-01-01|S:a", "N:10|S:2024-03-01|S:b")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date IS NULL", false, "N:100", "N:1.5")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' ORDER BY date, sk LIMIT 3", true, "N:1.5", "N:100", "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' ORDER BY date DESC LIMIT 2", true, "N:10", "N:2")
	h.want("SELECT COUNT(*) FROM $T WHERE pk = 'p1' AND date >= '2024'", false, "N:2")
	h.want("SELECT COUNT(*) FROM $T WHERE pk = 'p1' AND date IS NOT NULL", false, "N:3")
}

// SELECT * through a keys-only local index shows the whole item, as
// through the table (it once sent no projection and no Select, and got
// back only what the index projects); its columns: the keys, then the
// other attributes by name.
func TestRawSelectStarThroughALocalIndex(t *testing.T) {
	h := rawNumTable(t)
	item := "S:p1|N:10|S:2024-03-01|S:closed|N:50|S:b|S:5"
	h.want("SELECT * FROM $T WHERE pk = 'p1' AND date >= '2024-03'", false, item)
	h.want("SELECT * FROM $T WHERE pk = 'p1' AND sk = 10", false, item)
	h.want("SELECT * FROM $T WHERE pk = 'p1' ORDER BY date DESC LIMIT 1", false, item)
}

// A condition on an attribute a keys-only local index does not project
// is checked on the client (DynamoDB refuses it in the Query's filter,
// which sees only what the index holds).
func TestRawFilterOnWhatALocalIndexDoesNotProject(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk, note, v FROM $T WHERE pk = 'p1' AND date > '2024' AND note = 'b'", false, "N:10|S:b|S:5")
	h.want("SELECT COUNT(*) FROM $T WHERE pk = 'p1' AND date > '2024' AND note = 'b'", false, "N:1")
}

func TestRawSparseGlobalIndexKeysOnly(t *testing.T) {
	h := rawNumTable(t)
	// p1/100 is open but has no score: it is not in ByStatus, which
	// cannot answer status = 'open' alone; the refusal says so.
	if got := h.query("SELECT pk, sk FROM $T WHERE status = 'open'"); len(got) != 1 || !strings.HasPrefix(got[0], "ERROR ") || !strings.Contains(got[0], "score") {
		t.Errorf("status = 'open': %q, want a refusal naming score", got)
	}
	h.want("SELECT pk, sk FROM $T WHERE status = 'open' AND score > 4", false, "S:p1|N:2", "S:p1|N:1.5")
	h.want("SELECT pk, sk, note FROM $T WHERE status = 'open' AND score IS NOT NULL", false, "S:p1|N:2|S:a", "S:p1|N:1.5|NULL", "S:p2|N:3|S:d")
	h.want("SELECT pk, sk FROM $T WHERE status = 'open' AND score > 4 ORDER BY score DESC", true, "S:p1|N:1.5", "S:p1|N:2")
	h.want("SELECT COUNT(*) FROM $T WHERE status = 'open' AND score >= 1", false, "N:3")
	a := h.query("SELECT * FROM $T WHERE status = 'closed' AND score = 50")
	b := h.query("SELECT * FROM $T WHERE pk = 'p1' AND sk = 10")
	if !slices.Equal(a, b) {
		t.Errorf("SELECT * through the keys-only global index: %q, through the table: %q", a, b)
	}
}

func TestRawMixedTypes(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND v = 5", false, "N:2")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND v = '5'", false, "N:10")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND v > 3", false, "N:2", "N:100")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND v > 'a'", false, "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND v IN (5, 'abc')", false, "N:2", "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND v <> 5", false, "N:10", "N:100", "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' ORDER BY v, sk", true, "N:1.5", "N:2", "N:100", "N:10", "N:-1")
	h.want("SELECT COUNT(v), COUNT(*), COUNT(DISTINCT v) FROM $T WHERE pk = 'p1'", false, "N:4|N:5|N:4")
	h.want("SELECT MIN(v), MAX(v) FROM $T WHERE pk = 'p1'", false, "N:5|S:abc")
	h.want("SELECT v, COUNT(*) FROM $T WHERE pk = 'p1' GROUP BY v", false, "NULL|N:1", "N:5|N:1", "S:5|N:1", "N:30|N:1", "S:abc|N:1")
	h.want("SELECT DISTINCT v FROM $T WHERE pk IN ('p1', 'p2')", false, "NULL", "N:5", "S:5", "N:30", "S:abc")
}

// A table keyed by a binary partition key and a binary sort key.
func TestRawBinaryKeys(t *testing.T) {
	h := newHTable(t, map[string]types.ScalarAttributeType{"k": "B", "s": "B", "g": "B"}, "k", "s",
		hIndex{name: "ByG", pk: "g"})
	h.put(
		hItem("k", hB(1, 2), "s", hB(0), "g", hB(9), "v", hS("a")),
		hItem("k", hB(1, 2), "s", hB(0x7f), "v", hS("b")),
		hItem("k", hB(1, 2), "s", hB(0x80), "g", hB(9), "v", hS("c")),
		hItem("k", hB(1, 2), "s", hB(0xff, 0), "v", hS("d")),
		hItem("k", hB(1), "s", hB(0x80), "v", hS("e")),
	)
	h.open()
	h.want("SELECT v FROM $T WHERE k = X'0102'", false, "S:a", "S:b", "S:c", "S:d")
	h.want("SELECT v FROM $T WHERE k = X'0102' AND s > X'7f'", false, "S:c", "S:d")
	h.want("SELECT v FROM $T WHERE k = X'0102' AND s >= X'80' ORDER BY s DESC", true, "S:d", "S:c")
	h.want("SELECT v FROM $T WHERE k = X'0102' ORDER BY s LIMIT 3", true, "S:a", "S:b", "S:c")
	h.want("SELECT v FROM $T WHERE k IN (X'0102', X'01') AND s = X'80'", false, "S:c", "S:e")
	h.want("SELECT v FROM $T WHERE k = X'0102' AND s BETWEEN X'01' AND X'ff'", false, "S:b", "S:c")
	h.want("SELECT v FROM $T WHERE g = X'09'", false, "S:a", "S:c")
	if n, err := h.exec("UPDATE $T SET v = 'z' WHERE k = X'0102' AND s > X'7f'"); err != nil || n != 2 {
		t.Errorf("UPDATE over a binary range: %d, %v, want 2", n, err)
	}
	h.want("SELECT v FROM $T WHERE k = X'0102'", false, "S:a", "S:b", "S:z", "S:z")
	if n, err := h.exec("INSERT INTO $T (k, s, v) VALUES (X'0102', X'00ff', 'new')"); err != nil || n != 1 {
		t.Errorf("INSERT: %d, %v", n, err)
	}
	h.want("SELECT v FROM $T WHERE k = X'0102' AND s = X'00ff'", false, "S:new")
}

// A table keyed by a number alone, with a global index keyed by a
// string alone (holding some items), and an inverted-ish index keyed by
// the table key as sort key.
func TestRawHashOnly(t *testing.T) {
	h := newHTable(t, map[string]types.ScalarAttributeType{"id": "N", "grp": "S"}, "id", "",
		hIndex{name: "ByGrp", pk: "grp", sk: "id", proj: types.ProjectionTypeInclude, nonKey: []string{"name"}})
	h.put(
		hItem("id", hN("1"), "grp", hS("a"), "name", hS("one"), "extra", hN("10")),
		hItem("id", hN("2"), "grp", hS("a"), "name", hS("two"), "extra", hN("20")),
		hItem("id", hN("3"), "grp", hS("b"), "name", hS("three")),
		hItem("id", hN("4"), "name", hS("four"), "extra", hN("40")),
		hItem("id", hN("10"), "grp", hS("a"), "name", hS("ten"), "extra", hN("100")),
	)
	h.open()
	h.want("SELECT id, name FROM $T WHERE id IN (1, 4, 5)", false, "N:1|S:one", "N:4|S:four")
	h.want("SELECT id, name, extra FROM $T WHERE grp = 'a'", false, "N:1|S:one|N:10", "N:2|S:two|N:20", "N:10|S:ten|N:100")
	h.want("SELECT id FROM $T WHERE grp = 'a' AND id > 1 ORDER BY id DESC", true, "N:10", "N:2")
	h.want("SELECT id FROM $T WHERE grp = 'a' AND extra > 15", false, "N:2", "N:10")
	h.want("SELECT id FROM $T WHERE grp = 'a' AND id < 5 AND extra IS NULL", false)
	h.want("SELECT COUNT(*) FROM $T WHERE grp = 'a' AND extra >= 20", false, "N:2")
	h.want("SELECT grp, COUNT(*) FROM $T WHERE grp IN ('a', 'b') GROUP BY grp", false, "S:a|N:3", "S:b|N:1")
	a := h.query("SELECT * FROM $T WHERE grp = 'a' AND id = 2")
	b := h.query("SELECT * FROM $T WHERE id = 2")
	if !slices.Equal(a, b) {
		t.Errorf("SELECT * through the INCLUDE index: %q, through the table: %q", a, b)
	}
	h.want("SELECT id FROM $T WHERE id = 1 OR grp = 'b'", false, "N:1", "N:3")
	h.want("SELECT a.id, b.id FROM $T a JOIN $T b ON b.id = a.extra WHERE a.grp = 'a'", false, "N:1|N:10")
	h.want("SELECT a.id, b.name FROM $T a LEFT JOIN $T b ON b.id = a.extra WHERE a.id IN (1, 2, 3)", false, "N:1|S:ten", "N:2|NULL", "N:3|NULL")
}

// Attribute names DynamoDB reserves, and names SQL must quote.
func TestRawOddNames(t *testing.T) {
	h := newHTable(t, map[string]types.ScalarAttributeType{"pk": "S", "sk": "S"}, "pk", "sk")
	h.put(
		hItem("pk", hS("p"), "sk", hS("1"), "size", hN("3"), "name", hS("n1"), "status", hS("s"), "a.b", hS("dot"), "a-b", hS("dash"), "a b", hS("space"), "#x", hS("hash"), ":v", hS("colon"), "Name", hS("N1"), "select", hS("kw")),
		hItem("pk", hS("p"), "sk", hS("2"), "size", hN("5"), "name", hS("n2"), "a", hM(map[string]hAV{"b": hS("nested")}), "Name", hS("N2")),
		hItem("pk", hS("p"), "sk", hS("3"), "size", hS("big"), "doc", hM(map[string]hAV{"x": hL(hN("1"), hS("y")), "z": hNull()}), "tags", hSS("b", "a"), "nums", hNS("2", "10"), "flag", hBool(true), "nul", hNull()),
	)
	h.open()
	h.want("SELECT sk, size, name FROM $T WHERE pk = 'p' AND size > 2", false, "S:2|N:5|S:n2", "S:1|N:3|S:n1")
	h.want("SELECT sk, `a.b`, `a-b`, `a b`, `#x`, `:v` FROM $T WHERE pk = 'p' AND `a.b` = 'dot' AND `a-b` = 'dash' AND `a b` = 'space' AND `#x` = 'hash' AND `:v` = 'colon'", false,
		"S:1|S:dot|S:dash|S:space|S:hash|S:colon")
	h.want("SELECT sk FROM $T WHERE pk = 'p' AND `a.b` IS NULL", false, "S:2", "S:3")
	h.want("SELECT sk, name, Name FROM $T WHERE pk = 'p' AND Name = 'N2'", false, "S:2|S:n2|S:N2")
	h.want("SELECT sk, `select` FROM $T WHERE pk = 'p' AND `select` = 'kw'", false, "S:1|S:kw")
	h.want("SELECT sk, status FROM $T WHERE pk = 'p' AND status = 's'", false, "S:1|S:s")
	h.want("SELECT sk, doc, tags, nums, flag, nul FROM $T WHERE pk = 'p' AND sk = '3'", false,
		`S:3|M:{"x":[1,"y"],"z":null}|SS:["a","b"]|NS:[2,10]|BOOL:true|NULL`)
	h.want("SELECT sk FROM $T WHERE pk = 'p' AND flag = TRUE", false, "S:3")
	h.want("SELECT sk FROM $T WHERE pk = 'p' AND nul IS NULL", false, "S:1", "S:2", "S:3")
	h.want("SELECT sk FROM $T WHERE pk = 'p' AND doc IS NOT NULL", false, "S:3")
	h.want("SELECT COUNT(nul), COUNT(doc) FROM $T WHERE pk = 'p'", false, "N:0|N:1")
}

func TestRawWrites(t *testing.T) {
	h := rawNumTable(t)
	must := func(sql string, want int64) {
		t.Helper()
		n, err := h.exec(sql)
		if err != nil || n != want {
			t.Errorf("%s: %d rows, %v; want %d", h.sql(sql), n, err, want)
		}
	}
	must("UPDATE $T SET note = 'big' WHERE pk = 'p1' AND v > 3", 2)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND note = 'big'", false, "N:2", "N:100")
	must("UPDATE $T SET date = NULL WHERE pk = 'p1' AND sk = 2", 1)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date > '2000'", false, "N:10", "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date IS NULL", false, "N:2", "N:100", "N:1.5")
	must("UPDATE $T SET date = '2025-01-01' WHERE pk = 'p1' AND sk = 100", 1)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date >= '2025'", false, "N:100")
	must("UPDATE $T SET score = 99 WHERE pk = 'p1' AND sk = 100", 1)
	h.want("SELECT pk, sk FROM $T WHERE status = 'open' AND score > 50", false, "S:p1|N:100")
	must("UPDATE $T SET status = NULL WHERE status = 'open' AND score > 50", 1)
	h.want("SELECT pk, sk FROM $T WHERE status = 'open' AND score > 0", false, "S:p1|N:2", "S:p1|N:1.5", "S:p2|N:3")
	must("DELETE FROM $T WHERE pk = 'p1' AND v = '5'", 1)
	must("DELETE FROM $T WHERE pk = 'p1' AND date < '2024'", 1)
	h.want("SELECT sk FROM $T WHERE pk = 'p1'", false, "N:2", "N:100", "N:1.5")
	must("INSERT INTO $T (pk, sk, date, v) VALUES ('p1', 7, '2024-07-07', 'x')", 1)
	h.want("SELECT sk, v FROM $T WHERE pk = 'p1' AND date = '2024-07-07'", false, "N:7|S:x")
	must("UPDATE $T SET sk = 8 WHERE pk = 'p1' AND sk = 7", 1)
	h.want("SELECT sk, v, date FROM $T WHERE pk = 'p1' AND date = '2024-07-07'", false, "N:8|S:x|S:2024-07-07")
	// Arithmetic needs a number column: a raw attribute's type is unknown.
	if _, err := h.exec("UPDATE $T SET v = v + 1 WHERE pk = 'p1'"); err == nil || !strings.Contains(err.Error(), "read without a mapping") || !strings.Contains(errs.As(err).Hint, "mapping draft") {
		t.Errorf("SET v = v + 1 on a raw table: %v; want a refusal saying the type is unknown, pointing at mapping draft", err)
	}
	must("UPDATE $T SET v = 1 WHERE pk = 'p1' AND date IS NULL", 2)
	h.want("SELECT sk, v FROM $T WHERE pk = 'p1'", false, "N:2|N:1", "N:100|N:30", "N:1.5|N:1", "N:8|S:x")
}

func TestRawNumberSpellingsAndJoins(t *testing.T) {
	h := newHTable(t, map[string]types.ScalarAttributeType{"id": "N"}, "id", "")
	h.put(
		hItem("id", hN("1"), "v", hS("one"), "ref", hN("100")),
		hItem("id", hN("100"), "v", hS("hundred"), "ref", hN("1")),
		hItem("id", hN("0.5"), "v", hS("half"), "ref", hS("1")),
		hItem("id", hN("12345678901234567890123456789012345678"), "v", hS("big")),
		hItem("id", hN("-0.001"), "v", hS("neg")),
	)
	h.open()
	h.want("SELECT v FROM $T WHERE id IN (1, 1.0, 01, 1e0)", false, "S:one")
	h.want("SELECT v FROM $T WHERE id IN (100, 1e2, 1E+2, 100.00)", false, "S:hundred")
	h.want("SELECT v FROM $T WHERE id = .5", false, "S:half")
	h.want("SELECT v FROM $T WHERE id = 5e-1", false, "S:half")
	h.want("SELECT v FROM $T WHERE id = -1e-3", false, "S:neg")
	h.want("SELECT v FROM $T WHERE id = 12345678901234567890123456789012345678", false, "S:big")
	h.want("SELECT v FROM $T WHERE id = 1.2345678901234567890123456789012345678e37", false, "S:big")
	h.want("SELECT id FROM $T WHERE id = 12345678901234567890123456789012345678", false, "N:12345678901234567890123456789012345678")
	// Joins on an attribute holding a number in some items, a string in others.
	h.want("SELECT a.v, b.v FROM $T a JOIN $T b ON b.id = a.ref WHERE a.id IN (1, 100, 0.5)", false, "S:one|S:hundred", "S:hundred|S:one")
	h.want("SELECT a.v, b.v FROM $T a LEFT JOIN $T b ON b.id = a.ref WHERE a.id IN (1, 100, 0.5)", false, "S:one|S:hundred", "S:hundred|S:one", "S:half|NULL")
	h.want("SELECT v FROM $T WHERE id IN (SELECT q.ref FROM $T q WHERE q.id IN (1, 0.5))", false, "S:hundred")
	h.want("SELECT v FROM $T WHERE id IN (1, 100) AND id NOT IN (SELECT q.ref FROM $T q WHERE q.id = 100)", false, "S:hundred")
	h.want("SELECT v FROM $T WHERE id = 1 UNION SELECT ref FROM $T WHERE id IN (1, 0.5)", false, "S:one", "N:100", "S:1")
	h.want("SELECT ref FROM $T WHERE id IN (1, 0.5, 100) ORDER BY ref", true, "N:1", "N:100", "S:1")
	h.want("SELECT COUNT(*) FROM $T WHERE id IN (1, 0.5, 100) AND ref = 1", false, "N:1")
	h.want("SELECT COUNT(*) FROM $T WHERE id IN (1, 0.5, 100) AND ref = '1'", false, "N:1")
}

// Key attribute names are any string: '#', braces and dots included.
func TestRawOddKeyAttributeNames(t *testing.T) {
	for _, names := range [][2]string{{"a#b", "n"}, {"x}", "{y"}, {"p k", "c.d"}, {"pk", "s#k"}} {
		pk, sk := names[0], names[1]
		h := newHTable(t, map[string]types.ScalarAttributeType{pk: "S", sk: "N"}, pk, sk)
		h.put(hItem(pk, hS("p"), sk, hN("1"), "v", hS("one")), hItem(pk, hS("p"), sk, hN("2"), "v", hS("two")))
		h.open()
		h.want("SELECT v FROM $T WHERE `"+pk+"` = 'p' AND `"+sk+"` > 1", false, "S:two")
		h.want("SELECT `"+sk+"`, v FROM $T WHERE `"+pk+"` = 'p' ORDER BY `"+sk+"` DESC", true, "N:2|S:two", "N:1|S:one")
	}
}

func TestRawIndexChoice(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND sk > 0 ORDER BY date LIMIT 2", true, "N:1.5", "N:100")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date > '2024' ORDER BY sk DESC LIMIT 1", true, "N:10")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date > '2023' ORDER BY date LIMIT 1", true, "N:-1")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND (date > '2024' OR date IS NULL)", false, "N:2", "N:10", "N:100", "N:1.5")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND NOT (date <= '2024')", false, "N:2", "N:10")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date LIKE '2024%'", false, "N:2", "N:10")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND date IN ('2024-01-01', '2023-12-31')", false, "N:2", "N:-1")
	// The sparse ByStatus holds no item without a score (p1/100 is open
	// and has none): status alone is refused, reads and writes.
	for _, sql := range []string{
		"SELECT pk, sk FROM $T WHERE status = 'open' ORDER BY score, sk LIMIT 1",
		"SELECT COUNT(*) FROM $T WHERE status = 'open'",
		"SELECT pk, sk FROM $T WHERE status = 'open' AND (score > 4 OR score IS NULL) ORDER BY sk",
	} {
		if got := h.query(sql); len(got) != 1 || !strings.HasPrefix(got[0], "ERROR refused") {
			t.Errorf("%s: %q, want a refusal", h.sql(sql), got)
		}
	}
	if n, err := h.exec("UPDATE $T SET note = 'x' WHERE status = 'open'"); err == nil {
		t.Errorf("UPDATE ... WHERE status = 'open': %d rows, want a refusal", n)
	}
}

func TestRawOr(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND (date = '2024-01-01' OR sk = 100)", false, "N:2", "N:100")
	h.want("SELECT sk FROM $T WHERE pk = 'p1' AND (date >= '2024' OR sk >= 2)", false, "N:2", "N:10", "N:100")
	h.want("SELECT pk, sk FROM $T WHERE (pk = 'p2' AND sk = 3) OR (status = 'open' AND score >= 5)", false, "S:p2|N:3", "S:p1|N:2", "S:p1|N:1.5")
	h.want("SELECT COUNT(*) FROM $T WHERE (pk = 'p2' AND sk = 3) OR (status = 'open' AND score >= 1)", false, "N:3")
	h.want("SELECT pk, sk FROM $T WHERE pk = 'p1' AND sk = 2 UNION ALL SELECT pk, sk FROM $T WHERE status = 'open' AND score = 5", false, "S:p1|N:2", "S:p1|N:2")
}

// An attribute an item holds as DynamoDB's NULL is an attribute it
// holds: SELECT * shows its column (NULL), as SELECT gone names it,
// even when no item of the result holds it as anything else.
func TestRawSelectStarShowsAttributesStoredAsNull(t *testing.T) {
	h := newHTable(t, map[string]types.ScalarAttributeType{"pk": "S", "sk": "N"}, "pk", "sk")
	h.put(
		hItem("pk", hS("p"), "sk", hN("1"), "v", hS("a"), "gone", hNull()),
		hItem("pk", hS("p"), "sk", hN("2"), "v", hS("b")),
	)
	h.open()
	rows, err := h.db.Query(context.Background(), h.sql("SELECT * FROM $T WHERE pk = 'p'"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		got = append(got, hRowText(rows.RawValues()))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	cols := rows.Columns()
	_ = rows.Close()
	if want := []string{"pk", "sk", "gone", "v"}; !slices.Equal(cols, want) {
		t.Errorf("SELECT * columns %q, want %q (rows %q)", cols, want, got)
	}
	h.want("SELECT sk, gone FROM $T WHERE pk = 'p' AND gone IS NULL", false, "N:1|NULL", "N:2|NULL")
}

// A refusal's hint spells the conditions it suggests as a statement
// must: a table or attribute name that is not an SQL identifier
// (orders-v2, p.k, g-1) in backquotes, so that the hint can be pasted.
func TestRawScanHintQuotesNamesThatAreNotIdentifiers(t *testing.T) {
	h := newHTable(t, map[string]types.ScalarAttributeType{"p.k": "S", "s#k": "N", "g-1": "S"}, "p.k", "s#k",
		hIndex{name: "ByG", pk: "g-1", sk: "s#k"})
	h.put(hItem("p.k", hS("p"), "s#k", hN("1"), "g-1", hS("x"), "v", hS("one")))
	h.open()
	_, err := h.db.Query(context.Background(), h.sql("SELECT v FROM $T WHERE v = 'one'"))
	if err == nil {
		t.Fatal("a read by v alone was not refused")
	}
	hint := errs.As(err).Hint
	tbl := "`" + h.name + "`"
	for _, want := range []string{"WHERE " + tbl + ".`p.k` = ...", "WHERE " + tbl + ".`g-1` = ..."} {
		if !strings.Contains(hint, want) {
			t.Errorf("hint %q does not say %q", hint, want)
		}
	}
	// What the hint says runs.
	h.want("SELECT v FROM $T WHERE $T.`g-1` = 'x' AND $T.`s#k` IS NOT NULL", false, "S:one")
}

// A raw table's names are all attributes, so ORDER BY label after AS
// Label sorted by a missing attribute (every row NULL), in key order;
// MySQL and SQLite name an alias in any case.
func TestRawOrderByAnAliasInAnotherCase(t *testing.T) {
	h := rawNumTable(t)
	h.want("SELECT sk, note AS Label FROM $T WHERE pk = 'p1' ORDER BY label DESC, sk", true, "N:100|S:c", "N:10|S:b", "N:2|S:a", "N:-1|NULL", "N:1.5|NULL")
}
