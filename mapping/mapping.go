// Package mapping reads and checks the file that describes how logical
// tables (entities) are laid out in one DynamoDB table: key templates,
// column types, indexes and denormalized copies. It owns the key codec
// (key.go): every key attribute value dynosql sends or reads is rendered,
// parsed and compared here, typed S, N or B.
package mapping

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
)

// Column types a mapping may declare.
var columnTypes = []string{"S", "N", "B", "BOOL", "SS", "NS", "L", "M"}

// Base is the name used for the base table where an index name is expected.
const Base = ""

// Mapping is a loaded and checked mapping file.
type Mapping struct {
	Source       string `yaml:"-"` // where it was read from, for messages
	Table        string `yaml:"table"`
	PartitionKey string `yaml:"partition_key"`
	SortKey      string `yaml:"sort_key"` // "" for a table without a sort key
	// TypeAttribute names the attribute that holds each item's entity
	// type (EntityType, _et, __edb_e__), when the design keeps one.
	TypeAttribute string            `yaml:"type_attribute"`
	Indexes       map[string]*Index `yaml:"indexes"`
	Entities      map[string]*Entity
	// Size is what DescribeTable said of the table (zero before
	// CheckTable): shown with a Scan of it.
	Size Size `yaml:"-"`
	// keyTypes holds every key attribute's DynamoDB type: inferred from
	// the templates when loaded, then as DescribeTable says (CheckTable).
	keyTypes map[string]KeyType
	keyAttrs []string // KeyAttrs, set by check once the indexes are known
	// file is the file's YAML, for the line and column of an error
	// found after decoding; nil for a mapping made otherwise.
	file *ast.File
}

// Index is a secondary index of the table.
type Index struct {
	Name         string `yaml:"-"`
	PartitionKey string `yaml:"partition_key"` // a local index's is the table's
	SortKey      string `yaml:"sort_key"`
	// Local marks a local secondary index: it shares the table's
	// partition key and allows strongly consistent reads. CheckTable
	// sets it from DescribeTable too.
	Local bool `yaml:"local"`
	// Scan lets the planner Scan this index (meant for a small sparse
	// index whose Scan is the published access pattern).
	Scan bool `yaml:"scan"`
	// Projection is ALL, KEYS_ONLY or INCLUDE. When the file leaves it out
	// it is ALL until CheckTable reads the real one from DescribeTable.
	Projection string   `yaml:"projection"`
	Include    []string `yaml:"include"` // attributes an INCLUDE index carries
	// Size is what DescribeTable said of the index (zero before
	// CheckTable): shown with a Scan of it.
	Size Size `yaml:"-"`
}

// Size is an item count and a size in bytes as DescribeTable reports
// them (updated by DynamoDB about every six hours).
type Size struct {
	Items int64
	Bytes int64
}

// Entity is one logical table.
type Entity struct {
	Name string `yaml:"-"`
	// Type is the entity's value of the mapping's type attribute.
	Type      string              `yaml:"type"`
	Keys      map[string]string   `yaml:"keys"`    // key attribute → template text
	Columns   map[string]string   `yaml:"columns"` // column → DynamoDB type
	CopySpecs map[string]copySpec `yaml:"copies"`
	// Optional names indexes that only some of the entity's items are in
	// (a sparse index within one entity): a row whose columns for such an
	// index's keys are NULL is written without those key attributes.
	Optional []string `yaml:"optional"`
	// Open lets statements read and write attributes the mapping does
	// not declare, by name, typed by the value they hold.
	Open bool `yaml:"open"`
	// Fixed names attributes that every item of the entity holds with
	// one string value, beside its columns: the model version ElectroDB
	// reads an item as its entity's by (__edb_v__: "1"). dynosql writes
	// them on INSERT and when it rewrites an item under new keys; they
	// are not columns.
	Fixed map[string]string `yaml:"fixed"`
	// KeyCasing names string key attributes that the table's writer
	// lower- or upper-cases whole (ElectroDB does so by default): key
	// attribute → lower, upper or none, or one of those for every
	// string key.
	KeyCasing Casing           `yaml:"key_casing"`
	Copies    map[string]*Copy `yaml:"-"` // column → where its value comes from

	m          *Mapping
	keys       map[string]*Key // key attribute → its key
	keyAttrs   []string        // KeyAttrs, set by checkEntity
	keyCols    map[string]bool
	folded     map[string]bool // Folds
	foldedCols []string        // FoldedColumns
	// numberInText: a number column is written into a string key as
	// text (NumberMisfit has nothing to find otherwise).
	numberInText bool
	baseKeyCols  []string        // BaseKeyColumns
	optAttrs     map[string]bool // key attributes only optional indexes use
	paths        []*AccessPath
	raw          bool // a table read without a mapping (Raw)
}

// Casing is an entity's key_casing: key attribute → case, or, written
// as one word, that case for every string key (under the name "*").
type Casing map[string]string

// UnmarshalYAML reads either form.
func (c *Casing) UnmarshalYAML(unmarshal func(any) error) error {
	var all string
	if err := unmarshal(&all); err == nil {
		*c = Casing{"*": all}
		return nil
	}
	var each map[string]string
	if err := unmarshal(&each); err != nil {
		return err
	}
	*c = each
	return nil
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
	// Copier is the entity that holds the copy.
	Copier *Entity
	// Path is how the copies of one source item are found without a Scan:
	// an access path of Copier keyed by KeyColumn alone.
	Path *AccessPath
}

// AccessPath is one way to reach an entity's items: the base table or an
// index for which the entity defines both key templates.
type AccessPath struct {
	Index  string // "" for the base table
	Local  bool   // a local secondary index
	PKAttr string
	SKAttr string // "" when the table or index has no sort key
	PK     *Key
	SK     *Key // nil when SKAttr is ""
	// Optional marks an index the entity lists as optional: some of its
	// items are not in it.
	Optional bool
}

// IsBase reports whether the path is the base table.
func (p *AccessPath) IsBase() bool { return p.Index == Base }

// Consistent reports whether a strongly consistent read is allowed
// through the path: on the table and local indexes, never on a global one.
func (p *AccessPath) Consistent() bool { return p.IsBase() || p.Local }

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
// The YAML is parsed once: its tree is checked for numbers YAML would
// change, decoded, and kept while the mapping is checked, for the line
// and column of an error.
func Parse(source string, data []byte) (*Mapping, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, errs.New(errs.Mapping, "mapping %s: %s", source, oneLine(yaml.FormatError(err, false, false)))
	}
	body, err := document(source, f)
	if err != nil {
		return nil, err
	}
	var m Mapping
	if err := yaml.NodeToValue(body, &m, yaml.DisallowUnknownField()); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && te.Token != nil {
			// Its own message names Go types: "cannot unmarshal
			// []interface {} into Go struct field Mapping.Entities of type string".
			return nil, errs.New(errs.Mapping, "mapping %s: [%d:%d] %s%s was used where %s is expected", source,
				te.Token.Position.Line, te.Token.Position.Column, keyOf(te.Token), yamlKind(te.SrcType), yamlKind(te.DstType))
		}
		return nil, errs.New(errs.Mapping, "mapping %s: %s", source, oneLine(yaml.FormatError(err, false, false)))
	}
	m.Source, m.file = source, f
	if err := m.check(); err != nil {
		return nil, err
	}
	m.file = nil
	return &m, nil
}

// document returns the one YAML document of f, refusing an empty file,
// several documents, and numbers YAML would read as other text.
func document(source string, f *ast.File) (ast.Node, error) {
	var body ast.Node
	docs := 0
	for _, doc := range f.Docs {
		if doc.Body != nil {
			body = doc.Body
			docs++
		}
	}
	switch {
	case docs == 0:
		return nil, errs.New(errs.Mapping, "mapping %s: the file is empty", source).
			WithHint("describe the table: table, partition_key, sort_key, indexes and entities (README.md, Mapping format)")
	case docs > 1:
		return nil, errs.New(errs.Mapping, "mapping %s: the file holds %d YAML documents; dynosql reads one", source, docs).
			WithHint("remove the --- separators: one mapping file describes one table")
	}
	return body, checkNumbers(source, body)
}

// checkNumbers refuses a number the YAML decoder would turn into other
// text than the file's: every name, template and type of a mapping is
// text, and an unquoted SK: 001 would become the template "1" (so would
// 1.50, 0x10, 010, 1_000), which finds none of the items stored under
// "001". A number whose text stays as written (SK: 0) is left alone.
func checkNumbers(source string, body ast.Node) error {
	var bad *errs.Error
	ast.Walk(numberVisitor(func(tok string, read string, line, col int) {
		if bad == nil {
			bad = errs.New(errs.Mapping, "mapping %s: [%d:%d] YAML reads %s as %s, not as the text written", source, line, col, tok, read).
				WithHint("quote it: %q", tok)
		}
	}), body)
	if bad != nil {
		return bad
	}
	return nil
}

// numberVisitor calls itself with each number or boolean of a YAML tree
// whose decoded text is not its text in the file.
type numberVisitor func(tok, read string, line, col int)

// Visit implements ast.Visitor. A boolean given to open, local or scan
// is one indeed (an entity or index named so is walked like any other).
func (v numberVisitor) Visit(n ast.Node) ast.Visitor {
	var read string
	switch x := n.(type) {
	case *ast.MappingValueNode:
		if _, flag := x.Value.(*ast.BoolNode); flag {
			switch x.Key.GetToken().Value {
			case "open", "local", "scan":
				return nil
			}
		}
		return v
	case *ast.BoolNode:
		read = fmt.Sprint(x.Value)
	case *ast.IntegerNode:
		read = fmt.Sprint(x.Value)
	case *ast.FloatNode:
		read = fmt.Sprint(x.Value)
	case *ast.InfinityNode:
		read = fmt.Sprint(x.Value)
	case *ast.NanNode:
		read = "NaN"
	default:
		return v
	}
	if tok := n.GetToken(); tok != nil && tok.Value != read {
		v(tok.Value, read, tok.Position.Line, tok.Position.Column)
	}
	return v
}

// keyOf returns "key: " for the value token tok of a YAML mapping, or "".
func keyOf(tok *token.Token) string {
	if colon := tok.Prev; colon != nil && colon.Type == token.MappingValueType && colon.Prev != nil {
		return colon.Prev.Value + ": "
	}
	return ""
}

// yamlKind names a Go type of the mapping's structs as YAML calls its values.
func yamlKind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return yamlKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a sequence"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return "a value"
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.TrimSpace(s)), " ")
}

// fail builds a mapping error naming the file and the place in it: the
// line and column, when the file is at hand, and the field's path.
func (m *Mapping) fail(where, format string, args ...any) *errs.Error {
	if line, col := m.position(where); line > 0 {
		return errs.New(errs.Mapping, "mapping %s: [%d:%d] %s: %s", m.Source, line, col, where, fmt.Sprintf(format, args...))
	}
	return errs.New(errs.Mapping, "mapping %s: %s: %s", m.Source, where, fmt.Sprintf(format, args...))
}

// position returns the line and column of the field at path where
// (entities.users.keys.PK), or of the nearest of its parents the file
// holds (the entity whose keys are missing), or 0, 0. A name holding a
// dot (an index G.1) is matched whole.
func (m *Mapping) position(where string) (line, col int) {
	if m.file == nil || len(m.file.Docs) == 0 {
		return 0, 0
	}
	node := m.file.Docs[0].Body
	parts := strings.Split(where, ".")
	for len(parts) > 0 {
		var found *ast.MappingValueNode
		n := 0
		for _, mv := range mappingValues(node) {
			for k := len(parts); k > n; k-- {
				if mv.Key != nil && mv.Key.GetToken() != nil && mv.Key.GetToken().Value == strings.Join(parts[:k], ".") {
					found, n = mv, k
				}
			}
		}
		if found == nil {
			break
		}
		pos := found.Key.GetToken().Position
		line, col = pos.Line, pos.Column
		node, parts = found.Value, parts[n:]
	}
	return line, col
}

// mappingValues returns the key: value pairs of a YAML mapping node.
func mappingValues(node ast.Node) []*ast.MappingValueNode {
	switch n := node.(type) {
	case *ast.MappingNode:
		return n.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{n}
	}
	return nil
}

// EntityNames returns the entity names, sorted.
func (m *Mapping) EntityNames() []string {
	return slices.Sorted(maps.Keys(m.Entities))
}

// EntityList returns the entities in name order.
func (m *Mapping) EntityList() []*Entity {
	out := make([]*Entity, 0, len(m.Entities))
	for _, n := range m.EntityNames() {
		out = append(out, m.Entities[n])
	}
	return out
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
// Reads of open entities ask it of every attribute they meet.
func (m *Mapping) KeyAttrs() []string { return m.keyAttrs }

// allKeyAttrs makes KeyAttrs' list.
func (m *Mapping) allKeyAttrs() []string {
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

// BaseKeyAttrs returns the table's key attribute names: the partition
// key, then the sort key if there is one.
func (m *Mapping) BaseKeyAttrs() []string {
	if m.SortKey == "" {
		return []string{m.PartitionKey}
	}
	return []string{m.PartitionKey, m.SortKey}
}

// KeyType returns a key attribute's DynamoDB type.
func (m *Mapping) KeyType(attr string) KeyType { return m.keyTypes[attr] }

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

// Mapping returns the mapping the entity belongs to.
func (e *Entity) Mapping() *Mapping { return e.m }

// Key returns the entity's key for a key attribute, or nil when the
// entity has no template for it.
func (e *Entity) Key(attr string) *Key { return e.keys[attr] }

// KeyAttrs returns every key attribute the entity has a template for:
// the base table's first, then the others by name.
// The list is made once, when the mapping is checked: every item read
// goes through it.
func (e *Entity) KeyAttrs() []string { return e.keyAttrs }

// sortedKeyAttrs makes KeyAttrs' list from the entity's keys.
func (e *Entity) sortedKeyAttrs() []string {
	attrs := e.m.BaseKeyAttrs()
	for _, attr := range slices.Sorted(maps.Keys(e.keys)) {
		if !slices.Contains(attrs, attr) {
			attrs = append(attrs, attr)
		}
	}
	return attrs
}

// Base returns the entity's base-table access path.
func (e *Entity) Base() *AccessPath { return e.paths[0] }

// BaseKeyColumns returns the columns of the base key templates, in
// template order, each once. The slice is shared: never write into it.
func (e *Entity) BaseKeyColumns() []string { return e.baseKeyCols }

func (e *Entity) baseKeyColumns() []string {
	b := e.Base()
	cols := slices.Clone(b.PK.Columns())
	if b.SK != nil {
		cols = append(cols, b.SK.Columns()...)
	}
	return dedupe(cols)
}

// SetInPlace reports whether UpdateItem can SET key column col as it
// sets any attribute: only indexes are keyed on it, and each key
// attribute that holds it is named after it and holds it alone
// (status: "{status}"). Setting any other key column rewrites the item.
func (e *Entity) SetInPlace(col string) bool {
	if slices.Contains(e.BaseKeyColumns(), col) {
		return false
	}
	found := false
	for _, attr := range e.KeyAttrs() {
		k := e.Key(attr)
		if k == nil || !slices.Contains(k.Columns(), col) {
			continue
		}
		if attr != col || k.Raw != "{"+col+"}" {
			return false
		}
		found = true
	}
	if !found {
		return false
	}
	// An item out of a sparse index was written without any of that
	// index's key attributes: setting this one alone would leave out a
	// templated one (GSI1PK: "G#{game}"), and the item out of the index.
	for _, p := range e.paths {
		if !p.Optional || (p.PKAttr != col && p.SKAttr != col) {
			continue
		}
		for _, other := range []string{p.PKAttr, p.SKAttr} {
			if other == "" || other == col || !e.optAttrs[other] {
				continue
			}
			if k := e.keys[other]; k != nil && (k.Raw != "{"+other+"}" || e.renderedElsewhere(other)) {
				return false
			}
		}
	}
	return true
}

// renderedElsewhere reports whether column col, the attribute of a key
// it holds in place, is also rendered by another key template of the
// entity (Date: "{Date}" beside "State#Date": "{State}#{Date}"). Such a
// column has its value even on an item out of col's sparse index, which
// lacks the attribute: setting the index's other key alone would leave
// the item out of the index while its row has every key column.
func (e *Entity) renderedElsewhere(col string) bool {
	for attr, k := range e.keys {
		if attr != col && slices.Contains(k.Columns(), col) {
			return true
		}
	}
	return false
}

// ColumnNames returns the entity's columns, sorted, with the columns of its
// base key first in template order: the order SELECT * prints.
func (e *Entity) ColumnNames() []string {
	cols := e.BaseKeyColumns()
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

// Folds reports whether col is a string column that a key of e holds
// lower- or upper-cased (key_casing): the key tells only its case-folded
// text, so its value is the column's own attribute, which every read of
// e fetches, and a key lookup by it is checked against that attribute.
func (e *Entity) Folds(col string) bool { return e.folded[col] }

// Stored says where col's value is kept, as DESCRIBE and \d show it:
// "in key" (read back from a key), "attribute", or, for a column a
// case-folded key holds, "attribute (in key case-folded)".
func (e *Entity) Stored(col string) string {
	switch {
	case e.Folds(col):
		return "attribute (in key case-folded)"
	case e.IsKeyColumn(col):
		return "in key"
	}
	return "attribute"
}

// FoldedColumns lists the columns Folds reports, in name order.
func (e *Entity) FoldedColumns() []string { return e.foldedCols }

// IsOptionalKeyAttr reports whether attr is a key attribute only
// optional indexes use: items outside those indexes lack it.
func (e *Entity) IsOptionalKeyAttr(attr string) bool { return e.optAttrs[attr] }

// IsOptionalKeyColumn reports whether col is a key column only of indexes
// the entity lists as optional: it may be NULL.
func (e *Entity) IsOptionalKeyColumn(col string) bool {
	if !e.keyCols[col] {
		return false
	}
	for attr, k := range e.keys {
		if !e.optAttrs[attr] && slices.Contains(k.Columns(), col) {
			return false
		}
	}
	return true
}

// Paths returns the entity's access paths: the base table first, then
// each index it takes part in, by name.
func (e *Entity) Paths() []*AccessPath { return e.paths }

// Column returns the type of col ("" for an attribute an open entity does
// not declare), or an error that names the entity and suggests the
// nearest column.
func (e *Entity) Column(col string) (string, error) {
	if t, ok := e.Columns[col]; ok {
		return t, nil
	}
	if e.Open && e.isAttributeName(col) {
		return "", nil
	}
	if v, fixed := e.Fixed[col]; fixed {
		return "", errs.New(errs.Invalid, "%s is a fixed attribute of %s, not a column: dynosql writes %s = %q into every item of %s", col, e.Name, col, v, e.Name).
			WithHint("leave it out of the statement; the mapping's fixed: gives its value")
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

// HasColumn reports whether col names a declared column, or an attribute
// an open entity lets through.
func (e *Entity) HasColumn(col string) bool {
	_, err := e.Column(col)
	return err == nil
}

// isAttributeName reports whether an undeclared name may be read as an
// attribute: not a key attribute or the type attribute, whose values
// the mapping renders itself.
func (e *Entity) isAttributeName(name string) bool {
	_, fixed := e.Fixed[name]
	return name != "" && !fixed && !slices.Contains(e.m.KeyAttrs(), name) && name != e.m.TypeAttribute
}

// Convert checks that v, written into column col, fits the column's
// type, and returns an error naming the column otherwise: a string is
// never taken for a number ('08' would be stored as 8, not as typed),
// as comparisons refuse it too. An undeclared attribute of an open
// entity takes any value.
func (e *Entity) Convert(col string, v value.Value) (value.Value, error) {
	typ := e.Columns[col]
	if typ != "L" {
		if dup, ok := repeatedMember(v); ok {
			return nil, errs.New(errs.Invalid, "column %s.%s: the set holds %s twice; DynamoDB refuses a set with a member repeated", e.Name, col, value.Literal(dup)).
				WithHint("pass each member once")
		}
	}
	if e.keys[col] == nil && e.m.isKeyAttr(col) {
		// The column is the attribute itself, a key of an index the
		// entity's templates leave it out of: DynamoDB puts the item in
		// that index all the same, and keeps no longer key there.
		if err := fitsKey(col, e.m.keyValueBytes(col), value.ToAttr(v)); err != nil {
			return nil, errs.New(errs.Invalid, "column %s.%s: %v (a key of an index)", e.Name, col, err).
				WithHint("give %s a shorter value", col)
		}
	}
	if v == nil || typ == "" {
		return v, nil
	}
	got := value.TypeName(v)
	if got == typ {
		return v, nil
	}
	if ss, ok := v.(value.StringSet); ok && typ == "L" {
		// A Go []string given for a list is that list, in its order and
		// with its duplicates, not a string set.
		return ss.List(), nil
	}
	err := errs.New(errs.Invalid, "column %s.%s is %s, got %s %s", e.Name, col, typ, got, value.Literal(v))
	if s, ok := v.(string); ok && typ == "N" {
		if _, ok := value.ParseNumber(s); ok {
			return nil, err.WithHint("write the number without quotes")
		}
	}
	return nil, err
}

// repeatedMember returns a member a string or number set holds twice
// (numbers by value: 1 and 1.0 are one), which DynamoDB refuses.
func repeatedMember(v value.Value) (value.Value, bool) {
	var members []value.Value
	switch x := v.(type) {
	case value.StringSet:
		members = x.List()
	case value.NumberSet:
		for _, n := range x {
			members = append(members, n)
		}
	}
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		k := value.Key(m)
		if n, ok := m.(value.Number); ok {
			if r, ok := n.Rat(); ok {
				k = r.RatString()
			}
		}
		if seen[k] {
			return m, true
		}
		seen[k] = true
	}
	return nil, false
}
