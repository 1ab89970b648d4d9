package repl

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
)

// HistFileVar is the variable that names the shell's history file; set to
// "" it turns history off.
const HistFileVar = "HISTFILE"

// setVar is \set: with no argument it lists the variables; with a name
// it sets it to the rest of the arguments run together (psql's way), ""
// when there are none.
func (s *Session) setVar(_ context.Context, args []string) error {
	if len(args) == 0 {
		names := make([]string, 0, len(s.Vars))
		for name := range s.Vars {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			fmt.Fprintf(s.Out, "%s = '%s'\n", name, s.Vars[name]) // as psql lists them
		}
		return nil
	}
	if !validName(args[0]) {
		return errs.New(errs.Invalid, `\set: invalid variable name %q`, args[0]).
			WithHint("a name holds letters, digits and _")
	}
	if s.Vars == nil {
		s.Vars = map[string]string{}
	}
	s.Vars[args[0]] = strings.Join(args[1:], "")
	return nil
}

// unsetVar is \unset NAME.
func (s *Session) unsetVar(_ context.Context, args []string) error {
	if len(args) != 1 {
		return errs.New(errs.Invalid, `\unset takes one variable name`)
	}
	delete(s.Vars, args[0])
	return nil
}

func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !isNameRune(r) {
			return false
		}
	}
	return true
}

func isNameRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// nameAt returns the length of the variable name at the start of s.
func nameAt(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !isNameRune(r) {
			break
		}
		n += size
	}
	return n
}

// quoteLiteral quotes v as an SQL string. The parser reads backslash
// escapes in strings (MySQL's way), so a backslash is doubled as well as
// a quote, and the string reads back as v.
func quoteLiteral(v string) string {
	return "'" + strings.NewReplacer(`'`, `''`, `\`, `\\`).Replace(v) + "'"
}

// substitute replaces :NAME with the value of variable NAME and :'NAME'
// with it quoted as an SQL string, outside quotes and comments, as psql
// does. A name that is not set is left as written.
func (s *Session) substitute(sql string) string {
	if len(s.Vars) == 0 || !strings.Contains(sql, ":") {
		return sql
	}
	var b strings.Builder
	var sc parser.Scanner
	done := 0
	for i := 0; i < len(sql); {
		next, kind := sc.Next(sql, i)
		for j := i; kind == parser.SpanCode && j < next; j++ {
			if sql[j] != ':' {
				continue
			}
			if v, end, ok := s.variableAt(sql, j); ok {
				b.WriteString(sql[done:j])
				b.WriteString(v)
				done = end
				j = end - 1
			}
		}
		i = max(next, done)
	}
	b.WriteString(sql[done:])
	return b.String()
}

// variableAt reads :NAME or :'NAME' at s[i] and returns its text and the
// offset past it, when NAME is set.
func (s *Session) variableAt(text string, i int) (string, int, bool) {
	rest := text[i+1:]
	if quoted := strings.HasPrefix(rest, "'"); quoted {
		n := nameAt(rest[1:])
		if n == 0 || !strings.HasPrefix(rest[1+n:], "'") {
			return "", 0, false
		}
		v, ok := s.Vars[rest[1:1+n]]
		return quoteLiteral(v), i + n + 3, ok
	}
	n := nameAt(rest)
	v, ok := s.Vars[rest[:n]]
	return v, i + 1 + n, ok && n > 0
}

// unsetHint returns e with a hint that says how to set the variable when
// e is an error at a :NAME left in the statement because NAME is not
// set: the parser alone would suggest a placeholder.
func unsetHint(e *errs.Error) *errs.Error {
	if e.Pos < 0 || e.Pos >= len(e.SQL) || e.SQL[e.Pos] != ':' {
		return e
	}
	after := e.SQL[e.Pos+1:]
	rest := strings.TrimPrefix(strings.TrimPrefix(after, "'"), `"`)
	n := nameAt(rest)
	if n == 0 {
		return e
	}
	name := rest[:n]
	c := *e
	c.Hint = fmt.Sprintf(`no variable %s is set: \set %s VALUE first, or write ? for a parameter`, name, name)
	if strings.HasPrefix(after, `"`) {
		// psql's :"NAME" quotes an identifier; MySQL's names take
		// backquotes, which :NAME inside them does not reach.
		c.Hint = fmt.Sprintf(`:"%s" is not supported: write :%s for the value as written (a name), or :'%s' for it as a string`, name, name, name)
	}
	return &c
}

// metaArgs splits the arguments of a meta-command at white space, as
// psql does: '...' is taken as written, a quote inside doubled, and may hold
// spaces, and :NAME outside quotes is the value of variable NAME.
func (s *Session) metaArgs(text string) ([]string, error) {
	var args []string
	var arg strings.Builder
	inArg := false
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case ' ', '\t':
			if inArg {
				args = append(args, arg.String())
				arg.Reset()
				inArg = false
			}
			i++
		case '\'':
			end := i + 1
			for {
				j := strings.IndexByte(text[end:], '\'')
				if j < 0 {
					return nil, errs.New(errs.Invalid, "unterminated quoted string in %s", text).
						WithHint("close it with '; write '' for a quote inside")
				}
				arg.WriteString(text[end : end+j])
				end += j + 1
				if !strings.HasPrefix(text[end:], "'") {
					break
				}
				arg.WriteByte('\'')
				end++
			}
			inArg, i = true, end
		case ':':
			if v, end, ok := s.variableAt(text, i); ok {
				arg.WriteString(v)
				inArg, i = true, end
				continue
			}
			fallthrough
		default:
			arg.WriteByte(c)
			inArg = true
			i++
		}
	}
	if inArg {
		args = append(args, arg.String())
	}
	return args, nil
}
