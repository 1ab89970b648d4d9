package executor

import (
	"database/sql"
	"math/rand"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // SQLite, the oracle for LIKE

	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

func TestLike(t *testing.T) {
	tests := []struct {
		name, s, pat string
		esc          rune
		want         bool
	}{
		{"% matches any run, the empty one too", "rz", "rz%", '\\', true},
		{"_ matches one character", "rz_1", "rz__", '\\', true},
		{"_ matches one character of several bytes", "zoë", "zo_", '\\', true},
		{"_ does not match nothing", "rz", "rz_", '\\', false},
		{"an escaped _ is a literal _", "rz_1", `rz\_%`, '\\', true},
		{"an escaped _ does not match another character", "rzx1", `rz\_%`, '\\', false},
		{"an escaped % is a literal %", "rz%2", `rz\%%`, '\\', true},
		{"an escaped % does not match a run", "rzab", `rz\%%`, '\\', false},
		{"an escaped escape is one backslash", `rz\x`, `rz\\%`, '\\', true},
		{"an escape before an ordinary character is that character", "rza", `rz\a`, '\\', true},
		{"an escape that ends the pattern is itself (MySQL)", `ab\`, `ab\`, '\\', true},
		{"an escape that ends the pattern matches nothing else", "ab", `ab\`, '\\', false},
		{"another escape character", "a_b", "a!_b", '!', true},
		{"with another escape, \\ is ordinary", `a\b`, `a\_`, '!', true},
		{"an escape of several bytes", "a%", "aé%", 'é', true},
		{"no escape character: \\ is ordinary", `a\x`, `a\_`, 0, true},
		{"matching is case-sensitive", "Ann", "ann%", '\\', false},
		{"% backtracks", "abcabd", "%ab_", '\\', true},
		{"several % backtrack", "xaybzc", "%a%b%c", '\\', true},
		{"a literal after % must end the string", "abcab", "%b", '\\', true},
		{"a literal after % that does not end it", "abcabc", "%b", '\\', false},
		{"the empty pattern matches only the empty string", "", "", '\\', true},
		{"% matches the empty string", "", "%", '\\', true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := like(tt.s, tt.pat, tt.esc); got != tt.want {
				t.Errorf("like(%q, %q, %q) = %v, want %v", tt.s, tt.pat, tt.esc, got, tt.want)
			}
		})
	}
}

// LIKE must agree with SQLite's LIKE ... ESCAPE '\' (made case-sensitive)
// on random strings and patterns over characters that matter: wildcards,
// the escape, one of several bytes. Patterns that end in a lone escape
// are left out: MySQL matches it as itself, SQLite matches nothing.
func TestLikeAgreesWithSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", "file::memory:?_pragma=case_sensitive_like(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	db.SetMaxOpenConns(1)
	stmt, err := db.Prepare(`SELECT ? LIKE ? ESCAPE '\'`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stmt.Close() }()
	r := rand.New(rand.NewSource(7))
	word := func(alphabet []string, n int) string {
		var b strings.Builder
		for range r.Intn(n + 1) {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		return b.String()
	}
	text := []string{"a", "b", "_", "%", `\`, "é"}
	pattern := []string{"a", "b", "_", "%", `\_`, `\%`, `\\`, `\a`, "é", "A"}
	for range 3000 {
		s, p := word(text, 6), word(pattern, 5)
		var want bool
		if err := stmt.QueryRow(s, p).Scan(&want); err != nil {
			t.Fatalf("sqlite: %q LIKE %q: %v", s, p, err)
		}
		if got := like(s, p, '\\'); got != want {
			t.Errorf("like(%q, %q) = %v, SQLite says %v", s, p, got, want)
		}
	}
}

// constEnv evaluates expressions of literals only.
type constEnv struct{}

func (constEnv) column(*parser.Column) value.Value  { return nil }
func (constEnv) aggregate(*parser.Func) value.Value { return nil }

// A value that is not a string (a number some items of a raw table
// hold) matches no LIKE pattern and every NOT LIKE one, as DynamoDB's
// begins_with matches no number, instead of failing the statement.
func TestLikeOfANumberMatchesNothing(t *testing.T) {
	for _, not := range []bool{false, true} {
		like := &parser.Like{Expr: &parser.Literal{Value: value.Number("7.5")}, Pattern: &parser.Literal{Value: "7%"}, Not: not, Escape: '\\'}
		got, err := eval(like, constEnv{})
		if err != nil || got != not {
			t.Errorf("7.5 LIKE '7%%' (NOT %v): %v, %v; want %v", not, got, err, not)
		}
	}
}

// Values of two types have no order: a comparison of them is false, as
// in DynamoDB's filters, not unknown, so its NOT is true.
func TestComparisonAcrossTypesIsFalse(t *testing.T) {
	gt := &parser.Compare{Op: ">", L: &parser.Literal{Value: value.Number("5")}, R: &parser.Literal{Value: "x"}}
	for _, e := range []parser.Expr{gt, &parser.Not{E: gt}} {
		got, err := eval(e, constEnv{})
		if _, isNot := e.(*parser.Not); err != nil || got != isNot {
			t.Errorf("%s: %v, %v; want %v", parser.Format(e), got, err, isNot)
		}
	}
}
