package dynosql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/internal/value"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

// schoolSelects run on both backends and must return what SQLite returns
// for the same SQL over the same rows (as lists when ORDER BY is given,
// else as multisets). Where dynosql's SQL differs from SQLite's (the
// placeholder form), sqlite holds SQLite's spelling.
var schoolSelects = []struct {
	sql    string
	args   []any
	sqlite string
}{
	{sql: "SELECT * FROM students WHERE id = 'a91'"},
	{sql: "SELECT * FROM students WHERE id = 'nobody'"},
	{sql: "SELECT name, email FROM students WHERE id IN ('a91', 'c12', 'nobody')"},
	{sql: "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'"},
	{sql: "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE c.id = 'math204'"},
	{sql: "SELECT s.name, c.title, e.grade FROM courses c JOIN enrollments e ON c.id = e.course_id JOIN students s ON s.id = e.student_id WHERE s.id = 'a91'"},
	{sql: "SELECT s.name, e.grade FROM students s, enrollments e WHERE e.student_id = s.id AND s.id = 'a91'"},
	{sql: "SELECT c.title FROM enrollments e, courses c WHERE e.student_id = 'a91' AND c.id = e.course_id ORDER BY c.title"},
	{sql: "SELECT COUNT(*) FROM enrollments WHERE course_id = 'cs101'"},
	{sql: "SELECT grade, COUNT(*) FROM enrollments WHERE course_id = 'cs101' GROUP BY grade ORDER BY grade"},
	{sql: "SELECT e.student_id FROM enrollments e WHERE e.course_id = 'cs101' AND e.grade = 'A' ORDER BY e.student_id"},
	{sql: "SELECT student_id, grade FROM enrollments WHERE course_id = 'cs101' AND grade IS NULL"},
	{sql: "SELECT student_id FROM enrollments WHERE course_id = 'math204' AND grade IS NOT NULL"},
	{sql: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id > 'hist120' ORDER BY course_id"},
	{sql: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id <= 'hist120'"},
	{sql: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id BETWEEN 'b' AND 'm'"},
	{sql: "SELECT course_id, grade FROM enrollments WHERE student_id = 'a91' AND course_id LIKE 'ma%'"},
	{sql: "SELECT course_id, grade FROM enrollments WHERE student_id = 'a91' AND (grade = 'A' OR grade = 'B' OR grade IS NULL)"},
	{sql: "SELECT student_id FROM enrollments WHERE course_id = 'math204' AND NOT (grade = 'F')"},
	{sql: "SELECT student_id FROM enrollments WHERE course_id = 'math204' AND grade <> 'F' AND grade IN ('A', 'C', 'E')"},
	{sql: "SELECT * FROM courses WHERE id IN ('math204', 'cs101', 'sem100', 'nope') ORDER BY id"},
	{sql: "SELECT MIN(grade), MAX(grade), COUNT(grade), COUNT(*) FROM enrollments WHERE course_id = 'cs101'"},
	{sql: "SELECT SUM(credits), AVG(credits), COUNT(credits) FROM courses WHERE id IN ('math204', 'cs101', 'sem100', 'phys110')"},
	{sql: "SELECT s.name, COUNT(*) FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'math204' GROUP BY s.name ORDER BY s.name"},
	{sql: "SELECT DISTINCT grade FROM enrollments WHERE course_id = 'cs101' ORDER BY grade"},
	{sql: "SELECT student_id FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id LIMIT 10 OFFSET 5"},
	{sql: "SELECT s.id, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id WHERE s.id = 'k42'"},
	{sql: "SELECT s.id, e.course_id, e.grade FROM students s LEFT JOIN enrollments e ON e.student_id = s.id WHERE s.id IN ('a91', 'k42')"},
	{sql: "SELECT e.course_id, c.title FROM enrollments e LEFT JOIN courses c ON c.id = e.course_id WHERE e.student_id = 'a91'"},
	{sql: "SELECT s.year, COUNT(*) FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101' GROUP BY s.year ORDER BY s.year"},
	{sql: "SELECT grade, COUNT(*) AS n FROM enrollments WHERE course_id = 'cs101' GROUP BY grade HAVING COUNT(*) > 40 ORDER BY n DESC, grade"},
	{sql: "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101' AND s.year = 2 ORDER BY s.name, s.id"},
	{sql: "SELECT s.id, s.email FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'math204' ORDER BY s.email DESC, s.id"},
	{sql: "SELECT name FROM students WHERE id = ?", args: []any{"a91"}, sqlite: "SELECT name FROM students WHERE id = 'a91'"},
	{sql: "SELECT id, credits * 2, credits + 1 FROM courses WHERE id IN ('math204', 'sem100')"},
	{sql: "SELECT COUNT(DISTINCT grade) FROM enrollments WHERE course_id = 'cs101'"},
	{sql: "SELECT e.student_id AS sid FROM enrollments e WHERE e.course_id = 'cs101' ORDER BY sid DESC LIMIT 5"},
	{sql: "SELECT student_id, enrolledOn FROM enrollments WHERE course_id = 'math204' ORDER BY 2, 1"},
	{sql: "SELECT c.title, e.grade FROM enrollments e JOIN courses c ON c.id = e.course_id WHERE e.student_id IN ('a91', 'b07') ORDER BY c.title, e.grade"},
	{sql: "SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE c.id = 'cs101' AND e.grade = 'A' ORDER BY s.name, s.id"},
	{sql: "SELECT s.name FROM students s WHERE s.id = 'a91' AND s.year >= 2 AND s.email LIKE 'ann%'"},
	{sql: "SELECT COUNT(*), MAX(s.name) FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'"},
}

func TestSelectsAgreeWithSQLite(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			for _, q := range schoolSelects {
				t.Run(q.sql, func(t *testing.T) {
					want, err := fx.Oracle.Query(orDefault(q.sqlite, q.sql))
					if err != nil {
						t.Fatalf("sqlite: %v", err)
					}
					rows, err := fx.DB.Query(context.Background(), q.sql, q.args...)
					if err != nil {
						t.Fatalf("dynosql: %v", err)
					}
					defer rows.Close()
					var got [][]value.Value
					for rows.Next() {
						got = append(got, rows.RawValues())
					}
					if err := rows.Err(); err != nil {
						t.Fatalf("dynosql: %v", err)
					}
					if len(want) == 0 && len(got) == 0 {
						return
					}
					ordered := strings.Contains(strings.ToUpper(q.sql), "ORDER BY")
					if diff := oracle.SameRows(got, want, ordered); diff != "" {
						t.Errorf("rows differ from SQLite:\n%s", diff)
					}
				})
			}
		})
	}
}

func orDefault(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
