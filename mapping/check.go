package mapping

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/limits"
)

// check validates a mapping read from a file and builds what the rest of
// dynosql reads from it: keys, access paths, copies, key types.
func (m *Mapping) check() error {
	if m.Table == "" {
		return m.fail("table", "missing: name the DynamoDB table")
	}
	if !DynamoDBName(tableName(m.Table)) {
		return m.fail("table", "%q is not a name DynamoDB takes: 3 to 255 letters, digits, '_', '-' and '.'", m.Table)
	}
	if m.PartitionKey == "" {
		return m.fail("partition_key", "missing: name the table's partition key attribute")
	}
	if m.SortKey == m.PartitionKey {
		return m.fail("sort_key", "%s is the partition key; DynamoDB keys a table by two different attributes", m.SortKey).
			WithHint("name the sort key attribute, or leave sort_key out for a table without one")
	}
	if len(m.Entities) == 0 {
		return m.fail("entities", "no entities: describe at least one logical table")
	}
	if err := m.checkIndexes(); err != nil {
		return err
	}
	m.keyAttrs = slices.Clip(m.allKeyAttrs())
	if slices.Contains(m.KeyAttrs(), m.TypeAttribute) {
		return m.fail("type_attribute", "%s is a key attribute; the type attribute must be another attribute", m.TypeAttribute)
	}
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		if e == nil {
			return m.fail("entities."+name, "empty: give the entity keys and columns")
		}
		e.Name, e.m = name, m
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
			ix := m.Indexes[name]
			attr := ix.PartitionKey
			if ix.Local {
				attr = ix.SortKey
			}
			return m.fail("indexes."+name, "no entity defines keys for this index (%s)", attr).
				WithHint("give an entity a %s template, or remove the index from the mapping", attr)
		}
	}
	if err := m.inferKeyTypes(); err != nil {
		return err
	}
	if err := m.checkPlainKeyColumns(); err != nil {
		return err
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

func (m *Mapping) checkIndexes() error {
	for _, name := range m.IndexNames() {
		ix := m.Indexes[name]
		where := "indexes." + name
		if ix == nil {
			return m.fail(where, "empty: give the index its partition_key and sort_key (local: true and a sort_key for a local index)")
		}
		ix.Name = name
		switch {
		case !DynamoDBName(name):
			return m.fail(where, "%q is not a name DynamoDB takes: 3 to 255 letters, digits, '_', '-' and '.'", name)
		case ix.Local && ix.PartitionKey == "":
			ix.PartitionKey = m.PartitionKey
		case ix.Local && ix.PartitionKey != m.PartitionKey:
			return m.fail(where+".partition_key", "a local index shares the table's partition key %s, not %s", m.PartitionKey, ix.PartitionKey)
		case ix.PartitionKey == "":
			return m.fail(where, "missing partition_key").WithHint("name the index's partition key, or say local: true for a local index")
		}
		if ix.SortKey == ix.PartitionKey {
			return m.fail(where+".sort_key", "%s is the index's partition key; DynamoDB keys an index by two different attributes", ix.SortKey).
				WithHint("name the index's sort key attribute, or leave sort_key out")
		}
		if ix.Local && ix.SortKey == "" {
			return m.fail(where, "a local index needs a sort_key")
		}
		switch ix.Projection {
		case "":
			ix.Projection = "ALL"
		case "ALL", "KEYS_ONLY", "INCLUDE":
		default:
			return m.fail(where+".projection", "%q is not ALL, KEYS_ONLY or INCLUDE", ix.Projection)
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
		if col == "*" {
			return m.fail(where+".columns."+col, "a column cannot be named *, which SQL reads as every column").
				WithHint("name the column as SQL can: rename the attribute")
		}
		if !slices.Contains(columnTypes, typ) {
			return m.fail(where+".columns."+col, "type %q is not one of %s", typ, strings.Join(columnTypes, ", "))
		}
		if col == m.TypeAttribute && m.TypeAttribute != "" {
			return m.fail(where+".columns."+col, "%s is the type attribute, which dynosql writes itself", col).
				WithHint("remove the column; the entity's value is its type: field")
		}
	}
	switch {
	case e.Type != "" && m.TypeAttribute == "":
		return m.fail(where+".type", "the mapping names no type_attribute to hold it").
			WithHint("add type_attribute: <attribute> at the top of the mapping")
	case e.Type != "":
		for _, other := range m.EntityNames() {
			if o := m.Entities[other]; o != e && o.Type == e.Type {
				return m.fail(where+".type", "%s and %s both have type %q", other, e.Name, e.Type)
			}
		}
	}
	if err := m.checkFixed(e, where); err != nil {
		return err
	}
	e.keys, e.keyCols = map[string]*Key{}, map[string]bool{}
	for attr, raw := range e.Keys {
		if !m.isKeyAttr(attr) {
			return m.fail(where+".keys."+attr, "%s is not a key attribute of %s or of its indexes", attr, m.Table)
		}
		var t *Template
		var err error
		if e.raw {
			// A raw key attribute is its own column: only a mapping's
			// templates are text.
			t = columnTemplate(raw, attr)
		} else {
			t, err = ParseTemplate(raw)
		}
		if err != nil {
			return m.fail(where+".keys."+attr, "%v", err)
		}
		for _, col := range t.Columns() {
			typ, ok := e.Columns[col]
			if !ok {
				return m.fail(where+".keys."+attr, "unknown column %s in template %q; declare it under columns", col, raw)
			}
			switch {
			case typ == "B" && len(t.Parts) != 1:
				return m.fail(where+".keys."+attr, "column %s is binary (B): it can only be a key on its own, as %q", col, "{"+col+"}")
			case typ != "S" && typ != "N" && typ != "B":
				return m.fail(where+".keys."+attr, "column %s is %s; only S, N and B columns can be part of a key", col, typ)
			}
			e.keyCols[col] = true
		}
		e.keys[attr] = &Key{Attr: attr, Template: t, Type: templateType(t, e.Columns), columns: e.Columns, maxBytes: m.keyValueBytes(attr)}
	}
	if err := m.checkColumnNames(e); err != nil {
		return err
	}
	if err := m.checkKeyCasing(e, where); err != nil {
		return err
	}
	if e.keys[m.PartitionKey] == nil {
		return m.fail(where+".keys", "missing a template for the partition key %s", m.PartitionKey)
	}
	if m.SortKey != "" && e.keys[m.SortKey] == nil {
		return m.fail(where+".keys", "missing a template for the sort key %s", m.SortKey)
	}
	e.keyAttrs = slices.Clip(e.sortedKeyAttrs())
	e.numberInText = slices.ContainsFunc(e.keyAttrs, func(a string) bool { return e.keys[a].numberInText() })
	e.paths = []*AccessPath{m.path(e, Base, m.PartitionKey, m.SortKey)}
	e.baseKeyCols = e.baseKeyColumns()
	for _, name := range m.IndexNames() {
		ix := m.Indexes[name]
		hasPK, hasSK := e.keys[ix.PartitionKey] != nil, ix.SortKey == "" || e.keys[ix.SortKey] != nil
		switch {
		case ix.Local && hasSK:
			e.paths = append(e.paths, m.path(e, name, ix.PartitionKey, ix.SortKey))
		case ix.Local:
		case hasPK && hasSK:
			e.paths = append(e.paths, m.path(e, name, ix.PartitionKey, ix.SortKey))
		case m.ownsIndexKey(e, ix.PartitionKey) || (ix.SortKey != "" && m.ownsIndexKey(e, ix.SortKey)):
			return m.fail(where+".keys", "defines only one of %s's keys (%s, %s); give both or neither", name, ix.PartitionKey, ix.SortKey)
		}
	}
	return m.checkOptional(e)
}

// checkFixed refuses a fixed attribute whose value comes from elsewhere:
// a key attribute (its templates), the type attribute (type:) or a
// column (the row).
func (m *Mapping) checkFixed(e *Entity, where string) error {
	for _, attr := range slices.Sorted(maps.Keys(e.Fixed)) {
		at := where + ".fixed." + attr
		switch _, col := e.Columns[attr]; {
		case attr == "":
			return m.fail(where+".fixed", "an attribute with no name")
		case m.isKeyAttr(attr):
			return m.fail(at, "%s is a key attribute of %s or of its indexes, whose value the keys: templates give", attr, m.Table).
				WithHint("write it as a template under keys:")
		case attr == m.TypeAttribute:
			return m.fail(at, "%s is the type attribute, which dynosql writes itself", attr).
				WithHint("give the entity's value as its type: field")
		case col:
			return m.fail(at, "%s is also a column; a fixed attribute holds one value for every row", attr).
				WithHint("remove it from columns, or from fixed")
		}
	}
	return nil
}

// checkKeyCasing sets the case of each string key key_casing names,
// whose literal text must already be in that case, and marks the string
// columns such keys hold (Entity.Folds).
func (m *Mapping) checkKeyCasing(e *Entity, where string) error {
	e.folded = map[string]bool{}
	casings, field := e.KeyCasing, func(attr string) string { return where + ".key_casing." + attr }
	if all, ok := e.KeyCasing["*"]; ok {
		casings, field = Casing{}, func(string) string { return where + ".key_casing" }
		for attr, k := range e.keys {
			if k.Type == KeyS {
				casings[attr] = all
			}
		}
	}
	for _, attr := range slices.Sorted(maps.Keys(casings)) {
		casing, k, at := casings[attr], e.keys[attr], field(attr)
		switch {
		case k == nil:
			return m.fail(at, "%s is not among the keys of %s", attr, e.Name)
		case casing == "none":
			continue
		case casing != "lower" && casing != "upper":
			return m.fail(at, "%q is not lower, upper or none", casing)
		case k.Type != KeyS:
			return m.fail(at, "%s is a %s key; only a string key has a case", attr, typeName[k.Type])
		}
		k.Case = casing
		var want strings.Builder
		for _, p := range k.Parts {
			want.WriteString(k.fold(p.Literal))
			if p.Column != "" {
				want.WriteString("{" + p.Column + "}")
				if e.Columns[p.Column] == "S" {
					e.folded[p.Column] = true
				}
			}
		}
		if want.String() != k.Raw {
			return m.fail(at, "the template %s: %q holds text a %s-cased key never does", attr, k.Raw, casing).
				WithHint("write the template as the table holds it: %q", want.String())
		}
	}
	e.foldedCols = slices.Sorted(maps.Keys(e.folded))
	return nil
}

// ownsIndexKey says whether e defines the index key attribute attr of
// its own accord: a key attribute of the table is defined by every
// entity, so an entity that lacks the index's other key (a global index
// keyed on the table's partition or sort key and an attribute only some
// entities carry) is simply not in that index.
func (m *Mapping) ownsIndexKey(e *Entity, attr string) bool {
	return e.keys[attr] != nil && attr != m.PartitionKey && attr != m.SortKey
}

// templateType is the DynamoDB type a template renders: a template that
// is one column alone has that column's type; any other is a string.
func templateType(t *Template, columns map[string]string) KeyType {
	if len(t.Parts) == 1 && t.Parts[0].Column != "" {
		switch columns[t.Parts[0].Column] {
		case "N":
			return KeyN
		case "B":
			return KeyB
		}
	}
	return KeyS
}

// checkColumnNames refuses a column named like a key attribute the
// entity has a template for, unless the column is in that template (then
// it is parsed back from the key): the item holds one value under that
// name, the key, and the column would read it raw ("T#a" for "a"). A
// column named like a key attribute of an index the entity does not take
// part in is the attribute itself, as designs that project plain
// attributes into an index do.
func (m *Mapping) checkColumnNames(e *Entity) error {
	for _, attr := range m.KeyAttrs() {
		if _, ok := e.Columns[attr]; !ok {
			continue
		}
		if k := e.keys[attr]; k == nil || slices.Contains(k.Columns(), attr) {
			continue
		}
		return m.fail("entities."+e.Name+".columns."+attr, "%s is a key attribute of %s; a column of that name would read the raw key", attr, m.Table).
			WithHint("rename the column, or write it in the key's template: keys: {%s: \"...{%s}...\"}", attr, attr)
	}
	return nil
}

// checkPlainKeyColumns refuses a plain column (not in a template of its
// entity) named like a key attribute whose type it does not have: the
// entity's items hold the attribute itself, and DynamoDB refuses every
// write of a value of another type ("Type mismatch for Index Key").
func (m *Mapping) checkPlainKeyColumns() error {
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		for _, attr := range m.KeyAttrs() {
			typ, ok := e.Columns[attr]
			if !ok || e.keys[attr] != nil {
				continue
			}
			if want := string(m.keyTypes[attr]); typ != want {
				return m.fail("entities."+name+".columns."+attr, "%s is a key attribute of %s that holds %s, but the column is %s: DynamoDB would refuse every write of it",
					attr, m.Table, typeName[m.keyTypes[attr]], typ).
					WithHint("declare %s: %s, or rename the column", attr, want)
			}
		}
	}
	return nil
}

// checkOptional resolves the entity's optional indexes into the key
// attributes that rows may leave out.
func (m *Mapping) checkOptional(e *Entity) error {
	e.optAttrs = map[string]bool{}
	required := map[string]bool{}
	for _, p := range e.paths {
		opt := slices.Contains(e.Optional, p.Index) && !p.IsBase()
		p.Optional = opt
		for _, attr := range []string{p.PKAttr, p.SKAttr} {
			if attr == "" {
				continue
			}
			if opt {
				e.optAttrs[attr] = true
			} else {
				required[attr] = true
			}
		}
	}
	for _, name := range e.Optional {
		if !slices.ContainsFunc(e.paths, func(p *AccessPath) bool { return p.Index == name && !p.IsBase() }) {
			return m.fail("entities."+e.Name+".optional", "%q is not an index %s takes part in", name, e.Name).
				WithHint("list indexes whose keys the entity defines; the base table's keys are never optional")
		}
	}
	for attr := range required {
		delete(e.optAttrs, attr)
	}
	return m.checkOptionalTellable(e)
}

// checkOptionalTellable refuses an optional index whose key templates
// hold no column but the base key's (GSI1PK: "OPEN", GSI1SK:
// "{date}#{id}"): dynosql takes a row to be in a sparse index exactly
// when it has the columns of the index's keys, and the base key's are
// never NULL, so such an index would look complete. Reads through it
// would miss the rows it does not hold, and every INSERT would put the
// row in it.
func (m *Mapping) checkOptionalTellable(e *Entity) error {
	base := e.BaseKeyColumns()
	for _, p := range e.paths {
		if !p.Optional {
			continue
		}
		var keys []string
		tells := false
		for _, attr := range []string{p.PKAttr, p.SKAttr} {
			k := e.keys[attr]
			if attr == "" || k == nil || attr == m.PartitionKey || attr == m.SortKey {
				continue
			}
			keys = append(keys, fmt.Sprintf("%s: %q", attr, k.Raw))
			for _, c := range k.Columns() {
				tells = tells || !slices.Contains(base, c)
			}
		}
		if tells {
			continue
		}
		return m.fail("entities."+e.Name+".optional", "%s cannot be optional for %s: its keys (%s) hold no column but the table key's, which every row has, so a row cannot tell whether it is in %s",
			p.Index, e.Name, strings.Join(keys, ", "), p.Index).
			WithHint("give the index key a column only the rows in %s hold (%s: \"{...}\"), or leave %s's keys out of %s (its items stay readable through the table)",
				p.Index, keyAttrOf(p, m), p.Index, e.Name)
	}
	return nil
}

// keyAttrOf returns the first key attribute of an index path that is not
// one of the table's.
func keyAttrOf(p *AccessPath, m *Mapping) string {
	if p.PKAttr != m.PartitionKey {
		return p.PKAttr
	}
	return p.SKAttr
}

func (m *Mapping) path(e *Entity, index, pk, sk string) *AccessPath {
	p := &AccessPath{Index: index, PKAttr: pk, SKAttr: sk, PK: e.keys[pk]}
	if index != Base {
		p.Local = m.Indexes[index].Local
	}
	if sk != "" {
		p.SK = e.keys[sk]
	}
	return p
}

// keyValueBytes is the longest string or binary DynamoDB stores in key
// attribute attr: a sort key's limit when it sorts the table or any
// index, else a partition key's (DYNAMODB.md 7.4).
func (m *Mapping) keyValueBytes(attr string) int {
	if attr == m.SortKey {
		return limits.SortKeyBytes
	}
	for _, ix := range m.Indexes {
		if ix.SortKey == attr {
			return limits.SortKeyBytes
		}
	}
	return limits.PartitionKeyBytes
}

func (m *Mapping) isKeyAttr(attr string) bool {
	return attr != "" && slices.Contains(m.KeyAttrs(), attr)
}

// inferKeyTypes gives each key attribute the type its templates render,
// and refuses entities that disagree (DescribeTable corrects the guess
// later, see CheckTable).
func (m *Mapping) inferKeyTypes() error {
	m.keyTypes = map[string]KeyType{}
	owner := map[string]string{}
	for _, name := range m.EntityNames() {
		for attr, k := range m.Entities[name].keys {
			if t, ok := m.keyTypes[attr]; ok && t != k.Type {
				return m.fail("entities."+name+".keys."+attr, "the template %q makes a %s, while %s's makes a %s",
					k.Raw, typeName[k.Type], owner[attr], typeName[t]).
					WithHint("a key attribute holds one type: write both templates alike")
			}
			m.keyTypes[attr], owner[attr] = k.Type, name
		}
	}
	for _, attr := range m.KeyAttrs() {
		if _, ok := m.keyTypes[attr]; !ok {
			m.keyTypes[attr] = KeyS
		}
	}
	return nil
}

// checkDistinct refuses two entities whose items could share a partition
// and be told apart neither by their base-table keys nor by their type.
func (m *Mapping) checkDistinct() error {
	names := m.EntityNames()
	for i, a := range names {
		for _, b := range names[i+1:] {
			ea, eb := m.Entities[a], m.Entities[b]
			if !m.keysOverlap(ea.Base(), eb.Base()) {
				continue
			}
			if ea.Type != "" && eb.Type != "" {
				if err := m.checkTypeProjected(a, b); err != nil {
					return err
				}
				continue
			}
			hint := "give one of them a distinct literal prefix in its " + m.lastKeyName() + " template"
			if m.TypeAttribute != "" {
				hint += ", or give both a type:"
			} else {
				hint += ", or name a type_attribute and give both a type:"
			}
			return m.fail("entities."+a, "items of %s and %s cannot be told apart by their keys (%s)", a, b, m.baseKeyText(ea)).
				WithHint("%s", hint)
		}
	}
	return nil
}

// checkTypeProjected refuses a global index through which the items of
// typed entities a and b, whose base keys overlap, also share keys, when
// the index does not project the type attribute: a read through it could
// not tell them apart (nor find their copies rightly). An entity that
// declares the index's key attributes as plain columns is in the index
// with any keys.
func (m *Mapping) checkTypeProjected(a, b string) error {
	ea, eb := m.Entities[a], m.Entities[b]
	for _, name := range slices.Sorted(maps.Keys(m.Indexes)) {
		ix := m.Indexes[name]
		if ix.Local || ix.Projects(m.TypeAttribute) {
			continue
		}
		pa, ina := m.indexPath(ea, name)
		pb, inb := m.indexPath(eb, name)
		if !ina || !inb || (pa != nil && pb != nil && !m.keysOverlap(pa, pb)) {
			continue
		}
		return m.fail("indexes."+name, "items of %s and %s share keys in index %s, which does not project %s, the type that tells them apart",
			a, b, name, m.TypeAttribute).
			WithHint("project %s in %s (projection: ALL, or INCLUDE it), or give one entity a distinct literal prefix in its %s keys", m.TypeAttribute, name, name)
	}
	return nil
}

// indexPath returns e's path through index name, and whether e's items
// can be in it: through its templates (the path), or by holding the
// index's key attributes as plain columns (no path).
func (m *Mapping) indexPath(e *Entity, name string) (*AccessPath, bool) {
	for _, p := range e.paths {
		if p.Index == name {
			return p, true
		}
	}
	ix := m.Indexes[name]
	return nil, e.Columns[ix.PartitionKey] != "" || (ix.SortKey != "" && e.Columns[ix.SortKey] != "")
}

// keysOverlap reports whether an item could match both entities' keys
// through the two paths (which share their key attributes).
func (m *Mapping) keysOverlap(pa, pb *AccessPath) bool {
	if !pa.PK.mayOverlapKey(pb.PK) {
		return false
	}
	return pa.SK == nil || pb.SK == nil || pa.SK.mayOverlapKey(pb.SK)
}

func (m *Mapping) lastKeyName() string {
	if m.SortKey == "" {
		return m.PartitionKey
	}
	return m.SortKey
}

func (m *Mapping) baseKeyText(e *Entity) string {
	s := m.PartitionKey + " = " + e.keys[m.PartitionKey].Raw
	if m.SortKey != "" {
		s += ", " + m.SortKey + " = " + e.keys[m.SortKey].Raw
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
		if ct, st := e.Columns[col], src.Columns[srcCol]; ct != st {
			return m.fail(where, "%s is %s, and its source %s is %s: the copy would hold %s values", col, ct, spec.From, st, st).
				WithHint("declare %s: %s", col, st)
		}
		if _, ok := e.Columns[spec.Key]; !ok {
			return m.fail(where+".key", "unknown column %q in %s", spec.Key, e.Name)
		}
		// A fan-out writes the copy attribute alone, and does not fan out
		// again from it: a copy of a copy would keep the old value when
		// the first source changes (or the middle one is refilled).
		if up, ok := src.CopySpecs[srcCol]; ok {
			return m.fail(where+".from", "%s.%s is itself a copy (of %s), whose changes do not fan out again", srcName, srcCol, up.From).
				WithHint("copy %s directly, keyed by a column of %s that holds its key, or join %s instead", up.From, e.Name, srcName)
		}
		srcKey := src.BaseKeyColumns()
		if len(srcKey) != 1 {
			return m.fail(where+".from", "%s is keyed by %v; a copy needs a source keyed by one column", srcName, srcKey)
		}
		if kt, st := e.Columns[spec.Key], src.Columns[srcKey[0]]; kt != st {
			// Copies are found by the key's text: 8 never finds '08'.
			return m.fail(where+".key", "%s is %s, and the key %s of %s is %s: the copies would never be found", spec.Key, kt, srcKey[0], srcName, st).
				WithHint("declare %s: %s", spec.Key, st)
		}
		// A fan-out sets the copy attribute alone: a key template built
		// from it would keep the old value (and the item its old place in
		// the index), and reads parse the column back from that key.
		for _, attr := range e.keyAttrs {
			if k := e.keys[attr]; k != nil && slices.Contains(k.Columns(), col) {
				return m.fail(where, "%s is part of the key %s = %q of %s: copies are rewritten as plain attributes when %s changes, which keeps neither a key built from them nor an index keyed by one in step",
					col, attr, k.Raw, e.Name, spec.From).
					WithHint("key the index by another column, or keep %s out of the copies and join %s instead", col, srcName)
			}
		}
		// Copies are found through a key built from spec.Key; folded, it
		// would also find those of rows whose spec.Key differs in case only.
		if e.folded[spec.Key] {
			return m.fail(where+".key", "%s is held case-folded in the keys of %s (key_casing): a change of %s would also rewrite the copies in rows whose %s differs from its key in case only",
				spec.Key, e.Name, spec.From, spec.Key).
				WithHint("join %s instead of copying %s", srcName, srcCol)
		}
		c := &Copy{Column: col, Source: src, SourceColumn: srcCol, KeyColumn: spec.Key, Copier: e}
		for _, p := range e.paths {
			if cols := p.PK.Columns(); len(cols) == 1 && cols[0] == spec.Key && !p.Optional {
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

// SourceKeyColumn is the one column a copy's source is keyed by (the
// mapping checks there is exactly one).
func (c *Copy) SourceKeyColumn() string { return c.Source.BaseKeyColumns()[0] }

// tableName is the name in a table's ARN (arn:aws:dynamodb:...:table/
// Name), which DynamoDB takes for a table shared across accounts, or the
// name itself.
func tableName(table string) string {
	if strings.HasPrefix(table, "arn:") {
		if _, name, ok := strings.Cut(table, ":table/"); ok {
			return name
		}
	}
	return table
}

// DynamoDBName reports whether DynamoDB takes name as a table's or an
// index's: 3 to 255 ASCII letters, digits, '_', '-' and '.'.
func DynamoDBName(name string) bool {
	if len(name) < 3 || len(name) > 255 {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == ""
}
