// Package mapping reads and checks the file that describes how logical
// tables (entities) are laid out in one DynamoDB table: key templates,
// column types, indexes and denormalized copies.
package mapping

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
)

// Column types a mapping may declare.
var columnTypes = []string{"S", "N", "BOOL", "SS", "NS", "L", "M"}

// Base is the name used for the base table where an index name is expected.
const Base = ""

// Mapping is a loaded and checked mapping file.
type Mapping struct {
	Source       string            `yaml:"-"` // where it was read from, for messages
	Table        string            `yaml:"table"`
	PartitionKey string            `yaml:"partition_key"`
	SortKey      string            `yaml:"sort_key"`
	Indexes      map[string]*Index `yaml:"indexes"`
	Entities     map[string]*Entity
}

// Index is a global secondary index of the table.
type Index struct {
	Name         string `yaml:"-"`
	PartitionKey string `yaml:"partition_key"`
	SortKey      string `yaml:"sort_key"`
	// Projection is ALL, KEYS_ONLY or INCLUDE. When the file leaves it out
	// it is ALL until CheckTable reads the real one from DescribeTable.
	Projection string   `yaml:"projection"`
	Include    []string `yaml:"include"` // attributes an INCLUDE index carries
}

// Entity is one logical table.
type Entity struct {
	Name      string               `yaml:"-"`
	Keys      map[string]string    `yaml:"keys"`    // key attribute → template text
	Columns   map[string]string    `yaml:"columns"` // column → DynamoDB type
	CopySpecs map[string]copySpec  `yaml:"copies"`
	Templates map[string]*Template `yaml:"-"` // key attribute → parsed template
	Copies    map[string]*Copy     `yaml:"-"` // column → where its value comes from
	keyCols   map[string]bool      `yaml:"-"`
	paths     []*AccessPath        `yaml:"-"`
}

type copySpec struct {
	From string `yaml:"from"`
	Key  string `yaml:"key"`
}

// Copy says that a column holds a denormalized copy of another entity's
// column: Column = Source.SourceColumn where Source's key column = KeyColumn.
type Copy struct {
	Column       string
	Source       *Entity
	SourceColumn string
	KeyColumn    string
	// Path is how the copies of one source item are found without a Scan:
	// an access path of this entity keyed by KeyColumn alone.
	Path *AccessPath
}

// AccessPath is one way to reach an entity's items: the base table or an
// index for which the entity defines both key templates.
type AccessPath struct {
	Index  string // "" for the base table
	PKAttr string
	SKAttr string // "" when the table or index has no sort key
	PK     *Template
	SK     *Template // nil when SKAttr is ""
}

// IsBase reports whether the path is the base table.
func (p *AccessPath) IsBase() bool { return p.Index == Base }

// Load reads and checks a mapping file (YAML or JSON).
func Load(path string) (*Mapping, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errs.New(errs.Mapping, "cannot read mapping file: %v", err).
			WithHint("give the path of a mapping file with --mapping or DYNOSQL_MAPPING")
	}
	return Parse(path, data)
}

// Parse reads and checks a mapping from data; source names it in messages.
func Parse(source string, data []byte) (*Mapping, error) {
	var m Mapping
	dec := yaml.NewDecoder(bytes.NewReader(data), yaml.DisallowUnknownField())
	if err := dec.Decode(&m); err != nil {
		return nil, errs.New(errs.Mapping, "mapping %s: %s", source, oneLine(yaml.FormatError(err, false, true)))
	}
	m.Source = source
	if err := m.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.TrimSpace(s)), " ")
}

// fail builds a mapping error naming the file and the place in it.
func (m *Mapping) fail(where, format string, args ...any) *errs.Error {
	return errs.New(errs.Mapping, "mapping %s: %s: %s", m.Source, where, fmt.Sprintf(format, args...))
}

func (m *Mapping) check() error {
	if m.Table == "" {
		return m.fail("table", "missing: name the DynamoDB table")
	}
	if m.PartitionKey == "" {
		return m.fail("partition_key", "missing: name the table's partition key attribute")
	}
	if len(m.Entities) == 0 {
		return m.fail("entities", "no entities: describe at least one logical table")
	}
	for name, ix := range m.Indexes {
		ix.Name = name
		if ix.PartitionKey == "" {
			return m.fail("indexes."+name, "missing partition_key")
		}
		switch ix.Projection {
		case "":
			ix.Projection = "ALL"
		case "ALL", "KEYS_ONLY", "INCLUDE":
		default:
			return m.fail("indexes."+name+".projection", "%q is not ALL, KEYS_ONLY or INCLUDE", ix.Projection)
		}
	}
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		e.Name = name
		if err := m.checkEntity(e); err != nil {
			return err
		}
	}
	for _, name := range m.IndexNames() {
		used := false
		for _, e := range m.Entities {
			for _, p := range e.paths {
				used = used || p.Index == name
			}
		}
		if !used {
			return m.fail("indexes."+name, "no entity defines keys for this index (%s)", m.Indexes[name].PartitionKey).
				WithHint("give an entity a %s template, or remove the index from the mapping", m.Indexes[name].PartitionKey)
		}
	}
	if err := m.checkDistinct(); err != nil {
		return err
	}
	for _, name := range m.EntityNames() {
		if err := m.checkCopies(m.Entities[name]); err != nil {
			return err
		}
	}
	return nil
}

func (m *Mapping) checkEntity(e *Entity) error {
	where := "entities." + e.Name
	if len(e.Columns) == 0 {
		return m.fail(where+".columns", "no columns")
	}
	for col, typ := range e.Columns {
		if !slices.Contains(columnTypes, typ) {
			return m.fail(where+".columns."+col, "type %q is not one of %s", typ, strings.Join(columnTypes, ", "))
		}
	}
	e.Templates = map[string]*Template{}
	e.keyCols = map[string]bool{}
	for attr, raw := range e.Keys {
		if !m.isKeyAttr(attr) {
			return m.fail(where+".keys."+attr, "%s is not a key attribute of %s or of its indexes", attr, m.Table)
		}
		t, err := ParseTemplate(raw)
		if err != nil {
			return m.fail(where+".keys."+attr, "%v", err)
		}
		for _, col := range t.Columns() {
			typ, ok := e.Columns[col]
			if !ok {
				return m.fail(where+".keys."+attr, "unknown column %s in template %q; declare it under columns", col, raw)
			}
			if typ != "S" && typ != "N" {
				return m.fail(where+".keys."+attr, "column %s is %s; only S and N columns can be part of a key", col, typ)
			}
			e.keyCols[col] = true
		}
		e.Templates[attr] = t
	}
	if e.Templates[m.PartitionKey] == nil {
		return m.fail(where+".keys", "missing a template for the partition key %s", m.PartitionKey)
	}
	if m.SortKey != "" && e.Templates[m.SortKey] == nil {
		return m.fail(where+".keys", "missing a template for the sort key %s", m.SortKey)
	}
	e.paths = []*AccessPath{m.path(e, Base, m.PartitionKey, m.SortKey)}
	for _, name := range m.IndexNames() {
		ix := m.Indexes[name]
		hasPK, hasSK := e.Templates[ix.PartitionKey] != nil, ix.SortKey == "" || e.Templates[ix.SortKey] != nil
		switch {
		case hasPK && hasSK:
			e.paths = append(e.paths, m.path(e, name, ix.PartitionKey, ix.SortKey))
		case hasPK || (ix.SortKey != "" && e.Templates[ix.SortKey] != nil):
			return m.fail(where+".keys", "defines only one of %s's keys (%s, %s); give both or neither", name, ix.PartitionKey, ix.SortKey)
		}
	}
	return nil
}

func (m *Mapping) path(e *Entity, index, pk, sk string) *AccessPath {
	p := &AccessPath{Index: index, PKAttr: pk, SKAttr: sk, PK: e.Templates[pk]}
	if sk != "" {
		p.SK = e.Templates[sk]
	}
	return p
}

func (m *Mapping) isKeyAttr(attr string) bool {
	if attr == m.PartitionKey || (attr == m.SortKey && attr != "") {
		return true
	}
	for _, ix := range m.Indexes {
		if attr == ix.PartitionKey || (attr == ix.SortKey && attr != "") {
			return true
		}
	}
	return false
}

// checkDistinct refuses two entities whose items could share a partition
// and not be told apart by their base-table keys.
func (m *Mapping) checkDistinct() error {
	names := m.EntityNames()
	for i, a := range names {
		for _, b := range names[i+1:] {
			ea, eb := m.Entities[a], m.Entities[b]
			if !mayOverlap(ea.Templates[m.PartitionKey], eb.Templates[m.PartitionKey]) {
				continue
			}
			if m.SortKey != "" && !mayOverlap(ea.Templates[m.SortKey], eb.Templates[m.SortKey]) {
				continue
			}
			return m.fail("entities."+a, "items of %s and %s cannot be told apart by their keys (%s)", a, b, m.baseKeyText(ea)).
				WithHint("give one of them a distinct literal prefix in its %s template", m.keyNames())
		}
	}
	return nil
}

func (m *Mapping) keyNames() string {
	if m.SortKey == "" {
		return m.PartitionKey
	}
	return m.SortKey
}

func (m *Mapping) baseKeyText(e *Entity) string {
	s := m.PartitionKey + " = " + e.Templates[m.PartitionKey].Raw
	if m.SortKey != "" {
		s += ", " + m.SortKey + " = " + e.Templates[m.SortKey].Raw
	}
	return s
}

func (m *Mapping) checkCopies(e *Entity) error {
	e.Copies = map[string]*Copy{}
	for col, spec := range e.CopySpecs {
		where := "entities." + e.Name + ".copies." + col
		if _, ok := e.Columns[col]; !ok {
			return m.fail(where, "unknown column %s; declare it under columns", col)
		}
		srcName, srcCol, ok := strings.Cut(spec.From, ".")
		src := m.Entities[srcName]
		if !ok || src == nil {
			return m.fail(where+".from", "%q is not entity.column of this mapping", spec.From)
		}
		if _, ok := src.Columns[srcCol]; !ok {
			return m.fail(where+".from", "entity %s has no column %s", srcName, srcCol)
		}
		if _, ok := e.Columns[spec.Key]; !ok {
			return m.fail(where+".key", "unknown column %q in %s", spec.Key, e.Name)
		}
		srcKey := src.Templates[m.PartitionKey].Columns()
		if m.SortKey != "" {
			srcKey = append(srcKey, src.Templates[m.SortKey].Columns()...)
		}
		if len(srcKey) != 1 {
			return m.fail(where+".from", "%s is keyed by %v; a copy needs a source keyed by one column", srcName, srcKey)
		}
		c := &Copy{Column: col, Source: src, SourceColumn: srcCol, KeyColumn: spec.Key}
		for _, p := range e.paths {
			if cols := p.PK.Columns(); len(cols) == 1 && cols[0] == spec.Key {
				c.Path = p
				break
			}
		}
		if c.Path == nil {
			return m.fail(where, "the copies of %s.%s could only be found with a Scan: no key or index of %s is keyed by %s alone",
				srcName, srcCol, e.Name, spec.Key).
				WithHint("add an index whose partition key template is built from {%s} only", spec.Key)
		}
		e.Copies[col] = c
	}
	return nil
}

// EntityNames returns the entity names, sorted.
func (m *Mapping) EntityNames() []string {
	return slices.Sorted(maps.Keys(m.Entities))
}

// IndexNames returns the index names, sorted.
func (m *Mapping) IndexNames() []string {
	return slices.Sorted(maps.Keys(m.Indexes))
}

// Entity returns the entity called name, or an error that suggests the
// nearest name.
func (m *Mapping) Entity(name string) (*Entity, error) {
	if e, ok := m.Entities[name]; ok {
		return e, nil
	}
	err := errs.New(errs.Invalid, "unknown table %s", name)
	if near := errs.Nearest(name, m.EntityNames()); near != "" {
		err.Message += "; did you mean " + near + "?"
	} else {
		err.WithHint("the mapping %s defines: %s", m.Source, strings.Join(m.EntityNames(), ", "))
	}
	return nil, err
}

// KeyAttrs returns every key attribute name of the table and its indexes.
func (m *Mapping) KeyAttrs() []string {
	attrs := []string{m.PartitionKey}
	if m.SortKey != "" {
		attrs = append(attrs, m.SortKey)
	}
	for _, n := range m.IndexNames() {
		ix := m.Indexes[n]
		attrs = append(attrs, ix.PartitionKey)
		if ix.SortKey != "" {
			attrs = append(attrs, ix.SortKey)
		}
	}
	return dedupe(attrs)
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// ColumnNames returns the entity's columns, sorted, with the columns of its
// base key first in template order: the order SELECT * prints.
func (e *Entity) ColumnNames() []string {
	var cols []string
	for _, p := range e.paths[:1] {
		cols = append(cols, p.PK.Columns()...)
		if p.SK != nil {
			cols = append(cols, p.SK.Columns()...)
		}
	}
	cols = dedupe(cols)
	var rest []string
	for c := range e.Columns {
		if !slices.Contains(cols, c) {
			rest = append(rest, c)
		}
	}
	sort.Strings(rest)
	return append(cols, rest...)
}

// IsKeyColumn reports whether col is written in one of the entity's key
// templates. Such a column is read from the key, and may not appear in a
// DynamoDB filter (filters cannot name key attributes).
func (e *Entity) IsKeyColumn(col string) bool { return e.keyCols[col] }

// Paths returns the entity's access paths: the base table first, then
// each index it takes part in, by name.
func (e *Entity) Paths() []*AccessPath { return e.paths }

// Column returns the type of col, or an error that names the entity and
// suggests the nearest column.
func (e *Entity) Column(col string) (string, error) {
	if t, ok := e.Columns[col]; ok {
		return t, nil
	}
	names := e.ColumnNames()
	err := errs.New(errs.Invalid, "unknown column %s in %s", col, e.Name)
	if near := errs.Nearest(col, names); near != "" {
		err.Message += "; did you mean " + near + "?"
	} else {
		err.WithHint("%s has columns: %s", e.Name, strings.Join(names, ", "))
	}
	return "", err
}

// Convert checks that v fits the column's type, turning a string that
// spells a number into a Number for N columns read from keys. It returns
// an error naming the column otherwise.
func (e *Entity) Convert(col string, v value.Value) (value.Value, error) {
	typ := e.Columns[col]
	if v == nil {
		return nil, nil
	}
	got := value.TypeName(v)
	if got == typ {
		return v, nil
	}
	if typ == "N" {
		if s, ok := v.(string); ok {
			if n, ok := value.ParseNumber(s); ok {
				return n, nil
			}
		}
	}
	if typ == "L" && got == "SS" {
		return v, nil
	}
	return nil, errs.New(errs.Invalid, "column %s.%s is %s, got %s %s", e.Name, col, typ, got, value.Literal(v))
}
