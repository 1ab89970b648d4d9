package testkit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/value"
)

// Reading back what random writes (randwrite.go) left: the rows a write
// touched, through every path that holds them, and whole entities.

// LoadSample loads the sample rows of s (Ent.Rows, those RandomWrites
// names) into a fresh table on b and into SQLite, whose tables get the
// unique base keys of Schema.UniqueKeys. A few rows of each entity make
// random writes collide.
func (d RandomDataset) LoadSample(t testing.TB, b Backend, s *Schema, opts ...dynosql.Option) *Fixture {
	t.Helper()
	m, _, err := d.rows()
	if err != nil {
		t.Fatal(err)
	}
	var rows []backend.DatasetRow
	for _, e := range s.Entities {
		for _, r := range e.Rows {
			rows = append(rows, backend.DatasetRow{Entity: e.Name, Row: r})
		}
	}
	fx := LoadRows(t, b, m, rows, opts...)
	for _, stmt := range s.UniqueKeys() {
		if _, err := fx.Oracle.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

// Entity returns the entity named name, or nil.
func (s *Schema) Entity(name string) *Ent { return s.entity(name) }

// Found is SQLite's SELECT of the rows of e where cond holds: their rowid
// (which an UPDATE keeps, a key moved included), then their columns in
// the order of Ent.Columns.
func (e *Ent) Found(cond string) string {
	var cols []string
	for _, c := range e.Columns {
		cols = append(cols, quoteName(c.Name))
	}
	return fmt.Sprintf("SELECT rowid, %s FROM %s WHERE %s", strings.Join(cols, ", "), quoteName(e.Name), cond)
}

// ReadBacks returns the SELECTs that read row of e (its values in the
// order of Ent.Columns) back: through each path whose partition it
// names, by its full key, and the copies other entities hold of its
// columns.
func (s *Schema) ReadBacks(e *Ent, row []value.Value) []Select {
	var out []Select
	read := func(of *Ent, conds []string, args []any) {
		out = append(out, s.selectOf(of, " WHERE "+strings.Join(conds, " AND "), args))
	}
	eq := func(cols []string) (conds []string, args []any, ok bool) {
		for _, c := range cols {
			v := row[e.index(c)]
			if v == nil {
				return nil, nil, false
			}
			conds = append(conds, quoteName(c)+" = ?")
			args = append(args, v)
		}
		return conds, args, true
	}
	for _, p := range e.Paths {
		if conds, args, ok := eq(p.PK); ok {
			read(e, append(conds, notNull(p)...), args)
		}
	}
	if len(e.Paths[0].SK) > 0 {
		conds, args, _ := eq(e.baseKey())
		read(e, conds, args)
	}
	for _, other := range s.Entities {
		for _, cp := range other.copies {
			if v := row[e.index(cp.SourceKeyColumn())]; cp.Source.Name == e.Name && v != nil {
				read(other, []string{quoteName(cp.KeyColumn) + " = ?"}, []any{v})
			}
		}
	}
	return out
}

// All returns a SELECT of every row of e, which only a DB allowed to scan
// (dynosql.WithScans) runs.
func (s *Schema) All(e *Ent) Select { return s.selectOf(e, "", nil) }

// selectOf reads every column of e where the rest of the statement says.
// SQLite's spelling reads a copy from its source, as SQLite's writes do
// not keep copies in step.
func (s *Schema) selectOf(e *Ent, rest string, args []any) Select {
	var cols, oracle []string
	for _, c := range e.Columns {
		cols = append(cols, quoteName(c.Name))
		cp := e.copies[c.Name]
		if cp == nil {
			oracle = append(oracle, quoteName(c.Name))
			continue
		}
		oracle = append(oracle, fmt.Sprintf("(SELECT source.%s FROM %s source WHERE source.%s = %s.%s)",
			quoteName(cp.SourceColumn), quoteName(cp.Source.Name), quoteName(cp.SourceKeyColumn()), quoteName(e.Name), quoteName(cp.KeyColumn)))
	}
	from := " FROM " + quoteName(e.Name) + rest
	return Select{
		SQL:    "SELECT " + strings.Join(cols, ", ") + from,
		SQLite: "SELECT " + strings.Join(oracle, ", ") + from,
		Args:   args,
	}
}

// index returns the position of column c in e.Columns.
func (e *Ent) index(c string) int {
	for i := range e.Columns {
		if e.Columns[i].Name == c {
			return i
		}
	}
	panic("testkit: " + e.Name + " has no column " + c)
}
