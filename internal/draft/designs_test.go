package draft_test

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/draft"
	"github.com/dynosql/dynosql/mapping"
)

// designItems returns the items a shipped design's dataset stores, the
// description of the table its mapping creates, and the mapping.
func designItems(t *testing.T, name string) (*types.TableDescription, []draft.Item, *mapping.Mapping) {
	t.Helper()
	m, err := mapping.Load(filepath.Join("..", "..", "testdata", name, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("..", "..", "testdata", name, "data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	rows, err := backend.ReadDataset(f, m)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]draft.Item, 0, len(rows))
	for _, r := range rows {
		it, err := backend.Item(m, r)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	return describe(m.CreateTableInput()), items, m
}

// draftAndLoad drafts a mapping from every item given, as from one Scan,
// and loads it.
func draftAndLoad(t *testing.T, desc *types.TableDescription, items []draft.Item) (*mapping.Mapping, []byte) {
	t.Helper()
	out, err := draft.Draft(draft.FromSample(desc, items, draft.Cost{Requests: 1}))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse("draft", out)
	if err != nil {
		t.Fatalf("the draft does not load: %v\n%s", err, out)
	}
	return m, out
}

var columnRe = regexp.MustCompile(`\{[^}]*\}`)

// shapes returns, for each entity, its key templates with the column
// names left out (PK=USER#{} SK=PROFILE): what a draft must find again,
// whatever it names the columns.
func shapes(m *mapping.Mapping) []string {
	var out []string
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		var keys []string
		for _, attr := range e.KeyAttrs() {
			keys = append(keys, attr+"="+columnRe.ReplaceAllString(e.Key(attr).Raw, "{}"))
		}
		out = append(out, strings.Join(keys, " "))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A draft of each shipped design, from every item its dataset stores,
// finds the key templates of the design's own mapping, loads, and reads
// every item back as the entity drafted from it. ProductCatalog names
// its items' kind in ProductCategory, which no library uses: its draft
// is one entity where the design has four of the same key shape.
func TestEachShippedDesignIsDraftedBackFromItsItems(t *testing.T) {
	for _, name := range []string{"school", "blog", "battleroyale", "complaints", "onlineshop", "social", "customerorders", "productcatalog"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			desc, items, orig := designItems(t, name)
			m, out := draftAndLoad(t, desc, items)
			if got, want := shapes(m), shapes(orig); !slices.Equal(got, want) {
				t.Errorf("drafted key shapes\n  %s\nwant the design's\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if orig.TypeAttribute != "ProductCategory" && m.TypeAttribute != orig.TypeAttribute {
				t.Errorf("type attribute %q, want %q", m.TypeAttribute, orig.TypeAttribute)
			}
			var all []*mapping.Entity
			for _, n := range m.EntityNames() {
				all = append(all, m.Entities[n])
			}
			for _, it := range items {
				if m.Classify(it, all) == nil {
					t.Fatalf("no entity of the draft reads %v", it)
				}
			}
			if s := string(out); strings.Contains(s, " read as ") || strings.Contains(s, "Left out") {
				t.Errorf("the draft says some items do not fit:\n%s", out)
			}
		})
	}
}

// A draft of ElectroDB's task manager finds the design's own mapping:
// every template ElectroDB's format spells, each column named after the
// attribute its label names, and key_casing lower, which its keys show
// (employee "JLowe" in "$task-manager#employee_jlowe"). The expected
// templates are testdata/taskmanager/mapping.yaml's, written by hand from
// ElectroDB's models; every item is read as its entity and holds its
// attributes as its keys fold them.
func TestADraftOfAnElectroDBTableReadsItsKeyFormat(t *testing.T) {
	desc, items, orig := designItems(t, "taskmanager")
	m, out := draftAndLoad(t, desc, items)
	byType := map[string]*mapping.Entity{}
	var all []*mapping.Entity
	for _, n := range m.EntityNames() {
		byType[m.Entities[n].Type] = m.Entities[n]
		all = append(all, m.Entities[n])
	}
	for _, n := range orig.EntityNames() {
		want := orig.Entities[n]
		got := byType[want.Type]
		if got == nil {
			t.Errorf("no drafted entity of type %s:\n%s", want.Type, out)
			continue
		}
		for _, attr := range want.KeyAttrs() {
			if got.Key(attr) == nil || got.Key(attr).Raw != want.Key(attr).Raw {
				t.Errorf("%s.%s drafted as %v, want %q", n, attr, got.Key(attr), want.Key(attr).Raw)
			}
		}
		if len(got.KeyAttrs()) != len(want.KeyAttrs()) {
			t.Errorf("%s has keys %v, want %v", n, got.KeyAttrs(), want.KeyAttrs())
		}
		if !maps.Equal(got.KeyCasing, want.KeyCasing) {
			t.Errorf("%s has key_casing %v, want %v", n, got.KeyCasing, want.KeyCasing)
		}
		if !maps.Equal(got.Fixed, want.Fixed) {
			t.Errorf("%s has fixed %v, want %v", n, got.Fixed, want.Fixed)
		}
		if !maps.Equal(got.Columns, want.Columns) {
			t.Errorf("%s has columns %v, want %v", n, got.Columns, want.Columns)
		}
	}
	for _, it := range items {
		e := m.Classify(it, all)
		if e == nil || e.Type != it["__edb_e__"].(*types.AttributeValueMemberS).Value {
			t.Fatalf("item %v is read as %v", it, e)
		}
		if err := e.CaseMisfit(it); err != nil {
			t.Errorf("item of %s: %v", e.Name, err)
		}
	}
	if s := string(out); !strings.Contains(s, "# ElectroDB wrote these items (__edb_e__): keys in its format") || strings.Contains(s, "reads them whole") {
		t.Errorf("the draft does not say it read every key in ElectroDB's format:\n%s", out)
	}
}
