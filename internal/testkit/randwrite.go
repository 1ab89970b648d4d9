package testkit

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/value"
)

// The random write generator: RandomWrites writes sequences of INSERT,
// INSERT ... ON DUPLICATE KEY UPDATE, UPDATE and DELETE, and BEGIN ...
// COMMIT groups of them, over the sample rows of a dataset (Ent.Rows),
// for differential testing against SQLite. The WHEREs address rows the
// ways an entity's paths allow (randwhere.go); keys are drawn from the
// rows, those the sequence inserted before and fresh ones, so that
// writes collide.
//
// It avoids what dynosql documents as refused or as not all or nothing,
// where SQLite would succeed: moving base keys of several rows at once
// (a move onto a taken key stops part way), moving a key other entities'
// copies are found by, setting a copy, ON DUPLICATE KEY UPDATE of a key
// column, NULL in a key column of an index every row is in, key values
// holding a template's separator (the extra values of RandomDataset), and
// in a transaction what cannot join one: moves, arithmetic (NULL + 1
// fails it), setting key columns or NULL, conditions DynamoDB's cannot
// hold, and writes that fill or fan out copies. A key another entity's
// rows hold (productcatalog's) is refused on both (UniqueKeys).

// RandomWrite is one step of a random write sequence: one statement, or
// (Tx) the statements of one BEGIN ... COMMIT, each naming one row by its
// full key, no two the same row.
type RandomWrite struct {
	Stmts []WriteStmt
	Tx    bool
}

// WriteStmt is a generated INSERT, UPDATE or DELETE of Entity. SQLite's
// spelling (Select.SQLite, where it differs) takes the same Args.
type WriteStmt struct {
	Select
	Entity string
	// Finds is a condition on SQLite's table of Entity that holds for
	// every row the statement may change, before it runs (its WHERE, or
	// an INSERT's keys), with FindsArgs for its placeholders.
	Finds     string
	FindsArgs []any
}

// String writes the step as a script: its statements, their arguments,
// and SQLite's spelling where it differs.
func (w RandomWrite) String() string {
	var lines []string
	if w.Tx {
		lines = append(lines, "BEGIN;")
	}
	for _, s := range w.Stmts {
		line := s.SQL + ";"
		if len(s.Args) > 0 {
			line += fmt.Sprintf("  -- args %q", s.Args)
		}
		if s.SQLite != "" {
			line += "\n    -- SQLite: " + s.SQLite
		}
		lines = append(lines, line)
	}
	if w.Tx {
		lines = append(lines, "COMMIT;")
	}
	return strings.Join(lines, "\n  ")
}

// RandomWrites returns n steps of writes over the sample rows of s, the
// same n for the same schema and seed; a shorter sequence of the same
// seed is the start of a longer one.
func RandomWrites(s *Schema, seed int64, n int) []RandomWrite {
	w := &writeGen{gen: &gen{r: rand.New(rand.NewSource(seed)), s: s}, known: map[*Ent][]map[string]string{}}
	for _, e := range s.Entities {
		for _, r := range e.Rows {
			row := map[string]string{}
			for _, c := range e.Columns {
				row[c.Name] = literal(r[c.Name])
			}
			w.known[e] = append(w.known[e], row)
		}
	}
	out := make([]RandomWrite, n)
	for i := range out {
		if w.chance(0.1) {
			if tx, ok := w.transaction(); ok {
				out[i] = tx
				continue
			}
		}
		st, _ := w.statement(pick(w.gen, s.Entities), false)
		out[i] = RandomWrite{Stmts: []WriteStmt{st}}
	}
	return out
}

// UniqueKeys returns the statements that hold SQLite's tables to
// DynamoDB's one item per key: a unique index on each entity's base key
// columns (an INSERT onto a taken key then fails on both, and ON
// CONFLICT, SQLite's ON DUPLICATE KEY UPDATE, has its target), and
// triggers that refuse a row whose key another entity's row holds when
// their base key templates are the same.
func (s *Schema) UniqueKeys() []string {
	var out []string
	for _, e := range s.Entities {
		key := e.baseKey()
		out = append(out, fmt.Sprintf("CREATE UNIQUE INDEX %s ON %s (%s)",
			quoteName("base_key_of_"+e.Name), quoteName(e.Name), e.uniqueKey()))
		for _, other := range s.Entities {
			if other == e || other.baseTemplates != e.baseTemplates {
				continue
			}
			var same []string
			for _, k := range key {
				same = append(same, fmt.Sprintf("%s.%s = NEW.%s", quoteName(other.Name), quoteName(k), quoteName(k)))
			}
			for _, op := range []string{"INSERT", "UPDATE"} {
				out = append(out, fmt.Sprintf("CREATE TRIGGER %s BEFORE %s ON %s WHEN EXISTS (SELECT 1 FROM %s WHERE %s) BEGIN SELECT RAISE(ABORT, %s); END",
					quoteName(e.Name+"_"+op+"_held_by_"+other.Name), op, quoteName(e.Name), quoteName(other.Name), strings.Join(same, " AND "),
					quoteSQL("the key is held by a row of "+other.Name)))
			}
		}
	}
	return out
}

// writeGen draws write statements from one random stream, remembering
// the rows statements may name.
type writeGen struct {
	*gen
	// known are rows of each entity as SQL literals ("" for NULL): the
	// sample, then the rows inserted. Some are gone (or were never
	// there: an INSERT onto a taken key) by the time a statement names
	// them, which is a case worth writing too.
	known map[*Ent][]map[string]string
	fresh int // the last number fresh values were made of
}

// statement writes one INSERT, UPDATE or DELETE of e, and returns the
// base key of the row it names (or of one of them); inTx keeps to the
// full-key writes a transaction takes.
func (w *writeGen) statement(e *Ent, inTx bool) (WriteStmt, string) {
	c := &clause{args: w.chance(0.5)}
	k := w.intn(20)
	if k < 4 || len(w.known[e]) == 0 {
		return w.insert(e, c, inTx)
	}
	where := &clause{args: c.args}
	cond, row, one := w.where(e, where, inTx)
	sql := fmt.Sprintf("DELETE FROM %s WHERE %s", quoteName(e.Name), cond)
	if k < 16 {
		// An entity whose columns are all keys of its rows has no UPDATE
		// but a move: sets writes none where it may not move them.
		if sets := w.sets(e, c, one && !inTx, inTx); sets != "" {
			sql = fmt.Sprintf("UPDATE %s SET %s WHERE %s", quoteName(e.Name), sets, cond)
		}
	}
	s := WriteStmt{
		Select: Select{SQL: sql, Args: append(c.vals, where.vals...)},
		Entity: e.Name, Finds: cond, FindsArgs: where.vals,
	}
	return s, e.keyText(row)
}

// transaction writes 2 or 3 full-key writes of entities without copies,
// each of another row; ok is false when the schema has no such entity.
func (w *writeGen) transaction() (RandomWrite, bool) {
	var ents []*Ent
	for _, e := range w.s.Entities {
		if !e.copied && len(e.copies) == 0 {
			ents = append(ents, e)
		}
	}
	if len(ents) == 0 {
		return RandomWrite{}, false
	}
	tx := RandomWrite{Tx: true}
	items := map[string]bool{} // a transaction may not write one item twice
	for n := 2 + w.intn(2); len(tx.Stmts) < n; {
		s, key := w.statement(pick(w.gen, ents), true)
		if !items[key] {
			items[key] = true
			tx.Stmts = append(tx.Stmts, s)
		}
	}
	return tx, true
}

// insert writes an INSERT of 1 or 2 rows of e, or one row with ON
// DUPLICATE KEY UPDATE, and returns the base key of its last row; in a
// transaction, one row.
func (w *writeGen) insert(e *Ent, c *clause, inTx bool) (WriteStmt, string) {
	var cols []string
	for _, col := range e.Columns {
		if !col.Copy {
			cols = append(cols, col.Name)
		}
	}
	n := 1
	if !inTx && w.chance(0.25) {
		n = 2
	}
	var tuples, keys []string
	var row map[string]string
	for range n {
		row = w.newRow(e)
		var vals, key []string
		for _, col := range cols {
			if row[col] == "" {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, c.val(row[col]))
			}
		}
		for _, k := range e.baseKey() {
			key = append(key, quoteName(k)+" = "+row[k])
		}
		tuples = append(tuples, "("+strings.Join(vals, ", ")+")")
		keys = append(keys, "("+strings.Join(key, " AND ")+")")
	}
	sql := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", quoteName(e.Name), strings.Join(quoteNames(cols), ", "), strings.Join(tuples, ", "))
	s := WriteStmt{Entity: e.Name, Finds: strings.Join(keys, " OR ")}
	if n == 1 && !inTx && w.chance(0.4) {
		if sets := w.plainSets(e, c, false); sets != "" {
			s.SQL = sql + " ON DUPLICATE KEY UPDATE " + sets
			s.SQLite = fmt.Sprintf("%s ON CONFLICT (%s) DO UPDATE SET %s", sql, e.uniqueKey(), sets)
			s.Args = c.vals
			return s, e.keyText(row)
		}
	}
	s.SQL, s.Args = sql, c.vals
	return s, e.keyText(row)
}

// newRow returns the literals of a row to insert into e, and remembers
// it: now and then the key of a known row (a duplicate), else a known
// row's key with one column fresh (another row in the same partition,
// or a new partition).
func (w *writeGen) newRow(e *Ent) map[string]string {
	row := map[string]string{}
	key := e.baseKey()
	if known := w.known[e]; len(known) > 0 {
		from := pick(w.gen, known)
		for _, k := range key {
			row[k] = from[k]
		}
	}
	if len(w.known[e]) == 0 || w.chance(0.8) {
		k := pick(w.gen, key)
		row[k] = w.freshValue(*e.col(k))
	}
	for _, col := range e.Columns {
		switch {
		case col.Copy || slices.Contains(key, col.Name):
		case col.Key && (!col.Optional || w.chance(0.7)):
			row[col.Name] = w.keyValue(e, col)
		case !col.Key && w.chance(0.8):
			row[col.Name] = w.plainValue(e, col)
		}
	}
	w.known[e] = append(w.known[e], row)
	return row
}

// sets writes the SET list of an UPDATE of e: one or two columns, plain
// or key ones; base key columns only when the WHERE names one row
// (moveKey), of an entity no copy is found by. It returns "" when e has
// no column it may set.
func (w *writeGen) sets(e *Ent, c *clause, moveKey, inTx bool) string {
	if inTx {
		return w.plainSets(e, c, true)
	}
	var cands []Col
	for _, col := range e.Columns {
		base := slices.Contains(e.baseKey(), col.Name)
		if !col.Copy && (!base || moveKey && !e.copied) {
			cands = append(cands, col)
		}
	}
	return w.someSets(cands, func(col Col) string {
		switch {
		case col.Type == "N" && w.chance(0.3):
			return arithmetic(w.gen, col.Name)
		case !col.Key:
			return w.plainSet(e, c, col)
		case col.Optional && w.chance(0.3):
			return quoteName(col.Name) + " = NULL" // out of the sparse index
		default:
			return quoteName(col.Name) + " = " + c.val(w.keyValue(e, col))
		}
	})
}

// plainSets writes one or two SETs of columns no key holds: values,
// and, outside a transaction, NULL and arithmetic (the embedded backend
// rewrites the item for a NULL, reading it first, which a transaction
// cannot). It returns "" when e has no such column.
func (w *writeGen) plainSets(e *Ent, c *clause, inTx bool) string {
	var cands []Col
	for _, col := range e.Columns {
		if !col.Key && !col.Copy {
			cands = append(cands, col)
		}
	}
	return w.someSets(cands, func(col Col) string {
		switch {
		case inTx:
			return quoteName(col.Name) + " = " + c.val(w.plainValue(e, col))
		case col.Type == "N" && w.chance(0.4):
			return arithmetic(w.gen, col.Name)
		default:
			return w.plainSet(e, c, col)
		}
	})
}

// someSets writes SETs of one or two distinct columns of cands, each as
// set writes it, or "" when cands is empty.
func (w *writeGen) someSets(cands []Col, set func(Col) string) string {
	if len(cands) == 0 {
		return ""
	}
	var sets []string
	used := map[string]bool{}
	for n := 1 + w.intn(2); n > 0; n-- {
		col := pick(w.gen, cands)
		if used[col.Name] {
			continue
		}
		used[col.Name] = true
		sets = append(sets, set(col))
	}
	return strings.Join(sets, ", ")
}

// plainSet writes col = a value or NULL.
func (w *writeGen) plainSet(e *Ent, c *clause, col Col) string {
	if w.chance(0.2) {
		return quoteName(col.Name) + " = NULL"
	}
	return quoteName(col.Name) + " = " + c.val(w.plainValue(e, col))
}

// arithmetic writes col = col + or - a number, whole or not.
func arithmetic(g *gen, col string) string {
	return fmt.Sprintf("%s = %s %s", quoteName(col), quoteName(col), pick(g, []string{"+ 1", "- 2", "+ 2.5", "- 0.25"}))
}

// keyValue returns a value for key column col of e: one a known row
// holds (which may take a taken key, or join an index partition), or a
// fresh one.
func (w *writeGen) keyValue(e *Ent, col Col) string {
	if w.chance(0.7) {
		if row := pick(w.gen, w.known[e]); row[col.Name] != "" {
			return row[col.Name]
		}
	}
	return w.freshValue(col)
}

// plainValue returns a value for a column no key holds: one of its pool,
// or a fresh one.
func (w *writeGen) plainValue(e *Ent, col Col) string {
	if w.chance(0.6) {
		return pick(w.gen, e.vals[col.Name])
	}
	return w.freshValue(col)
}

// freshValue returns a value no row holds: fresh numbers start past the
// datasets' ids and are whole, as a float64 holds them exactly on the
// embedded backend; fresh text holds no separator.
func (w *writeGen) freshValue(col Col) string {
	w.fresh++
	if col.Type == "N" {
		return fmt.Sprint(70000 + w.fresh)
	}
	return quoteSQL(fmt.Sprintf("w%d", w.fresh))
}

// baseKey returns the columns of e's base key: the partition key's, then
// the sort key's.
func (e *Ent) baseKey() []string {
	// battleroyale's games hold game_id in both.
	return dedupe(append(slices.Clone(e.Paths[0].PK), e.Paths[0].SK...))
}

// uniqueKey is SQLite's unique index on the base key of e, and the
// target of its ON CONFLICT: a column a case-folded key holds is
// compared folded (JLowe and jlowe are one item).
func (e *Ent) uniqueKey() string {
	cols := quoteNames(e.baseKey())
	for i, k := range e.baseKey() {
		if c := e.col(k); c != nil && c.Folded {
			cols[i] = oracle.KeyFold + "(" + cols[i] + ")"
		}
	}
	return strings.Join(cols, ", ")
}

// keyText names the item of a row of e: its base key's literals.
func (e *Ent) keyText(row map[string]string) string {
	var parts []string
	for _, k := range e.baseKey() {
		parts = append(parts, row[k])
	}
	return e.Name + " " + strings.Join(parts, ", ")
}

func quoteNames(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = quoteName(c)
	}
	return out
}

// clause collects the values of a statement as literals, or, when args,
// as ? placeholders with their arguments.
type clause struct {
	args bool
	vals []any
}

// val returns how the statement writes the literal lit.
func (c *clause) val(lit string) string {
	if !c.args {
		return lit
	}
	if strings.HasPrefix(lit, "'") {
		c.vals = append(c.vals, strings.ReplaceAll(lit[1:len(lit)-1], "''", "'"))
	} else {
		c.vals = append(c.vals, value.Number(lit))
	}
	return "?"
}
