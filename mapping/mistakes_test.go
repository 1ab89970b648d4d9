package mapping_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

// parseNoPanic parses src, turning a panic into a test failure.
func parseNoPanic(t *testing.T, src string) (m *mapping.Mapping, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Parse panicked: %v", r)
		}
	}()
	return mapping.Parse("mistake.yaml", []byte(src))
}

// An entity or an index left empty in the file (a name and a colon,
// nothing under it) decodes as a nil pointer: Parse must refuse it,
// naming it, not panic.
func TestAnEmptyEntityOrIndexIsRefusedNotAPanic(t *testing.T) {
	for name, src := range map[string]string{
		"entities.students": "table: School\npartition_key: PK\nentities:\n  students:\n",
		"indexes.GSI1": "table: School\npartition_key: PK\nindexes:\n  GSI1:\nentities:\n" +
			"  students:\n    keys: {PK: \"S#{id}\"}\n    columns: {id: S}\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseNoPanic(t, src)
			if err == nil || !errors.Is(err, errs.Mapping) || !strings.Contains(err.Error(), name) {
				t.Errorf("Parse = %v; want a mapping error naming %s", err, name)
			}
		})
	}
}

// YAML reads an unquoted 001, 1.50, 0x10, 010 or 1_000 as a number, and
// the decoder turns that number back into text that is not what the
// file says. A key template SK: 001 then renders "1": every lookup
// misses the items stored under "001", and INSERT writes "1". The
// file's text must be kept, or the mapping refused with a hint to quote.
func TestUnquotedNumbersKeepTheirText(t *testing.T) {
	const src = `
table: School
partition_key: PK
sort_key: SK
type_attribute: ET
entities:
  students:
    type: 0x10
    keys: {PK: "STU#{id}", SK: 001}
    columns: {id: S, 010: S}
  courses:
    type: 1_000
    keys: {PK: "CRS#{id}", SK: 1.50}
    columns: {id: S}
`
	m, err := parseNoPanic(t, src)
	if err != nil {
		if e := errs.As(err); e != nil && strings.Contains(e.Message+e.Hint, "quote") {
			return // refused, with a hint to quote: fine
		}
		t.Fatalf("refused without saying to quote: %v", err)
	}
	st, _ := m.Entity("students")
	co, _ := m.Entity("courses")
	for _, c := range []struct{ what, got, want string }{
		{"students SK template", st.Key("SK").Raw, "001"},
		{"courses SK template", co.Key("SK").Raw, "1.50"},
		{"students type", st.Type, "0x10"},
		{"courses type", co.Type, "1_000"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, the file says %s", c.what, c.got, c.want)
		}
	}
	if _, ok := st.Columns["010"]; !ok {
		t.Errorf("students columns = %v, the file says 010", st.Columns)
	}
}

// A copy column declared with another type than its source column loads;
// the fan-out then writes the source's string into a number column
// ('Ann' in authorName: N), which no comparison with a number finds and
// a comparison with a string is refused.
func TestACopyOfAnotherTypeIsRefused(t *testing.T) {
	const blog = `
table: Blog
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  users:
    keys: {PK: "USER#{id}", SK: "PROFILE"}
    columns: {id: S, name: S}
  posts:
    keys: {PK: "POST#{id}", SK: "META", GSI1PK: "USER#{authorId}", GSI1SK: "POST#{id}"}
    columns: {id: S, authorId: S, authorName: N, title: S}
    copies:
      authorName: {from: users.name, key: authorId}
`
	_, err := parseNoPanic(t, blog)
	if err == nil || !strings.Contains(err.Error(), "entities.posts.copies.authorName") {
		t.Errorf("Parse = %v; want a refusal naming entities.posts.copies.authorName (N copy of an S column)", err)
	}
}

// DynamoDB takes no key schema that names one attribute twice
// ("Two keys can not have the same name"); the mapping loads, and the
// error comes later from CreateTable or GetItem, with a hint to report
// a dynosql bug.
func TestAKeySchemaNamingOneAttributeTwiceIsRefused(t *testing.T) {
	for name, src := range map[string]string{
		"sort_key": "table: Same\npartition_key: PK\nsort_key: PK\nentities:\n  things:\n    keys: {PK: \"T#{id}\"}\n    columns: {id: S}\n",
		"indexes.GS1": "table: Same\npartition_key: PK\nsort_key: SK\nindexes:\n  GS1: {partition_key: SK, sort_key: SK}\n" +
			"entities:\n  things:\n    keys: {PK: \"T#{id}\", SK: \"X#{x}\"}\n    columns: {id: S, x: S}\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseNoPanic(t, src)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("Parse = %v; want a refusal naming %s", err, name)
			}
		})
	}
}

// A plain column named like an index key attribute (an entity that is
// in the index by holding the attribute itself) must have the key
// attribute's type: GSI1PK is a string key (the users' template makes
// it one), and notes.GSI1PK: N makes every INSERT of a note fail at
// DynamoDB ("Type mismatch for Index Key", with a hint to report a
// dynosql bug). A BOOL, L or M column there can never be a key.
func TestAPlainColumnNamedLikeAKeyAttributeHasItsType(t *testing.T) {
	const src = `
table: PlainN
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  users:
    keys: {PK: "USER#{id}", SK: "PROFILE", GSI1PK: "ORG#{org}", GSI1SK: "USER#{id}"}
    columns: {id: S, org: S}
  notes:
    keys: {PK: "NOTE#{id}", SK: "META"}
    columns: {id: S, GSI1PK: TYPE, GSI1SK: S}
`
	for _, typ := range []string{"N", "BOOL", "L"} {
		_, err := parseNoPanic(t, strings.Replace(src, "TYPE", typ, 1))
		if err == nil || !strings.Contains(err.Error(), "entities.notes.columns.GSI1PK") {
			t.Errorf("GSI1PK: %s: Parse = %v; want a refusal naming entities.notes.columns.GSI1PK", typ, err)
		}
	}
}

// An empty file is refused as "mapping x.yaml: EOF".
func TestAnEmptyFileSaysSo(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n", "---\n"} {
		_, err := parseNoPanic(t, src)
		if err == nil || strings.HasSuffix(err.Error(), "EOF") {
			t.Errorf("Parse(%q) = %v; want a message saying the file is empty", src, err)
		}
	}
}

// SK: True loaded as the template "true"; a second YAML document was
// ignored without a word.
func TestBooleansAndSecondDocuments(t *testing.T) {
	const base = "table: School\npartition_key: PK\nsort_key: SK\nentities:\n  students:\n    keys: {PK: \"S#{id}\", SK: SKT}\n    columns: {id: S}\n    open: True\n"
	if m, err := parseNoPanic(t, strings.Replace(base, "SKT", "True", 1)); err == nil {
		if st, _ := m.Entity("students"); st.Key("SK").Raw != "True" {
			t.Errorf("SK: True loaded as the template %q", st.Key("SK").Raw)
		}
	}
	if _, err := parseNoPanic(t, strings.Replace(base, "SKT", "P", 1)); err != nil {
		t.Errorf("open: True is a boolean: %v", err)
	}
	if _, err := parseNoPanic(t, strings.Replace(base, "SKT", "P", 1)+"---\ntable: Other\n"); err == nil {
		t.Error("a second YAML document loaded without a word")
	}
}

// A YAML error names the line and column, and only that: the source
// excerpt go-yaml can add ran together with it on one line.
func TestAYAMLErrorIsOneClearLine(t *testing.T) {
	_, err := parseNoPanic(t, "table: T\npartition_key: PK\nentities:\n  a:\n    keys: {PK: \"A#{id}\"}\n    colums: {id: S}\n")
	if err == nil || err.Error() != `mapping mistake.yaml: [6:5] unknown field "colums"` {
		t.Errorf("error %v, want the line, column and field only", err)
	}
}

// Only a boolean given to open, local or scan skips the number check:
// an entity named scan has its templates checked like any other.
func TestAnEntityNamedLikeAFlagHasItsNumbersChecked(t *testing.T) {
	_, err := parseNoPanic(t, "table: T\npartition_key: PK\nsort_key: SK\nentities:\n  scan:\n    keys: {PK: \"S#{id}\", SK: 001}\n    columns: {id: S}\n")
	if err == nil || !strings.Contains(err.Error(), "YAML reads 001 as 1") {
		t.Errorf("SK: 001 under an entity named scan: %v, want refused", err)
	}
}
