package dynosql_test

import (
	"context"
	"testing"

	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/internal/value"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

func TestSelectsAgreeWithSQLite(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			for _, q := range testkit.SchoolSelects {
				t.Run(q.SQL, func(t *testing.T) {
					want, err := fx.Oracle.Query(q.OracleSQL())
					if err != nil {
						t.Fatalf("sqlite: %v", err)
					}
					rows, err := fx.DB.Query(context.Background(), q.SQL, q.Args...)
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
					if diff := oracle.SameRows(got, want, q.Ordered()); diff != "" {
						t.Errorf("rows differ from SQLite:\n%s", diff)
					}
				})
			}
		})
	}
}
