package dynosql_test

import (
	"testing"

	"github.com/dynosql/dynosql/internal/testkit"
)

// A join whose inner side no BatchGetItem can serve (the inner key is a
// partition and a range on the leading column of ORDER#<date>#<id>#ITEM)
// sends one Query per outer row. With pages of two items forced, each of
// those Queries crosses pages: every page must be read, on both backends.
func TestJoinQueriesPerOuterRowReadEveryPage(t *testing.T) {
	cases := []testkit.Select{
		// Customers of two cities (GSI1), then each one's orders since a day.
		{SQL: "SELECT c.id, o.date, o.id, o.total FROM customers c JOIN orders o ON o.customer = c.id AND o.date >= '2024-01-01' WHERE c.city IN ('Oslo', 'São Paulo')"},
		// The same, as a LEFT JOIN: customers with no order since then stay.
		{SQL: "SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.customer = c.id AND o.date BETWEEN '2023-06-01' AND '2024-06-30' WHERE c.city = 'Lima'"},
		// Per order found by id, the customer's other orders of that month.
		{SQL: "SELECT x.id, o.id FROM orders x JOIN orders o ON o.customer = x.customer AND o.date LIKE '2024-0%' WHERE x.id IN ('o#1', 'o0100', 'o0200')"},
		// Aggregated over the joined pages.
		{SQL: "SELECT c.id, COUNT(o.id), SUM(o.total) FROM customers c LEFT JOIN orders o ON o.customer = c.id AND o.date < '2025' WHERE c.city = 'São Paulo' GROUP BY c.id ORDER BY c.id"},
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "storefront", pageLimitHook(2))
			for _, q := range cases {
				t.Run(q.SQL, func(t *testing.T) {
					fx.AgreeWithSQLite(t, q)
				})
			}
			// Pages were really crossed: São Paulo's 8 customers (c07 with
			// 40 orders) take more than one Query each.
			_, st := countStats(t, fx, cases[3].SQL)
			if st.Requests["Query"] <= 8+5 {
				t.Errorf("sent %d Query requests, want more than one page for some customer", st.Requests["Query"])
			}
		})
	}
}

// A LEFT JOIN keeps an outer row whose inner rows were all read and then
// all rejected by an ON condition only the client checks (<> is not sent
// to DynamoDB: it would keep items without the attribute), as it keeps one
// with no inner row at all: d43 has two enrollments, both graded A; a98's
// grades are all NULL; k42 has none; a91 has some of each. Through one
// partition Query (one student), a Query per outer row (several), a
// BatchGetItem (courses), and after another join.
func TestLeftJoinKeepsOuterRowsWhoseInnerRowsTheClientRejects(t *testing.T) {
	cases := []testkit.Select{
		{SQL: "SELECT s.id, e.course_id, e.grade FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade <> 'A' WHERE s.id = 'd43'"},
		{SQL: "SELECT s.id, e.course_id, e.grade FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade <> 'A' WHERE s.id = 'a98'"},
		{SQL: "SELECT s.id, e.course_id, e.grade FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade <> 'A' WHERE s.id IN ('a91', 'd43', 'k42', 'a98', 'nobody')"},
		{SQL: "SELECT s.name, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade < s.name WHERE s.id IN ('a91', 'd43', 'b91')"},
		{SQL: "SELECT s.id, COUNT(e.course_id) FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade <> 'A' WHERE s.id IN ('a91', 'd43', 'k42') GROUP BY s.id ORDER BY s.id"},
		{SQL: "SELECT e.course_id, c.title FROM enrollments e LEFT JOIN courses c ON c.id = e.course_id AND c.credits * 2 > 8 WHERE e.student_id = 'a91'"},
		{SQL: "SELECT x.student_id, e.course_id FROM enrollments x JOIN students s ON s.id = x.student_id LEFT JOIN enrollments e ON e.student_id = s.id AND e.grade <> 'A' WHERE x.course_id = 'math204'"},
	}
	agreeOnEachBackend(t, "school", cases)
}
