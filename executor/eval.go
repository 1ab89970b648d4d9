package executor

import (
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// env supplies the values an expression reads.
type env interface {
	column(c *parser.Column) value.Value
	aggregate(f *parser.Func) value.Value
}

// eval computes e with SQL semantics: NULL (nil) propagates, and a
// condition is true, false or unknown (nil).
func eval(e parser.Expr, en env) (value.Value, error) {
	switch x := e.(type) {
	case *parser.Literal:
		return x.Value, nil
	case *parser.Column:
		return en.column(x), nil
	case *parser.Func:
		return en.aggregate(x), nil
	case *parser.Compare:
		l, r, err := eval2(x.L, x.R, en)
		if err != nil || l == nil || r == nil {
			return nil, err
		}
		return compare(x.Op, l, r), nil
	case *parser.In:
		v, err := eval(x.Expr, en)
		if err != nil || v == nil {
			return nil, err
		}
		var result value.Value = false
		for _, item := range x.List {
			w, err := eval(item, en)
			if err != nil {
				return nil, err
			}
			if w == nil {
				result = nil
			} else if value.Equal(v, w) {
				result = true
				break
			}
		}
		return not(result, x.Not), nil
	case *parser.Between:
		v, err := eval(x.Expr, en)
		if err != nil {
			return nil, err
		}
		lo, hi, err := eval2(x.Lo, x.Hi, en)
		if err != nil {
			return nil, err
		}
		var ge, le value.Value
		if v != nil && lo != nil {
			ge = compare(">=", v, lo)
		}
		if v != nil && hi != nil {
			le = compare("<=", v, hi)
		}
		return not(and3(ge, le), x.Not), nil
	case *parser.Like:
		v, p, err := eval2(x.Expr, x.Pattern, en)
		if err != nil || v == nil || p == nil {
			return nil, err
		}
		pat, ok := p.(string)
		if !ok {
			return nil, errs.New(errs.Invalid, "LIKE takes a string pattern, got %s", value.Literal(p))
		}
		// An attribute other programs write may hold a number in some
		// items: it matches no pattern, as DynamoDB's begins_with, which
		// serves LIKE 'prefix%' in filters, matches no number.
		s, ok := v.(string)
		return not(ok && like(s, pat, x.Escape), x.Not), nil
	case *parser.IsNull:
		v, err := eval(x.Expr, en)
		if err != nil {
			return nil, err
		}
		return (v == nil) != x.Not, nil
	case *parser.And:
		l, r, err := eval2(x.L, x.R, en)
		return and3(l, r), err
	case *parser.Or:
		l, r, err := eval2(x.L, x.R, en)
		return not(and3(not(l, true), not(r, true)), true), err
	case *parser.Not:
		v, err := eval(x.E, en)
		return not(v, true), err
	case *parser.Arith:
		l, r, err := eval2(x.L, x.R, en)
		if err != nil || l == nil || r == nil {
			return nil, err
		}
		return arith(x.Op, l, r)
	}
	return nil, errs.New(errs.Internal, "cannot evaluate %T", e)
}

func eval2(a, b parser.Expr, en env) (value.Value, value.Value, error) {
	x, err := eval(a, en)
	if err != nil {
		return nil, nil, err
	}
	y, err := eval(b, en)
	return x, y, err
}

// truth reports whether a condition's value is true (not false, not unknown).
func truth(v value.Value) bool {
	b, ok := v.(bool)
	return ok && b
}

func compare(op string, l, r value.Value) value.Value {
	c, ok := value.Compare(l, r)
	if !ok {
		if op == "=" || op == "<>" {
			return value.Equal(l, r) == (op == "=")
		}
		// Values of two types (a raw table's attribute may hold either)
		// have no order: DynamoDB's filters take such a comparison as
		// false, and so does the client, so that a condition means one
		// thing wherever it is checked (NOT (n > 'x') keeps a number n).
		return false
	}
	switch op {
	case "=":
		return c == 0
	case "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return nil
}

// not negates a three-valued truth when neg is set; unknown stays unknown.
func not(v value.Value, neg bool) value.Value {
	if !neg {
		return v
	}
	if b, ok := v.(bool); ok {
		return !b
	}
	return nil
}

func and3(a, b value.Value) value.Value {
	ab, aok := a.(bool)
	bb, bok := b.(bool)
	switch {
	case aok && !ab, bok && !bb:
		return false
	case aok && bok:
		return true
	}
	return nil
}

// like matches s against a LIKE pattern: % any run, _ one character,
// esc (0 for none) making the character after it literal, as
// parser.LikeTokens reads them. It is case-sensitive, like DynamoDB's
// begins_with. Matching is greedy with backtracking to the last %, so
// it takes at most len(s) times the pattern's length steps.
func like(s, pat string, esc rune) bool {
	toks := parser.LikeTokens(pat, esc)
	si, ti := 0, 0
	starT, starS := -1, 0 // the last % seen, and where in s it resumes
	for si < len(s) || ti < len(toks) {
		if ti < len(toks) {
			switch t := toks[ti]; {
			case t.Wild == '%':
				starT, starS = ti, si
				ti++
				continue
			case t.Wild == '_' && si < len(s):
				_, size := utf8.DecodeRuneInString(s[si:])
				si += size
				ti++
				continue
			case t.Wild == 0 && strings.HasPrefix(s[si:], t.Lit):
				si += len(t.Lit)
				ti++
				continue
			}
		}
		// A mismatch: let the last % take one more character.
		if starT < 0 || starS >= len(s) {
			return false
		}
		_, size := utf8.DecodeRuneInString(s[starS:])
		starS += size
		si, ti = starS, starT+1
	}
	return true
}

func arith(op byte, l, r value.Value) (value.Value, error) {
	a, ok1 := l.(value.Number)
	b, ok2 := r.(value.Number)
	if !ok1 || !ok2 {
		return nil, errs.New(errs.Invalid, "arithmetic needs numbers, got %s %c %s", value.Literal(l), op, value.Literal(r))
	}
	x, okx := a.Rat()
	y, oky := b.Rat()
	if !okx || !oky {
		return nil, errs.New(errs.Invalid, "arithmetic needs numbers, got %s %c %s", value.Literal(l), op, value.Literal(r))
	}
	z := new(big.Rat)
	switch op {
	case '+':
		z.Add(x, y)
	case '-':
		z.Sub(x, y)
	case '*':
		z.Mul(x, y)
	case '/':
		if y.Sign() == 0 {
			return nil, nil
		}
		z.Quo(x, y)
	}
	return value.NumberFromRat(z), nil
}
