package testkit

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
)

// RandomSelect is a generated statement over the school dataset. Unlike
// in SchoolSelects, SQLite's spelling (when there is one) keeps the ?
// placeholders of SQL: both take Args (see OracleArgs).
type RandomSelect struct {
	Select
	// Total reports that ORDER BY fixes the order of every output row
	// (rows that tie are equal), so results compare as lists; otherwise
	// they compare as multisets, and the statement has no LIMIT or OFFSET.
	Total bool
	// Limit, when not -1, is a LIMIT (with Offset) that SQL, but not
	// SQLite, has, on a statement whose order is not total: dynosql must
	// return as many rows as SQLite's result has after Offset, at most
	// Limit, all of them from SQLite's result.
	Limit, Offset int64
	// Refused reports a statement dynosql must refuse as needing a Scan:
	// a one-table OR with a branch no key serves. SQLite does not run it.
	Refused bool
}

// OracleArgs returns the arguments of the statement SQLite runs: those of
// SQL, as SQLite's spelling keeps the placeholders.
func (q RandomSelect) OracleArgs() []any { return q.Args }

// RandomSelects returns n SELECTs over the school dataset
// (testdata/school), the same n for the same seed. Each one binds every
// table by a key, so dynosql must answer it, and SQLite, given the same
// SQL, must return the same rows: they are for differential testing.
//
// They cover single-table reads by key (=, IN, OR of equalities), sort-key
// ranges, the joins of students, enrollments and courses in any FROM order
// (ON or comma with WHERE, INNER and LEFT), conditions on every column,
// aggregates with GROUP BY and HAVING (naming select-list aliases too),
// DISTINCT, ORDER BY, LIMIT and OFFSET, and one-table ORs whose branches a
// key serves each (a union of key reads). A few are ORs with a branch no
// key serves, which dynosql must refuse (Refused). They avoid what dynosql
// documents as different from SQL engines: LIKE patterns other than a
// prefix (save those with escapes, randlike.go), and division. They are
// meant for the school dataset with LoadRandom's rows added.
//
// What came after the first version draws from a second stream (gen.x),
// so that the statements of the first one stay as they were for a seed,
// in the same order, with the union statements between them and some
// HAVING clauses given a condition on an alias.
func RandomSelects(seed int64, n int) []RandomSelect {
	g := &gen{r: rand.New(rand.NewSource(seed)), x: rand.New(rand.NewSource(seed ^ 0x0a5e7))}
	out := make([]RandomSelect, n)
	for i := range out {
		if g.x.Float64() < 0.2 {
			out[i] = g.ext().unionStatement()
			continue
		}
		out[i] = g.statement()
	}
	return out
}

// Values the generator draws from: mostly present in the dataset, some not.
var (
	randStudentIDs = []string{"a91", "a91", "c12", "k42", "b07", "a10", "a21", "i00", "l60", "t26", "w39", "z84", "d33", "e18", "f56", "g71", "h05", "q19", "r51", "zz9", "a00"}
	randCourseIDs  = []string{"cs101", "math204", "sem100", "phys110", "hist120", "art150", "bio140", "chem130", "econ210", "lit220", "phil160", "stat230", "nope", "cs1"}
	randGrades     = []string{"A", "B", "C", "D", "E", "F", "Z"}
	randNames      = []string{"Ann", "Ann Lee", "Rosa Quint", "Zoë Kraus", "José Núñez", "Łukasz Wójcik", "Søren Ågren", "Nobody", "M", "Omar Novak"}
	// Enrollments that exist, as student_id, course_id.
	randEnrollments = [][2]string{{"a91", "art150"}, {"a91", "cs101"}, {"a91", "phys110"}, {"a21", "cs101"}, {"c12", "stat230"}, {"i00", "econ210"}, {"l60", "math204"}, {"q19", "chem130"}, {"t26", "math204"}, {"w39", "lit220"}, {"z84", "hist120"}, {"k42", "cs101"}}
	randEmails      = []string{"ann.lee@example.edu", "ann@example.edu", "rosa.quint@example.edu", "m", "zoe.kraus@example.edu", "nobody@example.edu"}
	randTitles      = []string{"Linear Algebra", "Mechanics", "Freshman Seminar", "Intro to Programming", "M", "Zzz"}
	randDates       = []string{"2023-01-01", "2023-06-15", "2024-01-05", "2024-06-30", "2025-01-01", "2025-12-25", "2026-01-01"}
	// Prefixes for LIKE 'p%', per column.
	randPrefixes = map[string][]string{
		"id":         {"a", "c1", "k4", "z", "x"},
		"student_id": {"a", "c1", "k4", "z", "x"},
		"course_id":  {"c", "ma", "s", "cs1", "q"},
		"name":       {"Ann", "A", "Zo", "Ł", "Sø", "ann", "Q"},
		"email":      {"ann", "a", "z", "rosa.", "q"},
		"title":      {"M", "Linear", "F", "Z"},
		"grade":      {"A", "B", "F", "Z"},
		"enrolledOn": {"2024", "2023-0", "2025-1", "19"},
	}
)

// gen draws from r; x is the stream of the additions to the first
// version of the generator (see RandomSelects).
type gen struct{ r, x *rand.Rand }

// ext returns a gen drawing only from the second stream.
func (g *gen) ext() *gen { return &gen{r: g.x, x: g.x} }

func (g *gen) intn(n int) int        { return g.r.Intn(n) }
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func pick[T any](g *gen, xs []T) T   { return xs[g.intn(len(xs))] }

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// table is one occurrence of an entity in FROM.
type table struct {
	entity string // students, courses, enrollments
	alias  string // "" when the statement names the table itself
	left   bool   // joined with LEFT JOIN
	on     []string
}

func (t *table) ref() string {
	if t.alias == "" {
		return t.entity
	}
	return t.alias
}

func (t *table) col(c string) string { return t.ref() + "." + c }

// columns of each entity, in mapping order, with their type.
var randColumns = map[string][]struct{ name, typ string }{
	"students":    {{"email", "S"}, {"id", "S"}, {"name", "S"}, {"year", "N"}},
	"courses":     {{"credits", "N"}, {"id", "S"}, {"title", "S"}},
	"enrollments": {{"course_id", "S"}, {"enrolledOn", "S"}, {"grade", "S"}, {"student_id", "S"}},
}

// statement builds one SELECT.
type statement struct {
	g      *gen
	tables []*table
	comma  bool     // FROM a, b, c WHERE ...
	where  []string // conjuncts
	// noKeys keeps key columns out of predicate, so that a condition
	// cannot give a table a key.
	noKeys bool
	// extHaving is the condition havingAlias added to HAVING, whose
	// placeholders draw from the second stream.
	extHaving string
	// likes are the LIKEs with escapes written, for SQLite's spelling
	// (randlike.go).
	likes []likeRewrite
}

func (g *gen) statement() RandomSelect {
	st := &statement{g: g}
	st.shape()
	return st.render()
}

func (st *statement) byEntity(e string) *table {
	for _, t := range st.tables {
		if t.entity == e {
			return t
		}
	}
	return nil
}

// shape picks the tables, their FROM order and joins, and the key
// conditions that bind the driving table.
func (st *statement) shape() {
	g := st.g
	var ents []string
	leftShape := ""
	switch k := g.intn(20); {
	case k < 3:
		ents = []string{"students"}
	case k < 4:
		ents = []string{"courses"}
	case k < 7:
		ents = []string{"enrollments"}
	case k < 10:
		ents = []string{"students", "enrollments"}
	case k < 12:
		ents = []string{"enrollments", "courses"}
	case k < 16:
		ents = []string{"students", "enrollments", "courses"}
	default:
		leftShape = pick(g, []string{"s-e", "s-e-c", "s-e-C", "e-c", "e-s", "c-e", "e-s-c", "c-e-s", "self"})
	}
	if leftShape == "self" {
		st.selfJoin()
		return
	}
	if leftShape != "" {
		st.leftShape(leftShape)
		return
	}
	g.r.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
	aliases := map[string]string{"students": "s", "courses": "c", "enrollments": "e"}
	for _, e := range ents {
		t := &table{entity: e, alias: aliases[e]}
		if len(ents) == 1 && g.chance(0.5) {
			t.alias = ""
		}
		st.tables = append(st.tables, t)
	}
	// Join conditions go into the ON of the first table that sees both
	// sides, or into WHERE for comma joins.
	st.comma = len(ents) > 1 && g.chance(0.35)
	if s, e := st.byEntity("students"), st.byEntity("enrollments"); s != nil && e != nil {
		st.joinCond(s, e, fmt.Sprintf("%s = %s", e.col("student_id"), s.col("id")))
	}
	if c, e := st.byEntity("courses"), st.byEntity("enrollments"); c != nil && e != nil {
		st.joinCond(c, e, fmt.Sprintf("%s = %s", c.col("id"), e.col("course_id")))
	}
	// Bind one table (sometimes two) by constants.
	order := g.r.Perm(len(st.tables))
	st.bind(st.tables[order[0]])
	if len(order) > 1 && g.chance(0.15) {
		st.bind(st.tables[order[1]])
	}
	// Inner ON conditions may also carry filters.
	if !st.comma {
		for i, t := range st.tables[1:] {
			if g.chance(0.2) {
				t.on = append(t.on, st.predicate(st.tables[:i+2], 1))
			}
		}
	}
	st.filters(st.tables)
}

// joinCond places an equality between a and b.
func (st *statement) joinCond(a, b *table, cond string) {
	if st.g.chance(0.5) {
		l, r, _ := strings.Cut(cond, " = ")
		cond = r + " = " + l
	}
	if st.comma {
		st.where = append(st.where, cond)
		return
	}
	later := b
	if st.index(a) > st.index(b) {
		later = a
	}
	later.on = append(later.on, cond)
}

func (st *statement) index(t *table) int {
	for i, x := range st.tables {
		if x == t {
			return i
		}
	}
	return -1
}

// leftShape builds a statement with LEFT JOINs. The first table is bound
// by constants; each LEFT JOIN's ON holds its join condition and maybe a
// filter.
func (st *statement) leftShape(shape string) {
	g := st.g
	mk := func(e, alias string, left bool) *table {
		t := &table{entity: e, alias: alias, left: left}
		st.tables = append(st.tables, t)
		return t
	}
	parts := strings.Split(shape, "-")
	ent := map[string]string{"s": "students", "e": "enrollments", "c": "courses", "S": "students", "E": "enrollments", "C": "courses"}
	for i, p := range parts {
		// Lower case: LEFT JOIN (after the first); upper case: inner JOIN.
		mk(ent[p], strings.ToLower(p), i > 0 && p == strings.ToLower(p))
	}
	for i, t := range st.tables[1:] {
		prev := st.tables[:i+1]
		var cond string
		switch t.entity {
		case "enrollments":
			if s := findIn(prev, "students"); s != nil {
				cond = fmt.Sprintf("%s = %s", t.col("student_id"), s.col("id"))
			} else {
				cond = fmt.Sprintf("%s = %s", t.col("course_id"), findIn(prev, "courses").col("id"))
			}
		case "courses":
			cond = fmt.Sprintf("%s = %s", t.col("id"), findIn(prev, "enrollments").col("course_id"))
		case "students":
			cond = fmt.Sprintf("%s = %s", t.col("id"), findIn(prev, "enrollments").col("student_id"))
		}
		if g.chance(0.5) {
			l, r, _ := strings.Cut(cond, " = ")
			cond = r + " = " + l
		}
		t.on = append(t.on, cond)
		if g.chance(0.4) {
			// A filter on the joined table, or, rarely, on an earlier one.
			scope := []*table{t}
			if g.chance(0.2) {
				scope = st.tables[:i+2]
			}
			t.on = append(t.on, st.predicate(scope, 1))
		}
		if t.entity == "enrollments" && g.chance(0.25) {
			// A sort-key condition in the ON of the edge.
			if strings.Contains(cond, "student_id") {
				t.on = append(t.on, st.keyRange(t.col("course_id"), randCourseIDs, "course_id"))
			} else {
				t.on = append(t.on, st.keyRange(t.col("student_id"), randStudentIDs, "student_id"))
			}
		}
	}
	st.bind(st.tables[0])
	st.filters(st.tables)
}

// selfJoin joins enrollments with enrollments: the classmates of bound
// students (same course, through GSI1) or the other courses of the
// students of bound courses, maybe with the students or courses of the
// second side.
func (st *statement) selfJoin() {
	g := st.g
	e1 := &table{entity: "enrollments", alias: "e1"}
	e2 := &table{entity: "enrollments", alias: "e2", left: g.chance(0.3)}
	st.tables = []*table{e1, e2}
	if g.chance(0.5) {
		e2.on = []string{"e2.course_id = e1.course_id"}
		st.where = append(st.where, fmt.Sprintf("e1.student_id = %s", quoteSQL(pick(g, randStudentIDs))))
	} else {
		e2.on = []string{"e2.student_id = e1.student_id"}
		st.where = append(st.where, fmt.Sprintf("e1.course_id = %s", quoteSQL(pick(g, randCourseIDs[1:]))))
	}
	if g.chance(0.3) {
		e2.on = append(e2.on, "e2.student_id <> e1.student_id")
	}
	if g.chance(0.4) {
		e2.on = append(e2.on, st.predicate([]*table{e2}, 1))
	}
	switch g.intn(3) {
	case 0:
		s := &table{entity: "students", alias: "s", left: e2.left && g.chance(0.5), on: []string{"s.id = e2.student_id"}}
		st.tables = append(st.tables, s)
	case 1:
		c := &table{entity: "courses", alias: "c", left: e2.left && g.chance(0.5), on: []string{"c.id = e2.course_id"}}
		st.tables = append(st.tables, c)
	}
	st.filters(st.tables)
}

func findIn(ts []*table, e string) *table {
	for _, t := range ts {
		if t.entity == e {
			return t
		}
	}
	return nil
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

// inList renders ('a', 'b') from 1 to 4 values of xs.
func (g *gen) inList(xs []string) string {
	n := 1 + g.intn(4)
	vals := make([]string, n)
	for i := range vals {
		vals[i] = quoteSQL(pick(g, xs))
	}
	return "(" + strings.Join(vals, ", ") + ")"
}

// eqOrIn binds col to constants from vals: =, IN, or an OR of equalities.
func (st *statement) eqOrIn(col string, vals []string) string {
	g := st.g
	switch k := g.intn(10); {
	case k < 6:
		return fmt.Sprintf("%s = %s", col, quoteSQL(pick(g, vals)))
	case k < 9:
		return fmt.Sprintf("%s IN %s", col, g.inList(vals))
	default:
		return fmt.Sprintf("(%s = %s OR %s = %s)", col, quoteSQL(pick(g, vals)), col, quoteSQL(pick(g, vals)))
	}
}

// bind adds key conditions on constants for t.
func (st *statement) bind(t *table) {
	g := st.g
	switch t.entity {
	case "students":
		st.where = append(st.where, st.eqOrIn(t.col("id"), randStudentIDs))
	case "courses":
		st.where = append(st.where, st.eqOrIn(t.col("id"), randCourseIDs))
	case "enrollments":
		switch k := g.intn(10); {
		case k < 4: // the student's partition, maybe a sort-key range
			st.where = append(st.where, st.eqOrIn(t.col("student_id"), randStudentIDs))
			if g.chance(0.35) {
				st.where = append(st.where, st.keyRange(t.col("course_id"), randCourseIDs, "course_id"))
			}
		case k < 8: // the course's partition in GSI1, maybe a range
			st.where = append(st.where, st.eqOrIn(t.col("course_id"), randCourseIDs))
			if g.chance(0.35) {
				st.where = append(st.where, st.keyRange(t.col("student_id"), randStudentIDs, "student_id"))
			}
		default: // the full key, mostly of an enrollment that exists
			key := pick(g, randEnrollments)
			if g.chance(0.3) {
				key = [2]string{pick(g, randStudentIDs), pick(g, randCourseIDs)}
			}
			st.where = append(st.where,
				fmt.Sprintf("%s = %s", t.col("student_id"), quoteSQL(key[0])),
				fmt.Sprintf("%s = %s", t.col("course_id"), quoteSQL(key[1])))
		}
	}
}

// keyRange renders a sort-key condition: a range, BETWEEN, a prefix or =.
func (st *statement) keyRange(col string, vals []string, name string) string {
	g := st.g
	v := func() string {
		if g.chance(0.7) {
			return quoteSQL(pick(g, vals))
		}
		return quoteSQL(pick(g, randPrefixes[name]))
	}
	switch g.intn(7) {
	case 0:
		return fmt.Sprintf("%s = %s", col, v())
	case 1:
		return fmt.Sprintf("%s < %s", col, v())
	case 2:
		return fmt.Sprintf("%s <= %s", col, v())
	case 3:
		return fmt.Sprintf("%s > %s", col, v())
	case 4:
		return fmt.Sprintf("%s >= %s", col, v())
	case 5:
		a, b := v(), v()
		return fmt.Sprintf("%s BETWEEN %s AND %s", col, a, b)
	default:
		return st.escapedLike(col, name, fmt.Sprintf("%s LIKE %s", col, quoteSQL(pick(g, randPrefixes[name])+"%")))
	}
}

// predicate renders a condition over the columns of ts, nested up to
// depth levels of AND, OR and NOT.
func (st *statement) predicate(ts []*table, depth int) string {
	g := st.g
	if depth > 0 && g.chance(0.3) {
		switch g.intn(3) {
		case 0:
			return fmt.Sprintf("(%s AND %s)", st.predicate(ts, depth-1), st.predicate(ts, depth-1))
		case 1:
			return fmt.Sprintf("(%s OR %s)", st.predicate(ts, depth-1), st.predicate(ts, depth-1))
		default:
			return fmt.Sprintf("NOT (%s)", st.predicate(ts, depth-1))
		}
	}
	t := pick(g, ts)
	cs := randColumns[t.entity]
	if st.noKeys {
		cs = nonKeyColumns(t.entity)
	}
	c := pick(g, cs)
	col := t.col(c.name)
	if c.typ == "N" {
		lit := func() string {
			switch {
			case g.chance(0.1):
				return pick(g, []string{"1.5", "2.0", "-1", "3.99", "0"})
			case c.name == "year":
				return fmt.Sprint(g.intn(6))
			}
			return fmt.Sprint(1 + g.intn(7))
		}
		switch g.intn(14) {
		case 0:
			return col + " IS NULL"
		case 1:
			return col + " IS NOT NULL"
		case 2:
			a := g.intn(6)
			return fmt.Sprintf("%s %sBETWEEN %d AND %d", col, st.not(), a, a+g.intn(3))
		case 3:
			return fmt.Sprintf("%s %sIN (%s, %s)", col, st.not(), lit(), lit())
		case 4: // arithmetic
			return fmt.Sprintf("%s %s %d %s %s", col, pick(g, []string{"+", "-", "*"}), 1+g.intn(2), pick(g, []string{"=", "<", ">="}), lit())
		case 5: // the literal first
			return fmt.Sprintf("%s %s %s", lit(), pick(g, []string{"=", "<>", "<", ">="}), col)
		case 6: // against another numeric column
			if other := st.otherColumn(ts, "N", col); other != "" {
				return fmt.Sprintf("%s %s %s", col, pick(g, []string{"=", "<>", "<", ">="}), other)
			}
			return col + " IS NOT NULL"
		default:
			return fmt.Sprintf("%s %s %s", col, pick(g, []string{"=", "<>", "<", "<=", ">", ">="}), lit())
		}
	}
	vals := randValues(t.entity, c.name)
	lit := func() string { return quoteSQL(pick(g, vals)) }
	switch g.intn(14) {
	case 0:
		return col + " IS NULL"
	case 1:
		return col + " IS NOT NULL"
	case 2:
		a, b := lit(), lit()
		if a > b && g.chance(0.8) {
			a, b = b, a
		}
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", col, st.not(), a, b)
	case 3:
		return fmt.Sprintf("%s %sIN %s", col, st.not(), g.inList(vals))
	case 4, 5:
		return st.escapedLike(col, c.name, fmt.Sprintf("%s %sLIKE %s", col, st.not(), quoteSQL(pick(g, randPrefixes[c.name])+"%")))
	case 6: // the literal first
		return fmt.Sprintf("%s %s %s", lit(), pick(g, []string{"=", "<>", "<", ">="}), col)
	case 7: // against another string column
		if other := st.otherColumn(ts, "S", col); other != "" {
			return fmt.Sprintf("%s %s %s", col, pick(g, []string{"=", "<>", "<", ">="}), other)
		}
		return col + " IS NOT NULL"
	default:
		return fmt.Sprintf("%s %s %s", col, pick(g, []string{"=", "=", "<>", "<", "<=", ">", ">="}), lit())
	}
}

// not returns "NOT " now and then, for NOT IN, NOT BETWEEN, NOT LIKE.
func (st *statement) not() string {
	if st.g.chance(0.25) {
		return "NOT "
	}
	return ""
}

// otherColumn returns a column of ts of type typ other than col, or "".
func (st *statement) otherColumn(ts []*table, typ, col string) string {
	var cands []string
	for _, t := range ts {
		for _, c := range randColumns[t.entity] {
			if st.noKeys && isKeyColumn(t.entity, c.name) {
				continue // b = a.key AND b = 'x' would bind the key
			}
			if c.typ == typ && t.col(c.name) != col {
				cands = append(cands, t.col(c.name))
			}
		}
	}
	if len(cands) == 0 {
		return ""
	}
	return pick(st.g, cands)
}

// outCol is one column of the select list.
type outCol struct {
	expr  string
	alias string
	agg   bool
}

// render chooses the select list, grouping, ordering and limit, and
// writes the statement.
func (st *statement) render() RandomSelect {
	g := st.g
	var cols []string // every column of the tables, qualified
	var nums []string // the numeric ones
	types := map[string]colInfo{}
	for _, t := range st.tables {
		for _, c := range randColumns[t.entity] {
			types[t.col(c.name)] = colInfo{t.entity, c.name, c.typ}
			cols = append(cols, t.col(c.name))
			if c.typ == "N" {
				nums = append(nums, t.col(c.name))
			}
		}
	}
	var items []outCol   // the select list, unless star
	var sel []string     // select list as written
	var visible []string // what each visible column orders by
	distinct := false
	total := false
	var order []string
	var groupBy []string
	having := ""
	dir := func() string { return pick(g, []string{"", " ASC", " DESC"}) }
	switch k := g.intn(10); {
	case k < 3: // aggregates
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
		g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
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
		if x := g.ext(); x.chance(0.35) && len(items) > 0 {
			having = st.havingAlias(x, items, having, types)
		}
	default:
		switch k := g.intn(10); {
		case k == 0:
			sel = []string{"*"}
			visible = cols
		case k == 1 && len(st.tables) > 1:
			t := pick(g, st.tables)
			sel = []string{t.ref() + ".*"}
			for _, c := range randColumns[t.entity] {
				visible = append(visible, t.col(c.name))
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
	b.WriteString(" FROM ")
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
		b.WriteString(t.entity)
		if t.alias != "" {
			b.WriteString(" " + t.alias)
		}
		if i > 0 && !st.comma {
			on := t.on
			if len(on) == 0 {
				// No condition of its own yet (its join partner comes
				// later): a filter that keeps every row.
				on = []string{t.col("id") + " IS NOT NULL"}
				if t.entity == "enrollments" {
					on = []string{t.col("student_id") + " IS NOT NULL"}
				}
			}
			b.WriteString(" ON " + strings.Join(on, " AND "))
		}
	}
	where := append([]string{}, st.where...)
	g.r.Shuffle(len(where), func(i, j int) { where[i], where[j] = where[j], where[i] })
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
	switch {
	case total && g.chance(0.4):
		fmt.Fprintf(&b, " LIMIT %d", g.intn(12))
		if g.chance(0.4) {
			fmt.Fprintf(&b, " OFFSET %d", g.intn(8))
		}
		q.SQL = b.String()
	case !total && g.chance(0.15):
		// Any rows will do: SQLite answers without the LIMIT, and dynosql's
		// rows must be that many of them.
		q.SQLite = q.SQL
		q.Limit, q.Offset = int64(g.intn(12)), 0
		fmt.Fprintf(&b, " LIMIT %d", q.Limit)
		if g.chance(0.3) {
			q.Offset = int64(g.intn(8))
			fmt.Fprintf(&b, " OFFSET %d", q.Offset)
		}
		q.SQL = b.String()
	}
	if g.chance(0.15) {
		st.placeholders(&q)
	}
	st.sqliteLikes(&q)
	return q
}

// placeholderRE finds the string literals a ? may stand for: after =, in
// IN lists, before a comparison.
var placeholderRE = regexp.MustCompile(`(= |\(|, )'([^']*)'`)

// placeholders turns some string literals of q into ? with arguments;
// SQLite gets the same statement and arguments.
func (st *statement) placeholders(q *RandomSelect) {
	// The literals of the condition havingAlias added draw from the second
	// stream, so that the others are as they were.
	extFrom, extTo := -1, -1
	if st.extHaving != "" {
		if h := strings.Index(q.SQL, " HAVING "); h >= 0 {
			if i := strings.Index(q.SQL[h:], st.extHaving); i >= 0 {
				extFrom, extTo = h+i, h+i+len(st.extHaving)
			}
		}
	}
	var args []any
	var b strings.Builder
	last := 0
	for _, m := range placeholderRE.FindAllStringSubmatchIndex(q.SQL, -1) {
		g := st.g
		if m[0] >= extFrom && m[1] <= extTo {
			g = g.ext()
		}
		if !g.chance(0.6) {
			continue
		}
		b.WriteString(q.SQL[last:m[2]])
		b.WriteString(q.SQL[m[2]:m[3]] + "?")
		args = append(args, q.SQL[m[4]:m[5]])
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
		a := pick(st.g, []string{"x", "n", "total", "id", "grade", "year", "title", "name"})
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

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

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

// randValues returns the values the generator compares a column with.
func randValues(entity, name string) []string {
	switch name {
	case "id":
		if entity == "students" {
			return randStudentIDs
		}
		return randCourseIDs
	case "student_id":
		return randStudentIDs
	case "course_id":
		return randCourseIDs
	case "name":
		return randNames
	case "email":
		return randEmails
	case "title":
		return randTitles
	case "grade":
		return randGrades
	case "enrolledOn":
		return randDates
	}
	return nil
}

// isKeyColumn reports whether a column of the entity is in a key template.
func isKeyColumn(entity, name string) bool {
	switch entity {
	case "enrollments":
		return name == "student_id" || name == "course_id"
	default:
		return name == "id"
	}
}

// nonKeyColumns returns the columns of an entity that are in no key.
func nonKeyColumns(entity string) []struct{ name, typ string } {
	var out []struct{ name, typ string }
	for _, c := range randColumns[entity] {
		if !isKeyColumn(entity, c.name) {
			out = append(out, c)
		}
	}
	return out
}

// unionStatement builds a one-table SELECT whose WHERE holds an OR a key
// serves branch by branch, which dynosql reads as a union of key reads
// (student_id = 'a91' OR course_id = 'math204'), maybe among other
// conjuncts; now and then one of its branches no key serves, and then the
// statement must be refused.
func (g *gen) unionStatement() RandomSelect {
	st := &statement{g: g}
	ent := pick(g, []string{"students", "courses", "enrollments", "enrollments", "enrollments"})
	t := &table{entity: ent, alias: ent[:1]}
	if g.chance(0.5) {
		t.alias = ""
	}
	st.tables = []*table{t}
	refused := g.chance(0.1)
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
		if ent == "enrollments" && g.chance(0.2) {
			// A sort-key condition outside the OR: a range for one
			// branch, a filter for the other.
			if g.chance(0.5) {
				st.where = append(st.where, st.keyRange(t.col("course_id"), randCourseIDs, "course_id"))
			} else {
				st.where = append(st.where, st.keyRange(t.col("student_id"), randStudentIDs, "student_id"))
			}
		}
	}
	// Other conditions, mostly on columns in no key, so that the OR is
	// what gives the table its keys.
	keys := st.noKeys
	st.noKeys = st.noKeys || g.chance(0.7)
	st.filters(st.tables)
	st.noKeys = keys
	if len(st.where) == 1 && g.chance(0.5) {
		st.where[0] = strings.TrimSuffix(strings.TrimPrefix(st.where[0], "("), ")")
	}
	q := st.render()
	q.Refused = refused
	return q
}

// keyBranch renders one branch of an OR that a key of t serves: its
// partition key bound by constants, maybe a sort-key range, maybe a filter.
func (st *statement) keyBranch(t *table) string {
	g := st.g
	var conds []string
	switch t.entity {
	case "students":
		conds = append(conds, st.eqOrIn(t.col("id"), randStudentIDs))
	case "courses":
		conds = append(conds, st.eqOrIn(t.col("id"), randCourseIDs))
	case "enrollments":
		switch k := g.intn(10); {
		case k < 4:
			conds = append(conds, st.eqOrIn(t.col("student_id"), randStudentIDs))
			if g.chance(0.45) {
				conds = append(conds, st.keyRange(t.col("course_id"), randCourseIDs, "course_id"))
			}
		case k < 8:
			conds = append(conds, st.eqOrIn(t.col("course_id"), randCourseIDs))
			if g.chance(0.45) {
				conds = append(conds, st.keyRange(t.col("student_id"), randStudentIDs, "student_id"))
			}
		default:
			key := pick(g, randEnrollments)
			if g.chance(0.3) {
				key = [2]string{pick(g, randStudentIDs), pick(g, randCourseIDs)}
			}
			conds = append(conds,
				fmt.Sprintf("%s = %s", t.col("student_id"), quoteSQL(key[0])),
				fmt.Sprintf("%s = %s", t.col("course_id"), quoteSQL(key[1])))
		}
	}
	if g.chance(0.35) {
		conds = append(conds, st.predicate(st.tables, 1))
	}
	if len(conds) == 1 {
		return conds[0]
	}
	g.r.Shuffle(len(conds), func(i, j int) { conds[i], conds[j] = conds[j], conds[i] })
	return "(" + strings.Join(conds, " AND ") + ")"
}

// colInfo is a column of the statement's tables, by its qualified name.
type colInfo struct{ entity, name, typ string }

// itemType returns the entity, column and type of what an item of an
// aggregate select list computes: MIN and MAX of a column, or the column
// itself, have its values; the rest is numeric.
func itemType(it outCol, types map[string]colInfo) colInfo {
	e := it.expr
	for _, f := range []string{"MIN(", "MAX("} {
		if strings.HasPrefix(e, f) && strings.HasSuffix(e, ")") && strings.Count(e, "(") == 1 {
			e = e[len(f) : len(e)-1]
		}
	}
	if c, ok := types[e]; ok {
		return c
	}
	return colInfo{typ: "N"}
}

// havingAlias adds to having a condition on a select-list alias (naming
// the item first when it has no alias): an aggregate's or a grouping
// column's. The alias is never a column of the tables, where a column
// would win.
func (st *statement) havingAlias(g *gen, items []outCol, having string, types map[string]colInfo) string {
	isColumn := func(a string) bool {
		for _, t := range st.tables {
			for _, c := range randColumns[t.entity] {
				if c.name == a {
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
	info := itemType(items[i], types)
	not := func() string { // not st.not: that draws from st.g
		if g.chance(0.25) {
			return "NOT "
		}
		return ""
	}
	var cond string
	if info.typ == "N" {
		k := func() string {
			if g.chance(0.1) {
				return pick(g, []string{"1.5", "0", "-1", "2.5"})
			}
			return fmt.Sprint(g.intn(8))
		}
		switch g.intn(8) {
		case 0:
			cond = a + pick(g, []string{" IS NULL", " IS NOT NULL"})
		case 1:
			lo := g.intn(5)
			cond = fmt.Sprintf("%s %sBETWEEN %d AND %d", a, not(), lo, lo+g.intn(4))
		case 2:
			cond = fmt.Sprintf("%s %sIN (%s, %s)", a, not(), k(), k())
		case 3:
			cond = fmt.Sprintf("%s %s %s", k(), pick(g, []string{"=", "<", ">="}), a)
		case 4:
			cond = fmt.Sprintf("%s + %d %s %s", a, 1+g.intn(2), pick(g, []string{">", "<="}), k())
		default:
			cond = fmt.Sprintf("%s %s %s", a, pick(g, []string{"=", "<>", "<", "<=", ">", ">="}), k())
		}
	} else {
		vals := randValues(info.entity, info.name)
		lit := func() string { return quoteSQL(pick(g, vals)) }
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
			cond = fmt.Sprintf("%s %sLIKE %s", a, not(), quoteSQL(pick(g, randPrefixes[info.name])+"%"))
		case 3:
			cond = fmt.Sprintf("%s %sIN %s", a, not(), g.inList(vals))
		default:
			cond = fmt.Sprintf("%s %s %s", a, pick(g, []string{"=", "<>", "<", ">="}), lit())
		}
	}
	st.extHaving = cond
	switch {
	case having == "" || g.chance(0.3):
		return cond
	case g.chance(0.5):
		return having + " AND " + cond
	default:
		return "(" + cond + " OR " + having + ")"
	}
}
