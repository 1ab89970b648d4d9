package mapping_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/mapping"
)

// A global index keyed on one of the table's own key attributes (the
// table's partition key with another sort key, a GSI added where an LSI
// no longer can be; AWS's overloaded index on the sort key and a Data
// attribute) holds only the entities that carry its other key: every
// entity defines the table's keys, so one without the other key is not
// in the index, not a mapping that "defines only one of its keys". An
// entity that defines an index key of its own accord still must define
// both.
func TestAGlobalIndexOnATableKeyLeavesOutEntitiesWithoutItsOtherKey(t *testing.T) {
	const ok = `
table: ListAll
partition_key: PK
sort_key: SK
indexes:
  ByCreated: {partition_key: PK, sort_key: created}
  GSI1: {partition_key: SK, sort_key: Data}
  GSI2: {partition_key: GSI2PK, sort_key: SK}
entities:
  users:
    keys: {PK: "U#{user}", SK: "PROFILE"}
    columns: {user: S, name: S}
  notes:
    keys: {PK: "U#{user}", SK: "NOTE#{id}", created: "{created}", Data: "{title}", GSI2PK: "T#{tag}"}
    columns: {user: S, id: S, created: S, title: S, tag: S}
`
	m, err := mapping.Parse("ok.yaml", []byte(ok))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	indexes := func(name string) []string {
		e, err := m.Entity(name)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, p := range e.Paths() {
			if !p.IsBase() {
				s = append(s, p.Index)
			}
		}
		slices.Sort(s)
		return s
	}
	if got := indexes("users"); len(got) != 0 {
		t.Errorf("users are in %v; want no index", got)
	}
	if got, want := indexes("notes"), []string{"ByCreated", "GSI1", "GSI2"}; !slices.Equal(got, want) {
		t.Errorf("notes are in %v; want %v", got, want)
	}
	half := strings.Replace(ok, `keys: {PK: "U#{user}", SK: "PROFILE"}`, `keys: {PK: "U#{user}", SK: "PROFILE", GSI3PK: "X#{user}"}`, 1)
	half = strings.Replace(half, "  GSI2: {partition_key: GSI2PK, sort_key: SK}", "  GSI2: {partition_key: GSI2PK, sort_key: SK}\n  GSI3: {partition_key: GSI3PK, sort_key: GSI3SK}", 1)
	if _, err := mapping.Parse("half.yaml", []byte(half)); err == nil || !strings.Contains(err.Error(), "defines only one of GSI3's keys") {
		t.Errorf("an entity defining GSI3PK without GSI3SK: Parse = %v; want it refused", err)
	}
}
