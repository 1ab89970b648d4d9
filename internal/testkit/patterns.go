package testkit

import (
	"os"
	"strings"
	"testing"
)

// Designs are the public single-table designs of testdata/ (their sources
// are named in testdata/README.md), each with its published access
// patterns in patterns.sql.
var Designs = []string{"battleroyale", "complaints", "customerorders", "onlineshop", "productcatalog", "social", "storefront", "taskmanager"}

// Pattern is one statement of a patterns.sql file with what the file says
// to expect of it.
type Pattern struct {
	Line   int    // where the statement starts, from 1
	SQL    string // without its ';'
	Expect string // "", "refused", "conflict" or "scan"
}

// ReadPatterns reads testdata/<design>/patterns.sql: statements ending
// with ';', each after comment lines, of which "-- expect: X" says what
// dynosql must do instead of agreeing with SQLite.
func ReadPatterns(t testing.TB, design string) []Pattern {
	t.Helper()
	data, err := os.ReadFile(Testdata(design, "patterns.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Pattern
	var cur Pattern
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "-- expect:"):
			cur.Expect = strings.TrimSpace(strings.TrimPrefix(trimmed, "-- expect:"))
		case strings.HasPrefix(trimmed, "--"), trimmed == "":
		default:
			if cur.SQL == "" {
				cur.Line = i + 1
			}
			cur.SQL += line + "\n"
			if strings.HasSuffix(trimmed, ";") {
				cur.SQL = strings.TrimSuffix(strings.TrimSpace(cur.SQL), ";")
				out = append(out, cur)
				cur = Pattern{}
			}
		}
	}
	return out
}
