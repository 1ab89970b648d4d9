package planner

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// target is what UPDATE, DELETE and CHECK COPIES share: the rows their
// WHERE selects, found the way a SELECT * with that WHERE would find them.
type target struct {
	e     *mapping.Entity
	alias string
	sc    *scope
	// key is the full base key from constants, when one request keyed by
	// it can do the whole statement.
	key   []*KeyValue
	read  Node
	slots []Slot
	// cond holds the conjuncts on non-key columns that DynamoDB can check.
	cond parser.Expr
	// unchanged lists the attributes the other conjuncts read, outside
	// the base key: a write of a row read must find them as read.
	unchanged []string
}

// addUnchanged records that a write must find col as read: the
// attribute itself, or, for a key column outside the base key, every
// index key attribute rendered from it. A base key column cannot change
// under a write keyed by it.
func (t *target) addUnchanged(col string) {
	add := func(attr string) {
		if !slices.Contains(t.unchanged, attr) {
			t.unchanged = append(t.unchanged, attr)
		}
	}
	if !t.e.IsKeyColumn(col) {
		add(col)
		return
	}
	if slices.Contains(t.e.BaseKeyColumns(), col) {
		return
	}
	for _, attr := range t.e.KeyAttrs() {
		if slices.Contains(t.e.Key(attr).Columns(), col) {
			add(attr)
		}
	}
}

// target plans the reads of an internal SELECT * FROM table WHERE where.
// verb names the statement in a refusal ("updating", "deleting from").
// When direct is set and the WHERE binds the full base key to constants
// and DynamoDB can check all the rest, key is set and the reads are not
// needed.
func (p *Planner) target(sql, table, alias string, pos int, where parser.Expr, args []value.Value, verb string, direct bool) (*target, error) {
	sc := newScope(sql, p.cat)
	if err := sc.add(table, alias, pos); err != nil {
		return nil, err
	}
	t := &target{e: sc.slots[0].Entity, alias: sc.slots[0].Alias, sc: sc}
	resolved, err := sc.resolveCondition(where, args, "WHERE")
	if err != nil {
		return nil, err
	}
	sel := &parser.Select{Columns: []parser.SelectColumn{{Star: true}},
		From: []parser.TableRef{{Name: table, Alias: alias, Pos: pos}}, Where: where}
	plan, err := p.planSelect(sql, sel, args)
	if err != nil {
		return nil, refusedAs(err, t.alias, verb)
	}
	root := plan.Root
	if sp, ok := root.(*Spread); ok {
		root = sp.Input // a raw table's: the rows are what counts here
	}
	proj, ok := root.(*Project)
	if !ok {
		return nil, errs.New(errs.Internal, "the reads of %s planned as %T", verb, plan.Root)
	}
	t.read, t.slots = proj.Input, plan.Slots
	var pushed, keyOnly []parser.Expr
	exact := true
	for _, c := range conjuncts(resolved) {
		hasKey, hasOther, plain := false, false, true
		for col := range columnsOf(c) {
			// A case-folded column's value is its attribute's, which
			// the write's condition checks.
			if t.e.IsKeyColumn(col.Name) && !t.e.Folds(col.Name) {
				hasKey = true
			} else {
				hasOther = true
			}
			plain = plain && (attributeOnly(t.e, col.Name) || t.e.Folds(col.Name))
		}
		switch {
		case plain && pushable(c):
			// A key column held in place by indexes alone (Operator:
			// "{Operator}") is its attribute, as a plain column is:
			// DynamoDB checks it in the write's condition, and a WHERE
			// naming the full key and such a column is one write.
			pushed = append(pushed, c)
			continue
		case hasKey && !hasOther:
			keyOnly = append(keyOnly, c)
		default:
			exact = false
		}
		// DynamoDB cannot evaluate c itself: each write of a row read
		// requires what c reads to be as read, so that a row changed
		// in between is skipped, not written.
		for col := range columnsOf(c) {
			t.addUnchanged(col.Name)
		}
	}
	t.cond = and(pushed)
	if !direct || !exact {
		return t, nil
	}
	leaf := t.read
	if f, ok := leaf.(*Filter); ok {
		leaf = f.Input
	}
	g, ok := leaf.(*GetItem)
	if !ok {
		return t, nil
	}
	for _, kv := range g.Key {
		if !kv.Constant() {
			return t, nil
		}
	}
	for _, c := range keyOnly {
		if !boundBy(c, g.Key) {
			return t, nil
		}
	}
	t.key, t.unchanged = g.Key, nil
	return t, nil
}

// boundBy reports whether c is "col = literal" with the same literal the
// key binds col to: a condition the key itself guarantees.
func boundBy(c parser.Expr, key []*KeyValue) bool {
	col, lit, ok := columnEquals(c)
	if !ok {
		return false
	}
	for _, kv := range key {
		if b, ok := kv.Bind[col.Name].(*parser.Literal); ok && value.Equal(b.Value, lit.Value) {
			return true
		}
	}
	return false
}

// refusedAs rewrites the SELECT planner's refusal of the written table
// (alias) to name the statement; a subquery's table stays "reading".
func refusedAs(err error, alias, verb string) error {
	var sr *errs.ScanRefusedError
	if !errors.As(err, &sr) || sr.Alias != alias {
		return err // a subquery's table, which the statement only reads
	}
	base := *sr.Base
	base.Message = verb + strings.TrimPrefix(base.Message, "reading")
	return &errs.ScanRefusedError{Base: &base, Entity: sr.Entity, Alias: sr.Alias, Table: sr.Table}
}

func (p *Planner) planUpdate(sql string, s *parser.Update, args []value.Value) (Node, error) {
	e, err := p.cat.Entity(s.Table)
	if err != nil {
		return nil, errs.As(err).At(sql, s.Pos)
	}
	alias := s.Alias
	if alias == "" {
		alias = s.Table
	}
	sc := newScope(sql, p.cat)
	if err := sc.add(s.Table, s.Alias, s.Pos); err != nil {
		return nil, err
	}
	set, err := p.assignments(sc, e, alias, s.Set, args)
	if err != nil {
		return nil, err
	}
	for _, a := range set {
		if err := checkKeyAssign(e, a); err != nil {
			return nil, errs.As(err).At(sql, s.Pos)
		}
	}
	fanOuts, err := p.copiesFollow(sql, s.Pos, e, set)
	if err != nil {
		return nil, err
	}
	for _, a := range set {
		if cs := copiesOf(e.Mapping(), e, ""); len(cs) > 0 && e.IsKeyColumn(a.Column) && a.Column == cs[0].SourceKeyColumn() {
			return nil, errs.New(errs.Unsupported, "SET %s would orphan the copies of %s.%s, which are found by it", a.Column, e.Name, cs[0].SourceColumn).
				At(sql, s.Pos).WithHint("INSERT the new %s row, then UPDATE the copies' %s", e.Name, cs[0].KeyColumn)
		}
	}
	// A copy whose key column the statement sets is read again from its
	// new source: that takes a rewrite of the item, even where the key
	// column alone could be set in place.
	var fills []*mapping.Copy
	for _, col := range sortedNames(e.Copies) {
		c := e.Copies[col]
		if slices.ContainsFunc(set, func(a *Assign) bool { return a.Column == c.KeyColumn }) {
			fills = append(fills, c)
		}
	}
	keyCols := keyColumnsOf(e, set)
	inPlace := !slices.ContainsFunc(keyCols, func(c string) bool { return !e.SetInPlace(c) })
	move := !inPlace || (p.opts.Quirks.NoIndexKeyUpdate && len(keyCols) > 0) ||
		(p.opts.Quirks.NoRemove && removes(set)) || len(fills) > 0
	t, err := p.target(sql, s.Table, s.Alias, s.Pos, s.Where, args, "updating", true)
	if err != nil {
		return nil, err
	}
	u := &UpdateRows{Table: e.Mapping().Table, PKAttr: e.Mapping().PartitionKey, Entity: e, Alias: t.alias, Set: set, Cond: t.cond, Move: move,
		ExactArith: p.opts.Quirks.FloatNumbers && arithmetic(set), MaxAffected: p.opts.MaxAffected}
	u.ForQuirks = u.Rewrites() && len(fills) == 0 && inPlace
	u.Reinsert = p.reinserts(e, u)
	if t.key != nil {
		u.Key = t.key
	} else {
		u.Read, u.Slots, u.Unchanged = t.read, t.slots, t.unchanged
	}
	u.Fills = fills
	u.FanOuts = fanOuts
	return u, nil
}

// reinserts reports whether u's rewrite must delete the item and put it
// back (UpdateRows.Reinsert): it takes the item out of a sparse global
// index on a server that would keep a stale entry of it.
func (p *Planner) reinserts(e *mapping.Entity, u *UpdateRows) bool {
	return p.opts.Quirks.StaleSparseIndex && u.Move &&
		slices.ContainsFunc(u.Set, func(a *Assign) bool { return a.Remove() && sparseIndexKeyedBy(e, a.Column) != "" })
}

// sparseIndexKeyedBy names the sparse (optional) global index of e that
// column col is a key column of, or "".
func sparseIndexKeyedBy(e *mapping.Entity, col string) string {
	for _, p := range e.Paths() {
		if p.Optional && !p.Local && (slices.Contains(p.PK.Columns(), col) || (p.SK != nil && slices.Contains(p.SK.Columns(), col))) {
			return p.Index
		}
	}
	return ""
}

// removes reports whether an assignment sets a column to NULL.
func removes(set []*Assign) bool {
	for _, a := range set {
		if a.Remove() {
			return true
		}
	}
	return false
}

func arithmetic(set []*Assign) bool {
	return slices.ContainsFunc(set, func(a *Assign) bool { _, _, _, ok := a.Arith(); return ok })
}

// checkKeyAssign refuses an assignment that would leave a key template
// of e unrenderable (NULL, an empty string, a value no key can hold), so
// that a move fails before any request, naming the column and the key,
// rather than after the read. NULL is allowed for a column only optional
// indexes use: the item leaves them. A wrong type is refused by
// assignments.
func checkKeyAssign(e *mapping.Entity, a *Assign) error {
	if !e.IsKeyColumn(a.Column) {
		return nil
	}
	lit, ok := a.Expr.(*parser.Literal)
	if !ok {
		return nil // col = col + n: a number, as the key held one
	}
	if lit.Value == nil && e.IsOptionalKeyColumn(a.Column) {
		return nil
	}
	for _, attr := range e.KeyAttrs() {
		k := e.Key(attr)
		if !slices.Contains(k.Columns(), a.Column) {
			continue
		}
		row := mapping.Row{}
		for _, c := range k.Columns() {
			row[c] = sample[e.Columns[c]]
		}
		row[a.Column] = lit.Value
		if _, err := k.Value(row); err != nil {
			set := fmt.Sprintf("SET %s = %s", a.Column, parser.Format(lit))
			what, hint := "cannot hold it", "give %s a non-empty value, or DELETE the row"
			var tooLong *mapping.KeyTooLongError
			switch {
			case lit.Value == nil:
				what = "cannot be NULL"
			case lit.Value == "":
				what = "cannot be empty"
			case errors.As(err, &tooLong):
				// The value itself is too long to show.
				set, what, hint = "SET "+a.Column, "cannot hold it: "+err.Error(), "give %s a shorter value"
			}
			return errs.New(errs.Invalid, "%s: %s is part of the key %s = %q of %s, which %s",
				set, a.Column, attr, k.Raw, e.Name, what).WithHint(hint, a.Column)
		}
	}
	return nil
}

// sample holds a value of each key column type, to try a key with one
// column assigned.
var sample = map[string]value.Value{"S": "x", "N": value.Number("1"), "B": value.Binary("x")}

// copiesFollow checks that set assigns no copy (a copy follows its
// source) and returns the fan-outs that keep the copies of the columns
// it assigns in step.
func (p *Planner) copiesFollow(sql string, pos int, e *mapping.Entity, set []*Assign) ([]*FanOut, error) {
	var out []*FanOut
	for _, a := range set {
		if c := e.Copies[a.Column]; c != nil {
			return nil, errs.New(errs.Invalid, "%s.%s is a copy of %s.%s and follows it", e.Name, a.Column, c.Source.Name, c.SourceColumn).
				At(sql, pos).WithHint("UPDATE %s SET %s = ... instead; REPAIR COPIES FOR %s fixes copies that drifted",
				c.Source.Name, c.SourceColumn, c.Source.Name)
		}
		fs, err := p.fanOuts(sql, pos, copiesOf(e.Mapping(), e, a.Column))
		if err != nil {
			return nil, err
		}
		if lit, ok := a.Expr.(*parser.Literal); ok {
			if err := copiesFit(fs, lit.Value); err != nil {
				return nil, err.At(sql, pos)
			}
		}
		out = append(out, fs...)
	}
	return out, nil
}

// copiesFit refuses a value whose copies DynamoDB could not store: each
// copy item holds at least the copy attribute with v and the copier's
// keys (of the table and of the indexes it is always in), so a value
// that fits its source's item may not fit there, and the fan-out would
// fail after the source was written.
func copiesFit(fs []*FanOut, v value.Value) *errs.Error {
	if v == nil {
		return nil
	}
	for _, f := range fs {
		c := f.Copy
		size := limits.AttrSizeAtLeast(c.Column, value.ToAttr(v))
		counted := map[string]bool{}
		for _, p := range c.Copier.Paths() {
			for _, k := range []*mapping.Key{p.PK, p.SK} {
				if k != nil && !p.Optional && !counted[k.Attr] {
					counted[k.Attr] = true
					size += len(k.Attr) + keyBytesAtLeast(k.Template)
				}
			}
		}
		if size > limits.ItemBytes {
			return tooLarge(fmt.Sprintf("the copy %s.%s would make each %s item", c.Copier.Name, c.Column, c.Copier.Name), size)
		}
	}
	return nil
}

// keyBytesAtLeast is the fewest bytes a key rendered from t holds: its
// literal text, and a byte a column (no key value is empty).
func keyBytesAtLeast(t *mapping.Template) int {
	n := 0
	for _, part := range t.Parts {
		n += max(len(part.Literal), 1)
	}
	return n
}

// fanOuts plans the fan-out of each of copies, an error pointing at pos.
func (p *Planner) fanOuts(sql string, pos int, copies []*mapping.Copy) ([]*FanOut, error) {
	var out []*FanOut
	for _, c := range copies {
		f, err := p.fanOut(c)
		if err != nil {
			return nil, errs.As(err).At(sql, pos)
		}
		out = append(out, f)
	}
	return out, nil
}

func (p *Planner) planDelete(sql string, s *parser.Delete, args []value.Value) (Node, error) {
	t, err := p.target(sql, s.Table, s.Alias, s.Pos, s.Where, args, "deleting from", true)
	if err != nil {
		return nil, err
	}
	d := &DeleteRows{Table: t.e.Mapping().Table, PKAttr: t.e.Mapping().PartitionKey, Entity: t.e, Alias: t.alias, Cond: t.cond,
		MaxAffected: p.opts.MaxAffected}
	if d.FanOuts, err = p.fanOuts(sql, s.Pos, copiesOf(t.e.Mapping(), t.e, "")); err != nil {
		return nil, err
	}
	for _, f := range d.FanOuts {
		f.Deleted = true
	}
	if t.key != nil {
		d.Key = t.key
	} else {
		d.Read, d.Slots, d.Unchanged = t.read, t.slots, t.unchanged
	}
	return d, nil
}

func (p *Planner) planCheckCopies(sql string, s *parser.CheckCopies, args []value.Value) (Node, error) {
	e, err := p.cat.Entity(s.Table)
	if err != nil {
		return nil, errs.As(err).At(sql, s.Pos)
	}
	copies := copiesOf(e.Mapping(), e, "")
	if len(copies) == 0 {
		return nil, errs.New(errs.Invalid, "no column of the mapping is a copy of a column of %s", e.Name).At(sql, s.Pos)
	}
	if s.Where == nil {
		key := e.BaseKeyColumns()[0]
		return nil, &errs.ScanRefusedError{
			Base: errs.New(errs.Refused, "checking the copies of every %s row would need a Scan of %s", e.Name, e.Mapping().Table).At(sql, s.Pos).
				WithHint("name the source rows by key: WHERE %s = ... or WHERE %s IN (...)", key, key),
			Entity: e.Name, Alias: e.Name, Table: e.Mapping().Table}
	}
	t, err := p.target(sql, s.Table, "", s.Pos, s.Where, args, "checking copies of", false)
	if err != nil {
		return nil, err
	}
	cc := &CopyCheck{Source: e, Read: t.read, Slots: t.slots, Repair: s.Repair, Keys: namedKeys(s.Where, e.BaseKeyColumns()[0], args)}
	if cc.FanOuts, err = p.fanOuts(sql, s.Pos, copies); err != nil {
		return nil, err
	}
	return cc, nil
}

// namedKeys returns the values a WHERE of one condition, col = v or col
// IN (v, ...), gives the key column col, with arguments in place of ?;
// none for any other WHERE.
func namedKeys(where parser.Expr, col string, args []value.Value) []value.Value {
	isKey := func(e parser.Expr) bool { c, ok := e.(*parser.Column); return ok && c.Name == col }
	var list []parser.Expr
	switch x := where.(type) {
	case *parser.Compare:
		switch {
		case x.Op == "=" && isKey(x.L):
			list = []parser.Expr{x.R}
		case x.Op == "=" && isKey(x.R):
			list = []parser.Expr{x.L}
		}
	case *parser.In:
		if !x.Not && isKey(x.Expr) {
			list = x.List
		}
	}
	var out []value.Value
	for _, e := range list {
		if v := bindLiteral(e, args); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// attributeOnly reports whether column col of e has no value but its
// own attribute's: a plain column, or a key column only indexes hold, in
// place (Operator: "{Operator}"), which no template renders from.
func attributeOnly(e *mapping.Entity, col string) bool {
	if !e.IsKeyColumn(col) {
		return true
	}
	if slices.Contains(e.BaseKeyColumns(), col) {
		return false
	}
	for _, attr := range e.KeyAttrs() {
		k := e.Key(attr)
		if k != nil && slices.Contains(k.Columns(), col) && (attr != col || k.Raw != "{"+col+"}") {
			return false
		}
	}
	return true
}
