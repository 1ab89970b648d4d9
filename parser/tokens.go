package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// sqlparser's AST carries no positions, so the converter finds them by
// tokenizing the same text again with sqlparser's own tokenizer and
// matching names to tokens in the order the statement is written.

// token is one sqlparser token with its byte offsets in the parsed text.
type token struct {
	typ        int
	val        string // as sqlparser returns it: keywords lower-cased, quotes removed
	start, end int
}

// tokenize returns the tokens of src, comments left out. It stops after a
// LEX_ERROR token (an unclosed quote, say), as the parser would.
func tokenize(src string) []token {
	t := sqlparser.NewStringTokenizer(src)
	toks := make([]token, 0, len(src)/4) // about one token to 4 bytes
	prevEnd := 0
	for {
		typ, val := t.Scan()
		if typ == 0 {
			return toks
		}
		// The tokenizer has always read one byte past the token, and
		// Position counts bytes read, so the token ends at Position-1.
		end := min(t.Position-1, len(src))
		start := min(skipSpace(src, prevEnd), end)
		prevEnd = end
		if typ != sqlparser.COMMENT {
			// Most tokens read as written: share the text rather than
			// copy it.
			v := src[start:end]
			if string(val) != v {
				v = string(val)
			}
			toks = append(toks, token{typ: typ, val: v, start: start, end: end})
		}
		if typ == sqlparser.LEX_ERROR {
			return toks
		}
	}
}

// skipSpace returns the first offset at or after i that is not the white
// space sqlparser skips between tokens.
func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
		i++
	}
	return i
}

// isWord reports whether t is an identifier or a keyword, the tokens a
// name can be written as.
func (t token) isWord() bool {
	switch t.typ {
	case sqlparser.STRING, sqlparser.INTEGRAL, sqlparser.FLOAT, sqlparser.HEXNUM,
		sqlparser.HEX, sqlparser.BIT_LITERAL, sqlparser.VALUE_ARG, sqlparser.LIST_ARG,
		sqlparser.LEX_ERROR:
		return false
	}
	return t.val != ""
}

// names reports whether t spells the identifier name. sqlparser keeps an
// identifier's case but lower-cases keywords (such as year or status)
// used as names, so those match whatever their case.
func (t token) names(name string) bool {
	if t.typ == sqlparser.ID {
		return t.val == name
	}
	return t.isWord() && strings.EqualFold(t.val, name)
}

// is reports whether t is the keyword kw (lower case).
func (t token) is(kw string) bool {
	return t.typ != sqlparser.ID && t.isWord() && t.val == kw
}
