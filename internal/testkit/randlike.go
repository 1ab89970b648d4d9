package testkit

import (
	"fmt"
	"strings"
)

// LIKE with escapes in the random statements. The generator writes a
// pattern as its value, \ marking the next character literal (\% \_ \\,
// and now and then an ordinary character), then spells it twice:
//
//   - for dynosql, a MySQL string literal, where \ is written \\ but \%
//     and \_ may stay as they are (MySQL keeps their backslash), under
//     ESCAPE '\' by default or another ESCAPE character;
//   - for SQLite, which has no escapes in strings and no default escape
//     character, the value itself and an explicit ESCAPE clause.
//
// Patterns never end in a lone escape character, which MySQL matches as
// itself and SQLite matches nothing with.

// schoolLikes are pattern values per column of the school dataset, \
// escaping. Their literal parts hold % and _ escaped, and match rows of
// likeRows.
var schoolLikes = map[string][]string{
	"id":         {`a\_%`, `a0%`, `cs\%`, `cs1%`, `%\_%`, `a\%%`, `c\s1%`, `zz_`, `no\pe`},
	"student_id": {`a\_%`, `a\%%`, `a\\%`, `a\_1`, `%\_1`, `a\\_`, `%\\%`, `c\_%`, `k\%%`, `_\%4_`},
	"course_id":  {`ma\_%`, `ma\%%`, `ma\\%`, `ma\_th_`, `%\_%`, `%\%%`, `m\a_th%`, `ma\_th1`, `ma\\th3`, `cs\_%`, `cs\%1`, `cs_1`},
	"name":       {`Al\_%`, `%\%%`, `%\\%`, `Ann\_%`, `A%\\_`, `Al\_ice\%\\Z`, `_l\__%`, `Ann_%`},
	"email":      {`a\_00\%%`, `%\%x@%`, `%\_%`, `ann%`, `a\_%@example.edu`, `ann\%%`},
	"title":      {`100\% C\_S%`, `%\\intro`, `%\%%`, `%\_%`, `1_0\%%`, `M\_\%`},
	"grade":      {`A\_`, `B\%`, `C\\`, `_\_`, `%\%`, `\A`, `\%`, `\_B`, `_B`},
	"enrolledOn": {`2024%`, `20\24%`, `%\_%`, `2024\_0_`, `%\_01`},
}

// likeRewrite is a LIKE the generator wrote with escapes: its text in
// dynosql's statement and in SQLite's.
type likeRewrite struct{ sql, sqlite string }

// like returns, now and then, a LIKE with escapes on column c of t in
// place of cond, when the schema has patterns for c; else cond.
func (st *statement) like(t *table, c Col, cond string) string {
	x := st.g
	pats := x.s.Likes[c.Name]
	if len(pats) == 0 || c.Type != "S" || !x.chance(0.5) {
		return cond
	}
	col := t.col(c.Name)
	pat := pick(x, pats)
	not := ""
	if x.chance(0.25) {
		not = "NOT "
	}
	esc := '\\'
	if x.chance(0.3) {
		esc = pick(x, []rune{'!', '#', '|'})
	}
	value := respell(pat, esc)
	rw := likeRewrite{
		sql:    fmt.Sprintf("%s %sLIKE %s", col, not, mysqlString(value, x)),
		sqlite: fmt.Sprintf("%s %sLIKE %s ESCAPE %s", col, not, quoteSQL(value), quoteSQL(string(esc))),
	}
	if esc != '\\' {
		rw.sql += " ESCAPE " + quoteSQL(string(esc))
	}
	st.likes = append(st.likes, rw)
	return rw.sql
}

// respell writes pattern pat, where \ escapes, with esc as the escape
// character instead.
func respell(pat string, esc rune) string {
	if esc == '\\' {
		return pat
	}
	var b strings.Builder
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			i++
			b.WriteRune(esc)
			b.WriteRune(rs[i]) // escaped: stays escaped, ordinary or not
		case r == esc:
			b.WriteRune(esc)
			b.WriteRune(esc)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mysqlString spells a string value as a MySQL literal: ' doubled, \
// escaped as \\, except that a \ before % or _ is sometimes left single,
// which MySQL (unlike other escapes) reads as the same two characters.
func mysqlString(v string, g *gen) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\'':
			b.WriteString("''")
		case c == '\\' && i+1 < len(v) && (v[i+1] == '%' || v[i+1] == '_') && g.chance(0.5):
			b.WriteByte('\\')
		case c == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// sqliteLikes gives q, when the generator wrote LIKEs with escapes in it,
// SQLite's spelling of them (see likeRewrite) in SQLite's statement.
func (st *statement) sqliteLikes(q *RandomSelect) {
	if len(st.likes) == 0 {
		return
	}
	s := q.OracleSQL()
	// Each through a mark of its own, so that a LIKE written twice is
	// found twice and SQLite's text, which holds dynosql's, is not found
	// again.
	for i, rw := range st.likes {
		s = strings.Replace(s, rw.sql, fmt.Sprintf("\x00%d\x00", i), 1)
	}
	for i, rw := range st.likes {
		s = strings.Replace(s, fmt.Sprintf("\x00%d\x00", i), rw.sqlite, 1)
	}
	q.SQLite = s
}

// likeRows are the rows the random statements' school dataset adds: text
// holding %, _ and \, which LIKE with escapes must tell from wildcards,
// under keys the random statements read: enrollments in the partitions
// of a dozen students, enrollments of students with such ids in six
// courses (through GSI1), and a00, zz9, cs1 and nope, which the random
// statements ask for but the dataset lacks.
const likeRows = `
{"entity":"students","row":{"id":"a00","name":"Al_ice%\\Z","email":"a_00%x@example.edu","year":1}}
{"entity":"students","row":{"id":"zz9","name":"Ann_Lee","email":"ann%lee@example.edu","year":3}}
{"entity":"courses","row":{"id":"cs1","title":"100% C_S\\intro","credits":3}}
{"entity":"courses","row":{"id":"nope","title":"M_%","credits":1}}
{"entity":"enrollments","row":{"student_id":"a91","course_id":"ma_th1","grade":"A_","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"a91","course_id":"ma%th2","grade":"C\\","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"a91","course_id":"ma\\th3","grade":"%","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"c12","course_id":"ma%th2","grade":"B%","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"c12","course_id":"ma\\th3","grade":"_B","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"c12","course_id":"cs_1","grade":"A_","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"k42","course_id":"ma\\th3","grade":"C\\","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"k42","course_id":"cs_1","grade":"%","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"k42","course_id":"cs%1","grade":"B%","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"b07","course_id":"cs_1","grade":"_B","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"b07","course_id":"cs%1","grade":"A_","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"b07","course_id":"ma_th1","grade":"C\\","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"a10","course_id":"cs%1","grade":"%","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"a10","course_id":"ma_th1","grade":"B%","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"a10","course_id":"ma%th2","grade":"_B","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"a21","course_id":"ma_th1","grade":"A_","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"a21","course_id":"ma%th2","grade":"C\\","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"a21","course_id":"ma\\th3","grade":"%","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"t26","course_id":"ma%th2","grade":"B%","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"t26","course_id":"ma\\th3","grade":"_B","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"t26","course_id":"cs_1","grade":"A_","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"l60","course_id":"ma\\th3","grade":"C\\","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"l60","course_id":"cs_1","grade":"%","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"l60","course_id":"cs%1","grade":"B%","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"i00","course_id":"cs_1","grade":"_B","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"i00","course_id":"cs%1","grade":"A_","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"i00","course_id":"ma_th1","grade":"C\\","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"w39","course_id":"cs%1","grade":"%","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"w39","course_id":"ma_th1","grade":"B%","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"w39","course_id":"ma%th2","grade":"_B","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"z84","course_id":"ma_th1","grade":"A_","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"z84","course_id":"ma%th2","grade":"C\\","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"z84","course_id":"ma\\th3","grade":"%","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"q19","course_id":"ma%th2","grade":"B%","enrolledOn":"2024_00"}}
{"entity":"enrollments","row":{"student_id":"q19","course_id":"ma\\th3","grade":"_B","enrolledOn":"2024_01"}}
{"entity":"enrollments","row":{"student_id":"q19","course_id":"cs_1","grade":"A_","enrolledOn":"2024_02"}}
{"entity":"enrollments","row":{"student_id":"a_1","course_id":"cs101","grade":"A_"}}
{"entity":"enrollments","row":{"student_id":"a%1","course_id":"cs101","grade":"B%"}}
{"entity":"enrollments","row":{"student_id":"a%1","course_id":"math204","grade":"B%"}}
{"entity":"enrollments","row":{"student_id":"a\\1","course_id":"math204","grade":"C\\"}}
{"entity":"enrollments","row":{"student_id":"a\\1","course_id":"sem100","grade":"C\\"}}
{"entity":"enrollments","row":{"student_id":"c_12","course_id":"sem100","grade":"_B"}}
{"entity":"enrollments","row":{"student_id":"c_12","course_id":"phys110","grade":"_B"}}
{"entity":"enrollments","row":{"student_id":"k%42","course_id":"phys110","grade":"%"}}
{"entity":"enrollments","row":{"student_id":"k%42","course_id":"hist120","grade":"%"}}
{"entity":"enrollments","row":{"student_id":"a_1","course_id":"hist120","grade":"A_"}}
{"entity":"enrollments","row":{"student_id":"a_1","course_id":"art150","grade":"A_"}}
{"entity":"enrollments","row":{"student_id":"a%1","course_id":"art150","grade":"B%"}}
`
