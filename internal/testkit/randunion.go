package testkit

import (
	"fmt"
	"strings"
)

// Unions: one-table ORs of key reads, and UNION [ALL].

// orStatement builds a one-table SELECT whose WHERE holds an OR a key
// serves branch by branch, which dynosql reads as a union of key reads
// (student_id = 'a91' OR course_id = 'math204'), maybe among other
// conjuncts; now and then one of its branches no key serves, and then the
// statement must be refused.
func (g *gen) orStatement() RandomSelect {
	st := &statement{g: g}
	t := st.add(pick(g, g.s.Entities))
	if g.chance(0.5) {
		t.alias = ""
	}
	refused := g.chance(0.1) && len(t.e.nonKey()) > 0
	n := 2
	if g.chance(0.35) {
		n++
		if g.chance(0.3) {
			n++
		}
	}
	branches := make([]string, n)
	for i := range branches {
		branches[i] = st.keyBranch(t)
	}
	if refused {
		// Nothing else in the statement may give the table a key.
		st.noKeys = true
		branches[g.intn(n)] = st.predicate(st.tables, 1)
	}
	st.where = append(st.where, "("+strings.Join(branches, " OR ")+")")
	if !refused {
		if g.chance(0.15) {
			// A second such OR, which the union's branches check.
			st.where = append(st.where, "("+st.keyBranch(t)+" OR "+st.keyBranch(t)+")")
		}
		if p := pick(g, t.e.Paths); len(p.SK) > 0 && g.chance(0.2) {
			// A sort-key condition outside the OR: a range for the
			// branches reading that path, a filter for the others.
			st.where = append(st.where, st.keyRange(t, *t.e.col(p.SK[0])))
		}
	}
	// Other conditions, mostly on columns in no key, so that the OR is
	// what gives the table its keys.
	if len(t.e.nonKey()) > 0 && (refused || g.chance(0.7)) {
		st.noKeys = true
	}
	st.filters(st.tables)
	st.noKeys = false
	if len(st.where) == 1 && g.chance(0.5) {
		st.where[0] = strings.TrimSuffix(strings.TrimPrefix(st.where[0], "("), ")")
	}
	q := st.render()
	q.Refused = refused
	return q
}

// keyBranch renders one branch of an OR that a key of t serves: the
// partition key of one of its paths bound by constants, maybe a sort-key
// range, maybe a filter; or a whole key.
func (st *statement) keyBranch(t *table) string {
	g := st.g
	sub := &statement{g: g, tables: st.tables}
	sub.bind(t)
	conds := sub.where
	st.likes = append(st.likes, sub.likes...)
	if g.chance(0.35) {
		conds = append(conds, st.predicate(st.tables, 1))
	}
	if len(conds) == 1 {
		return conds[0]
	}
	shuffle(g, conds)
	return "(" + strings.Join(conds, " AND ") + ")"
}

// compound builds two or three one-table SELECTs, each read by key, joined
// by UNION or UNION ALL: the same number of columns, of the same types
// where the entities allow, ordered by every column (by position, or by
// the first SELECT's names) and limited now and then.
func (g *gen) compound() RandomSelect {
	n := 2
	if g.chance(0.25) {
		n = 3
	}
	first := pick(g, g.s.Entities)
	var typesOf []string
	for k := 1 + g.intn(3); k > 0; k-- {
		typesOf = append(typesOf, pick(g, first.Columns).Type)
	}
	st := &statement{g: g}
	var b strings.Builder
	var names []string // the first SELECT's column names, unqualified
	for i := range n {
		e := first
		if i > 0 && g.chance(0.6) {
			e = pick(g, g.s.Entities)
		}
		cols := pickTyped(g, e, typesOf)
		if cols == nil {
			e, cols = first, pickTyped(g, first, typesOf)
		}
		side := &statement{g: g}
		t := side.add(e)
		if g.chance(0.5) {
			t.alias = ""
		}
		side.bind(t)
		if g.chance(0.3) {
			side.where = append(side.where, side.predicate(side.tables, 1))
		}
		st.likes = append(st.likes, side.likes...)
		if i > 0 {
			b.WriteString(pick(g, []string{" UNION ", " UNION ALL "}))
		}
		var sel []string
		for _, c := range cols {
			sel = append(sel, t.col(c))
		}
		if i == 0 {
			names = cols
		}
		fmt.Fprintf(&b, "SELECT %s FROM %s WHERE %s", strings.Join(sel, ", "), t.e.Name+aliasOf(t), strings.Join(side.where, " AND "))
	}
	q := RandomSelect{Limit: -1}
	if g.chance(0.5) {
		var keys []string
		for _, i := range g.r.Perm(len(names)) {
			key := fmt.Sprint(i + 1)
			if g.chance(0.3) && len(dedupe(names)) == len(names) {
				key = quoteName(names[i])
			}
			keys = append(keys, key+pick(g, []string{"", " ASC", " DESC"}))
		}
		b.WriteString(" ORDER BY " + strings.Join(keys, ", "))
		q.Total = true
	}
	q.SQL = b.String()
	st.limit(&q, q.Total)
	return q
}

func aliasOf(t *table) string {
	if t.alias == "" {
		return ""
	}
	return " " + t.alias
}

// pickTyped returns a column of e of each type, or nil when e lacks one.
func pickTyped(g *gen, e *Ent, typesOf []string) []string {
	var out []string
	for _, typ := range typesOf {
		var cands []string
		for _, c := range e.Columns {
			if c.Type == typ {
				cands = append(cands, c.Name)
			}
		}
		if len(cands) == 0 {
			return nil
		}
		out = append(out, pick(g, cands))
	}
	return out
}
