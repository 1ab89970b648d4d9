package parser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/testtext"
)

// TestParse runs the golden files in testdata/parse. Commands:
//
//	parse    the statement's Dump, or the error with its caret and hint
//	columns  every column reference with its position and the text there
//	strings  every string literal's value, Go-quoted, and its length in
//	         characters; every LIKE's escape character and pattern tokens
//	split    the statements parser.Split cuts the input into
//	check    "ok" and the statement's type, or the error
//
// Arguments: go reads the input as a Go string literal (for bytes a
// golden file should not hold: NUL, invalid UTF-8); expand expands
// [[N:text]] groups (internal/testtext), for statements thousands of
// characters long.
//
// Regenerate with go test ./parser -rewrite, then review the diff.
func TestParse(t *testing.T) {
	datadriven.Walk(t, "../testdata/parse", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			input := d.Input
			if d.HasArg("go") {
				s, err := strconv.Unquote(input)
				if err != nil {
					t.Fatalf("%s: input is not a Go string literal: %v", d.Pos, err)
				}
				input = s
			}
			if d.HasArg("expand") {
				input = testtext.Expand(input)
			}
			if d.Cmd == "split" {
				stmts, err := Split(input)
				if err != nil {
					return errorText(t, d, err)
				}
				var b strings.Builder
				for _, s := range stmts {
					fmt.Fprintf(&b, "%q\n", s)
				}
				return b.String()
			}
			st, err := Parse(input)
			if err != nil {
				return errorText(t, d, err)
			}
			checkPositions(t, d, input, st)
			switch d.Cmd {
			case "parse":
				return Dump(st)
			case "strings":
				return stringsText(st)
			case "check":
				return fmt.Sprintf("ok: %T\n", st)
			case "columns":
				var b strings.Builder
				for _, e := range statementExprs(st) {
					Walk(e, func(e Expr) bool {
						if c, ok := e.(*Column); ok {
							text := Format(c)
							at := ""
							if c.Pos >= 0 && c.Pos+len(text) <= len(input) {
								at = input[c.Pos : c.Pos+len(text)]
							}
							fmt.Fprintf(&b, "%s @%d %q\n", text, c.Pos, at)
						}
						return true
					})
				}
				return b.String()
			}
			t.Fatalf("%s: unknown command %s", d.Pos, d.Cmd)
			return ""
		})
	})
}

// errorText is the expected output for an error: the one-line form,
// then the caret and hint. Every error must be an *errs.Error, and its
// echo at most one line of about 100 characters, so that a statement of
// thousands is never printed whole.
func errorText(t *testing.T, d *datadriven.TestData, err error) string {
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %T is not an *errs.Error", d.Pos, err)
	}
	detail := e.Detail()
	for _, line := range strings.Split(detail, "\n") {
		if n := utf8.RuneCountInString(line); n > 130 {
			t.Errorf("%s: the error shows a line of %d characters", d.Pos, n)
		}
	}
	return "error: " + e.Error() + "\n" + detail
}

// stringsText lists the string literals of st and its LIKEs.
func stringsText(st Statement) string {
	var b strings.Builder
	for _, e := range statementExprs(st) {
		Walk(e, func(e Expr) bool {
			switch x := e.(type) {
			case *Literal:
				if s, ok := x.Value.(string); ok {
					n, unit := utf8.RuneCountInString(s), "characters"
					if n == 1 {
						unit = "character"
					}
					fmt.Fprintf(&b, "string %q  (%d %s)\n", s, n, unit)
				}
			case *Like:
				fmt.Fprintf(&b, "like escape %q", x.Escape)
				if lit, ok := x.Pattern.(*Literal); ok {
					if s, ok := lit.Value.(string); ok {
						for _, tok := range LikeTokens(s, x.Escape) {
							if tok.Wild != 0 {
								fmt.Fprintf(&b, " %c", tok.Wild)
							} else {
								fmt.Fprintf(&b, " %q", tok.Lit)
							}
						}
					}
				}
				b.WriteString("\n")
			}
			return true
		})
	}
	return b.String()
}

// statementExprs returns every expression of s in the order written.
func statementExprs(s Statement) []Expr {
	var out []Expr
	sets := func(as []Assignment) {
		for _, a := range as {
			out = append(out, a.Expr)
		}
	}
	switch s := s.(type) {
	case *Select:
		for _, c := range s.Columns {
			out = append(out, c.Expr)
		}
		for _, t := range s.From {
			out = append(out, t.On)
		}
		out = append(out, s.Where)
		out = append(out, s.GroupBy...)
		out = append(out, s.Having)
		for _, o := range s.OrderBy {
			out = append(out, o.Expr)
		}
	case *Insert:
		for _, r := range s.Rows {
			out = append(out, r...)
		}
		sets(s.OnDuplicate)
	case *Update:
		sets(s.Set)
		out = append(out, s.Where)
	case *Delete:
		out = append(out, s.Where)
	case *Explain:
		out = statementExprs(s.Statement)
	case *CheckCopies:
		out = append(out, s.Where)
	}
	return out
}

// checkPositions fails the test unless every table name sits at its Pos
// in the input, backquoted or not.
func checkPositions(t *testing.T, d *datadriven.TestData, input string, st Statement) {
	t.Helper()
	check := func(name string, pos int) {
		if pos < 0 || !strings.HasPrefix(input[pos:], name) && !strings.HasPrefix(input[pos:], "`"+name+"`") {
			t.Errorf("%s: %s is not at position %d", d.Pos, name, pos)
		}
	}
	switch s := st.(type) {
	case *Select:
		for _, r := range s.From {
			check(r.Name, r.Pos)
		}
	case *Insert:
		check(s.Table, s.Pos)
	case *Update:
		check(s.Table, s.Pos)
	case *Delete:
		check(s.Table, s.Pos)
	case *CheckCopies:
		check(s.Table, s.Pos)
	case *Explain:
		checkPositions(t, d, input, s.Statement)
	}
}
