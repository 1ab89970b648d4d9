package mapping_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// typed is a design whose entities share one key template and are told
// apart by a type attribute only (dynamodb-toolbox, the Developer Guide's
// ProductCatalog), with a sparse index one entity's items are in only
// when they have an owner.
const typed = `
table: Catalog
partition_key: Id
type_attribute: _et
indexes:
  BYOWNER: {partition_key: owner, sort_key: Id2}
entities:
  books:
    type: Book
    keys: {Id: "{Id}", owner: "O#{owner}", Id2: "{Id}"}
    columns: {Id: N, title: S, owner: S}
    optional: [BYOWNER]
  bikes:
    type: Bicycle
    keys: {Id: "{Id}"}
    columns: {Id: N, color: S}
`

func TestTypeAttributeTellsEntitiesApartWhereKeysCannot(t *testing.T) {
	m, err := mapping.Parse("typed.yaml", []byte(typed))
	if err != nil {
		t.Fatal(err)
	}
	books, bikes := m.Entities["books"], m.Entities["bikes"]
	both := []*mapping.Entity{books, bikes}
	item := func(typ string) map[string]types.AttributeValue {
		it := map[string]types.AttributeValue{"Id": &types.AttributeValueMemberN{Value: "7"}}
		if typ != "" {
			it["_et"] = &types.AttributeValueMemberS{Value: typ}
		}
		return it
	}
	if e := m.Classify(item("Book"), both); e != books {
		t.Errorf("a Book item classified as %v", e)
	}
	if e := m.Classify(item("Bicycle"), both); e != bikes {
		t.Errorf("a Bicycle item classified as %v", e)
	}
	if e := m.Classify(item("Lamp"), both); e != nil {
		t.Errorf("an item of no declared type classified as %s", e.Name)
	}
	if e := m.Classify(item(""), both); e != nil {
		t.Errorf("an item without its type, which keys cannot tell, classified as %s", e.Name)
	}
	if e := m.Classify(item(""), []*mapping.Entity{bikes}); e != bikes {
		t.Errorf("with one candidate, an item without its type is that one's: got %v", e)
	}
}

// Claim takes an item as the entity's row only when its type attribute
// and every key it holds fit, and then makes Decode's row.
func TestClaimTakesOnlyItemsThatFit(t *testing.T) {
	m, err := mapping.Parse("typed.yaml", []byte(typed))
	if err != nil {
		t.Fatal(err)
	}
	books := m.Entities["books"]
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	cases := []struct {
		name  string
		item  map[string]types.AttributeValue
		claim bool
		row   string // the row, columns sorted, when claimed
	}{
		{"a book", map[string]types.AttributeValue{"Id": n("7"), "_et": s("Book"), "owner": s("O#ann"), "title": s("Go")},
			true, "Id=7 owner=ann title=Go"},
		{"a book without its sparse index key", map[string]types.AttributeValue{"Id": n("7"), "title": s("Go")},
			true, "Id=7 title=Go"},
		{"another entity's type", map[string]types.AttributeValue{"Id": n("7"), "_et": s("Bicycle")},
			false, ""},
		{"an index key of another shape", map[string]types.AttributeValue{"Id": n("7"), "owner": s("ann")},
			false, ""},
		{"a key of another type", map[string]types.AttributeValue{"Id": s("7"), "title": s("Go")},
			false, ""},
	}
	for _, c := range cases {
		row, ok := books.Claim(c.item)
		if ok != c.claim {
			t.Errorf("%s: Claim = %v, want %v", c.name, ok, c.claim)
		}
		if !ok {
			continue
		}
		var cols []string
		for _, col := range slices.Sorted(maps.Keys(row)) {
			cols = append(cols, col+"="+value.Text(row[col]))
		}
		if got := strings.Join(cols, " "); got != c.row {
			t.Errorf("%s: Claim's row = %s, want %s", c.name, got, c.row)
		}
		if decoded := books.Decode(c.item); !maps.EqualFunc(row, decoded, func(a, b value.Value) bool { return value.Text(a) == value.Text(b) }) {
			t.Errorf("%s: Claim's row %v differs from Decode's %v", c.name, row, decoded)
		}
	}
}

func TestItemWritesTheTypeAndLeavesASparseIndexWhenItsColumnsAreNull(t *testing.T) {
	m, err := mapping.Parse("typed.yaml", []byte(typed))
	if err != nil {
		t.Fatal(err)
	}
	books := m.Entities["books"]
	owned, err := books.Item(mapping.Row{"Id": value.Number("7"), "title": "Go", "owner": "ann"})
	if err != nil {
		t.Fatal(err)
	}
	if got := attrs(owned); got != `Id=7 Id2=7 _et="Book" owner="O#ann" title="Go"` {
		t.Errorf("item with an owner: %s", got)
	}
	alone, err := books.Item(mapping.Row{"Id": value.Number("8"), "title": "Rust"})
	if err != nil {
		t.Fatal(err)
	}
	if got := attrs(alone); got != `Id=8 _et="Book" title="Rust"` {
		t.Errorf("item without an owner (not in BYOWNER): %s", got)
	}
	if _, err := books.Item(mapping.Row{"title": "no id"}); err == nil || !strings.Contains(err.Error(), "needs a value for Id") {
		t.Errorf("a missing base key column: %v", err)
	}
}

// attrs prints an item's attributes by name.
func attrs(item map[string]types.AttributeValue) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(item)) {
		parts = append(parts, k+"="+value.Literal(value.FromAttr(item[k])))
	}
	return strings.Join(parts, " ")
}

// Typed entities whose keys overlap can share a global index only if it
// projects the type: through it nothing else tells their items apart. An
// entity that holds the index's key attributes as plain columns is in
// the index too. Each mapping below was accepted before, and read one
// entity's items as the other's through the index.
func TestATypeOnlyIndexMustProjectTheType(t *testing.T) {
	const shared = `
table: Things
partition_key: PK
sort_key: SK
type_attribute: T
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK, projection: PROJ}
entities:
  users:
    type: U
    keys: {PK: "{id}", SK: "{kind}", GSI1PK: "{status}", GSI1SK: "{id}"}
    columns: {id: S, kind: S, status: S}
  notes:
    type: N
    NOTES
`
	for _, c := range []struct {
		proj, notes string
		refused     bool
	}{
		{"KEYS_ONLY", `keys: {PK: "{nid}", SK: "{k}", GSI1PK: "{tag}", GSI1SK: "{nid}"}
    columns: {nid: S, k: S, tag: S}`, true},
		{"KEYS_ONLY", `keys: {PK: "{nid}", SK: "{k}"}
    columns: {nid: S, k: S, GSI1PK: S, GSI1SK: S}`, true},
		{"ALL", `keys: {PK: "{nid}", SK: "{k}", GSI1PK: "{tag}", GSI1SK: "{nid}"}
    columns: {nid: S, k: S, tag: S}`, false},
	} {
		text := strings.NewReplacer("PROJ", c.proj, "NOTES", c.notes).Replace(shared)
		_, err := mapping.Parse("shared.yaml", []byte(text))
		if refused := err != nil && strings.Contains(err.Error(), "does not project T"); refused != c.refused {
			t.Errorf("%s, notes %s: got %v, want refused %v", c.proj, c.notes, err, c.refused)
		}
	}
}

// An item's identity holds each key value apart: two keys whose values
// read alike laid end to end with a separator are two items.
func TestItemIDsOfDifferentKeysDiffer(t *testing.T) {
	m, err := mapping.Parse("pair.yaml", []byte(`
table: Things
partition_key: PK
sort_key: SK
entities:
  things:
    keys: {PK: "{a}", SK: "{b}"}
    columns: {a: S, b: S}
`))
	if err != nil {
		t.Fatal(err)
	}
	key := func(pk, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
	}
	if m.ItemID(key("a\x00SK=b", "c")) == m.ItemID(key("a", "b\x00SK=c")) {
		t.Error("two items have one identity")
	}
	if one, again := key("a", "b"), key("a", "b"); m.ItemID(one) != m.ItemID(again) {
		t.Error("one item has two identities")
	}
	if got := m.KeyText(key("a", "b")); got != "PK=a, SK=b" {
		t.Errorf("KeyText = %q, want PK=a, SK=b", got)
	}
}
