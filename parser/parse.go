package parser

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
)

// Parse reads exactly one statement (a trailing ';' is allowed) and
// returns it as one of *Select, *Insert, *Update, *Delete, *Explain or
// *CheckCopies. Errors are *errs.Error of kind Syntax (the text does not
// parse, or is not UTF-8), Unsupported (valid MySQL that dynosql does not
// translate) or Invalid (a number DynamoDB cannot hold), positioned in
// sql.
func Parse(sql string) (st Statement, err error) {
	defer func() {
		// sqlparser panics on some malformed input; no input may crash
		// the caller.
		if r := recover(); r != nil {
			st, err = nil, errs.New(errs.Syntax, "cannot read this statement: %v", r).At(sql, 0)
		}
	}()
	spans, serr := statementSpans(sql)
	if serr != nil {
		return nil, serr
	}
	// Looking for the marker first spares cutting the text into units
	// again for nearly every statement.
	if strings.Contains(sql, "/*!") {
		if pos := versionComment(sql); pos >= 0 {
			return nil, errs.New(errs.Unsupported, "MySQL version comments /*! ... */ are not supported").
				At(sql, pos).WithHint("write the SQL without the comment markers")
		}
	}
	switch len(spans) {
	case 0:
		return nil, errs.New(errs.Syntax, "empty statement").At(sql, 0)
	case 1:
	default:
		return nil, errs.New(errs.Unsupported, "one statement at a time; found %d", len(spans)).
			At(sql, spans[1][0]).WithHint("run the statements one by one, or cut the script with parser.Split")
	}
	st, perr := parseAt(sql, spans[0][0], spans[0][1])
	if perr != nil {
		return nil, perr
	}
	return st, nil
}

// parseAt parses the statement in sql[start:end], where earlier bytes
// belong to an enclosing EXPLAIN and end excludes the final ';', so that
// sqlparser's errors at the end of the text are errors at the end of the
// statement.
func parseAt(sql string, start, end int) (Statement, *errs.Error) {
	w1, p1, e1 := wordAt(sql, start)
	switch strings.ToUpper(w1) {
	case "EXPLAIN":
		// sqlparser reads EXPLAIN as an OtherRead and drops the statement,
		// so the rest is parsed on its own.
		ex, e1, err := explainOptions(sql, e1, end)
		if err != nil {
			return nil, err
		}
		if _, p2, _ := wordAt(sql, e1); p2 >= end {
			return nil, errs.New(errs.Syntax, "EXPLAIN needs a statement").At(sql, p2).
				WithHint("write EXPLAIN SELECT ...")
		}
		if w2, p2, _ := wordAt(sql, e1); strings.EqualFold(w2, "EXPLAIN") {
			return nil, errs.New(errs.Unsupported, "EXPLAIN EXPLAIN is not supported").At(sql, p2)
		}
		inner, err := parseAt(sql, e1, end)
		if err != nil {
			return nil, err
		}
		ex.Statement = inner
		return ex, nil
	case "CHECK", "REPAIR":
		if w2, _, _ := wordAt(sql, e1); strings.EqualFold(w2, "COPIES") {
			return parseCopies(sql, p1, end, strings.EqualFold(w1, "REPAIR"))
		}
	case "DESCRIBE", "DESC":
		// sqlparser reads DESCRIBE as an OtherRead and drops the name.
		return parseDescribe(sql, e1, end)
	}
	c := newConverter(sql, sql[start:end], start, start)
	return c.statement()
}

// parseDescribe parses the name of DESCRIBE name in sql[start:end]: a
// word or a backquoted name (`my-table`).
func parseDescribe(sql string, start, end int) (Statement, *errs.Error) {
	toks := tokenize(sql[start:end])
	if len(toks) == 0 {
		return nil, errs.New(errs.Syntax, "DESCRIBE needs a table").At(sql, end).WithHint("write DESCRIBE students")
	}
	t := toks[0]
	if !t.isWord() {
		return nil, errs.New(errs.Syntax, "DESCRIBE needs a table name").At(sql, start+t.start).WithHint("write DESCRIBE students, or DESCRIBE `my-table`")
	}
	if len(toks) > 1 {
		return nil, errs.New(errs.Syntax, "DESCRIBE takes one table").At(sql, start+toks[1].start).WithHint("write DESCRIBE students")
	}
	return &Describe{Table: t.val, Pos: start + t.start}, nil
}

// parseCopies parses CHECK COPIES FOR <table> [WHERE <expr>] (or REPAIR)
// in sql[start:end] by handing SELECT * FROM <table> [WHERE <expr>] to
// sqlparser.
func parseCopies(sql string, start, end int, repair bool) (Statement, *errs.Error) {
	verb := "CHECK"
	if repair {
		verb = "REPAIR"
	}
	_, _, next := wordAt(sql, start) // CHECK or REPAIR
	_, _, next = wordAt(sql, next)   // COPIES
	w, p, next := wordAt(sql, next)  // FOR
	if !strings.EqualFold(w, "FOR") {
		return nil, errs.New(errs.Syntax, "%s COPIES needs FOR and a table", verb).At(sql, p).
			WithHint("write %s COPIES FOR users WHERE id = '12'", verb)
	}
	_, tableStart, _ := wordAt(sql, next)
	if tableStart >= end {
		return nil, errs.New(errs.Syntax, "%s COPIES FOR needs a table", verb).At(sql, tableStart).
			WithHint("write %s COPIES FOR users WHERE id = '12'", verb)
	}
	const prefix = "SELECT * FROM "
	c := newConverter(sql, prefix+sql[tableStart:end], tableStart-len(prefix), tableStart)
	st, err := c.statement()
	if err != nil {
		return nil, err
	}
	sel, ok := st.(*Select)
	if !ok || len(sel.From) != 1 || sel.GroupBy != nil || sel.Having != nil ||
		sel.OrderBy != nil || sel.Limit != nil || sel.Distinct {
		return nil, errs.New(errs.Unsupported, "%s COPIES takes one table and an optional WHERE", verb).
			At(sql, tableStart).WithHint("write %s COPIES FOR users WHERE id = '12'", verb)
	}
	t := sel.From[0]
	if t.Alias != t.Name {
		return nil, errs.New(errs.Unsupported, "%s COPIES FOR takes no table alias", verb).
			At(sql, t.Pos).WithHint("write %s COPIES FOR %s WHERE ...", verb, t.Name)
	}
	return &CheckCopies{Table: t.Name, Where: sel.Where, Repair: repair, Pos: t.Pos}, nil
}

// converter turns one sqlparser AST into ours. src is the text sqlparser
// read; offsets in it map to offsets in orig, the statement as the user
// wrote it, by adding shift and clamping to floor (text before floor was
// put there by parseCopies).
type converter struct {
	orig  string
	src   string
	shift int
	floor int
	toks  []token
	cur   int // index of the token where the next name search starts
}

func newConverter(orig, src string, shift, floor int) *converter {
	return &converter{orig: orig, src: src, shift: shift, floor: floor, toks: tokenize(src)}
}

// at maps an offset in src to one in orig; -1 stays -1.
func (c *converter) at(pos int) int {
	if pos < 0 {
		return -1
	}
	return max(pos+c.shift, c.floor)
}

// unsupported returns an Unsupported error positioned at token index i
// (-1 for no position).
func (c *converter) unsupported(i int, format string, args ...any) *errs.Error {
	e := errs.New(errs.Unsupported, format, args...)
	if i >= 0 {
		e.At(c.orig, c.at(c.toks[i].start))
	}
	return e
}

// find returns the index of the first token from the cursor on (else from
// the start) for which match holds, or -1; it does not move the cursor.
func (c *converter) find(match func(i int) bool) int {
	for _, from := range []int{c.cur, 0} {
		for i := from; i < len(c.toks); i++ {
			if match(i) {
				return i
			}
		}
	}
	return -1
}

// findText returns the index of the first of consecutive tokens written
// as texts (compared without case), or -1.
func (c *converter) findText(texts ...string) int {
	return c.find(func(i int) bool {
		if i+len(texts) > len(c.toks) {
			return false
		}
		for j, t := range texts {
			tok := c.toks[i+j]
			if !strings.EqualFold(c.src[tok.start:tok.end], t) {
				return false
			}
		}
		return true
	})
}

// findCall returns the index of the token naming a call of fn, or -1.
func (c *converter) findCall(fn string) int {
	return c.find(func(i int) bool {
		return i+1 < len(c.toks) && c.toks[i].isWord() && strings.EqualFold(c.toks[i].val, fn) &&
			c.toks[i+1].typ == '('
	})
}

// name finds the identifier name (after qualifier and '.', when qualifier
// is not empty), moves the cursor past it, and returns both names as
// written and the offset in orig of the first token, or -1. As written
// means that a keyword used as a name (year, status) gets back the case
// sqlparser lower-cased away.
func (c *converter) name(qualifier, name string) (q, n string, pos int) {
	i := c.find(func(i int) bool {
		if qualifier == "" {
			return c.toks[i].names(name)
		}
		return i+2 < len(c.toks) && c.toks[i].names(qualifier) && c.toks[i+1].typ == '.' &&
			c.toks[i+2].names(name)
	})
	if i < 0 {
		return qualifier, name, -1
	}
	if qualifier == "" {
		c.cur = i + 1
		return "", c.written(i, name), c.at(c.toks[i].start)
	}
	c.cur = i + 3
	return c.written(i, qualifier), c.written(i+2, name), c.at(c.toks[i].start)
}

// written returns the text of name token i as the user typed it.
func (c *converter) written(i int, name string) string {
	t := c.toks[i]
	if t.typ == sqlparser.ID || c.src[t.start] == '`' {
		return name
	}
	return c.src[t.start:t.end]
}

// errPos matches sqlparser's error messages.
var errPos = regexp.MustCompile(`(?s)^(.*) at position (\d+)(?: near '(.*)')?$`)

// syntaxError turns a sqlparser error into a positioned Syntax error with
// the caret under the start of the offending token. sqlparser's position
// is the offset just past that token plus one; the message keeps that
// number (shifted into orig), as users of MySQL tools know it.
func (c *converter) syntaxError(err error) *errs.Error {
	m := errPos.FindStringSubmatch(err.Error())
	if m == nil {
		return errs.New(errs.Syntax, "%s", err.Error()).Wrap(err)
	}
	n, _ := strconv.Atoi(m[2])
	hint := ""
	if m[1] == "max nesting level reached" {
		// sqlparser stops at 200 levels of parentheses.
		m[1] = "parentheses nest more than 199 deep"
		hint = "write the expression with fewer parentheses"
	}
	bad := -1 // index of the offending token
	// Without a near '...' the error is at the end of the text, or at a
	// punctuation token, which sqlparser does not name.
	if m[3] != "" || n-1 < len(c.src) {
		for i, t := range c.toks {
			if t.end == n-1 && t.end > t.start {
				bad = i
			}
		}
	}
	if bad < 0 {
		pos := c.at(len(c.src))
		if len(c.toks) > 0 {
			pos = c.at(c.toks[len(c.toks)-1].end)
		}
		return errs.New(errs.Syntax, "%s at end of statement", m[1]).At(c.orig, pos).Wrap(err).
			WithHint("the statement stops before it is complete")
	}
	// sqlparser names no token for punctuation; quote it from the text.
	near := restoreEscapes(m[3])
	if near == "" {
		near = c.src[c.toks[bad].start:c.toks[bad].end]
	}
	near = shorten(near, maxNear)
	switch start := c.toks[bad].start; {
	case start >= len(c.src):
	case c.src[start] >= utf8.RuneSelf:
		// sqlparser reads words of ASCII letters only, and names the
		// first byte of any other character.
		near, hint = nonASCII(c.src, start)
	default:
		near = strings.Map(func(r rune) rune {
			switch {
			case r < 0x20:
				return 0x2400 + r // a control character's picture: ␛
			case r == 0x7f:
				return 0x2421 // ␡
			}
			return r
		}, near)
	}
	// The position is the offending token's first character, counted from
	// 1, where the caret points (sqlparser counts from the token's end).
	e := errs.New(errs.Syntax, "%s at position %d near '%s'", m[1], c.at(c.toks[bad].start)+1, near).
		At(c.orig, c.at(c.toks[bad].start)).Wrap(err)
	if hint != "" {
		return e.WithHint("%s", hint)
	}
	if u := c.unparsed(bad); u != nil {
		return u.Wrap(err)
	}
	// A misspelt keyword is often read as an alias, so the error comes a
	// token later: look at the token before the offending one too.
	for _, i := range []int{bad - 1, bad} {
		if i < 0 || c.toks[i].typ != sqlparser.ID || c.src[c.toks[i].start] == '`' || len(c.toks[i].val) < 4 {
			continue
		}
		if kw := errs.Nearest(c.toks[i].val, hintKeywords); kw != "" {
			return e.WithHint("did you mean %s?", kw)
		}
	}
	if i := c.openCast(bad); i >= 0 {
		return c.unsupported(i, "CAST and CONVERT are not supported").Wrap(err).
			WithHint("values keep the type the mapping gives their column")
	}
	// A reserved word where a name was meant (SELECT key FROM t).
	if t := c.toks[bad]; t.typ != sqlparser.ID && t.isWord() && bad > 0 {
		word := c.src[t.start:t.end]
		return e.WithHint("if %s is meant as a name, write it in backquotes: `%s`", word, word)
	}
	return e
}

// unparsed returns an Unsupported error for SQL that sqlparser cannot
// read but that is plain SQL dynosql does not translate, or nil: a WITH
// clause, and a window function's OVER (...), whose OVER would otherwise
// read as a misspelt ORDER.
func (c *converter) unparsed(bad int) *errs.Error {
	word := func(i int) string { return c.src[c.toks[i].start:c.toks[i].end] }
	switch {
	case bad == 0 && strings.EqualFold(word(0), "with"):
		return c.unsupported(0, "WITH (common table expressions) is not supported").
			WithHint("write the inner SELECT where it is used, as IN (SELECT ...), or join the tables")
	case bad > 0 && c.toks[bad].typ == '(' && strings.EqualFold(word(bad-1), "over"):
		return c.unsupported(bad-1, "window functions (OVER) are not supported").
			WithHint("the aggregates COUNT, MIN, MAX, SUM and AVG go with GROUP BY")
	}
	return nil
}

// openCast returns the CAST or CONVERT whose parentheses are still open
// at token bad, or -1. sqlparser knows MySQL's target types only (SIGNED,
// CHAR...), so CAST(x AS INTEGER) fails as a syntax error at INTEGER,
// which would otherwise read as a misplaced keyword.
func (c *converter) openCast(bad int) int {
	var open []int // for each open parenthesis, its CAST or CONVERT, or -1
	for i := 0; i < bad; i++ {
		switch c.toks[i].typ {
		case '(':
			fn := -1
			if i > 0 && c.toks[i-1].isWord() && (strings.EqualFold(c.toks[i-1].val, "cast") || strings.EqualFold(c.toks[i-1].val, "convert")) {
				fn = i - 1
			}
			open = append(open, fn)
		case ')':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		if open[i] >= 0 {
			return open[i]
		}
	}
	return -1
}

// hintKeywords are the keywords worth suggesting for a misspelt word.
// Short ones (ON, IN, AS...) are left out: too many names are one edit
// away from them.
var hintKeywords = []string{
	"SELECT", "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET",
	"JOIN", "INNER", "LEFT", "OUTER", "BETWEEN", "LIKE", "NULL", "INSERT",
	"INTO", "VALUES", "UPDATE", "DELETE", "DISTINCT", "DESC", "EXPLAIN", "DUPLICATE",
}
