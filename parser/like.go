package parser

import (
	"strings"
	"unicode/utf8"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
)

// String literals follow MySQL's rules (sqlparser's tokenizer decodes
// them; markEscapes and restoreStrings fix the one place it differs):
//
//	\0 NUL   \' '   \" "   \b backspace   \n newline   \r return
//	\t tab   \Z Ctrl-Z (26)   \\ \   \% \%   \_ \_
//	\x for any other x is x; '' inside '...' and "" inside "..." are one quote.
//
// \% and \_ keep their backslash so that LIKE reads them as an escaped
// wildcard; elsewhere they are the two characters.

// restoreStrings puts back, in every string of st, the backslashes that
// markEscapes hid from sqlparser: in string values and in aliases written
// as strings (AS 'x').
func restoreStrings(st sqlparser.Statement) {
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *sqlparser.SQLVal:
			if n.Type == sqlparser.StrVal {
				n.Val = []byte(restoreEscapes(string(n.Val)))
			}
		case *sqlparser.AliasedExpr:
			if s := n.As.String(); strings.Contains(s, escapeMark) {
				n.As = sqlparser.NewColIdent(restoreEscapes(s))
			}
		case *sqlparser.AliasedTableExpr:
			if s := n.As.String(); strings.Contains(s, escapeMark) {
				n.As = sqlparser.NewTableIdent(restoreEscapes(s))
			}
		}
		return true, nil
	}, st)
}

// likeEscape converts the ESCAPE clause of a LIKE (nil when there is
// none) into its character. MySQL's default is \. The clause must be a
// string of one character, other than % and _ (which would be read as
// wildcards first) and NUL. An empty string is refused: MySQL's manual
// says it turns escaping off, but its server falls back to \ for UTF-8
// text, so the statement would mean different things to different
// readers.
func (c *converter) likeEscape(e sqlparser.Expr) (rune, *errs.Error) {
	if e == nil {
		return '\\', nil
	}
	at := c.findText("escape")
	if at >= 0 && at+1 < len(c.toks) {
		at++ // the clause's value
	}
	v, ok := e.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.StrVal {
		what := shorten(sqlparser.String(e), maxNear)
		if ok && v.Type == sqlparser.ValArg {
			what = "a placeholder"
		}
		return 0, c.unsupported(at, "ESCAPE takes a string of one character, not %s", what).
			WithHint("write ESCAPE '!' (any one character the pattern uses to mark a literal %% or _)")
	}
	s := string(v.Val)
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return 0, c.unsupported(at, "ESCAPE '' is not supported: MySQL's manual says it means no escape character, its server uses \\ for UTF-8 text").
			WithHint("to match %% and _ as wildcards only, name an escape character the pattern does not use, such as ESCAPE '|'")
	case n > 1:
		return 0, c.syntax(at, "ESCAPE takes one character, not %d (%s)", n, literal(shorten(s, maxNear))).
			WithHint("write ESCAPE '!' (any one character)")
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '%', '_', 0:
		return 0, c.unsupported(at, "ESCAPE %s is not supported", literal(s)).
			WithHint("choose another escape character (not %%, _ or NUL), such as ESCAPE '!'")
	}
	return r, nil
}

// syntax returns a Syntax error positioned at token index i (-1 for no
// position).
func (c *converter) syntax(i int, format string, args ...any) *errs.Error {
	e := c.unsupported(i, format, args...)
	e.Kind = errs.Syntax
	return e
}

// LikeToken is one element of a LIKE pattern: a run of literal text, or
// a wildcard.
type LikeToken struct {
	Lit  string // the literal text, escapes applied; "" for a wildcard
	Wild byte   // '%' (any run of characters), '_' (one character), or 0 for Lit
}

// LikeTokens cuts a LIKE pattern into literal runs and wildcards, with
// esc as the escape character (0 for none): esc followed by any character
// is that character, and an esc that ends the pattern is itself (MySQL's
// my_wildcmp reads it so). Consecutive % are one. The executor matches
// with the tokens and the planner takes a leading literal as a key
// prefix, so both read escapes the same way.
func LikeTokens(pat string, esc rune) []LikeToken {
	var out []LikeToken
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, LikeToken{Lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(pat); {
		r, size := utf8.DecodeRuneInString(pat[i:])
		switch {
		case esc != 0 && r == esc && i+size < len(pat):
			_, next := utf8.DecodeRuneInString(pat[i+size:])
			lit.WriteString(pat[i+size : i+size+next])
			i += size + next
			continue
		case r == '%' || r == '_':
			flush()
			if r != '%' || len(out) == 0 || out[len(out)-1].Wild != '%' {
				out = append(out, LikeToken{Wild: byte(r)})
			}
		default:
			lit.WriteString(pat[i : i+size])
		}
		i += size
	}
	flush()
	return out
}
