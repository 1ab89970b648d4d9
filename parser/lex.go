package parser

import (
	"strings"
	"unicode"

	"github.com/dynosql/dynosql/internal/errs"
)

// The functions here read SQL text only as far as quotes and comments go,
// the way sqlparser's tokenizer does: '...' and "..." with backslash
// escapes, `...` without, and comments starting with --, # or /*. They
// serve Split, Complete and the statements sqlparser cannot read.

// unitKind classifies a stretch of SQL text.
type unitKind int

const (
	unitCode    unitKind = iota // anything outside quotes and comments, ';' excepted
	unitSemi                    // a ';' outside quotes and comments
	unitQuote                   // a quoted string or identifier, quotes included
	unitComment                 // a comment, markers included
)

// unit is a stretch [start, end) of SQL text.
type unit struct {
	kind       unitKind
	start, end int
}

// units cuts s into code, semicolons, quotes and comments. An unclosed
// quote or /* comment is an error at its opening; the units before it are
// returned too.
func units(s string) ([]unit, *errs.Error) {
	var out []unit
	code := -1 // start of the pending code run, or -1
	flush := func(end int) {
		if code >= 0 {
			out = append(out, unit{unitCode, code, end})
			code = -1
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ';':
			flush(i)
			out = append(out, unit{unitSemi, i, i + 1})
			i++
		case c == '\'' || c == '"' || c == '`':
			flush(i)
			end := closeQuote(s, i)
			if end < 0 {
				return out, errs.New(errs.Syntax, "unclosed quote %c", c).At(s, i).
					WithHint("close the string with %c; write %c%c for a %c inside it", c, c, c, c)
			}
			out = append(out, unit{unitQuote, i, end})
			i = end
		case c == '#' || (c == '-' && strings.HasPrefix(s[i:], "--")):
			flush(i)
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s)
			} else {
				end += i + 1
			}
			out = append(out, unit{unitComment, i, end})
			i = end
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			flush(i)
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return out, errs.New(errs.Syntax, "unclosed comment").At(s, i).
					WithHint("end the comment with */")
			}
			end += i + 4
			out = append(out, unit{unitComment, i, end})
			i = end
		default:
			if code < 0 {
				code = i
			}
			i++
		}
	}
	flush(len(s))
	return out, nil
}

// closeQuote returns the offset just past the quote that closes the one
// at s[i], or -1 when there is none.
func closeQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if q != '`' {
				j++ // the escaped byte cannot close the quote
			}
		case q:
			return j + 1
		}
	}
	return -1
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
	us, err := units(script)
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
		case unitSemi:
			add(u.start)
			start, content = u.end, false
		case unitQuote:
			content = true
		case unitCode:
			content = content || strings.TrimFunc(script[u.start:u.end], isBlank) != ""
		}
	}
	add(len(script))
	return spans, nil
}

// isBlank reports whether r is white space between statements, a byte
// order mark included: editors put U+FEFF at the start of files.
func isBlank(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// Complete reports whether buf ends a statement: its last unit outside
// white space and comments is a ';' that is not inside a quote or comment.
// The REPL keeps reading lines until it is true.
func Complete(buf string) bool {
	us, err := units(buf)
	if err != nil {
		return false
	}
	for i := len(us) - 1; i >= 0; i-- {
		switch u := us[i]; {
		case u.kind == unitComment:
		case u.kind == unitCode && strings.TrimSpace(buf[u.start:u.end]) == "":
		default:
			return u.kind == unitSemi
		}
	}
	return false
}

// wordAt skips white space and comments from offset i of s and returns the
// word (letters, digits and '_') found there with its offsets; word is ""
// when something else comes first. start is where that something begins.
func wordAt(s string, i int) (word string, start, end int) {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r':
			i++
		case s[i] == '#' || strings.HasPrefix(s[i:], "--"):
			nl := strings.IndexByte(s[i:], '\n')
			if nl < 0 {
				return "", len(s), len(s)
			}
			i += nl + 1
		case strings.HasPrefix(s[i:], "/*"):
			e := strings.Index(s[i+2:], "*/")
			if e < 0 {
				return "", i, i
			}
			i += e + 4
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
	us, _ := units(s)
	for _, u := range us {
		if u.kind == unitComment && strings.HasPrefix(s[u.start:], "/*!") {
			return u.start
		}
	}
	return -1
}
