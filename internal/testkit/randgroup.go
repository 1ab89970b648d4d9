package testkit

import (
	"fmt"
	"strings"
)

// Aggregates and HAVING.

// aggregate renders one aggregate call, or now and then arithmetic on one.
func (st *statement) aggregate(cols, nums []string) string {
	g := st.g
	if g.chance(0.1) {
		return fmt.Sprintf("COUNT(*) %s %d", pick(g, []string{"+", "*", "-"}), 1+g.intn(3))
	}
	if len(nums) > 0 && g.chance(0.1) {
		nm := pick(g, nums)
		return fmt.Sprintf("MAX(%s) - MIN(%s)", nm, nm)
	}
	switch k := g.intn(8); {
	case k < 2:
		return "COUNT(*)"
	case k < 3:
		return "COUNT(" + pick(g, cols) + ")"
	case k < 4:
		return "COUNT(DISTINCT " + pick(g, cols) + ")"
	case k < 6:
		return pick(g, []string{"MIN", "MAX"}) + "(" + pick(g, cols) + ")"
	default:
		if len(nums) == 0 {
			return "COUNT(*)"
		}
		return pick(g, []string{"SUM", "AVG"}) + "(" + pick(g, nums) + ")"
	}
}

// havingCond renders a condition on aggregates.
func (st *statement) havingCond(cols, nums []string) string {
	g := st.g
	c := func() string {
		switch g.intn(4) {
		case 0, 1:
			return fmt.Sprintf("COUNT(*) %s %d", pick(g, []string{">", ">=", "=", "<"}), g.intn(5))
		case 2:
			if len(nums) > 0 {
				return fmt.Sprintf("%s(%s) %s %d", pick(g, []string{"SUM", "AVG", "MAX", "MIN"}), pick(g, nums), pick(g, []string{">", ">=", "<", "<>"}), g.intn(8))
			}
			return "COUNT(*) > 1"
		default:
			return fmt.Sprintf("COUNT(%s) > %d", pick(g, cols), g.intn(3))
		}
	}
	if g.chance(0.2) {
		return fmt.Sprintf("(%s OR %s)", c(), c())
	}
	return c()
}

// itemType returns the column whose values an item of an aggregate select
// list has: MIN and MAX of a column, or the column itself; nil for the
// rest, which is numeric.
func itemType(it outCol, types map[string]colInfo) *colInfo {
	e := it.expr
	for _, f := range []string{"MIN(", "MAX("} {
		if strings.HasPrefix(e, f) && strings.HasSuffix(e, ")") && strings.Count(e, "(") == 1 {
			e = e[len(f) : len(e)-1]
		}
	}
	if c, ok := types[e]; ok {
		return &c
	}
	return nil
}

// havingAlias adds to having a condition on a select-list alias (naming
// the item first when it has no alias): an aggregate's or a grouping
// column's. The alias is never a column of the tables, where a column
// would win; nor one whose name differs from it only in case (title and
// productcatalog's Title), which dynosql, whose names are case-sensitive,
// tells apart and SQLite does not.
func (st *statement) havingAlias(items []outCol, having string, types map[string]colInfo) string {
	g := st.g
	isColumn := func(a string) bool {
		for _, t := range st.tables {
			for _, c := range t.e.Columns {
				if strings.EqualFold(c.Name, a) {
					return true
				}
			}
		}
		return false
	}
	i := g.intn(len(items))
	switch a := items[i].alias; {
	case a != "" && isColumn(a):
		return having // renaming it could break an ORDER BY that names it
	case a == "":
		// A new alias, which nothing else names; a column's name when no
		// table here has that column.
		a = pick(g, []string{"n", "cnt", "x", "total", "lo", "hi", "year", "grade", "title"})
		for _, it := range items {
			if it.alias == a {
				return having
			}
		}
		if isColumn(a) {
			return having
		}
		items[i].alias = a
	}
	a := items[i].alias
	var cond string
	if info := itemType(items[i], types); info == nil || info.c.Type == "N" {
		k := func() string {
			if g.chance(0.1) {
				return pick(g, []string{"1.5", "0", "-1", "2.5"})
			}
			if info != nil && g.chance(0.5) {
				return st.lit(info.t, info.c)
			}
			return fmt.Sprint(g.intn(8))
		}
		switch g.intn(8) {
		case 0:
			cond = a + pick(g, []string{" IS NULL", " IS NOT NULL"})
		case 1:
			lo := g.intn(5)
			cond = fmt.Sprintf("%s %sBETWEEN %d AND %d", a, st.not(), lo, lo+g.intn(4))
		case 2:
			cond = fmt.Sprintf("%s %sIN (%s, %s)", a, st.not(), k(), k())
		case 3:
			cond = fmt.Sprintf("%s %s %s", k(), pick(g, []string{"=", "<", ">="}), a)
		case 4:
			cond = fmt.Sprintf("%s + %d %s %s", a, 1+g.intn(2), pick(g, []string{">", "<="}), k())
		default:
			cond = fmt.Sprintf("%s %s %s", a, pick(g, []string{"=", "<>", "<", "<=", ">", ">="}), k())
		}
	} else {
		lit := func() string { return st.lit(info.t, info.c) }
		switch g.intn(7) {
		case 0:
			cond = a + pick(g, []string{" IS NULL", " IS NOT NULL"})
		case 1:
			x, y := lit(), lit()
			if x > y {
				x, y = y, x
			}
			cond = fmt.Sprintf("%s BETWEEN %s AND %s", a, x, y)
		case 2:
			cond = fmt.Sprintf("%s %sLIKE %s", a, st.not(), quoteSQL(pick(g, info.t.e.pre[info.c.Name])+"%"))
		case 3:
			cond = fmt.Sprintf("%s %sIN %s", a, st.not(), st.inList(info.t, info.c))
		default:
			cond = fmt.Sprintf("%s %s %s", a, pick(g, []string{"=", "<>", "<", ">="}), lit())
		}
	}
	switch {
	case having == "" || g.chance(0.3):
		return cond
	case g.chance(0.5):
		return having + " AND " + cond
	default:
		return "(" + cond + " OR " + having + ")"
	}
}
