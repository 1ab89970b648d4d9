package testkit

import "strings"

// Select is a statement over the school dataset with what SQLite needs to
// answer it too.
type Select struct {
	SQL  string
	Args []any // fill the ? placeholders of SQL
	// SQLite is SQLite's spelling of the statement where dynosql's
	// differs (placeholders filled in); empty when SQL serves both.
	SQLite string
}

// OracleSQL returns the statement to run on SQLite.
func (s Select) OracleSQL() string {
	if s.SQLite != "" {
		return s.SQLite
	}
	return s.SQL
}

// Ordered reports whether the statement fixes the order of its rows, so
// that results compare as lists rather than as multisets.
func (s Select) Ordered() bool {
	return strings.Contains(strings.ToUpper(s.SQL), "ORDER BY")
}

// SchoolSelects run on every backend and through every front end (the
// root API, database/sql) and must return what SQLite returns for the
// same SQL over the same rows.
var SchoolSelects = []Select{
	{SQL: "SELECT * FROM students WHERE id = 'a91'"},
	{SQL: "SELECT * FROM students WHERE id = 'nobody'"},
	{SQL: "SELECT name, email FROM students WHERE id IN ('a91', 'c12', 'nobody')"},
	// A NULL in a key's IN list matches nothing; the other values still
	// bind the key (it was taken for an unbound key, a Scan).
	{SQL: "SELECT name FROM students WHERE id IN ('a91', NULL)"},
	{SQL: "SELECT name FROM students WHERE id = 'a91' OR id = NULL"},
	{SQL: "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'"},
	{SQL: "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE c.id = 'math204'"},
	{SQL: "SELECT s.name, c.title, e.grade FROM courses c JOIN enrollments e ON c.id = e.course_id JOIN students s ON s.id = e.student_id WHERE s.id = 'a91'"},
	{SQL: "SELECT s.name, e.grade FROM students s, enrollments e WHERE e.student_id = s.id AND s.id = 'a91'"},
	{SQL: "SELECT c.title FROM enrollments e, courses c WHERE e.student_id = 'a91' AND c.id = e.course_id ORDER BY c.title"},
	{SQL: "SELECT COUNT(*) FROM enrollments WHERE course_id = 'cs101'"},
	{SQL: "SELECT grade, COUNT(*) FROM enrollments WHERE course_id = 'cs101' GROUP BY grade ORDER BY grade"},
	{SQL: "SELECT e.student_id FROM enrollments e WHERE e.course_id = 'cs101' AND e.grade = 'A' ORDER BY e.student_id"},
	{SQL: "SELECT student_id, grade FROM enrollments WHERE course_id = 'cs101' AND grade IS NULL"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'math204' AND grade IS NOT NULL"},
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id > 'hist120' ORDER BY course_id"},
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id <= 'hist120'"},
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id BETWEEN 'b' AND 'm'"},
	{SQL: "SELECT course_id, grade FROM enrollments WHERE student_id = 'a91' AND course_id LIKE 'ma%'"},
	{SQL: "SELECT course_id, grade FROM enrollments WHERE student_id = 'a91' AND (grade = 'A' OR grade = 'B' OR grade IS NULL)"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'math204' AND NOT (grade = 'F')"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'math204' AND grade <> 'F' AND grade IN ('A', 'C', 'E')"},
	{SQL: "SELECT * FROM courses WHERE id IN ('math204', 'cs101', 'sem100', 'nope') ORDER BY id"},
	{SQL: "SELECT MIN(grade), MAX(grade), COUNT(grade), COUNT(*) FROM enrollments WHERE course_id = 'cs101'"},
	{SQL: "SELECT SUM(credits), AVG(credits), COUNT(credits) FROM courses WHERE id IN ('math204', 'cs101', 'sem100', 'phys110')"},
	{SQL: "SELECT s.name, COUNT(*) FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'math204' GROUP BY s.name ORDER BY s.name"},
	{SQL: "SELECT DISTINCT grade FROM enrollments WHERE course_id = 'cs101' ORDER BY grade"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id LIMIT 10 OFFSET 5"},
	{SQL: "SELECT s.id, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id WHERE s.id = 'k42'"},
	{SQL: "SELECT s.id, e.course_id, e.grade FROM students s LEFT JOIN enrollments e ON e.student_id = s.id WHERE s.id IN ('a91', 'k42')"},
	{SQL: "SELECT e.course_id, c.title FROM enrollments e LEFT JOIN courses c ON c.id = e.course_id WHERE e.student_id = 'a91'"},
	{SQL: "SELECT s.year, COUNT(*) FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101' GROUP BY s.year ORDER BY s.year"},
	{SQL: "SELECT grade, COUNT(*) AS n FROM enrollments WHERE course_id = 'cs101' GROUP BY grade HAVING COUNT(*) > 40 ORDER BY n DESC, grade"},
	{SQL: "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101' AND s.year = 2 ORDER BY s.name, s.id"},
	{SQL: "SELECT s.id, s.email FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'math204' ORDER BY s.email DESC, s.id"},
	{SQL: "SELECT name FROM students WHERE id = ?", Args: []any{"a91"}, SQLite: "SELECT name FROM students WHERE id = 'a91'"},
	{SQL: "SELECT id, credits * 2, credits + 1 FROM courses WHERE id IN ('math204', 'sem100')"},
	{SQL: "SELECT COUNT(DISTINCT grade) FROM enrollments WHERE course_id = 'cs101'"},
	{SQL: "SELECT e.student_id AS sid FROM enrollments e WHERE e.course_id = 'cs101' ORDER BY sid DESC LIMIT 5"},
	{SQL: "SELECT *, student_id AS sid FROM enrollments WHERE course_id = 'math204' ORDER BY sid DESC"}, // an alias after a *
	{SQL: "SELECT student_id, enrolledOn FROM enrollments WHERE course_id = 'math204' ORDER BY 2, 1"},
	{SQL: "SELECT c.title, e.grade FROM enrollments e JOIN courses c ON c.id = e.course_id WHERE e.student_id IN ('a91', 'b07') ORDER BY c.title, e.grade"},
	{SQL: "SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE c.id = 'cs101' AND e.grade = 'A' ORDER BY s.name, s.id"},
	{SQL: "SELECT s.name FROM students s WHERE s.id = 'a91' AND s.year >= 2 AND s.email LIKE 'ann%'"},
	{SQL: "SELECT COUNT(*), MAX(s.name) FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'"},
	// Reads of one partition merged into one Query must still apply each
	// table's own sort-key condition.
	{SQL: "SELECT s.name, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id WHERE s.id = 'a91' AND e.course_id = 'math204'"},
	{SQL: "SELECT s.name, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.course_id > 'hist' WHERE s.id = 'a91'"},
	{SQL: "SELECT s.name, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade = 'Z' WHERE s.id IN ('a91', 'k42')"},
	{SQL: "SELECT name FROM students WHERE id = 'a91' OR id = 'c12' OR id = 'nobody'"},
	// Ordered by the sort key: DynamoDB sorts, and LIMIT cuts the pages.
	{SQL: "SELECT course_id, grade FROM enrollments WHERE student_id = 'a91' ORDER BY course_id DESC LIMIT 2"},
	{SQL: "SELECT student_id, grade FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id LIMIT 4 OFFSET 250"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'cs101' AND grade = 'A' ORDER BY student_id DESC LIMIT 3"},
	// Empty intervals: DynamoDB rejects a reversed BETWEEN, SQL matches nothing.
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id BETWEEN 'm' AND 'b'"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'cs101' AND grade BETWEEN 'C' AND 'A'"},
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND course_id > 'b' AND course_id <= 'p' AND course_id BETWEEN 'c' AND 'z'"},
	// HAVING may name a select-list alias.
	{SQL: "SELECT grade, COUNT(*) AS n FROM enrollments WHERE course_id = 'cs101' GROUP BY grade HAVING n > 40 ORDER BY grade"},
	// LIKE is checked on the client: the embedded backend fails begins_with on a missing attribute.
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' AND grade LIKE 'B%'"},
	// Bare counts are DynamoDB's (Select=COUNT), the profile not counted.
	{SQL: "SELECT COUNT(*) FROM enrollments WHERE student_id = 'a91'"},
	{SQL: "SELECT COUNT(*) FROM enrollments WHERE student_id = 'k42'"},
	{SQL: "SELECT COUNT(*) FROM enrollments WHERE course_id = 'cs101' AND student_id > 'm'"},
	// ORs whose branches a key serves each: a union, each row once.
	{SQL: "SELECT student_id, course_id, grade FROM enrollments WHERE student_id = 'a91' OR course_id = 'math204'"},
	{SQL: "SELECT name FROM students WHERE (id = 'a91' AND year = 2) OR id = 'c12' OR id IN ('k42', 'a91')"},
	{SQL: "SELECT COUNT(*), COUNT(DISTINCT course_id) FROM enrollments WHERE (student_id = 'a91' OR course_id = 'cs101') AND grade <> 'F'"},
	// Subqueries: semi joins (IN, EXISTS) keep each outer row once; anti
	// joins (NOT IN, NOT EXISTS) keep the outer rows nothing matches.
	{SQL: "SELECT name FROM students WHERE id IN (SELECT student_id FROM enrollments WHERE course_id = 'math204') ORDER BY name, id"},
	{SQL: "SELECT title FROM courses WHERE id IN (SELECT course_id FROM enrollments WHERE student_id IN ('a91', 'b07', 'nobody') AND grade IN ('A', 'B'))"},
	{SQL: "SELECT s.name FROM students s WHERE s.id IN ('a91', 'k42', 'c12') AND EXISTS (SELECT 1 FROM enrollments e WHERE e.student_id = s.id AND e.grade = 'A')"},
	{SQL: "SELECT s.id FROM students s WHERE s.id IN ('a91', 'k42', 'nobody') AND NOT EXISTS (SELECT 1 FROM enrollments e WHERE e.student_id = s.id)"},
	{SQL: "SELECT id, title FROM courses WHERE id IN ('cs101', 'math204', 'sem100', 'art150') AND id NOT IN (SELECT course_id FROM enrollments WHERE student_id = 'a91')"},
	{SQL: "SELECT COUNT(*) FROM students WHERE id IN (SELECT student_id FROM enrollments WHERE course_id = 'cs101')"},
	{SQL: "SELECT e.course_id FROM enrollments e WHERE e.student_id = 'a91' AND e.course_id IN (SELECT c.id FROM courses c WHERE c.id = e.course_id AND c.credits >= 4)"},
	// The subquery's table read first: its rows once per value the rest
	// compares (none for an uncorrelated EXISTS), then each outer row once.
	{SQL: "SELECT s.name FROM students s WHERE s.id IN ('a91', 'k42', 'w33') AND EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = 'math204')"},
	{SQL: "SELECT s.name FROM students s WHERE s.id IN ('a91', 'k42') AND EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = 'nosuch')"},
	{SQL: "SELECT c.id, c.title FROM courses c WHERE EXISTS (SELECT 1 FROM enrollments e WHERE e.student_id = 'a91' AND e.course_id = c.id AND e.grade <> c.title)"},
	{SQL: "SELECT e.student_id, e.course_id FROM enrollments e WHERE e.student_id IN (SELECT e2.student_id FROM enrollments e2 WHERE e2.course_id = 'math204')"},
	// The subquery's table read after the outer ones: a semi join keeps
	// each outer row on its first match, or none.
	{SQL: "SELECT e.student_id, e.grade FROM enrollments e WHERE e.course_id = 'math204' AND e.student_id IN (SELECT s.id FROM students s WHERE s.year = 2)"},
	{SQL: "SELECT s.name, e.course_id FROM students s JOIN enrollments e ON e.student_id = s.id WHERE s.id = 'a91' AND e.course_id IN (SELECT e2.course_id FROM enrollments e2 WHERE e2.grade = 'A' AND e2.course_id = e.course_id)"},
	{SQL: "SELECT COUNT(*) FROM enrollments e JOIN enrollments e2 ON e2.course_id = e.course_id WHERE e.student_id = 'a91' AND e.course_id IN (SELECT e3.course_id FROM enrollments e3 WHERE e3.course_id = e.course_id AND e3.grade IS NOT NULL)"},
	// UNION of key reads, each side served by its own keys.
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'math204' UNION SELECT student_id FROM enrollments WHERE course_id = 'phys110'"},
	{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'math204' UNION ALL SELECT student_id FROM enrollments WHERE course_id = 'phys110'"},
	{SQL: "SELECT name, 'student' FROM students WHERE id IN ('a91', 'c12') UNION SELECT title, 'course' FROM courses WHERE id = 'cs101' ORDER BY 1 DESC LIMIT 2"},
	{SQL: "SELECT course_id FROM enrollments WHERE student_id = 'a91' UNION ALL SELECT course_id FROM enrollments WHERE student_id = 'b07' UNION SELECT id FROM courses WHERE id = 'sem100' ORDER BY course_id"},
}
