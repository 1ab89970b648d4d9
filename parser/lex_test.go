package parser

import (
	"errors"
	"slices"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   []string
	}{
		{"an empty script has no statements", "", nil},
		{"white space and comments alone are no statement", "  -- hi\n /* x */ ; ;\n", nil},
		{"a statement without ';' is kept", "SELECT 1", []string{"SELECT 1"}},
		{"statements are cut on ';' and trimmed", "SELECT 1;\n  SELECT 2 ;", []string{"SELECT 1", "SELECT 2"}},
		{"';' inside quotes does not cut", `SELECT 'a;b', "c;d", ` + "`e;f`" + `; SELECT 2`, []string{`SELECT 'a;b', "c;d", ` + "`e;f`", "SELECT 2"}},
		{"doubled and escaped quotes stay inside the string", `SELECT 'it''s;' ; SELECT 'x\';y'`, []string{`SELECT 'it''s;'`, `SELECT 'x\';y'`}},
		{"';' inside comments does not cut", "SELECT 1 -- a;b\n; SELECT /* ; */ 2 # c;d", []string{"SELECT 1 -- a;b", "SELECT /* ; */ 2 # c;d"}},
		{"empty statements between semicolons are dropped", ";;SELECT 1;;;SELECT 2;;", []string{"SELECT 1", "SELECT 2"}},
		{"a comment before a statement stays with it", "/* first */ SELECT 1", []string{"/* first */ SELECT 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Split(tt.script)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Split(%q) = %q, want %q", tt.script, got, tt.want)
			}
		})
	}
}

func TestSplitUnclosed(t *testing.T) {
	tests := []struct {
		name   string
		script string
		pos    int
	}{
		{"an unclosed string is an error at its quote", "SELECT 1; SELECT 'abc", 17},
		{"an unclosed backquote is an error at its quote", "SELECT `a", 7},
		{"an escaped quote does not close the string", `SELECT 'a\'`, 7},
		{"an unclosed comment is an error at its start", "SELECT 1 /* x", 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Split(tt.script)
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Syntax || e.Pos != tt.pos {
				t.Fatalf("Split(%q) error = %v (%#v), want a syntax error at %d", tt.script, err, e, tt.pos)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	tests := []struct {
		name string
		buf  string
		want bool
	}{
		{"an empty buffer is not complete", "", false},
		{"a statement without ';' is not complete", "SELECT 1", false},
		{"a final ';' completes", "SELECT 1;", true},
		{"white space after ';' is ignored", "SELECT 1;  \n", true},
		{"a comment after ';' is ignored", "SELECT 1; -- done\n", true},
		{"a block comment after ';' is ignored", "SELECT 1; /* done */", true},
		{"';' inside a string does not complete", "SELECT 'a;", false},
		{"';' inside a closed string does not complete", "SELECT 'a;'", false},
		{"';' inside a line comment does not complete", "SELECT 1 -- ;", false},
		{"';' inside an open block comment does not complete", "SELECT 1 /* ;", false},
		{"text after ';' starts a new statement", "SELECT 1; SELECT", false},
		{"a ';' alone completes", ";", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Complete(tt.buf); got != tt.want {
				t.Errorf("Complete(%q) = %v, want %v", tt.buf, got, tt.want)
			}
		})
	}
}
