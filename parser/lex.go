package parser

import (
	"strings"
	"unicode"

	"github.com/dynosql/dynosql/internal/errs"
)

// The functions here cut SQL text into spans with a Scanner. They serve
// Split, Parse and the statements sqlparser cannot read.

// span is a stretch [start, end) of SQL text.
type span struct {
	kind       SpanKind
	start, end int
}

// spansOf cuts s into code, semicolons, quotes and comments. An unclosed
// quote or /* comment is an error at its opening; the spans before it are
// returned too.
func spansOf(s string) ([]span, *errs.Error) {
	var out []span
	var sc Scanner
	for i := 0; i < len(s); {
		end, kind := sc.Next(s, i)
		switch {
		case sc.Quote() != 0:
			c := s[i]
			return out, errs.New(errs.Syntax, "unclosed quote %c", c).At(s, i).
				WithHint("close the string with %c; write %c%c for a %c inside it", c, c, c, c)
		case sc.InBlockComment():
			return out, errs.New(errs.Syntax, "unclosed comment").At(s, i).
				WithHint("end the comment with */")
		}
		out = append(out, span{kind, i, end})
		i = end
	}
	return out, nil
}

// Split cuts a script into statements on semicolons outside quotes and
// comments. Each statement is returned trimmed of surrounding white space,
// without its ';'; stretches holding nothing but white space and comments
// are dropped. An unclosed quote or comment, a byte that is not UTF-8 and
// a NUL byte are Syntax errors positioned in script.
func Split(script string) ([]string, error) {
	spans, err := statementSpans(script)
	if err != nil {
		return nil, err
	}
	stmts := make([]string, len(spans))
	for i, sp := range spans {
		stmts[i] = script[sp[0]:sp[1]]
	}
	return stmts, nil
}

// statementSpans returns the [start, end) offsets of the statements of
// script as Split cuts them.
func statementSpans(script string) ([][2]int, *errs.Error) {
	if err := checkText(script); err != nil {
		return nil, err
	}
	us, err := spansOf(script)
	if err != nil {
		return nil, err
	}
	var spans [][2]int
	start, content := 0, false
	add := func(end int) {
		if content {
			s := strings.TrimFunc(script[start:end], isBlank)
			first := start + strings.Index(script[start:end], s)
			spans = append(spans, [2]int{first, first + len(s)})
		}
	}
	for _, u := range us {
		switch u.kind {
		case SpanSemicolon:
			add(u.start)
			start, content = u.end, false
		case SpanQuoted:
			content = true
		case SpanCode:
			content = content || strings.TrimFunc(script[u.start:u.end], isBlank) != ""
		}
	}
	add(len(script))
	return spans, nil
}

// isBlank reports whether r is white space between statements, a byte
// order mark included: editors put U+FEFF at the start of files.
func isBlank(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// wordAt skips white space and comments from offset i of s and returns the
// word (letters, digits and '_') found there with its offsets; word is ""
// when something else comes first. start is where that something begins.
func wordAt(s string, i int) (word string, start, end int) {
	var sc Scanner
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r':
			i++
		case opensLineComment(s, i) || opensBlockComment(s, i):
			next, _ := sc.Next(s, i)
			if sc.InBlockComment() {
				return "", i, i // unclosed
			}
			i = next
		default:
			end = i
			for end < len(s) && isWordByte(s[end]) {
				end++
			}
			return s[i:end], i, end
		}
	}
	return "", len(s), len(s)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// versionComment returns the offset of the first /*! comment in s, which
// sqlparser reads as SQL (and can crash on), or -1.
func versionComment(s string) int {
	us, _ := spansOf(s)
	for _, u := range us {
		if u.kind == SpanComment && strings.HasPrefix(s[u.start:], "/*!") {
			return u.start
		}
	}
	return -1
}
