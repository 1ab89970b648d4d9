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

// TestScanner reads text in pieces, as the shell gives it line by line,
// and checks the spans read and what each piece leaves open.
func TestScanner(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		want   []string // kind:text of each span, then open:X after each piece
	}{
		{"quotes and comments hide ';'",
			[]string{"SELECT 'a;b', \"c;\" -- d;\n;"},
			[]string{"code:SELECT ", "quoted:'a;b'", "code:, ", "quoted:\"c;\"", "code: ", "comment:-- d;\n", "semicolon:;", "open:"}},
		{"a string goes on in the next piece",
			[]string{"SELECT 'a\n", "b';"},
			[]string{"code:SELECT ", "quoted:'a\n", "open:'", "quoted:b'", "semicolon:;", "open:"}},
		{"a block comment goes on in the next piece",
			[]string{"/* a\n", "b */ x"},
			[]string{"comment:/* a\n", "open:*", "comment:b */", "code: x", "open:"}},
		{"a backslash escapes a quote, but not in backquotes",
			[]string{`'x\'y' ` + "`a\\`"},
			[]string{`quoted:'x\'y'`, "code: ", "quoted:`a\\`", "open:"}},
		{"an escaped newline stays in the string",
			[]string{"'a\\\n", "';"},
			[]string{"quoted:'a\\\n", "open:'", "quoted:'", "semicolon:;", "open:"}},
		{"# and -- start line comments, a single - does not",
			[]string{"a-b#c\nd--e"},
			[]string{"code:a-b", "comment:#c\n", "code:d", "comment:--e", "open:-"}},
		{"/*/ opens a comment and does not close it",
			[]string{"x /*/ y"},
			[]string{"code:x ", "comment:/*/ y", "open:*"}},
	}
	kinds := []string{SpanCode: "code", SpanSemicolon: "semicolon", SpanQuoted: "quoted", SpanComment: "comment"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sc Scanner
			var got []string
			for _, s := range tt.pieces {
				for i := 0; i < len(s); {
					end, kind := sc.Next(s, i)
					got = append(got, kinds[kind]+":"+s[i:end])
					i = end
				}
				open := ""
				switch {
				case sc.Quote() != 0:
					open = string(sc.Quote())
				case sc.InBlockComment():
					open = "*"
				case sc.Open():
					open = "-"
				}
				got = append(got, "open:"+open)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
