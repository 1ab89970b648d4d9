package parser

import "strings"

// Scanner reads SQL text only as far as quotes and comments go, the way
// sqlparser's tokenizer does: '...' and "..." with backslash escapes,
// `...` without, and comments from --, # or /* on. It is dynosql's one
// definition of those rules: Split, Parse and the shell, which must know
// whether a ';', a '\' or a ':NAME' is SQL or inside a string, all read
// text through it.
//
// Text may come in pieces, as a shell's lines do: a quote or comment one
// piece leaves open goes on in the next. The zero Scanner starts outside
// quotes and comments.
type Scanner struct {
	quote   byte // the open quote: ', " or `; 0 outside quotes
	comment byte // '-' in a line comment, '*' in a block comment, else 0
}

// SpanKind says what a span of SQL text is.
type SpanKind int

// Span kinds.
const (
	// SpanCode is SQL outside quotes and comments, ';' excepted.
	SpanCode SpanKind = iota
	// SpanSemicolon is a ';' outside quotes and comments: the end of a
	// statement.
	SpanSemicolon
	// SpanQuoted is a quoted string or name, its quotes included.
	SpanQuoted
	// SpanComment is a comment, its markers (and a line comment's
	// newline) included.
	SpanComment
)

// Next reads the span of s that starts at offset i (or goes on from the
// piece before; i < len(s)) and returns its kind and the offset just
// past it. A quote or comment that s does not close runs to len(s), and
// Open then reports it open.
func (sc *Scanner) Next(s string, i int) (end int, kind SpanKind) {
	switch {
	case sc.quote != 0:
		return sc.closeQuote(s, i), SpanQuoted
	case sc.comment == '*':
		return sc.closeComment(s, i, "*/"), SpanComment
	case sc.comment == '-':
		return sc.closeComment(s, i, "\n"), SpanComment
	}
	switch c := s[i]; {
	case c == ';':
		return i + 1, SpanSemicolon
	case c == '\'' || c == '"' || c == '`':
		sc.quote = c
		return sc.closeQuote(s, i+1), SpanQuoted
	case opensLineComment(s, i):
		sc.comment = '-'
		return sc.closeComment(s, i+1, "\n"), SpanComment
	case opensBlockComment(s, i):
		sc.comment = '*'
		return sc.closeComment(s, i+2, "*/"), SpanComment
	}
	for j := i + 1; ; j++ {
		k := strings.IndexAny(s[j:], spanOpeners)
		if k < 0 {
			return len(s), SpanCode
		}
		if j += k; opensSpan(s, j) {
			return j, SpanCode
		}
	}
}

// spanOpeners are the bytes that may start something other than code.
const spanOpeners = ";'\"`#-/"

// Open reports whether the text so far ends inside a quote or comment.
func (sc *Scanner) Open() bool { return sc.quote != 0 || sc.comment != 0 }

// Quote returns the quote the text so far ends inside (', " or `), or 0.
func (sc *Scanner) Quote() byte { return sc.quote }

// InBlockComment reports whether the text so far ends inside a /*
// comment.
func (sc *Scanner) InBlockComment() bool { return sc.comment == '*' }

// closeQuote returns the offset past the quote that closes the open one,
// reading from s[i], or len(s) when s does not close it.
func (sc *Scanner) closeQuote(s string, i int) int {
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if sc.quote != '`' {
				j++ // the escaped byte cannot close the quote
			}
		case sc.quote:
			sc.quote = 0
			return j + 1
		}
	}
	return len(s)
}

// closeComment returns the offset past the first closing mark at or
// after s[i] of the open comment, or len(s) when s does not close it.
func (sc *Scanner) closeComment(s string, i int, mark string) int {
	j := strings.Index(s[i:], mark)
	if j < 0 {
		return len(s)
	}
	sc.comment = 0
	return i + j + len(mark)
}

// opensSpan reports whether s[i] starts anything but code.
func opensSpan(s string, i int) bool {
	switch s[i] {
	case ';', '\'', '"', '`':
		return true
	case '#', '-':
		return opensLineComment(s, i)
	case '/':
		return opensBlockComment(s, i)
	}
	return false
}

func opensLineComment(s string, i int) bool {
	return s[i] == '#' || strings.HasPrefix(s[i:], "--")
}

func opensBlockComment(s string, i int) bool { return strings.HasPrefix(s[i:], "/*") }
