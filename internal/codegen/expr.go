package codegen

import (
	"fmt"
	"strings"
	"unicode"
)

// A DynamoDB expression (condition, key condition, update, projection)
// as the SDK input holds it, read back into a tree so that it can be
// written as expression-builder calls. The grammar is DynamoDB's own
// (Expressions in the Developer Guide), placeholders kept: #names and
// :values are looked up when the tree is written out.

// operand is a path, a value, size(path), or, in an update, path + value,
// path - value, if_not_exists(path, operand) or list_append(a, b).
type operand struct {
	kind string     // "path", "value", "size", "+", "-", "if_not_exists", "list_append"
	path []string   // for "path" and "size": the elements, #names or [n] indexes
	val  string     // for "value": the :placeholder
	args []*operand // the operands of +, -, if_not_exists and list_append
}

// cond is a condition: and, or, not over sub-conditions; a comparison,
// BETWEEN or IN over operands; or a function.
type cond struct {
	op   string // "and", "or", "not", "=", "<>", "<", "<=", ">", ">=", "between", "in", or a function name
	subs []*cond
	args []*operand
}

// action is one action of an update: SET path = operand, REMOVE path,
// ADD path value, DELETE path value.
type action struct {
	clause string // SET, REMOVE, ADD, DELETE
	path   *operand
	val    *operand // nil for REMOVE
}

// exprParser reads one expression.
type exprParser struct {
	toks []string
	i    int
}

// tokenize splits an expression into placeholders, words, numbers and
// punctuation.
func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '#' || c == ':' || c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c):
			j := i + 1
			for j < len(s) && (s[j] == '_' || unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j]))) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case strings.HasPrefix(s[i:], "<>") || strings.HasPrefix(s[i:], "<=") || strings.HasPrefix(s[i:], ">="):
			toks = append(toks, s[i:i+2])
			i += 2
		case strings.ContainsRune("()[],.=<>+-", c):
			toks = append(toks, s[i:i+1])
			i++
		default:
			return nil, fmt.Errorf("unexpected %q in expression %q", c, s)
		}
	}
	return toks, nil
}

func newParser(s string) (*exprParser, error) {
	toks, err := tokenize(s)
	return &exprParser{toks: toks}, err
}

func (p *exprParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

// word reports whether the next token is the keyword w, any case.
func (p *exprParser) word(w string) bool { return strings.EqualFold(p.peek(), w) }

func (p *exprParser) next() string {
	t := p.peek()
	p.i++
	return t
}

func (p *exprParser) expect(t string) error {
	if got := p.next(); !strings.EqualFold(got, t) {
		return fmt.Errorf("expected %q, found %q", t, got)
	}
	return nil
}

func (p *exprParser) done() error {
	if p.i < len(p.toks) {
		return fmt.Errorf("unexpected %q", p.peek())
	}
	return nil
}

// parseCondition reads a whole condition or key condition.
func parseCondition(s string) (*cond, error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	c, err := p.or()
	if err != nil {
		return nil, fmt.Errorf("condition %q: %w", s, err)
	}
	return c, p.done()
}

func (p *exprParser) or() (*cond, error) { return p.chain("OR", "or", p.and) }

func (p *exprParser) and() (*cond, error) { return p.chain("AND", "and", p.not) }

// chain reads sub (kw sub)*, flat.
func (p *exprParser) chain(kw, op string, sub func() (*cond, error)) (*cond, error) {
	first, err := sub()
	if err != nil {
		return nil, err
	}
	c := &cond{op: op, subs: []*cond{first}}
	for p.word(kw) {
		p.next()
		s, err := sub()
		if err != nil {
			return nil, err
		}
		c.subs = append(c.subs, s)
	}
	if len(c.subs) == 1 {
		return first, nil
	}
	return c, nil
}

func (p *exprParser) not() (*cond, error) {
	if p.word("NOT") {
		p.next()
		c, err := p.not()
		if err != nil {
			return nil, err
		}
		return &cond{op: "not", subs: []*cond{c}}, nil
	}
	return p.primary()
}

// condFuncs are the functions that are conditions by themselves.
var condFuncs = map[string]bool{"attribute_exists": true, "attribute_not_exists": true, "attribute_type": true, "begins_with": true, "contains": true}

func (p *exprParser) primary() (*cond, error) {
	if p.peek() == "(" {
		p.next()
		c, err := p.or()
		if err != nil {
			return nil, err
		}
		return c, p.expect(")")
	}
	if fn := strings.ToLower(p.peek()); condFuncs[fn] {
		p.next()
		args, err := p.args()
		if err != nil {
			return nil, err
		}
		return &cond{op: fn, args: args}, nil
	}
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	switch t := p.next(); {
	case t == "=" || t == "<>" || t == "<" || t == "<=" || t == ">" || t == ">=":
		right, err := p.operand()
		return &cond{op: t, args: []*operand{left, right}}, err
	case strings.EqualFold(t, "BETWEEN"):
		lo, err := p.operand()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AND"); err != nil {
			return nil, err
		}
		hi, err := p.operand()
		return &cond{op: "between", args: []*operand{left, lo, hi}}, err
	case strings.EqualFold(t, "IN"):
		args, err := p.args()
		return &cond{op: "in", args: append([]*operand{left}, args...)}, err
	default:
		return nil, fmt.Errorf("expected a comparison, found %q", t)
	}
}

// args reads ( operand, ... ).
func (p *exprParser) args() ([]*operand, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var out []*operand
	for {
		o, err := p.operand()
		if err != nil {
			return nil, err
		}
		out = append(out, o)
		if p.peek() != "," {
			return out, p.expect(")")
		}
		p.next()
	}
}

// operand reads an operand, with + or - after it (update values).
func (p *exprParser) operand() (*operand, error) {
	o, err := p.single()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t == "+" || t == "-" {
		p.next()
		r, err := p.single()
		return &operand{kind: t, args: []*operand{o, r}}, err
	}
	return o, nil
}

func (p *exprParser) single() (*operand, error) {
	t := p.peek()
	switch fn := strings.ToLower(t); {
	case strings.HasPrefix(t, ":"):
		p.next()
		return &operand{kind: "value", val: t}, nil
	case strings.HasPrefix(t, "#"):
		path, err := p.path()
		return &operand{kind: "path", path: path}, err
	case fn == "size" || fn == "if_not_exists" || fn == "list_append":
		p.next()
		args, err := p.args()
		if err != nil {
			return nil, err
		}
		if fn == "size" {
			if len(args) != 1 || args[0].kind != "path" {
				return nil, fmt.Errorf("size takes one path")
			}
			return &operand{kind: "size", path: args[0].path}, nil
		}
		return &operand{kind: fn, args: args}, nil
	}
	return nil, fmt.Errorf("expected an operand, found %q", t)
}

// path reads #a.#b[2]: its elements, indexes as "[2]".
func (p *exprParser) path() ([]string, error) {
	var out []string
	for {
		t := p.next()
		if !strings.HasPrefix(t, "#") {
			return nil, fmt.Errorf("expected a #name, found %q", t)
		}
		out = append(out, t)
		for p.peek() == "[" {
			p.next()
			n := p.next()
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			out = append(out, "["+n+"]")
		}
		if p.peek() != "." {
			return out, nil
		}
		p.next()
	}
}

// parseUpdate reads an update expression: clauses SET, REMOVE, ADD,
// DELETE, each with actions separated by commas.
func parseUpdate(s string) ([]action, error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	var out []action
	for p.peek() != "" {
		clause := strings.ToUpper(p.next())
		switch clause {
		case "SET", "REMOVE", "ADD", "DELETE":
		default:
			return nil, fmt.Errorf("update %q: unexpected %q", s, clause)
		}
		for {
			path, err := p.path()
			if err != nil {
				return nil, fmt.Errorf("update %q: %w", s, err)
			}
			a := action{clause: clause, path: &operand{kind: "path", path: path}}
			if clause == "SET" {
				if err := p.expect("="); err != nil {
					return nil, fmt.Errorf("update %q: %w", s, err)
				}
			}
			if clause != "REMOVE" {
				if a.val, err = p.operand(); err != nil {
					return nil, fmt.Errorf("update %q: %w", s, err)
				}
			}
			out = append(out, a)
			if p.peek() != "," {
				break
			}
			p.next()
		}
	}
	return out, nil
}

// parseProjection reads a projection: paths separated by commas.
func parseProjection(s string) ([][]string, error) {
	p, err := newParser(s)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for {
		path, err := p.path()
		if err != nil {
			return nil, fmt.Errorf("projection %q: %w", s, err)
		}
		out = append(out, path)
		if p.peek() != "," {
			return out, p.done()
		}
		p.next()
	}
}
