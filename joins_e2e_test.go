package dynosql_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
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

// A lookup that fails fails the statement, also when it failed before
// the join came to its outer rows: its rows are missing, not empty, so
// an inner join dropping those outer rows, or a LEFT JOIN giving them
// NULLs, would be a wrong answer passed off as whole. The BatchGetItem
// of the first outer rows' students waits until another has failed, so
// that the failed ones have ended before the join reaches their rows.
func TestAFailedLookupFailsTheJoin(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			var (
				first  atomic.Value // the key of the first outer row's student, once the fault is on
				failed = make(chan struct{})
				once   sync.Once
			)
			hook := testkit.Hook("failLaterLookups", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				bg, ok := in.Parameters.(*dynamodb.BatchGetItemInput)
				key, on := first.Load().(string)
				if !ok || !on {
					return next.HandleInitialize(ctx, in)
				}
				for _, ka := range bg.RequestItems {
					for _, k := range ka.Keys {
						if mapping.Text(k["PK"]) == key {
							select {
							case <-failed:
							case <-ctx.Done():
							}
							return next.HandleInitialize(ctx, in)
						}
					}
				}
				once.Do(func() { close(failed) })
				return middleware.InitializeOutput{}, middleware.Metadata{}, &smithy.GenericAPIError{Code: "InternalServerError", Message: "injected"}
			})
			fx := testkit.Load(t, b, "school", hook)
			rows, err := fx.Query(context.Background(), "SELECT student_id FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id LIMIT 1")
			if err != nil || len(rows) != 1 {
				t.Fatalf("the first student of cs101: %v, %v", rows, err)
			}
			first.Store("STU#" + rows[0][0].(string))
			for _, join := range []string{"JOIN", "LEFT JOIN"} {
				sql := "SELECT s.name, e.grade FROM enrollments e " + join + " students s ON s.id = e.student_id WHERE e.course_id = 'cs101'"
				rows, err := fx.Query(context.Background(), sql)
				if err == nil || !strings.Contains(err.Error(), "injected") {
					t.Errorf("%s: got %d rows and %v, want the injected failure", join, len(rows), err)
				}
			}
		})
	}
}
