package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/dynosql/dynosql/internal/errs"
)

// TestParse runs the golden files in testdata/parse. Commands:
//
//	parse    the statement's Dump, or the error with its caret and hint
//	columns  every column reference with its position and the text there
//
// Regenerate with go test ./parser -rewrite, then review the diff.
func TestParse(t *testing.T) {
	datadriven.Walk(t, "../testdata/parse", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			st, err := Parse(d.Input)
			if err != nil {
				var e *errs.Error
				if !errors.As(err, &e) {
					t.Fatalf("%s: error %T is not an *errs.Error", d.Pos, err)
				}
				return "error: " + e.Error() + "\n" + e.Detail()
			}
			checkPositions(t, d, st)
			switch d.Cmd {
			case "parse":
				return Dump(st)
			case "columns":
				var b strings.Builder
				for _, e := range statementExprs(st) {
					Walk(e, func(e Expr) bool {
						if c, ok := e.(*Column); ok {
							text := Format(c)
							at := ""
							if c.Pos >= 0 && c.Pos+len(text) <= len(d.Input) {
								at = d.Input[c.Pos : c.Pos+len(text)]
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
func checkPositions(t *testing.T, d *datadriven.TestData, st Statement) {
	t.Helper()
	check := func(name string, pos int) {
		if pos < 0 || !strings.HasPrefix(d.Input[pos:], name) && !strings.HasPrefix(d.Input[pos:], "`"+name+"`") {
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
		checkPositions(t, d, s.Statement)
	}
}
