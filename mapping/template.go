package mapping

import (
	"fmt"
	"slices"
	"strings"
)

// Template is a key attribute's pattern, such as "ENROLL#CRS#{course_id}":
// literal text and column references in order. Literal text may come
// before, between and after columns ("ORDER#{date}#{id}#ITEM").
type Template struct {
	Raw   string
	Parts []Part

	cols []string // Columns, set by ParseTemplate: planning asks it often
}

// Part is one piece of a Template: either Literal text or a Column name.
type Part struct {
	Literal string
	Column  string
}

// ParseTemplate splits raw into literal and column parts. Two columns must
// be separated by literal text, or a key could not be parsed back.
func ParseTemplate(raw string) (*Template, error) {
	t := &Template{Raw: raw}
	rest := raw
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return nil, fmt.Errorf("unmatched '}' in template %q", raw)
			}
			t.Parts = append(t.Parts, Part{Literal: rest})
			break
		}
		if open > 0 {
			if strings.IndexByte(rest[:open], '}') >= 0 {
				return nil, fmt.Errorf("unmatched '}' in template %q", raw)
			}
			t.Parts = append(t.Parts, Part{Literal: rest[:open]})
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unclosed '{' in template %q", raw)
		}
		col := rest[open+1 : open+end]
		if col == "" || strings.ContainsAny(col, "{#") {
			return nil, fmt.Errorf("bad column name %q in template %q", col, raw)
		}
		if n := len(t.Parts); n > 0 && t.Parts[n-1].Column != "" {
			return nil, fmt.Errorf("columns %s and %s must be separated by literal text in template %q", t.Parts[n-1].Column, col, raw)
		}
		t.Parts = append(t.Parts, Part{Column: col})
		rest = rest[open+end+1:]
	}
	if len(t.Parts) == 0 {
		return nil, fmt.Errorf("empty template")
	}
	t.cols = t.columns()
	return t, nil
}

// columnTemplate is the template, written as raw, of a key attribute that
// is its own column, whatever its name holds ('#', braces).
func columnTemplate(raw, attr string) *Template {
	return &Template{Raw: raw, Parts: []Part{{Column: attr}}, cols: []string{attr}}
}

// String returns the template as written.
func (t *Template) String() string { return t.Raw }

// Columns returns the columns the template refers to, in order. The
// slice is shared: append to it, never write into it.
func (t *Template) Columns() []string {
	if t.cols != nil || len(t.Parts) == 0 {
		return t.cols
	}
	return t.columns() // a template not made by ParseTemplate
}

func (t *Template) columns() []string {
	var cols []string
	for _, p := range t.Parts {
		if p.Column != "" {
			cols = append(cols, p.Column)
		}
	}
	return slices.Clip(cols)
}

// IsLiteral reports whether the template has no columns (like "PROFILE").
func (t *Template) IsLiteral() bool {
	return !slices.ContainsFunc(t.Parts, func(p Part) bool { return p.Column != "" })
}

// LiteralPrefix returns the literal text before the first column.
func (t *Template) LiteralPrefix() string {
	if len(t.Parts) > 0 && t.Parts[0].Column == "" {
		return t.Parts[0].Literal
	}
	return ""
}

// After returns the literal text that follows col in the template: what
// separates its value from the rest of the key; "" when col comes last.
func (t *Template) After(col string) string {
	for i, p := range t.Parts {
		if p.Column == col && i+1 < len(t.Parts) {
			return t.Parts[i+1].Literal
		}
	}
	return ""
}

// render fills the template with each column's text; text returns it for
// a column, or an error. A key that would not parse back into the same
// values (a value holding the literal that follows it) is an error: it
// would be read back as other values. Every lookup key goes through
// here, so it sizes the key once and keeps the texts on the stack.
func (t *Template) render(text func(col string) (string, error)) (string, error) {
	var givenBuf, backBuf [8]string
	given, size := givenBuf[:0], 0
	for _, p := range t.Parts {
		if p.Column == "" {
			size += len(p.Literal)
			continue
		}
		s, err := text(p.Column)
		if err != nil {
			return "", fmt.Errorf("column %s: %w", p.Column, err)
		}
		given = append(given, s)
		size += len(s)
	}
	var b strings.Builder
	b.Grow(size)
	i := 0
	for _, p := range t.Parts {
		if p.Column == "" {
			b.WriteString(p.Literal)
			continue
		}
		b.WriteString(given[i])
		i++
	}
	key := b.String()
	back, ok := t.split(key, backBuf[:0])
	if !ok {
		return "", fmt.Errorf("the key %q would not read back as %q: a value starts or ends with the text that separates the columns", key, t.Raw)
	}
	i = 0
	for _, p := range t.Parts {
		if p.Column == "" {
			continue
		}
		if back[i] != given[i] {
			return "", fmt.Errorf("column %s: the value %q would make the key %q, which reads back as %s = %q: the value holds the text that separates it from the rest of the key %q",
				p.Column, given[i], key, p.Column, back[i], t.Raw)
		}
		i++
	}
	return key, nil
}

// prefix renders the literal text and the columns up to the first one
// text cannot give (ok false), and reports whether every column was
// given.
func (t *Template) prefix(text func(col string) (string, bool)) (prefix string, complete bool) {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Column == "" {
			b.WriteString(p.Literal)
			continue
		}
		s, ok := text(p.Column)
		if !ok {
			return b.String(), false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

// split parses s against the template and appends each column's text to
// texts, in template order, or reports false if s does not have the
// template's shape. A column takes the shortest text up to the literal
// that follows it (all of the text up to the template's last literal,
// for the last column), and never empty text. Items are classified
// through here, so the texts go to a slice the caller may keep on its
// stack.
func (t *Template) split(s string, texts []string) ([]string, bool) {
	for i, p := range t.Parts {
		if p.Column == "" {
			if !strings.HasPrefix(s, p.Literal) {
				return texts, false
			}
			s = s[len(p.Literal):]
			continue
		}
		if i == len(t.Parts)-1 {
			if s == "" {
				return texts, false
			}
			texts, s = append(texts, s), ""
			continue
		}
		next := t.Parts[i+1].Literal
		end := strings.Index(s, next)
		if i+2 == len(t.Parts) {
			end = len(s) - len(next) // the last literal ends the key
			if !strings.HasSuffix(s, next) {
				end = -1
			}
		}
		if end <= 0 {
			return texts, false
		}
		texts, s = append(texts, s[:end]), s[end:]
	}
	return texts, s == ""
}

// mayOverlap reports whether some string could match both templates. It
// compares the literal text at both ends, which is what tells entities apart
// in practice ("PROFILE" versus "ENROLL#CRS#{course_id}").
func (t *Template) mayOverlap(o *Template) bool {
	if t.IsLiteral() && o.IsLiteral() {
		return t.Raw == o.Raw
	}
	pa, pb := t.LiteralPrefix(), o.LiteralPrefix()
	if !strings.HasPrefix(pa, pb) && !strings.HasPrefix(pb, pa) {
		return false
	}
	sa, sb := t.literalSuffix(), o.literalSuffix()
	return strings.HasSuffix(sa, sb) || strings.HasSuffix(sb, sa)
}

// numberChars are the characters a number's text in a key may hold
// (value.Number's canonical text: digits, sign, point, exponent).
const numberChars = "0123456789+-.Ee"

// mayOverlapKey is mayOverlap knowing the columns' types: a key that is
// literal text and then one number column ("ISSUE#{n}") matches only
// keys whose text after the literal is a number, so none of a template
// that puts other literal text there ("ISSUE#{n}#C#{cid}").
func (k *Key) mayOverlapKey(o *Key) bool {
	if k.Type != o.Type {
		return false
	}
	if k.Type != KeyS {
		return true
	}
	return k.mayOverlap(o.Template) && !k.numberTail(o) && !o.numberTail(k)
}

// numberTail reports whether k is literal text P and one number column,
// and every key of o starts with P and holds, after P, literal text no
// number holds: then no key is both.
func (k *Key) numberTail(o *Key) bool {
	if len(k.Parts) != 2 || k.Parts[0].Column != "" || k.columns[k.Parts[1].Column] != "N" {
		return false
	}
	p := k.Parts[0].Literal
	if o.Parts[0].Column != "" || !strings.HasPrefix(o.Parts[0].Literal, p) {
		return false
	}
	lits := []string{strings.TrimPrefix(o.Parts[0].Literal, p)}
	for _, q := range o.Parts[1:] {
		if q.Column == "" {
			lits = append(lits, q.Literal)
		}
	}
	return slices.ContainsFunc(lits, func(l string) bool {
		return strings.ContainsFunc(l, func(r rune) bool { return !strings.ContainsRune(numberChars, r) })
	})
}

func (t *Template) literalSuffix() string {
	if n := len(t.Parts); n > 0 && t.Parts[n-1].Column == "" {
		return t.Parts[n-1].Literal
	}
	return ""
}
