package testkit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// Schema is what the generator knows of a dataset: its entities, with
// their columns and access paths as the mapping gives them and values
// drawn from its rows, and the columns that join them.
type Schema struct {
	Entities []*Ent
	Edges    []Edge
	// Likes are LIKE patterns with escapes per column name (randlike.go);
	// none for a dataset without rows that hold % and _.
	Likes map[string][]string
}

// Ent is an entity of a Schema.
type Ent struct {
	Name    string
	Alias   string // how statements name it: see entityAlias
	Columns []Col  // in name order
	Paths   []Path // the base table's first, then each index it is in
	// Rows are a sample of the entity's rows, for whole keys that exist.
	Rows []mapping.Row
	vals map[string][]string // column → SQL literals statements compare it with
	pre  map[string][]string // string column → prefixes for LIKE and ranges
	// copies are the entity's copy columns, by name; copied reports that
	// another entity copies one of its columns.
	copies map[string]*mapping.Copy
	copied bool
	// baseTemplates are the templates of the base key: entities with the
	// same ones share their items' keys (productcatalog's "{Id}").
	baseTemplates string
}

// Col is a column of an entity: S or N (other types are left out), and
// whether a key template holds it.
type Col struct {
	Name, Type string
	Key        bool
	// Optional marks a key column of sparse indexes only: it may be NULL.
	Optional bool
	// Copy marks a denormalized copy of another entity's column, which
	// writes do not set.
	Copy bool
	// Folded marks a column a case-folded key holds (mapping's
	// Entity.Folds): rows whose values differ in case only share an item.
	Folded bool
}

// Path is a way to read an entity by key: the columns of its partition
// key template, which constants or earlier rows must all give, and those
// of its sort key template, the first one free taking a range.
// Optional marks an index only some of the entity's items are in.
type Path struct {
	Index    string
	PK, SK   []string
	Optional bool
}

// Edge is a join condition between two columns, entity.column each; an
// entity joined through it reads by the column when a path's partition
// key is that column alone.
type Edge struct{ A, B string }

// NewSchema reads a Schema from a mapping and the rows loaded under it:
// columns and paths from the mapping, values from the rows (a sample of
// each entity's, and extra ones per entity.column: values statements
// should ask for, present or not), joins from edges.
func NewSchema(m *mapping.Mapping, rows []backend.DatasetRow, edges []Edge, extra map[string][]string, likes map[string][]string) (*Schema, error) {
	s := &Schema{Edges: edges, Likes: likes}
	byEntity := map[string][]mapping.Row{}
	for _, r := range rows {
		byEntity[r.Entity] = append(byEntity[r.Entity], r.Row)
	}
	aliases := map[string]bool{}
	for _, e := range m.EntityList() {
		ent := &Ent{Name: e.Name, Alias: entityAlias(e.Name, aliases), vals: map[string][]string{}, pre: map[string][]string{}, copies: e.Copies}
		for _, c := range e.ColumnNames() {
			typ, err := e.Column(c)
			if err != nil {
				return nil, err
			}
			if typ == "S" || typ == "N" {
				ent.Columns = append(ent.Columns, Col{Name: c, Type: typ, Key: e.IsKeyColumn(c), Optional: e.IsOptionalKeyColumn(c),
					Copy: e.Copies[c] != nil, Folded: e.Folds(c)})
			}
		}
		slices.SortFunc(ent.Columns, func(a, b Col) int { return strings.Compare(a.Name, b.Name) })
		base := e.Base()
		ent.baseTemplates = base.PK.Raw
		if base.SK != nil {
			ent.baseTemplates += "\x00" + base.SK.Raw
		}
		for _, p := range e.Paths() {
			path := Path{Index: p.Index, PK: p.PK.Columns(), Optional: p.Optional}
			if p.SK != nil {
				path.SK = p.SK.Columns()
			}
			ent.Paths = append(ent.Paths, path)
		}
		ent.Rows = sampleRows(byEntity[e.Name], 24)
		for _, c := range ent.Columns {
			ent.vals[c.Name], ent.pre[c.Name] = pools(c, ent.Rows, extra[e.Name+"."+c.Name])
		}
		s.Entities = append(s.Entities, ent)
	}
	for _, e := range s.Entities {
		for _, cp := range e.copies {
			s.entity(cp.Source.Name).copied = true
		}
	}
	for _, ed := range edges {
		for _, side := range []string{ed.A, ed.B} {
			e, c, _ := strings.Cut(side, ".")
			if ent := s.entity(e); ent == nil || ent.col(c) == nil {
				return nil, fmt.Errorf("edge %s = %s: no column %s", ed.A, ed.B, side)
			}
		}
	}
	return s, nil
}

// entityAlias returns how statements name an entity: the initials of the
// words of its name (enrollments e, game_players gp), or, when another
// entity has them or they spell a keyword, its name's first letters, as
// many as it takes (users u, user_counts uc, followers f, following fo).
// Each entity's alias is its own: a statement joining two entities with
// the same alias would name two tables alike.
func entityAlias(name string, taken map[string]bool) string {
	alias := ""
	for _, w := range strings.Split(name, "_") {
		if w != "" {
			alias += w[:1]
		}
	}
	for k := 2; (taken[alias] || sqlKeywords[strings.ToLower(alias)]) && k <= len(name); k++ {
		alias = name[:k]
	}
	taken[alias] = true
	return alias
}

// sqlKeywords are the short keywords that initials might spell.
var sqlKeywords = map[string]bool{
	"as": true, "at": true, "by": true, "do": true, "if": true, "in": true, "is": true,
	"no": true, "of": true, "on": true, "or": true, "to": true, "all": true, "and": true,
	"any": true, "asc": true, "div": true, "end": true, "for": true, "key": true, "mod": true,
	"not": true, "set": true, "use": true, "xor": true,
}

func (s *Schema) entity(name string) *Ent {
	for _, e := range s.Entities {
		if e.Name == name {
			return e
		}
	}
	return nil
}

func (e *Ent) col(name string) *Col {
	for i := range e.Columns {
		if e.Columns[i].Name == name {
			return &e.Columns[i]
		}
	}
	return nil
}

// nonKey returns the columns no key template holds: a condition on them
// gives the entity no key.
func (e *Ent) nonKey() []Col {
	var out []Col
	for _, c := range e.Columns {
		if !c.Key {
			out = append(out, c)
		}
	}
	return out
}

// readableBy returns the paths whose partition key the column gives.
func (e *Ent) readableBy(col string) []Path {
	var out []Path
	for _, p := range e.Paths {
		if len(p.PK) == 1 && p.PK[0] == col {
			out = append(out, p)
		}
	}
	return out
}

// sampleRows returns up to n rows spread evenly over rows, skipping rows
// whose key text MySQL and SQLite would spell differently (a backslash).
func sampleRows(rows []mapping.Row, n int) []mapping.Row {
	var ok []mapping.Row
	for _, r := range rows {
		clean := true
		for _, v := range r {
			if s, isS := v.(string); isS && strings.Contains(s, `\`) {
				clean = false
			}
		}
		if clean {
			ok = append(ok, r)
		}
	}
	if len(ok) <= n {
		return ok
	}
	out := make([]mapping.Row, n)
	for i := range out {
		out[i] = ok[i*len(ok)/n]
	}
	return out
}

// pools returns a column's literals, from the sample rows and extra plus
// one absent value, and for a string column the prefixes of those values
// (1 to 3 characters) plus one no value has.
func pools(c Col, rows []mapping.Row, extra []string) (vals, prefixes []string) {
	var texts []string
	for _, r := range rows {
		switch v := r[c.Name].(type) {
		case string:
			texts = append(texts, v)
		case value.Number:
			texts = append(texts, string(v))
		}
	}
	texts = append(texts, extra...)
	texts = dedupe(texts)
	slices.Sort(texts)
	if c.Type == "N" {
		return append(texts, "999999"), nil
	}
	for _, t := range texts {
		if strings.Contains(t, `\`) {
			continue
		}
		vals = append(vals, quoteSQL(t))
		rs := []rune(t)
		for k := 1; k <= 3 && k <= len(rs); k++ {
			prefixes = append(prefixes, string(rs[:k]))
		}
	}
	vals = append(vals, quoteSQL("zz~absent"))
	prefixes = append(dedupe(prefixes), "q~")
	return vals, prefixes
}

// literal renders a row's value of a column as a SQL literal, or "" when
// the row has none (or one SQL cannot spell the same for both engines).
func literal(v value.Value) string {
	switch x := v.(type) {
	case string:
		if strings.Contains(x, `\`) {
			return ""
		}
		return quoteSQL(x)
	case value.Number:
		return string(x)
	}
	return ""
}
