package dynosql_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/mapping"
)

// OpenEmbedded knows that its client reaches the embedded server, so the
// plans must work around that server's quirks (numbers held as float64,
// number sort keys ordered as text) whether or not the table is checked
// with DescribeTable: WithoutTableCheck skips the check, not the server.
func TestOpenEmbeddedWithoutTableCheckKeepsTheEmbeddedGuards(t *testing.T) {
	ctx := context.Background()
	m, err := mapping.Parse("things.yaml", []byte(`
table: Things
partition_key: PK
sort_key: SK
entities:
  items:
    keys: {PK: "{p}", SK: "{n}"}
    columns: {p: S, n: N, x: N}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]dynosql.Option{nil, {dynosql.WithoutTableCheck()}} {
		t.Run(fmt.Sprintf("%d options", len(opts)), func(t *testing.T) {
			db, err := dynosql.OpenEmbedded(ctx, m, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = db.Close() }()
			// float64 cannot hold it: refused, never stored rounded.
			if _, err := db.Exec(ctx, "INSERT INTO items (p, n, x) VALUES ('a', 1, 12345678901234567890123)"); err == nil {
				t.Errorf("a 23-digit number was written; the embedded backend stores it rounded to float64")
			}
			for _, n := range []int{2, 10, 9, -1} {
				if _, err := db.Exec(ctx, "INSERT INTO items (p, n) VALUES ('a', ?)", n); err != nil {
					t.Fatal(err)
				}
			}
			rows, err := db.Query(ctx, "SELECT n FROM items WHERE p = 'a' ORDER BY n")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = rows.Close() }()
			var got []string
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
			if fmt.Sprint(got) != "[-1 2 9 10]" {
				t.Errorf("ORDER BY n: got %v, want [-1 2 9 10] (SQLite's order)", got)
			}
		})
	}
}
