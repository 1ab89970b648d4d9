package testkit

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The FROM of a statement: its tables, how they join and how each one
// gets its key.

// table is one occurrence of an entity in FROM.
type table struct {
	e     *Ent
	alias string // "" when the statement names the table itself
	left  bool   // joined with LEFT JOIN
	on    []string
}

func (t *table) ref() string {
	if t.alias == "" {
		return t.e.Name
	}
	return t.alias
}

func (t *table) col(c string) string { return t.ref() + "." + quoteName(c) }

// quoteName backquotes a column name that is not a plain identifier
// (social's follower#, productcatalog's Safety.Warning): unquoted, MySQL
// reads # as the start of a comment and a dot as a qualifier. Both
// engines take backquotes.
func quoteName(c string) string {
	if identRE.MatchString(c) {
		return c
	}
	return "`" + c + "`"
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// notNull returns, when p is an optional index (one only some of the
// entity's items are in), IS NOT NULL on each column of its sort key:
// dynosql reads such an index only for a statement none of whose rows
// can lack one of its key columns, and would refuse the statement
// otherwise. The partition key needs none, the statement fixing it by =
// or IN. Nothing for other paths.
func (t *table) notNull(p Path) []string {
	if !p.Optional {
		return nil
	}
	var out []string
	for _, c := range p.SK {
		out = append(out, t.col(c)+" IS NOT NULL")
	}
	return out
}

// optionalOnly reports whether every path of ps is an optional index,
// and returns the first, which a statement reading through ps then keeps
// to with notNull; false when a path every item is in serves.
func optionalOnly(ps []Path) (Path, bool) {
	if len(ps) == 0 {
		return Path{}, false
	}
	for _, p := range ps {
		if !p.Optional {
			return Path{}, false
		}
	}
	return ps[0], true
}

// cond is a condition and the tables it names, placed in the ON of the
// last of them in FROM order, or in WHERE.
type cond struct {
	text   string
	tables []*table
}

// statement is one SELECT being built.
type statement struct {
	g      *gen
	tables []*table // in FROM order
	comma  bool     // FROM a, b, c WHERE ...
	joins  []cond   // join conditions, placed by place
	where  []string // conjuncts
	// noKeys keeps key columns out of predicate, so that a condition
	// cannot give a table a key.
	noKeys bool
	// likes are the LIKEs with escapes written, for SQLite's spelling
	// (randlike.go).
	likes []likeRewrite
	// subqueries counts the subqueries written, which each get an alias
	// of their own: dynosql wants every alias of a statement distinct,
	// those of separate subqueries too.
	subqueries int
}

func (g *gen) statement() RandomSelect {
	st := &statement{g: g}
	st.shape()
	return st.render()
}

// add appends a table of entity e, aliased by its first letter, and a
// number after the first of the same entity (aliases already written in
// conditions never change).
func (st *statement) add(e *Ent) *table {
	alias, n := e.Alias, 1
	for _, t := range st.tables {
		if t.e == e {
			n++
		}
	}
	if n > 1 {
		alias = fmt.Sprintf("%s%d", e.Alias, n)
	}
	t := &table{e: e, alias: alias}
	st.tables = append(st.tables, t)
	return t
}

// shape picks one to three tables, each after the first joined to an
// earlier one through an edge that gives it a key, binds the first by
// constants (or by a subquery), and adds filters. A statement with LEFT
// JOINs keeps its FROM order (the first table is the one bound); one with
// inner joins only is shuffled, its join conditions in the ON of the
// later table or, joined by commas, in WHERE.
func (st *statement) shape() {
	g := st.g
	n := 1
	switch k := g.intn(20); {
	case k >= 15:
		n = 3
	case k >= 8:
		n = 2
	}
	first := st.add(pick(g, g.s.Entities))
	left := g.chance(0.35)
	for len(st.tables) < n {
		if !st.join(left) {
			break
		}
	}
	if len(st.tables) == 1 {
		left = false
		if g.chance(0.5) {
			first.alias = ""
		}
	}
	if !left {
		shuffle(g, st.tables)
		st.comma = len(st.tables) > 1 && g.chance(0.35)
	}
	if !g.chance(0.12) || !st.bindBySubquery(first) {
		st.bind(first)
	}
	if len(st.tables) > 1 && g.chance(0.15) {
		st.bind(pick(g, st.tables))
	}
	st.place()
	// Inner ON conditions may also carry filters.
	if !st.comma {
		for i, t := range st.tables[1:] {
			if !t.left && g.chance(0.2) {
				t.on = append(t.on, st.predicate(st.tables[:i+2], 1))
			}
		}
	}
	if g.chance(0.08) {
		st.where = append(st.where, st.subqueryFilter(pick(g, st.tables)))
	}
	st.filters(st.tables)
}

// join adds a table joined to an earlier one through an edge whose column
// gives it a key, LEFT (now and then, if left) or inner; with a
// condition on its sort key's free column now and then (one Query per
// outer row over a range). It reports false when no edge fits.
func (st *statement) join(left bool) bool {
	g := st.g
	type option struct {
		from      *table
		to        *Ent
		fromCol   string
		toCol     string
		readables []Path
	}
	var opts []option
	for _, from := range st.tables {
		for _, ed := range g.s.Edges {
			for _, dir := range [][2]string{{ed.A, ed.B}, {ed.B, ed.A}} {
				fe, fc, _ := strings.Cut(dir[0], ".")
				te, tc, _ := strings.Cut(dir[1], ".")
				if fe != from.e.Name {
					continue
				}
				to := g.s.entity(te)
				if ps := to.readableBy(tc); len(ps) > 0 {
					opts = append(opts, option{from, to, fc, tc, ps})
				}
			}
		}
	}
	if len(opts) == 0 {
		return false
	}
	o := pick(g, opts)
	t := st.add(o.to)
	t.left = left && g.chance(0.8)
	c := fmt.Sprintf("%s = %s", t.col(o.toCol), o.from.col(o.fromCol))
	if g.chance(0.5) {
		c = fmt.Sprintf("%s = %s", o.from.col(o.fromCol), t.col(o.toCol))
	}
	st.joins = append(st.joins, cond{c, []*table{o.from, t}})
	if o.from.e == t.e && g.chance(0.3) {
		// A self join whose two rows differ in a column.
		other := pick(g, t.e.Columns)
		st.joins = append(st.joins, cond{fmt.Sprintf("%s <> %s", t.col(other.Name), o.from.col(other.Name)), []*table{o.from, t}})
	}
	if p, ok := optionalOnly(o.readables); ok {
		for _, c := range t.notNull(p) {
			st.joins = append(st.joins, cond{c, []*table{t}})
		}
	}
	if p := pick(g, o.readables); len(p.SK) > 0 && g.chance(0.3) {
		st.joins = append(st.joins, cond{st.keyRange(t, *t.e.col(p.SK[0])), []*table{t}})
	}
	if t.left && g.chance(0.4) {
		// A filter on the joined table, or, rarely, on earlier ones too.
		scope := []*table{t}
		if g.chance(0.2) {
			scope = st.tables
		}
		st.joins = append(st.joins, cond{st.predicate(scope, 1), scope})
	}
	return true
}

// place puts each join condition in the ON of the last of its tables in
// FROM order, or in WHERE for comma joins and a condition on the first
// table alone.
func (st *statement) place() {
	for _, c := range st.joins {
		last := 0
		for _, t := range c.tables {
			last = max(last, slices.Index(st.tables, t))
		}
		if st.comma || last == 0 {
			st.where = append(st.where, c.text)
			continue
		}
		st.tables[last].on = append(st.tables[last].on, c.text)
	}
}

// bind adds key conditions on constants for t: a path's partition key
// (=, IN or an OR of equalities), now and then with a range on the first
// column of its sort key, or with that column fixed and a range on the
// next; or, now and then, a whole key of a row that exists.
func (st *statement) bind(t *table) {
	g := st.g
	if len(t.e.Rows) > 0 && g.chance(0.2) {
		st.where = append(st.where, st.wholeKey(t)...)
		return
	}
	p := pick(g, t.e.Paths)
	for _, c := range p.PK {
		st.where = append(st.where, st.eqOrIn(t, *t.e.col(c)))
	}
	st.where = append(st.where, t.notNull(p)...)
	switch k := g.intn(20); {
	case len(p.SK) == 0 || k < 11:
	case k < 17 || len(p.SK) == 1:
		st.where = append(st.where, st.keyRange(t, *t.e.col(p.SK[0])))
	default:
		st.where = append(st.where, fmt.Sprintf("%s = %s", t.col(p.SK[0]), st.lit(t, *t.e.col(p.SK[0]))),
			st.keyRange(t, *t.e.col(p.SK[1])))
	}
}

// wholeKey returns the conditions that fix every column of a path's key
// to a row's values: mostly a row that exists, now and then one made of
// values from other rows.
func (st *statement) wholeKey(t *table) []string {
	g := st.g
	p := pick(g, t.e.Paths)
	row := pick(g, t.e.Rows)
	var out []string
	for _, c := range append(slices.Clone(p.PK), p.SK...) {
		v := literal(row[c])
		if v == "" || g.chance(0.15) {
			v = st.lit(t, *t.e.col(c))
		}
		out = append(out, fmt.Sprintf("%s = %s", t.col(c), v))
	}
	return out
}

// subquery renders SELECT col FROM e WHERE ..., e bound by constants, as a
// statement of its own whose LIKEs join st's.
func (st *statement) subquery(e *Ent, col string) string {
	sub := &statement{g: st.g}
	t := sub.add(e)
	st.subqueries++
	t.alias = fmt.Sprintf("sq%d", st.subqueries)
	sub.bind(t)
	if st.g.chance(0.3) {
		sub.where = append(sub.where, sub.predicate(sub.tables, 1))
	}
	st.likes = append(st.likes, sub.likes...)
	return fmt.Sprintf("SELECT %s FROM %s %s WHERE %s", t.col(col), e.Name, t.alias, strings.Join(sub.where, " AND "))
}

// bindBySubquery gives t its key through IN (SELECT ...) on an edge whose
// column is the partition key of one of t's paths; false when none is.
func (st *statement) bindBySubquery(t *table) bool {
	g := st.g
	var opts [][2]string // t's column, the other entity.column
	for _, ed := range g.s.Edges {
		for _, dir := range [][2]string{{ed.A, ed.B}, {ed.B, ed.A}} {
			if e, c, _ := strings.Cut(dir[0], "."); e == t.e.Name && len(t.e.readableBy(c)) > 0 {
				opts = append(opts, [2]string{c, dir[1]})
			}
		}
	}
	if len(opts) == 0 {
		return false
	}
	o := pick(g, opts)
	e, c, _ := strings.Cut(o[1], ".")
	st.where = append(st.where, fmt.Sprintf("%s IN (%s)", t.col(o[0]), st.subquery(g.s.entity(e), c)))
	if p, ok := optionalOnly(t.e.readableBy(o[0])); ok {
		st.where = append(st.where, t.notNull(p)...)
	}
	return true
}

// subqueryFilter renders [NOT] IN (SELECT ...) on a column of t, the
// subquery reading a column of the same type of an entity by key.
func (st *statement) subqueryFilter(t *table) string {
	g := st.g
	c := pick(g, t.e.Columns)
	var cands [][2]string
	for _, e := range g.s.Entities {
		for _, oc := range e.Columns {
			if oc.Type == c.Type {
				cands = append(cands, [2]string{e.Name, oc.Name})
			}
		}
	}
	o := pick(g, cands)
	return fmt.Sprintf("%s %sIN (%s)", t.col(c.Name), st.not(), st.subquery(g.s.entity(o[0]), o[1]))
}

// filters adds zero to two WHERE conjuncts over the tables.
func (st *statement) filters(ts []*table) {
	n := 0
	switch k := st.g.intn(20); {
	case k < 9:
	case k < 16:
		n = 1
	default:
		n = 2
	}
	for ; n > 0; n-- {
		st.where = append(st.where, st.predicate(ts, 2))
	}
}
