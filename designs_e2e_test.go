package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
)

// Every published access pattern of every design runs on both backends,
// in file order (writes change what later reads see), and agrees with
// SQLite running the same statement over the same rows: the same rows
// for a read (in order when it says ORDER BY), the same count of rows
// for a write. Patterns marked refused must be refused as Scans before
// anything is sent, and conflicts must fail as conflicts. A pattern
// marked scan (the published Scan of a sparse index the mapping marks
// scan: true) must agree with SQLite like the others.
func TestPublishedDesignsAgreeWithSQLite(t *testing.T) {
	t.Parallel()
	for _, design := range testkit.Designs {
		patterns := testkit.ReadPatterns(t, design)
		for _, b := range testkit.Backends() {
			t.Run(design+"/"+b.Name, func(t *testing.T) {
				t.Parallel()
				fx := testkit.Load(t, b, design)
				for _, p := range patterns {
					runPattern(t, fx, design, p)
				}
			})
		}
	}
}

func runPattern(t *testing.T, fx *testkit.Fixture, design string, p testkit.Pattern) {
	t.Helper()
	ctx := context.Background()
	where := fmt.Sprintf("%s/patterns.sql:%d", design, p.Line)
	isRead := strings.HasPrefix(strings.ToUpper(strings.TrimSpace(p.SQL)), "SELECT")
	run := func() error {
		if isRead {
			_, err := fx.Query(ctx, p.SQL)
			return err
		}
		_, err := fx.DB.Exec(ctx, p.SQL)
		return err
	}
	switch p.Expect {
	case "refused":
		if err := run(); !errors.Is(err, dynosql.ErrRefused) {
			t.Errorf("%s: %s\nwant a refusal, got %v", where, p.SQL, err)
		}
		return
	case "conflict":
		if err := run(); !errors.Is(err, dynosql.ErrConflict) {
			t.Errorf("%s: %s\nwant a conflict, got %v", where, p.SQL, err)
		}
		return
	}
	if isRead {
		want, err := fx.Oracle.Query(p.SQL)
		if err != nil {
			t.Fatalf("%s: sqlite: %v", where, err)
		}
		got, err := fx.Query(ctx, p.SQL)
		if err != nil {
			t.Errorf("%s: %s\ndynosql: %v", where, p.SQL, err)
			return
		}
		if diff := oracle.SameRows(got, want, strings.Contains(strings.ToUpper(p.SQL), "ORDER BY")); diff != "" {
			t.Errorf("%s: %s\nrows differ from SQLite:\n%s", where, p.SQL, diff)
		}
		return
	}
	want, err := fx.Oracle.Exec(p.SQL)
	if err != nil {
		t.Fatalf("%s: sqlite: %v", where, err)
	}
	res, err := fx.DB.Exec(ctx, p.SQL)
	if err != nil {
		t.Errorf("%s: %s\ndynosql: %v", where, p.SQL, err)
		return
	}
	if res.RowsAffected != want {
		t.Errorf("%s: %s\n%d rows affected, SQLite says %d", where, p.SQL, res.RowsAffected, want)
	}
}
