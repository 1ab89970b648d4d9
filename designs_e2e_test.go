package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
)

// designs are the public single-table designs of testdata/ (their
// sources are named in testdata/README.md), each with its published
// access patterns in patterns.sql.
var designs = []string{"battleroyale", "complaints", "customerorders", "onlineshop", "productcatalog", "social", "storefront"}

// pattern is one statement of a patterns.sql file with what the file
// says to expect of it.
type pattern struct {
	line   int
	sql    string
	expect string // "", "refused" or "conflict"
}

// readPatterns reads testdata/<design>/patterns.sql: statements ending
// with ';', each after comment lines, of which "-- expect: X" says what
// dynosql must do instead of agreeing with SQLite.
func readPatterns(t *testing.T, design string) []pattern {
	t.Helper()
	data, err := os.ReadFile(testkit.Testdata(design, "patterns.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var out []pattern
	var cur pattern
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "-- expect:"):
			cur.expect = strings.TrimSpace(strings.TrimPrefix(trimmed, "-- expect:"))
		case strings.HasPrefix(trimmed, "--"), trimmed == "":
		default:
			if cur.sql == "" {
				cur.line = i + 1
			}
			cur.sql += line + "\n"
			if strings.HasSuffix(trimmed, ";") {
				cur.sql = strings.TrimSuffix(strings.TrimSpace(cur.sql), ";")
				out = append(out, cur)
				cur = pattern{}
			}
		}
	}
	return out
}

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
	for _, design := range designs {
		patterns := readPatterns(t, design)
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

func runPattern(t *testing.T, fx *testkit.Fixture, design string, p pattern) {
	t.Helper()
	ctx := context.Background()
	where := fmt.Sprintf("%s/patterns.sql:%d", design, p.line)
	isRead := strings.HasPrefix(strings.ToUpper(strings.TrimSpace(p.sql)), "SELECT")
	run := func() error {
		if isRead {
			_, err := fx.Query(ctx, p.sql)
			return err
		}
		_, err := fx.DB.Exec(ctx, p.sql)
		return err
	}
	switch p.expect {
	case "refused":
		if err := run(); !errors.Is(err, dynosql.ErrRefused) {
			t.Errorf("%s: %s\nwant a refusal, got %v", where, p.sql, err)
		}
		return
	case "conflict":
		if err := run(); !errors.Is(err, dynosql.ErrConflict) {
			t.Errorf("%s: %s\nwant a conflict, got %v", where, p.sql, err)
		}
		return
	}
	if isRead {
		want, err := fx.Oracle.Query(p.sql)
		if err != nil {
			t.Fatalf("%s: sqlite: %v", where, err)
		}
		got, err := fx.Query(ctx, p.sql)
		if err != nil {
			t.Errorf("%s: %s\ndynosql: %v", where, p.sql, err)
			return
		}
		if diff := oracle.SameRows(got, want, strings.Contains(strings.ToUpper(p.sql), "ORDER BY")); diff != "" {
			t.Errorf("%s: %s\nrows differ from SQLite:\n%s", where, p.sql, diff)
		}
		return
	}
	want, err := fx.Oracle.Exec(p.sql)
	if err != nil {
		t.Fatalf("%s: sqlite: %v", where, err)
	}
	res, err := fx.DB.Exec(ctx, p.sql)
	if err != nil {
		t.Errorf("%s: %s\ndynosql: %v", where, p.sql, err)
		return
	}
	if res.RowsAffected != want {
		t.Errorf("%s: %s\n%d rows affected, SQLite says %d", where, p.sql, res.RowsAffected, want)
	}
}
