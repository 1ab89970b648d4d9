package dynosql_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// reopen opens a second DB over a fixture's table with a mapping edited
// from the fixture's own file by edit.
func reopen(t *testing.T, fx *testkit.Fixture, design string, edit func(string) string) (*dynosql.DB, error) {
	t.Helper()
	text := strings.Replace(readFile(t, testkit.Testdata(design, "mapping.yaml")), "table: "+tableOf(t, design), "table: "+fx.Mapping.Table, 1)
	m, err := mapping.Parse("edited.yaml", []byte(edit(text)))
	if err != nil {
		t.Fatal(err)
	}
	return dynosql.Open(context.Background(), m, fx.Client)
}

func tableOf(t *testing.T, design string) string {
	m, err := mapping.Load(testkit.Testdata(design, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return m.Table
}

// A mapping whose key template renders another type than the table keeps
// is refused at Open, naming the attribute and both types: a string
// template on a number sort key would read nothing and write nothing.
// DynamoDB Local only: the embedded server's DescribeTable reports no
// attribute definitions, so there the types the templates render stand.
func TestOpenRefusesAKeyTypeTheTableDoesNotHave(t *testing.T) {
	for _, b := range testkit.Backends()[:1] {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "customerorders")
			_, err := reopen(t, fx, "customerorders", func(s string) string {
				return strings.Replace(s, `OrderId: "{OrderId}"`, `OrderId: "O#{OrderId}"`, 1)
			})
			if !errors.Is(err, dynosql.ErrMapping) {
				t.Fatalf("got %v, want a mapping error", err)
			}
			for _, want := range []string{"OrderId", "number (N)", "string (S)", `"O#{OrderId}"`} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %s", err, want)
				}
			}
		})
	}
}

// A read whose items no entity claims says so: counted in the stats, and
// a warning naming the read, never zero rows in silence.
func TestReadsOfItemsNoEntityClaimsWarn(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			db, err := reopen(t, fx, "school", func(s string) string {
				return strings.Replace(s, `SK: "ENROLL#CRS#{course_id}"`, `SK: "ENROLL#CRS#{course_id}#V2"`, 1)
			})
			if err != nil {
				t.Fatal(err)
			}
			stats := dynosql.NewStats()
			rows, err := db.Query(dynosql.WithStats(context.Background(), stats), "SELECT course_id FROM enrollments WHERE student_id = 'a91'")
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				n++
			}
			_ = rows.Close()
			sn := stats.Snapshot()
			if n != 0 || sn.Unclaimed != 5 {
				t.Errorf("got %d rows and %d unclaimed items, want 0 rows and a91's 5 enrollment items unclaimed", n, sn.Unclaimed)
			}
			w := rows.Warnings()
			if len(w) != 1 || !strings.Contains(w[0], "returned 5 items, and none of them is a enrollments item") {
				t.Errorf("warnings = %q", w)
			}
			if !strings.Contains(sn.Line(), "5 items matched no entity") {
				t.Errorf("stats line %q does not count the unclaimed items", sn.Line())
			}
		})
	}
}

// A one-month range over a partition of 24 months of orders reads that
// month's items only: the range on the leading column of the composite
// sort key (i#{invoice_date} in GSI2) is a key condition, not a filter.
func TestAMonthOfOrdersReadsOneMonthsItems(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "onlineshop")
			for _, sql := range []string{
				"SELECT invoice_id, invoice_date FROM invoices WHERE customer_id = '12345' AND invoice_date BETWEEN '2020-06-01' AND '2020-06-30' ORDER BY invoice_date",
				"SELECT invoice_id FROM invoices WHERE customer_id = '12345' AND invoice_date LIKE '2020-06%'",
				"SELECT invoice_id FROM invoices WHERE customer_id = '12345' AND invoice_date >= '2020-06-01' AND invoice_date < '2020-07'",
			} {
				fx.AgreeWithSQLite(t, testkit.Select{SQL: sql})
				rows, st := countStats(t, fx, sql)
				if len(rows) != 3 || st.Items > 3 || st.Requests["Query"] != 1 {
					t.Errorf("%s\ngot %d rows from %d items in %d Query requests, want 3 rows from the month's 3 items in 1", sql, len(rows), st.Items, st.Requests["Query"])
				}
			}
		})
	}
}

// The latest orders: ORDER BY the leading column of a composite sort key,
// descending, with LIMIT, reads backward and stops after LIMIT items (and
// one more, which the order check reads past the last).
func TestLatestOrdersReadOnlyTheRowsNeeded(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "onlineshop")
			q := testkit.Select{SQL: "SELECT invoice_id, invoice_date FROM invoices WHERE customer_id = '12345' ORDER BY invoice_date DESC LIMIT 3"}
			fx.AgreeWithSQLite(t, q)
			rows, st := countStats(t, fx, q.SQL)
			if len(rows) != 3 || st.Requests["Query"] != 1 || st.Items > 4 {
				t.Errorf("got %d rows from %d items in %d Query requests, want 3 rows from at most 4 items in 1", len(rows), st.Items, st.Requests["Query"])
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
