package mapping_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

const casedHead = `
table: People
partition_key: pk
sort_key: sk
indexes:
  byNum: {partition_key: gpk, sort_key: n}
entities:
  people:
`

// key_casing written as one word applies to every string key; as a map,
// to the keys it names. Its mistakes are refused, naming the field.
func TestKeyCasingIsCheckedAndApplied(t *testing.T) {
	m, err := mapping.Parse("t.yaml", []byte(casedHead+`    key_casing: lower
    keys: {pk: "$app#person_{id}", sk: "$person_1", gpk: "$app#team_{team}", n: "{n}"}
    columns: {id: S, team: S, n: N, name: S}
`))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := m.Entity("people")
	for attr, want := range map[string]string{"pk": "lower", "sk": "lower", "gpk": "lower", "n": ""} {
		if got := e.Key(attr).Case; got != want {
			t.Errorf("%s: Case %q, want %q", attr, got, want)
		}
	}
	if got := e.FoldedColumns(); strings.Join(got, ",") != "id,team" {
		t.Errorf("FoldedColumns = %v, want [id team]", got)
	}
	item, err := e.Item(mapping.Row{"id": "JLowe", "team": "Dev Ops", "n": value.Number("7"), "name": "Jim"})
	if err != nil {
		t.Fatal(err)
	}
	for attr, want := range map[string]string{"pk": "$app#person_jlowe", "gpk": "$app#team_dev ops", "id": "JLowe", "team": "Dev Ops"} {
		if got := mapping.Text(item[attr]); got != want {
			t.Errorf("item %s = %q, want %q", attr, got, want)
		}
	}
	// The row comes from the attributes; the key gives no value.
	if row, ok := e.Claim(item); !ok || row["id"] != "JLowe" || row["team"] != "Dev Ops" {
		t.Errorf("Claim = %v, %v; want id JLowe, team Dev Ops", row, ok)
	}
	if err := e.CaseMisfit(item); err != nil {
		t.Errorf("CaseMisfit of its own item: %v", err)
	}
	item["id"] = &types.AttributeValueMemberS{Value: "Jim"}
	if err := e.CaseMisfit(item); err == nil || !strings.Contains(err.Error(), `has id = "Jim", but its key pk holds "jlowe", not "jim"`) {
		t.Errorf("CaseMisfit of an item whose id disagrees with its key: %v", err)
	}

	for name, c := range map[string]struct{ entity, field, want string }{
		"unknown key": {`    key_casing: {gsi9: lower}
    keys: {pk: "P#{id}", sk: "S"}
    columns: {id: S}`, "entities.people.key_casing.gsi9", "gsi9 is not among the keys of people"},
		"unknown case": {`    key_casing: {pk: title}
    keys: {pk: "P#{id}", sk: "S"}
    columns: {id: S}`, "entities.people.key_casing.pk", `"title" is not lower, upper or none`},
		"number key": {`    key_casing: {n: lower}
    keys: {pk: "P#{id}", sk: "S", gpk: "G", n: "{n}"}
    columns: {id: S, n: N}`, "entities.people.key_casing.n", "n is a number (N) key; only a string key has a case"},
		"capitals in the literal": {`    key_casing: lower
    keys: {pk: "PERSON#{id}", sk: "s"}
    columns: {id: S}`, "entities.people.key_casing", `write the template as the table holds it: "person#{id}"`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := mapping.Parse("t.yaml", []byte(casedHead+c.entity+"\n"))
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Mapping || !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error()+" hint: "+e.Hint, c.want) {
				t.Errorf("got %v; want a mapping error at %s: %s", err, c.field, c.want)
			}
		})
	}
}

// Copies are found through a key built from their key column: folded, it
// would find the copies of rows that differ from the source in case only.
func TestACopyKeyedByAFoldedColumnIsRefused(t *testing.T) {
	_, err := mapping.Parse("t.yaml", []byte(`
table: Blog
partition_key: pk
sort_key: sk
indexes:
  byAuthor: {partition_key: gpk, sort_key: gsk}
entities:
  users:
    keys: {pk: "user#{id}", sk: "profile"}
    columns: {id: S, name: S}
  posts:
    key_casing: lower
    keys: {pk: "post#{id}", sk: "meta", gpk: "user#{authorId}", gsk: "post#{id}"}
    columns: {id: S, authorId: S, authorName: S}
    copies:
      authorName: {from: users.name, key: authorId}
`))
	if !errors.Is(err, errs.Mapping) || !strings.Contains(err.Error(), "entities.posts.copies.authorName.key") ||
		!strings.Contains(err.Error(), "authorId is held case-folded in the keys of posts") {
		t.Errorf("got %v; want the copy refused, naming its key", err)
	}
}

// A value whose case-folded text JavaScript (ElectroDB) spells otherwise
// than Go cannot be rendered into such a key: a lookup by it must fail,
// not find nothing.
func TestAValueOfUnsureCaseIsNoKey(t *testing.T) {
	m, err := mapping.Parse("t.yaml", []byte(casedHead+`    key_casing: {pk: lower, gpk: upper}
    keys: {pk: "p#{id}", sk: "S", gpk: "G#{team}", n: "{n}"}
    columns: {id: S, team: S, n: N}
`))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := m.Entity("people")
	for attr, v := range map[string]string{"pk": "İpek", "gpk": "Straße"} {
		_, err := e.Key(attr).Value(mapping.Row{"id": v, "team": v})
		var ce *mapping.CaseError
		if !errors.As(err, &ce) {
			t.Errorf("%s of %q: %v; want a CaseError", attr, v, err)
		}
	}
	if av, err := e.Key("pk").Value(mapping.Row{"id": "Ωmega"}); err != nil || mapping.Text(av) != "p#ωmega" {
		t.Errorf("pk of Ωmega: %v, %v; want p#ωmega", av, err)
	}
}
