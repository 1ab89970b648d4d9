package mapping_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// keys is a mapping whose entities have every template shape: literals
// before, between and after columns, several columns, a bare column, a
// number inside a string key, and number and binary keys of their own.
const keys = `
table: Things
partition_key: PK
sort_key: SK
indexes:
  BYTS: {partition_key: owner, sort_key: ts}
  BYBIN: {partition_key: bucket, sort_key: blob}
  BYVER: {local: true, sort_key: ver}
entities:
  orders:
    keys: {PK: "CUST#{customer}", SK: "ORDER#{date}#{id}#ITEM"}
    columns: {customer: S, date: S, id: S}
  posts:
    keys: {PK: "POST#{id}#META", SK: "P", ver: "{n}"}
    columns: {id: S, n: N}
  events:
    keys: {PK: "{place}", SK: "EV#{seq}", owner: "{owner}", ts: "{ts}"}
    columns: {place: S, seq: N, owner: S, ts: N}
  blobs:
    keys: {PK: "B#{k}", SK: "BLOB", bucket: "{bucket}", blob: "{blob}"}
    columns: {k: S, bucket: S, blob: B}
`

func loadKeys(t *testing.T) *mapping.Mapping {
	t.Helper()
	m, err := mapping.Parse("keys.yaml", []byte(keys))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A key rendered from a row parses back into the same row, for every
// template shape and key type; the rendered value is as written by hand.
func TestKeysRenderAndParseBackToTheSameValues(t *testing.T) {
	m := loadKeys(t)
	cases := []struct {
		entity, attr string
		row          mapping.Row
		want         types.AttributeValue
	}{
		{"orders", "PK", mapping.Row{"customer": "c1"}, s("CUST#c1")},
		{"orders", "SK", mapping.Row{"date": "2024-05-01", "id": "o7"}, s("ORDER#2024-05-01#o7#ITEM")},
		{"orders", "SK", mapping.Row{"date": "2024-05-01", "id": "x#ITEMx"}, s("ORDER#2024-05-01#x#ITEMx#ITEM")},
		{"orders", "SK", mapping.Row{"date": "2024-05-01", "id": "#ITEM"}, s("ORDER#2024-05-01##ITEM#ITEM")},
		{"posts", "PK", mapping.Row{"id": "p#1"}, s("POST#p#1#META")},
		{"posts", "ver", mapping.Row{"n": value.Number("-12.5")}, n("-12.5")},
		{"events", "PK", mapping.Row{"place": "ORDER#x"}, s("ORDER#x")},
		{"events", "SK", mapping.Row{"seq": value.Number("7")}, s("EV#7")},
		{"events", "ts", mapping.Row{"ts": value.Number("1700000000")}, n("1700000000")},
		{"blobs", "blob", mapping.Row{"blob": value.Binary{0, 1, 255}}, &types.AttributeValueMemberB{Value: []byte{0, 1, 255}}},
	}
	for _, tc := range cases {
		k := m.Entities[tc.entity].Key(tc.attr)
		name := tc.entity + " " + tc.attr + " = " + k.Raw + " with " + value.Text(value.FromAttr(tc.want))
		t.Run(name, func(t *testing.T) {
			got, err := k.Value(tc.row)
			if err != nil {
				t.Fatal(err)
			}
			if value.Key(value.FromAttr(got)) != value.Key(value.FromAttr(tc.want)) || typeOf(got) != typeOf(tc.want) {
				t.Fatalf("rendered %#v, want %#v", got, tc.want)
			}
			back, ok := k.Parse(got)
			if !ok {
				t.Fatalf("%v does not parse back", got)
			}
			for col, v := range tc.row {
				if !value.Equal(back[col], v) {
					t.Errorf("%s parsed back as %s, want %s", col, value.Literal(back[col]), value.Literal(v))
				}
			}
		})
	}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func typeOf(av types.AttributeValue) string { return value.TypeName(value.FromAttr(av)) }

// A value that would not read back as itself is refused when the key is
// rendered, never written: a date holding the separator '#' would make
// the key parse as another date and id.
func TestKeysRefuseValuesThatWouldNotParseBack(t *testing.T) {
	m := loadKeys(t)
	cases := []struct {
		entity, attr string
		row          mapping.Row
		why          string
	}{
		{"orders", "SK", mapping.Row{"date": "2024#05", "id": "o7"}, "holds the text that separates"},
		{"orders", "SK", mapping.Row{"date": "2024#", "id": "o7"}, "holds the text that separates"},
		{"orders", "SK", mapping.Row{"date": "", "id": "o7"}, "may not be empty"},
		{"orders", "SK", mapping.Row{"id": "o7"}, "may not be NULL"},
		{"posts", "ver", mapping.Row{"n": "7"}, "is a number (N) key"},
		{"events", "ts", mapping.Row{"ts": value.Binary{1}}, "is a number (N) key"},
		{"blobs", "blob", mapping.Row{"blob": value.Binary{}}, "may not be empty"},
		{"orders", "PK", mapping.Row{"customer": true}, "cannot be part of a string key"},
	}
	for _, tc := range cases {
		t.Run(tc.entity+" "+tc.attr+" refuses: "+tc.why, func(t *testing.T) {
			_, err := m.Entities[tc.entity].Key(tc.attr).Value(tc.row)
			if err == nil || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("error = %v, want one saying %q", err, tc.why)
			}
		})
	}
}

// Parse tells a key of the template's shape and type from others: the
// literal text after the last column must be there ("#ITEM"), a value
// must not be empty, an N template takes numbers only, and a number
// inside a string key must be written as dynosql writes it.
func TestKeysParseOnlyTheirOwnShape(t *testing.T) {
	m := loadKeys(t)
	cases := []struct {
		entity, attr string
		av           types.AttributeValue
		want         mapping.Row // nil: no match
	}{
		{"orders", "SK", s("ORDER#2024-05-01#o7#ITEM"), mapping.Row{"date": "2024-05-01", "id": "o7"}},
		{"orders", "SK", s("ORDER#2024-05-01#o7"), nil},
		{"orders", "SK", s("ORDER#2024-05-01#o7#ITEMS"), nil},
		{"orders", "SK", s("ORDER##o7#ITEM"), nil},
		{"orders", "SK", n("7"), nil},
		{"posts", "PK", s("POST#7#META"), mapping.Row{"id": "7"}},
		{"posts", "PK", s("POST#7#METAX"), nil},
		{"posts", "ver", n("007.50"), mapping.Row{"n": value.Number("7.5")}},
		{"posts", "ver", s("7"), nil},
		{"events", "SK", s("EV#x"), nil},
		{"events", "SK", s("EV#1000"), mapping.Row{"seq": value.Number("1000")}},
		// A number inside a string key reads back only as its own text:
		// "EV#007" is not the key seq = 7 renders, so no lookup finds it.
		{"events", "SK", s("EV#007"), nil},
		{"events", "SK", s("EV#1e3"), nil},
		{"blobs", "blob", s("x"), nil},
	}
	for _, tc := range cases {
		t.Run(tc.entity+" "+tc.attr+" "+value.Literal(value.FromAttr(tc.av)), func(t *testing.T) {
			got, ok := m.Entities[tc.entity].Key(tc.attr).Parse(tc.av)
			if tc.want == nil {
				if ok {
					t.Fatalf("parsed as %v, want no match", got)
				}
				return
			}
			if !ok {
				t.Fatal("no match")
			}
			for col, v := range tc.want {
				if !value.Equal(got[col], v) {
					t.Errorf("%s = %s, want %s", col, value.Literal(got[col]), value.Literal(v))
				}
			}
		})
	}
}

// Every key attribute of the keys mapping, rendered from a row, parses
// back into that row, and each leading part of the row gives the prefix a
// begins_with or range starts from (written by hand); the whole row gives
// an equality on the key itself. Keys of the other entities' templates
// in the same attribute do not parse.
func TestKeysRoundTripThroughValueParsePrefixAndCondition(t *testing.T) {
	m := loadKeys(t)
	cases := []struct {
		entity, attr string
		row          mapping.Row
		key          types.AttributeValue
		prefixes     []string // of the row cut after 0, 1, ... template columns
		others       []types.AttributeValue
	}{
		{"orders", "SK", mapping.Row{"date": "2024-05-01", "id": "o7"}, s("ORDER#2024-05-01#o7#ITEM"),
			[]string{"ORDER#", "ORDER#2024-05-01#"}, []types.AttributeValue{s("P"), s("EV#7"), s("BLOB"), s("ORDER#2024-05-01#o7")}},
		{"orders", "SK", mapping.Row{"date": "ORDER", "id": "POST#7#META"}, s("ORDER#ORDER#POST#7#META#ITEM"), []string{"ORDER#", "ORDER#ORDER#"}, nil},
		{"orders", "SK", mapping.Row{"date": "2024", "id": "#ITEM#"}, s("ORDER#2024##ITEM##ITEM"), []string{"ORDER#", "ORDER#2024#"}, nil},
		{"posts", "PK", mapping.Row{"id": "7"}, s("POST#7#META"), []string{"POST#"},
			[]types.AttributeValue{s("CUST#7"), s("B#7"), s("POST#7"), s("7")}},
		{"posts", "PK", mapping.Row{"id": "ORDER#2024#o7#ITEM"}, s("POST#ORDER#2024#o7#ITEM#META"), []string{"POST#"}, nil},
		{"events", "PK", mapping.Row{"place": "POST#7#META"}, s("POST#7#META"), []string{""}, nil},
		{"events", "SK", mapping.Row{"seq": value.Number("-3.25")}, s("EV#-3.25"), []string{"EV#"},
			[]types.AttributeValue{s("ORDER#2024-05-01#o7#ITEM"), s("EV#"), n("7")}},
		{"posts", "ver", mapping.Row{"n": number(t, "1e2")}, n("100"), nil, []types.AttributeValue{s("100")}},
		{"events", "ts", mapping.Row{"ts": value.Number("0")}, n("0"), nil, []types.AttributeValue{s("0")}},
		{"blobs", "blob", mapping.Row{"blob": value.Binary("#META")}, &types.AttributeValueMemberB{Value: []byte("#META")}, nil,
			[]types.AttributeValue{s("#META"), n("1")}},
	}
	for _, tc := range cases {
		k := m.Entities[tc.entity].Key(tc.attr)
		t.Run(tc.entity+" "+k.Raw+" is "+value.Literal(value.FromAttr(tc.key)), func(t *testing.T) {
			got, err := k.Value(tc.row)
			if err != nil {
				t.Fatal(err)
			}
			if mapping.Text(got) != mapping.Text(tc.key) || typeOf(got) != typeOf(tc.key) {
				t.Fatalf("rendered %s %s, want %s %s", typeOf(got), mapping.Text(got), typeOf(tc.key), mapping.Text(tc.key))
			}
			back, ok := k.Parse(got)
			if !ok || len(back) != len(tc.row) {
				t.Fatalf("parsed back as %v (%v), want %v", back, ok, tc.row)
			}
			for col, v := range tc.row {
				if !value.Equal(back[col], v) {
					t.Errorf("%s parsed back as %s, want %s", col, value.Literal(back[col]), value.Literal(v))
				}
			}
			if c := k.Condition(tc.row, nil); condText(c) != "= "+value.Literal(value.FromAttr(tc.key)) {
				t.Errorf("condition on the whole row = %s, want = the key", condText(c))
			}
			cols := k.Columns()
			for i, want := range tc.prefixes {
				part := mapping.Row{}
				for _, c := range cols[:i] {
					part[c] = tc.row[c]
				}
				if p, complete := k.Prefix(part); p != want || complete {
					t.Errorf("prefix of %v = %q (complete %v), want %q", part, p, complete, want)
				}
			}
			for _, o := range tc.others {
				if r, ok := k.Parse(o); ok {
					t.Errorf("%s %s parsed as %v: it is not of the template %s", typeOf(o), mapping.Text(o), r, k.Raw)
				}
			}
		})
	}
}

// number is the value of a number literal as dynosql reads it.
func number(t *testing.T, lit string) value.Number {
	t.Helper()
	n, ok := value.ParseNumber(lit)
	if !ok {
		t.Fatalf("%s is not a number", lit)
	}
	return n
}
