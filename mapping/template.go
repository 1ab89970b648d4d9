package mapping

import (
	"fmt"
	"strings"

	"github.com/dynosql/dynosql/internal/value"
)

// Template is a key attribute's pattern, such as "ENROLL#CRS#{course_id}":
// literal text and column references in order.
type Template struct {
	Raw   string
	Parts []Part
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
	return t, nil
}

// String returns the template as written.
func (t *Template) String() string { return t.Raw }

// Columns returns the columns the template refers to, in order.
func (t *Template) Columns() []string {
	var cols []string
	for _, p := range t.Parts {
		if p.Column != "" {
			cols = append(cols, p.Column)
		}
	}
	return cols
}

// IsLiteral reports whether the template has no columns (like "PROFILE").
func (t *Template) IsLiteral() bool { return len(t.Columns()) == 0 }

// LiteralPrefix returns the literal text before the first column.
func (t *Template) LiteralPrefix() string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Column != "" {
			break
		}
		b.WriteString(p.Literal)
	}
	return b.String()
}

// Render fills the template from vals. It fails if a column is missing or
// NULL, or if a value is not a string or number.
func (t *Template) Render(vals map[string]value.Value) (string, error) {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Column == "" {
			b.WriteString(p.Literal)
			continue
		}
		s, err := keyText(vals[p.Column])
		if err != nil {
			return "", fmt.Errorf("column %s: %w", p.Column, err)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// PrefixUntil renders the literal text and the bound columns up to the first
// column that vals does not hold, and reports whether every column was bound.
// "ENROLL#CRS#{course_id}" with no values gives "ENROLL#CRS#", false.
func (t *Template) PrefixUntil(vals map[string]value.Value) (prefix string, complete bool) {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Column == "" {
			b.WriteString(p.Literal)
			continue
		}
		v, ok := vals[p.Column]
		if !ok {
			return b.String(), false
		}
		s, err := keyText(v)
		if err != nil {
			return b.String(), false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

// keyText is how a value is written inside a key: strings as they are,
// numbers as their canonical decimal text.
func keyText(v value.Value) (string, error) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return "", fmt.Errorf("key values may not be empty")
		}
		return x, nil
	case value.Number:
		return string(x), nil
	case nil:
		return "", fmt.Errorf("key values may not be NULL")
	}
	return "", fmt.Errorf("a %s value cannot be part of a key", value.TypeName(v))
}

// Match parses s against the template and returns each column's text, or
// false if s does not have the template's shape. A column takes the
// shortest text up to the literal that follows it, and never empty text.
func (t *Template) Match(s string) (map[string]string, bool) {
	vals := map[string]string{}
	for i, p := range t.Parts {
		if p.Column == "" {
			if !strings.HasPrefix(s, p.Literal) {
				return nil, false
			}
			s = s[len(p.Literal):]
			continue
		}
		if i == len(t.Parts)-1 {
			if s == "" {
				return nil, false
			}
			vals[p.Column], s = s, ""
			continue
		}
		next := t.Parts[i+1].Literal
		end := strings.Index(s, next)
		if end <= 0 {
			return nil, false
		}
		vals[p.Column], s = s[:end], s[end:]
	}
	if s != "" {
		return nil, false
	}
	return vals, true
}

// mayOverlap reports whether some string could match both templates. It
// compares the literal text at both ends, which is what tells entities apart
// in practice ("PROFILE" versus "ENROLL#CRS#{course_id}").
func mayOverlap(a, b *Template) bool {
	if a.IsLiteral() && b.IsLiteral() {
		return a.Raw == b.Raw
	}
	pa, pb := a.LiteralPrefix(), b.LiteralPrefix()
	if !strings.HasPrefix(pa, pb) && !strings.HasPrefix(pb, pa) {
		return false
	}
	sa, sb := literalSuffix(a), literalSuffix(b)
	return strings.HasSuffix(sa, sb) || strings.HasSuffix(sb, sa)
}

func literalSuffix(t *Template) string {
	var parts []string
	for i := len(t.Parts) - 1; i >= 0 && t.Parts[i].Column == ""; i-- {
		parts = append([]string{t.Parts[i].Literal}, parts...)
	}
	return strings.Join(parts, "")
}
