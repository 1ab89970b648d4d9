package parser

import (
	"errors"
	"slices"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
)

func TestFormatLiterals(t *testing.T) {
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"a string is single-quoted with quotes doubled", &Literal{Value: "it's"}, `'it''s'`},
		{"a backslash is escaped", &Literal{Value: `a\b`}, `'a\\b'`},
		{"a number is bare", &Literal{Value: value.Number("-1.5")}, "-1.5"},
		{"booleans and NULL are keywords", &And{L: &Literal{Value: true}, R: &IsNull{Expr: &Literal{Value: nil}}}, "TRUE AND NULL IS NULL"},
		{"a qualified column is t.col", &Column{Table: "s", Name: "name"}, "s.name"},
		{"a name that is not plain is backquoted", &Column{Name: "my col"}, "`my col`"},
		{"a reserved word is backquoted", &Column{Name: "key"}, "`key`"},
		{"a placeholder is ?", &Placeholder{Index: 3}, "?"},
		{"COUNT(*) keeps its star", &Func{Name: "COUNT", Star: true}, "COUNT(*)"},
		{"a right operand of equal precedence keeps its parentheses",
			&Arith{Op: '-', L: &Column{Name: "a"}, R: &Arith{Op: '-', L: &Column{Name: "b"}, R: &Column{Name: "c"}}}, "a - (b - c)"},
		{"OR under AND is parenthesized",
			&And{L: &Or{L: &Column{Name: "a"}, R: &Column{Name: "b"}}, R: &Not{E: &Column{Name: "c"}}}, "(a OR b) AND NOT c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Format(tt.e); got != tt.want {
				t.Errorf("Format = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestWalkVisitsInPreOrderAndSkips(t *testing.T) {
	st, err := Parse("SELECT * FROM t WHERE a = 1 AND (b IN (2, c) OR NOT d LIKE 'x%')")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	Walk(st.(*Select).Where, func(e Expr) bool {
		if c, ok := e.(*Column); ok {
			names = append(names, c.Name)
		}
		_, isNot := e.(*Not)
		return !isNot // skip what is under NOT
	})
	if want := []string{"a", "b", "c"}; !slices.Equal(names, want) {
		t.Errorf("visited %v, want %v", names, want)
	}
}

// FuzzParse checks that Parse never panics, that its errors are dynosql
// errors, and that Format of a parsed SELECT's WHERE reads back to the
// same text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SELECT s.name, COUNT(*) FROM students s JOIN enrollments e ON e.student_id = s.id WHERE s.id = 'a91' GROUP BY s.name",
		"SELECT * FROM t WHERE a BETWEEN -1 AND 2.5 OR b NOT LIKE 'x%' AND c IS NOT NULL LIMIT ?, 10",
		"INSERT INTO t (a, b) VALUES (1, 'x') ON DUPLICATE KEY UPDATE b = 'y'",
		"EXPLAIN UPDATE t SET a = a + 1 WHERE id = ?",
		"CHECK COPIES FOR users WHERE id = '12'",
		`SELECT * FROM t WHERE a LIKE 'rz\_%' AND b NOT LIKE 'x!%y' ESCAPE '!' AND c = 'tab\t\0\\'`,
		"SELECT * FROM t WHERE a = 'caf\xe9' OR b = 1e126 OR c = 123456789012345678901234567890123456789",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		st, err := Parse(sql)
		if err != nil {
			var e errs.Detailed
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q): error %T is not a dynosql error", sql, err)
			}
			_ = e.Detail()
			return
		}
		_ = Dump(st)
		sel, ok := st.(*Select)
		if !ok {
			return
		}
		for _, c := range sel.Columns {
			_ = Format(c.Expr)
		}
		if sel.Where == nil {
			return
		}
		text := Format(sel.Where)
		again, err := Parse("SELECT * FROM t WHERE " + text)
		if err != nil {
			t.Fatalf("Parse(%q): WHERE formats as %q, which does not parse: %v", sql, text, err)
		}
		if got := Format(again.(*Select).Where); got != text {
			t.Fatalf("Parse(%q): WHERE formats as %q, which reads back as %q", sql, text, got)
		}
	})
}
