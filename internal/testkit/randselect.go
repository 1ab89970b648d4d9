package testkit

import (
	"fmt"
	"regexp"
	"strings"
)

// The select list, grouping, ordering and limit of a statement, and its
// rendering.

// outCol is one column of the select list.
type outCol struct {
	expr  string
	alias string
	agg   bool
}

// colInfo is a column of the statement's tables, by its qualified name.
type colInfo struct {
	t *table
	c Col
}

// render chooses the select list, grouping, ordering and limit, and
// writes the statement.
func (st *statement) render() RandomSelect {
	g := st.g
	var cols []string // every column of the tables, qualified
	var nums []string // the numeric ones
	types := map[string]colInfo{}
	for _, t := range st.tables {
		for _, c := range t.e.Columns {
			types[t.col(c.Name)] = colInfo{t, c}
			cols = append(cols, t.col(c.Name))
			if c.Type == "N" {
				nums = append(nums, t.col(c.Name))
			}
		}
	}
	var items []outCol   // the select list, unless star
	var sel []string     // select list as written
	var visible []string // what each visible column orders by
	distinct, total := false, false
	var order, groupBy []string
	having := ""
	dir := func() string { return pick(g, []string{"", " ASC", " DESC"}) }
	if g.chance(0.3) { // aggregates
		for n := g.intn(3); n > 0; n-- {
			groupBy = append(groupBy, pick(g, cols))
		}
		groupBy = dedupe(groupBy)
		for _, gb := range groupBy {
			if g.chance(0.8) {
				items = append(items, outCol{expr: gb})
			}
		}
		for n := 1 + g.intn(3); n > 0; n-- {
			items = append(items, outCol{expr: st.aggregate(cols, nums), agg: true})
		}
		shuffle(g, items)
		st.aliases(items)
		// GROUP BY a position now and then.
		for i, gb := range groupBy {
			for j, it := range items {
				if it.expr == gb && g.chance(0.25) {
					groupBy[i] = fmt.Sprint(j + 1)
				}
			}
		}
		if g.chance(0.3) {
			having = st.havingCond(cols, nums)
		}
		// Ordered by every grouping column, groups are in a total order.
		if len(groupBy) > 0 && g.chance(0.6) {
			var keys []string
			if g.chance(0.3) {
				if it := pick(g, items); it.agg {
					keys = append(keys, st.orderKey(items, it))
				} else {
					keys = append(keys, st.aggregate(cols, nums))
				}
			}
			for _, gb := range groupBy {
				key := gb
				for _, it := range items {
					if it.expr == gb {
						key = st.orderKey(items, it)
					}
				}
				keys = append(keys, key)
			}
			for _, k := range keys {
				order = append(order, k+dir())
			}
			total = true
		}
		if g.chance(0.35) {
			having = st.havingAlias(items, having, types)
		}
	} else {
		switch k := g.intn(10); {
		case k == 0:
			sel = []string{"*"}
			visible = cols
		case k == 1 && len(st.tables) > 1:
			t := pick(g, st.tables)
			sel = []string{t.ref() + ".*"}
			for _, c := range t.e.Columns {
				visible = append(visible, t.col(c.Name))
			}
			if g.chance(0.5) {
				c := pick(g, cols)
				sel = append(sel, c)
				visible = append(visible, c)
			}
		default:
			for n := 1 + g.intn(4); n > 0; n-- {
				if len(nums) > 0 && g.chance(0.1) {
					nm := pick(g, nums)
					items = append(items, outCol{expr: fmt.Sprintf("%s %s %d", nm, pick(g, []string{"+", "-", "*"}), 1+g.intn(3))})
				} else {
					items = append(items, outCol{expr: pick(g, cols)})
				}
			}
			st.aliases(items)
		}
		distinct = g.chance(0.15)
		var hidden []string // ORDER BY keys outside the select list
		if !distinct {
			hidden = cols
		}
		n := max(len(items), len(visible))
		key := func(i int) string {
			if items == nil {
				return visible[i]
			}
			if g.chance(0.2) {
				return fmt.Sprint(i + 1) // by position
			}
			return st.orderKey(items, items[i])
		}
		switch k := g.intn(10); {
		case k < 5: // total: every visible column, maybe after others
			var keys []string
			if g.chance(0.3) {
				if len(hidden) > 0 && g.chance(0.5) {
					keys = append(keys, pick(g, hidden))
				} else {
					keys = append(keys, key(g.intn(n)))
				}
			}
			for _, i := range g.r.Perm(n) {
				keys = append(keys, key(i))
			}
			for _, k := range keys {
				order = append(order, k+dir())
			}
			total = true
		case k < 7: // partial
			for m := 1 + g.intn(2); m > 0; m-- {
				if len(hidden) > 0 && g.chance(0.3) {
					order = append(order, pick(g, hidden)+dir())
				} else {
					order = append(order, key(g.intn(n))+dir())
				}
			}
		}
	}
	for _, it := range items {
		if it.alias != "" {
			sel = append(sel, it.expr+" AS "+it.alias)
		} else {
			sel = append(sel, it.expr)
		}
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	if distinct {
		b.WriteString("DISTINCT ")
	}
	b.WriteString(strings.Join(sel, ", "))
	b.WriteString(" FROM " + st.from())
	where := append([]string{}, st.where...)
	shuffle(g, where)
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	if len(groupBy) > 0 {
		b.WriteString(" GROUP BY " + strings.Join(groupBy, ", "))
	}
	if having != "" {
		b.WriteString(" HAVING " + having)
	}
	if len(order) > 0 {
		b.WriteString(" ORDER BY " + strings.Join(order, ", "))
	}
	if len(groupBy) == 0 && len(items) > 0 && isAggList(items) {
		total = true // one row, or none
	}
	q := RandomSelect{Select: Select{SQL: b.String()}, Total: total, Limit: -1}
	st.limit(&q, total)
	return q
}

// from writes the FROM clause: the tables in order, joined by commas or
// JOINs with their ON conditions.
func (st *statement) from() string {
	g := st.g
	var b strings.Builder
	for i, t := range st.tables {
		if i > 0 {
			switch {
			case st.comma:
				b.WriteString(", ")
			case t.left:
				b.WriteString(" LEFT JOIN ")
			case g.chance(0.2):
				b.WriteString(" INNER JOIN ")
			default:
				b.WriteString(" JOIN ")
			}
		}
		b.WriteString(t.e.Name)
		if t.alias != "" {
			b.WriteString(" " + t.alias)
		}
		if i > 0 && !st.comma {
			on := t.on
			if len(on) == 0 {
				// No condition of its own (its join partner comes later):
				// one that keeps every row.
				on = []string{t.col(t.e.Paths[0].PK[0]) + " IS NOT NULL"}
			}
			b.WriteString(" ON " + strings.Join(on, " AND "))
		}
	}
	return b.String()
}

// limit adds, now and then, a LIMIT (and OFFSET) to q: checked as it is
// when the order is total, else against SQLite's rows without it; then
// placeholders and SQLite's spelling of LIKEs with escapes.
func (st *statement) limit(q *RandomSelect, total bool) {
	g := st.g
	switch {
	case total && g.chance(0.4):
		q.SQL += fmt.Sprintf(" LIMIT %d", g.intn(12))
		if g.chance(0.4) {
			q.SQL += fmt.Sprintf(" OFFSET %d", g.intn(8))
		}
	case !total && g.chance(0.15):
		// Any rows will do: SQLite answers without the LIMIT, and dynosql's
		// rows must be that many of them.
		q.SQLite = q.SQL
		q.Limit, q.Offset = int64(g.intn(12)), 0
		q.SQL += fmt.Sprintf(" LIMIT %d", q.Limit)
		if g.chance(0.3) {
			q.Offset = int64(g.intn(8))
			q.SQL += fmt.Sprintf(" OFFSET %d", q.Offset)
		}
	}
	if g.chance(0.15) {
		st.placeholders(q)
	}
	st.sqliteLikes(q)
}

// placeholderRE finds the string literals a ? may stand for: after =, in
// IN lists, before a comparison; a quote inside one is doubled (O”Neil).
var placeholderRE = regexp.MustCompile(`(= |\(|, )'((?:[^']|'')*)'`)

// placeholders turns some string literals of q into ? with arguments;
// SQLite gets the same statement and arguments.
func (st *statement) placeholders(q *RandomSelect) {
	var args []any
	var b strings.Builder
	last := 0
	for _, m := range placeholderRE.FindAllStringSubmatchIndex(q.SQL, -1) {
		if !st.g.chance(0.6) {
			continue
		}
		b.WriteString(q.SQL[last:m[2]])
		b.WriteString(q.SQL[m[2]:m[3]] + "?")
		args = append(args, strings.ReplaceAll(q.SQL[m[4]:m[5]], "''", "'"))
		last = m[1]
	}
	b.WriteString(q.SQL[last:])
	sql := b.String()
	if len(args) == 0 {
		return
	}
	q.SQL, q.Args = sql, args
	if q.SQLite != "" {
		// The same literals, in the same order, are in SQLite's statement:
		// it differs only by the missing LIMIT at the end.
		q.SQLite = strings.TrimSpace(sql[:strings.LastIndex(sql, " LIMIT ")])
	}
}

func isAggList(items []outCol) bool {
	for _, it := range items {
		if !it.agg {
			return false
		}
	}
	return true
}

// aliases names some items of the select list, now and then with the name
// of a column, which ORDER BY must then take for the alias.
func (st *statement) aliases(items []outCol) {
	used := map[string]bool{}
	for i := range items {
		if !st.g.chance(0.2) {
			continue
		}
		a := pick(st.g, []string{"x", "n", "total", "id", "grade", "year", "title", "name", "date"})
		if used[a] {
			continue
		}
		used[a] = true
		items[i].alias = a
	}
}

// orderKey is how ORDER BY names an item of the select list: by its
// alias, when it has one, or else by its expression.
func (st *statement) orderKey(items []outCol, it outCol) string {
	if it.alias != "" && st.g.chance(0.7) {
		return it.alias
	}
	if it.alias != "" {
		// The expression, unless an alias shadows a column it names.
		for _, o := range items {
			if o.alias != "" && strings.Contains(it.expr, "."+o.alias) {
				return it.alias
			}
		}
	}
	return it.expr
}
