package planner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// scope is the table references a statement can name.
type scope struct {
	sql     string
	cat     Catalog
	slots   []Slot
	byAlias map[string]int
	// sub marks the slots of subqueries' tables: outside its subquery a
	// name never reaches one.
	sub map[int]bool
	// inner, when not -1, is the subquery slot whose WHERE is being
	// resolved: its columns come first, then the outer tables'.
	inner int
	// setting is true while an UPDATE's SET is resolved: assignments
	// says itself what arithmetic a SET may hold (checkTypes leaves it).
	setting bool
}

func newScope(sql string, cat Catalog) *scope {
	return &scope{sql: sql, cat: cat, byAlias: map[string]int{}, sub: map[int]bool{}, inner: -1}
}

// visible reports whether slot i can be named where names are being
// resolved now.
func (s *scope) visible(i int) bool { return !s.sub[i] || i == s.inner }

// add binds alias to the entity called name.
func (s *scope) add(name, alias string, pos int) error {
	e, err := s.cat.Entity(name)
	if err != nil {
		return errs.As(err).At(s.sql, pos)
	}
	if alias == "" {
		alias = name
	}
	if _, dup := s.byAlias[alias]; dup {
		return errs.New(errs.Invalid, "table alias %s is used twice", alias).At(s.sql, pos).
			WithHint("give each table reference its own alias")
	}
	s.byAlias[alias] = len(s.slots)
	s.slots = append(s.slots, Slot{Alias: alias, Entity: e})
	return nil
}

// resolve returns e with every column qualified by its slot's alias,
// placeholders replaced by args, and literals checked against the types
// of the columns they meet.
func (s *scope) resolve(e parser.Expr, args []value.Value) (parser.Expr, error) {
	return s.resolveIn(e, args, false)
}

// resolveIn is resolve; condition says that e is a WHERE, ON or HAVING,
// whose own ANDs, ORs and NOTs resolveCondition checks, naming the clause.
func (s *scope) resolveIn(e parser.Expr, args []value.Value, condition bool) (parser.Expr, error) {
	out, err := rewrite(e, func(x parser.Expr) (parser.Expr, error) {
		switch x := x.(type) {
		case *parser.Column:
			return s.column(x)
		case *parser.Placeholder:
			if x.Index >= len(args) {
				return nil, missingArgument(x, args)
			}
			return &parser.Literal{Value: args[x.Index]}, nil
		case *parser.Or:
			return orAsIn(x), nil
		case *parser.Compare:
			return &parser.Compare{Op: x.Op, L: s.asList(x.L, x.R), R: s.asList(x.R, x.L)}, nil
		case *parser.In:
			list := make([]parser.Expr, len(x.List))
			for i, v := range x.List {
				list[i] = s.asList(v, x.Expr)
			}
			return &parser.In{Expr: x.Expr, List: list, Not: x.Not}, nil
		case *parser.Not:
			// NOT (c IS NULL) is c IS NOT NULL, which keeps a read to
			// the items of a sparse index.
			if n, ok := x.E.(*parser.IsNull); ok {
				return &parser.IsNull{Expr: n.Expr, Not: !n.Not}, nil
			}
		}
		return x, nil
	})
	if err != nil {
		return nil, err
	}
	return out, cmp.Or(s.checkTypes(out), s.checkLogic(out, condition))
}

// asList returns e, or, when e is a string set (a Go []string given for
// a ?) met by a list column, the list it stands for, in its order: INSERT
// stores a []string into a list column so, and a set never equals a list.
func (s *scope) asList(e, other parser.Expr) parser.Expr {
	lit, ok := e.(*parser.Literal)
	c, isCol := other.(*parser.Column)
	if !ok || !isCol || c.Table == "" || s.typeOf(c) != "L" {
		return e
	}
	ss, isSet := lit.Value.(value.StringSet)
	if !isSet {
		return e
	}
	return &parser.Literal{Value: ss.List()}
}

func (s *scope) column(c *parser.Column) (*parser.Column, error) {
	if c.Table != "" {
		i, ok := s.byAlias[c.Table]
		if ok && !s.visible(i) {
			return nil, errs.New(errs.Invalid, "%s is the table of a subquery; it cannot be named outside it", c.Table).
				At(s.sql, c.Pos).WithHint("name the columns of %s inside the subquery", c.Table)
		}
		if !ok {
			err := errs.New(errs.Invalid, "unknown table or alias %s in %s.%s", c.Table, c.Table, c.Name)
			if near := errs.Nearest(c.Table, s.aliases()); near != "" {
				err.Message += "; did you mean " + near + "?"
			}
			return nil, err.At(s.sql, c.Pos)
		}
		if _, err := s.slots[i].Entity.Column(c.Name); err != nil {
			return nil, errs.As(err).At(s.sql, c.Pos)
		}
		return &parser.Column{Table: c.Table, Name: c.Name, Pos: c.Pos}, nil
	}
	if s.inner >= 0 && s.slots[s.inner].Entity.HasColumn(c.Name) {
		return &parser.Column{Table: s.slots[s.inner].Alias, Name: c.Name, Pos: c.Pos}, nil
	}
	var found []int
	for i, sl := range s.slots {
		if _, ok := sl.Entity.Columns[c.Name]; ok && s.visible(i) {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		// An attribute no mapping declares: an open entity's, if exactly
		// one table of the statement is open.
		for i, sl := range s.slots {
			if sl.Entity.HasColumn(c.Name) && s.visible(i) {
				found = append(found, i)
			}
		}
	}
	switch len(found) {
	case 1:
		return &parser.Column{Table: s.slots[found[0]].Alias, Name: c.Name, Pos: c.Pos}, nil
	case 0:
		var all []string
		for _, sl := range s.slots {
			all = append(all, sl.Entity.ColumnNames()...)
		}
		err := errs.New(errs.Invalid, "unknown column %s", c.Name)
		if len(s.slots) == 1 {
			err.Message += " in " + s.slots[0].Entity.Name
		}
		if near := errs.Nearest(c.Name, all); near != "" {
			err.Message += "; did you mean " + near + "?"
		} else if len(s.slots) == 1 {
			err.WithHint("%s has columns: %s", s.slots[0].Entity.Name, strings.Join(s.slots[0].Entity.ColumnNames(), ", "))
		} else {
			var tables []string
			for _, sl := range s.slots {
				tables = append(tables, sl.Alias+": "+strings.Join(sl.Entity.ColumnNames(), ", "))
			}
			err.WithHint("the columns here are %s", strings.Join(tables, "; "))
		}
		return nil, err.At(s.sql, c.Pos)
	}
	var names []string
	for _, i := range found {
		names = append(names, s.slots[i].Alias+"."+c.Name)
	}
	return nil, errs.New(errs.Invalid, "column %s is ambiguous: it could be %s", c.Name, strings.Join(names, " or ")).
		At(s.sql, c.Pos).WithHint("qualify it with its table alias")
}

func (s *scope) aliases() []string {
	var out []string
	for _, sl := range s.slots {
		out = append(out, sl.Alias)
	}
	return out
}

// typeOf returns the declared type of a resolved column ("" for an
// attribute no mapping declares).
func (s *scope) typeOf(c *parser.Column) string {
	return s.slots[s.byAlias[c.Table]].Entity.Columns[c.Name]
}

// checkTypes refuses comparisons of values of two types (a column with
// a literal or another column, a condition with a number): DynamoDB
// would silently match nothing, and a key rendered from the wrong type
// would read the wrong item. Types are those the statement fixes
// (exprType); a raw table's attribute has none.
func (s *scope) checkTypes(e parser.Expr) error {
	var err error
	check := func(a, b parser.Expr) {
		ta, tb := exprType(s, a), exprType(s, b)
		if err != nil || ta == tb || ta == "" || tb == "" || !scalarType(ta) && !scalarType(tb) {
			return
		}
		c, ok := a.(*parser.Column)
		if !ok {
			if c, ok = b.(*parser.Column); ok {
				a, b, ta, tb = b, a, tb, ta
			}
		}
		what, pos := parser.Format(a), -1
		if ok {
			what, pos = fmt.Sprintf("column %s.%s", c.Table, c.Name), c.Pos
		}
		hint := "compare values of one type: DynamoDB orders no number with a string"
		switch _, lit := b.(*parser.Literal); {
		case lit && !scalarType(tb):
			// A Go slice for one ?: IN (?) is not expanded.
			hint = "give each value its own placeholder: IN (?, ?, ?)"
		case lit:
			hint = typeHint(ta)
		}
		err = errs.New(errs.Invalid, "%s is %s but is compared with %s %s", what, typeWord[ta], typeWord[tb], parser.Format(b)).
			At(s.sql, pos).WithHint("%s", hint)
	}
	// Arithmetic, SUM and AVG need numbers: over a column of another
	// type they failed only once a row was read (after the header was
	// printed), or gave NULL and no error where no row was, while the
	// same arithmetic in an UPDATE's SET was refused before anything ran.
	number := func(what string, x parser.Expr) {
		t := exprType(s, x)
		if err != nil || t == "" || t == "N" {
			return
		}
		pos := -1
		if c, ok := x.(*parser.Column); ok {
			pos = c.Pos
		}
		err = errs.New(errs.Invalid, "%s needs numbers, but %s is %s", what, parser.Format(x), typeWord[t]).
			At(s.sql, pos).WithHint("arithmetic, SUM and AVG take number (N) columns; MIN, MAX and COUNT take any")
	}
	parser.Walk(e, func(x parser.Expr) bool {
		switch x := x.(type) {
		case *parser.Arith:
			if !s.setting {
				number("arithmetic", x.L)
				number("arithmetic", x.R)
			}
		case *parser.Func:
			if (x.Name == "SUM" || x.Name == "AVG") && len(x.Args) == 1 {
				number(x.Name, x.Args[0])
			}
		case *parser.Compare:
			check(x.L, x.R)
		case *parser.In:
			for _, v := range x.List {
				check(x.Expr, v)
			}
		case *parser.Between:
			check(x.Expr, x.Lo)
			check(x.Expr, x.Hi)
		case *parser.Like:
			check(x.Expr, x.Pattern)
		}
		return err == nil
	})
	return err
}

// checkLogic refuses AND, OR and NOT of values that are no conditions
// wherever they stand (a select list, inside a comparison): the
// executor's three-valued logic makes any other value unknown, where
// MySQL and SQLite take 'x' as false and 5 as true. Those at the top of
// a condition (a WHERE, ON or HAVING) are checkCondition's, which names
// the clause.
func (s *scope) checkLogic(e parser.Expr, condition bool) error {
	if condition {
		switch x := e.(type) {
		case *parser.And:
			return cmp.Or(s.checkLogic(x.L, true), s.checkLogic(x.R, true))
		case *parser.Or:
			return cmp.Or(s.checkLogic(x.L, true), s.checkLogic(x.R, true))
		case *parser.Not:
			return s.checkLogic(x.E, true)
		}
	}
	var err error
	parser.Walk(e, func(x parser.Expr) bool {
		switch x.(type) {
		case *parser.And:
			err = s.checkCondition(x, "AND")
		case *parser.Or:
			err = s.checkCondition(x, "OR")
		case *parser.Not:
			err = s.checkCondition(x, "NOT")
		}
		return err == nil
	})
	return err
}

// scalarType reports whether typ is one that values compare within.
func scalarType(typ string) bool { return typ == "S" || typ == "N" || typ == "B" || typ == "BOOL" }

// resolveCondition resolves e, a WHERE, ON or HAVING (named by clause),
// and refuses it unless it is a condition: SQL engines take a number
// there as true when not zero (WHERE year), which DynamoDB has no notion
// of, and which dynosql would otherwise take as unknown, matching
// nothing.
func (s *scope) resolveCondition(e parser.Expr, args []value.Value, clause string) (parser.Expr, error) {
	out, err := s.resolveIn(e, args, true)
	if err != nil || out == nil {
		return out, err
	}
	return out, s.checkCondition(out, clause)
}

func (s *scope) checkCondition(e parser.Expr, clause string) error {
	switch x := e.(type) {
	case *parser.And:
		if err := s.checkCondition(x.L, clause); err != nil {
			return err
		}
		return s.checkCondition(x.R, clause)
	case *parser.Or:
		if err := s.checkCondition(x.L, clause); err != nil {
			return err
		}
		return s.checkCondition(x.R, clause)
	case *parser.Not:
		return s.checkCondition(x.E, clause)
	case *parser.Literal:
		if _, ok := x.Value.(bool); ok || x.Value == nil {
			return nil
		}
	case *parser.InSelect, *parser.Exists:
		return nil
	}
	typ := exprType(s, e)
	if typ == "BOOL" || typ == "" {
		return nil
	}
	err := errs.New(errs.Invalid, "%s needs a condition, but %s is %s", clause, parser.Format(e), typeWord[typ])
	if c, ok := e.(*parser.Column); ok {
		err.At(s.sql, c.Pos)
	}
	if _, ok := e.(*parser.Literal); ok {
		return err.WithHint("write TRUE or FALSE")
	}
	if !scalarType(typ) {
		return err.WithHint("to keep the rows that have one, write %s IS NOT NULL", parser.Format(e))
	}
	return err.WithHint("compare it: %s <> %s", parser.Format(e), zeroOf(typ))
}

// zeroOf is the value a condition on a bare value of type typ most
// likely means to compare with.
func zeroOf(typ string) string {
	if typ == "N" {
		return "0"
	}
	return "''"
}

var typeWord = map[string]string{"S": "a string (S)", "N": "a number (N)", "B": "a binary (B)", "BOOL": "a boolean (BOOL)",
	"L": "a list (L)", "M": "a map (M)", "SS": "a string set (SS)", "NS": "a number set (NS)", "NULL": "NULL"}

func typeHint(typ string) string {
	switch typ {
	case "S":
		return "quote the value: 'text'"
	case "N":
		return "write the number without quotes"
	case "B":
		return "write the bytes as X'0a1b...'"
	}
	return "write TRUE or FALSE"
}

// isBaseKeyColumn reports whether a resolved column is in its entity's
// base key, which no item lacks.
func (s *scope) isBaseKeyColumn(c *parser.Column) bool {
	return slices.Contains(s.slots[s.byAlias[c.Table]].Entity.BaseKeyColumns(), c.Name)
}

// slotOf returns the slot index of a resolved column.
func (s *scope) slotOf(c *parser.Column) int { return s.byAlias[c.Table] }

// slotsOf returns the slots e refers to, each once.
func (s *scope) slotsOf(e parser.Expr) []int {
	var slots []int
	for c := range columnsOf(e) {
		if slot := s.slotOf(c); !slices.Contains(slots, slot) {
			slots = append(slots, slot)
		}
	}
	return slots
}

// orAsIn rewrites "c = x OR c = y OR c IN (z)" on one column as
// "c IN (x, y, z)", which a key can serve; other ORs stay as they are.
// It runs bottom-up, so a chain of ORs folds one pair at a time.
func orAsIn(o *parser.Or) parser.Expr {
	l, okl := inTerms(o.L)
	r, okr := inTerms(o.R)
	if !okl || !okr || colKey(l.Expr.(*parser.Column)) != colKey(r.Expr.(*parser.Column)) {
		return o
	}
	return &parser.In{Expr: l.Expr, List: append(append([]parser.Expr{}, l.List...), r.List...)}
}

// inTerms reads "column = literal" or "column IN (literals)" as an IN.
func inTerms(e parser.Expr) (*parser.In, bool) {
	switch x := e.(type) {
	case *parser.In:
		if _, ok := x.Expr.(*parser.Column); !ok || x.Not {
			return nil, false
		}
		for _, v := range x.List {
			if _, ok := v.(*parser.Literal); !ok {
				return nil, false
			}
		}
		return x, true
	case *parser.Compare:
		if col, lit, ok := columnEquals(x); ok {
			return &parser.In{Expr: col, List: []parser.Expr{lit}}, true
		}
	}
	return nil, false
}

// columnEquals reads e as "column = literal", written either way round.
func columnEquals(e parser.Expr) (*parser.Column, *parser.Literal, bool) {
	cmp, ok := e.(*parser.Compare)
	if !ok || cmp.Op != "=" {
		return nil, nil, false
	}
	col, okc := cmp.L.(*parser.Column)
	lit, okl := cmp.R.(*parser.Literal)
	if !okc || !okl {
		col, okc = cmp.R.(*parser.Column)
		lit, okl = cmp.L.(*parser.Literal)
	}
	return col, lit, okc && okl
}

// declares reports whether a visible table declares column name: an
// open entity or a raw table takes any name as an attribute, which must
// not hide a select-list alias of that name (GROUP BY k).
func (s *scope) declares(name string) bool {
	for i, sl := range s.slots {
		if _, ok := sl.Entity.Columns[name]; ok && s.visible(i) {
			return true
		}
	}
	return false
}

// hasColumn reports whether any table of the statement has a column name.
func (s *scope) hasColumn(name string) bool {
	for i, sl := range s.slots {
		if sl.Entity.HasColumn(name) && s.visible(i) {
			return true
		}
	}
	return false
}

// missingArgument is the error of a placeholder ? past the arguments.
func missingArgument(p *parser.Placeholder, args []value.Value) error {
	return errs.New(errs.Invalid, "the statement has a placeholder ?%d but only %d argument(s) were given", p.Index+1, len(args)).
		WithHint("pass one argument for each ?; on the command line, write the values into the statement")
}
