package parser

import (
	"strings"
	"unicode/utf8"

	"github.com/dynosql/dynosql/internal/errs"
)

// checkText refuses text no statement may hold, before anything reads
// it: bytes that are not UTF-8 (DynamoDB strings are UTF-8, and the SDK
// would send each bad byte as U+FFFD, storing keys nobody typed), and NUL
// bytes (never SQL; usually a UTF-16 file read as UTF-8). The error
// points at the first such byte of s.
func checkText(s string) *errs.Error {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return nil
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			e := errs.New(errs.Syntax, "the statement is not valid UTF-8: byte 0x%02X at position %d", s[i], i+1).At(s, i)
			if strings.HasPrefix(s[i:], "\xff\xfe") || strings.HasPrefix(s[i:], "\xfe\xff") {
				return e.WithHint("the text is UTF-16 (it starts with a byte order mark): convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)")
			}
			return e.WithHint("save the text as UTF-8 (iconv -f LATIN1 -t UTF-8 converts Latin-1); nothing was sent")
		case r == 0:
			return errs.New(errs.Syntax, "the statement holds a NUL byte at position %d", i+1).
				At(s, i).WithHint("write \\0 inside a string for a NUL character; a file full of NUL bytes may be UTF-16: convert it to UTF-8")
		}
		i += size
	}
	return nil
}

// escapeMark stands, in the text handed to sqlparser, for the backslash
// of a \% or \_ inside a string. MySQL keeps both characters of those two
// escapes (so that LIKE sees an escaped wildcard) where sqlparser drops
// the backslash. The byte 0xFF never occurs in UTF-8, which checkText
// has made sure of, and sqlparser copies it through, so restoreEscapes
// can put the backslash back in every string sqlparser returns. The
// text keeps its length, so offsets are unchanged.
const escapeMark = "\xff"

// markEscapes returns src with the backslash of each \% and \_ inside a
// quoted string replaced by escapeMark.
func markEscapes(src string) string {
	if !strings.Contains(src, `\%`) && !strings.Contains(src, `\_`) {
		return src
	}
	us, _ := spansOf(src)
	b := []byte(src)
	for _, u := range us {
		if u.kind != SpanQuoted || src[u.start] == '`' {
			continue
		}
		for i := u.start + 1; i < u.end-1; i++ {
			if src[i] != '\\' {
				continue
			}
			if next := src[i+1]; next == '%' || next == '_' {
				b[i] = escapeMark[0]
			}
			i++ // the escaped byte
		}
	}
	return string(b)
}

// restoreEscapes undoes markEscapes in a string sqlparser returned.
func restoreEscapes(s string) string {
	return strings.ReplaceAll(s, escapeMark, `\`)
}

// maxNear is the most of the offending text a syntax error quotes.
const maxNear = 40

// shorten cuts s to about n characters, marking the cut with "...".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}

// nonASCII explains a character beyond ASCII at src[i], outside strings,
// where sqlparser stopped: a typographic quote pasted for an ASCII one,
// or a letter of a name, which sqlparser reads only in backquotes. It
// returns the character, for near '...', and a hint.
func nonASCII(src string, i int) (near, hint string) {
	r, _ := utf8.DecodeRuneInString(src[i:])
	switch r {
	case '‘', '’', '‚', '′':
		return string(r), "write strings in ASCII quotes: 'text'"
	case '“', '”', '„', '″':
		return string(r), "write strings in ASCII quotes: 'text', or names in backquotes: `name`"
	}
	start, end := i, i
	inWord := func(c byte) bool { return isWordByte(c) || c >= utf8.RuneSelf }
	for start > 0 && inWord(src[start-1]) {
		start--
	}
	for end < len(src) && inWord(src[end]) {
		end++
	}
	return string(r), "write names with characters beyond ASCII in backquotes: `" + src[start:end] + "`"
}
