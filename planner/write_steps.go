package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// maxTransactItems is TransactWriteItems' limit on actions (DYNAMODB.md 3.1).
const maxTransactItems = 100

// maxTransactBytes keeps a transaction under DynamoDB's 4 MB limit, with
// room for the request's own framing.
const maxTransactBytes = 4<<20 - 64<<10

// Send is one kind of request a write step sends, as EXPLAIN prints it.
// The executor builds the real request from the step that holds it.
type Send struct{ Req *Request }

// Request describes the request.
func (s *Send) Request() *Request { return s.Req }

// Describe implements Node.
func (s *Send) Describe() (string, []string, []Node) {
	return s.Req.title(), s.Req.details(), nil
}

// Assign is one assignment of UPDATE's SET or of ON DUPLICATE KEY
// UPDATE: Column = Expr, with Expr a literal (a NULL literal removes the
// attribute), or a column of the same row plus or minus a number, which
// DynamoDB computes itself (SET #c = #c + :n): never read-modify-write.
type Assign struct {
	Column string
	Expr   parser.Expr
}

// Remove reports whether the assignment sets NULL: REMOVE in DynamoDB.
func (a *Assign) Remove() bool {
	l, ok := a.Expr.(*parser.Literal)
	return ok && l.Value == nil
}

// Arith returns the column, operator and number of an arithmetic
// assignment (col = col + n), or false.
func (a *Assign) Arith() (*parser.Column, byte, *parser.Literal, bool) {
	x, ok := a.Expr.(*parser.Arith)
	if !ok {
		return nil, 0, nil, false
	}
	c, ok1 := x.L.(*parser.Column)
	n, ok2 := x.R.(*parser.Literal)
	return c, x.Op, n, ok1 && ok2
}

func (a *Assign) String() string {
	if a.Remove() {
		return a.Column
	}
	return a.Column + " = " + attrText(a.Expr)
}

// attrText formats e as DynamoDB sees it: columns are attribute names,
// without the statement's table alias.
func attrText(e parser.Expr) string {
	bare, _ := rewrite(e, func(x parser.Expr) (parser.Expr, error) {
		if c, ok := x.(*parser.Column); ok {
			return &parser.Column{Name: c.Name, Pos: -1}, nil
		}
		return x, nil
	})
	return parser.Format(bare)
}

// updateText prints an UpdateExpression as EXPLAIN shows it.
func updateText(set []*Assign) string {
	var sets, removes []string
	for _, a := range set {
		if a.Remove() {
			removes = append(removes, a.Column)
		} else {
			sets = append(sets, a.String())
		}
	}
	var parts []string
	if len(sets) > 0 {
		parts = append(parts, "SET "+strings.Join(sets, ", "))
	}
	if len(removes) > 0 {
		parts = append(parts, "REMOVE "+strings.Join(removes, ", "))
	}
	return strings.Join(parts, " ")
}

// condText prints a ConditionExpression: the guard and the WHERE's
// conditions that DynamoDB checks on the item.
func condText(guard string, cond parser.Expr, unchanged ...string) string {
	var parts []string
	if guard != "" {
		parts = append(parts, guard)
	}
	if cond != nil {
		parts = append(parts, attrText(cond))
	}
	for _, attr := range unchanged {
		parts = append(parts, attr+" as read")
	}
	return strings.Join(parts, " AND ")
}

// InsertRows puts new rows of one entity. Each item carries every key
// attribute the entity's templates give and its non-NULL columns, and is
// guarded by attribute_not_exists(partition key) so that an existing row
// is never overwritten. One row is one PutItem; several are one
// TransactWriteItems per batch (at most 100 items and 4 MB each), sent
// one batch after another so that an error says which rows landed.
// With OnDuplicate, each row is a guarded PutItem and, when the row
// exists, an UpdateItem of the assignments instead (MySQL's semantics),
// row by row.
type InsertRows struct {
	Table  string
	PKAttr string
	Entity *mapping.Entity
	Rows   []mapping.Row
	// Batches are the end indexes (exclusive) of each transaction's rows.
	Batches     []int
	OnDuplicate []*Assign
	// Fills are the copies the rows carry: each is read from its source
	// item (one GetItem per distinct source key) and written, or checked
	// against the value the statement gives.
	Fills []*mapping.Copy
	// FanOuts keep the copies of the columns OnDuplicate assigns in
	// step, for each row it updates.
	FanOuts []*FanOut
}

// Describe implements Node.
func (ins *InsertRows) Describe() (string, []string, []Node) {
	title := fmt.Sprintf("insert %s (%d rows)", ins.Entity.Name, len(ins.Rows))
	if len(ins.Rows) == 1 {
		title = fmt.Sprintf("insert %s (1 row)", ins.Entity.Name)
	}
	var inputs []Node
	for _, c := range ins.Fills {
		inputs = append(inputs, fillRequest(ins.Table, ins.Entity, c))
	}
	put := func(row mapping.Row) *Request {
		return &Request{Op: "PutItem", Table: ins.Table, Key: ins.keyText(row),
			Condition: "attribute_not_exists(" + ins.PKAttr + ")", Note: "item: " + itemText(ins.Entity, row)}
	}
	switch {
	case ins.OnDuplicate != nil:
		for _, row := range ins.Rows {
			inputs = append(inputs, &Send{put(row)})
			inputs = append(inputs, &Send{&Request{Op: "UpdateItem", Table: ins.Table, Key: ins.keyText(row),
				Condition: "attribute_exists(" + ins.PKAttr + ")", Update: updateText(ins.OnDuplicate),
				Note: "only when the put finds the row already there"}})
		}
	case len(ins.Rows) == 1:
		inputs = append(inputs, &Send{put(ins.Rows[0])})
	default:
		start := 0
		for _, end := range ins.Batches {
			tx := &Transact{Table: ins.Table, Note: fmt.Sprintf("rows %d to %d", start+1, end)}
			for _, row := range ins.Rows[start:end] {
				tx.Actions = append(tx.Actions, &Send{put(row)})
			}
			inputs = append(inputs, tx)
			start = end
		}
	}
	for _, f := range ins.FanOuts {
		inputs = append(inputs, f)
	}
	return title, nil, inputs
}

// fillRequest describes the GetItem that reads a copy's source value.
func fillRequest(table string, e *mapping.Entity, c *mapping.Copy) *Send {
	return &Send{&Request{Op: "GetItem", Table: table, Consistent: true,
		Key:     sourceKeyText(c, "{"+e.Name+"."+c.KeyColumn+"}"),
		Reads:   []string{c.Source.Name},
		Project: []string{c.SourceColumn},
		Per:     "distinct " + c.KeyColumn,
		Note:    fmt.Sprintf("fills %s.%s from %s.%s, or checks the value given", e.Name, c.Column, c.Source.Name, c.SourceColumn)}}
}

// keyText prints a row's base key as EXPLAIN shows it.
func (ins *InsertRows) keyText(row mapping.Row) string {
	return renderedKey(ins.Entity, row)
}

func renderedKey(e *mapping.Entity, row mapping.Row) string {
	var parts []string
	for _, attr := range baseAttrs(e) {
		s, err := e.Templates[attr].Render(row)
		if err != nil {
			s = "?"
		}
		parts = append(parts, attr+" = "+value.Literal(s))
	}
	return strings.Join(parts, ", ")
}

// baseAttrs returns the base table's key attribute names for e, in order.
func baseAttrs(e *mapping.Entity) []string {
	p := e.Paths()[0]
	if p.SKAttr == "" {
		return []string{p.PKAttr}
	}
	return []string{p.PKAttr, p.SKAttr}
}

// keyAttrs returns every key attribute e has a template for: the base
// table's first, then the others by name.
func keyAttrs(e *mapping.Entity) []string {
	attrs := baseAttrs(e)
	for _, attr := range sortedNames(e.Templates) {
		if !slices.Contains(attrs, attr) {
			attrs = append(attrs, attr)
		}
	}
	return attrs
}

// itemText lists the attributes an item written for row carries.
func itemText(e *mapping.Entity, row mapping.Row) string {
	var parts []string
	for _, attr := range sortedNames(e.Templates) {
		s, _ := e.Templates[attr].Render(row)
		parts = append(parts, attr+" = "+value.Literal(s))
	}
	for _, c := range sortedNames(row) {
		parts = append(parts, c+" = "+value.Literal(row[c]))
	}
	return strings.Join(parts, ", ")
}

// sourceKeyText prints the key of a copy's source item, the source's key
// column bound to what.
func sourceKeyText(c *mapping.Copy, what string) string {
	var parts []string
	for _, attr := range baseAttrs(c.Source) {
		parts = append(parts, attr+" = "+bindText(c.Source.Templates[attr], what))
	}
	return strings.Join(parts, ", ")
}

// bindText renders a template with its one column shown as what.
func bindText(t *mapping.Template, what string) string {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Column != "" {
			b.WriteString(what)
		} else {
			b.WriteString(p.Literal)
		}
	}
	return `"` + b.String() + `"`
}

// Transact is one TransactWriteItems: its actions succeed or fail
// together. Actions are *Send steps.
type Transact struct {
	Table   string
	Actions []Node
	// Size says how many actions there are, when Actions stands for
	// more than one each; empty: one each.
	Size string
	Note string
}

// Request describes the TransactWriteItems sent.
func (t *Transact) Request() *Request {
	size := t.Size
	if size == "" {
		size = fmt.Sprintf("%d", len(t.Actions))
	}
	return &Request{Op: "TransactWriteItems", Table: t.Table, Note: fmt.Sprintf("%s actions, all or none; %s", size, t.Note)}
}

// Describe implements Node.
func (t *Transact) Describe() (string, []string, []Node) {
	r := t.Request()
	return r.title(), r.details(), t.Actions
}

// UpdateRows changes rows of one entity. With Key (the WHERE binds the
// full base key to constants, and every other condition can be checked
// by DynamoDB) it is one UpdateItem guarded by attribute_exists(partition
// key) and Cond, and reads nothing: a missing row or one failing Cond is
// 0 rows affected, and nothing is created. Otherwise Read finds the rows
// (the SELECT planner's key-based reads, the whole WHERE checked on the
// client) and each is one conditional UpdateItem, Cond repeated, so that
// an item changed in between is skipped, not clobbered.
//
// Move marks a SET of a column used in a key template: each row (the
// one Key names, or each row Read finds) is read again whole, strongly
// consistent and without a projection, and its new item is that item
// with the assignments applied and its key attributes rendered again,
// so that attributes the mapping does not declare are kept. It is
// written guarded by every attribute being as that read found it, as a
// Delete of the old key and a Put of the new one in one
// TransactWriteItems when the base key changes, else as one guarded Put.
type UpdateRows struct {
	Table  string
	PKAttr string
	Entity *mapping.Entity
	Alias  string
	Key    []*KeyValue // nil when Read is set
	Read   Node        // the reads of an internal SELECT *, below its Project
	Slots  []Slot      // Read's slots (one: Alias)
	Set    []*Assign
	// Cond holds the WHERE's conditions on non-key columns that
	// DynamoDB can check on the item; it is repeated in every
	// ConditionExpression.
	Cond parser.Expr
	// Unchanged lists the attributes read by the WHERE's other
	// conditions (those DynamoDB cannot evaluate, and key columns
	// outside the base key): each write of a row read requires them to
	// hold the values read (attribute_not_exists where none was).
	Unchanged []string
	Move      bool
	// Fills are copies the moved rows carry, refilled from their source
	// when the key column that finds the source changes.
	Fills []*mapping.Copy
	// FanOuts keep the copies of the updated columns in step.
	FanOuts []*FanOut
}

// Describe implements Node.
func (u *UpdateRows) Describe() (string, []string, []Node) {
	title := "update " + u.Entity.Name
	guard := "attribute_exists(" + u.PKAttr + ")"
	var inputs []Node
	if u.Read != nil {
		inputs = append(inputs, u.Read)
	}
	switch {
	case u.Move:
		title += " (moves items: SET of a key column)"
		per := "statement"
		if u.Read != nil {
			per = "row read, in parallel"
		}
		inputs = append(inputs, &Send{&Request{Op: "GetItem", Table: u.Table, Key: u.keyText(), Reads: []string{u.Entity.Name},
			Consistent: true, Per: per, Note: "the whole item, every attribute (those the mapping does not declare too); a row no longer meeting the WHERE is skipped"}})
		for _, c := range u.Fills {
			inputs = append(inputs, fillRequest(u.Table, u.Entity, c))
		}
		oldGuard := guard + " AND every attribute as that read found it"
		item := "item: the item read, with " + updateText(u.Set) + ", every key attribute rendered again"
		if u.movesBase() {
			inputs = append(inputs, &Transact{Table: u.Table, Note: "per row moved", Actions: []Node{
				&Send{&Request{Op: "DeleteItem", Table: u.Table, Key: u.keyText(), Condition: oldGuard}},
				&Send{&Request{Op: "PutItem", Table: u.Table, Key: "the new key", Condition: "attribute_not_exists(" + u.PKAttr + ")", Note: item}},
			}})
		} else {
			inputs = append(inputs, &Send{&Request{Op: "PutItem", Table: u.Table, Key: u.keyText(), Condition: oldGuard,
				Per: "row moved", Note: item}})
		}
	default:
		per := "statement"
		if u.Read != nil {
			per = "row read, in parallel"
		}
		r := &Request{Op: "UpdateItem", Table: u.Table, Key: u.keyText(), Condition: condText(guard, u.Cond, u.Unchanged...),
			Update: updateText(u.Set), Per: per}
		if notes := u.arithNote(); notes != "" {
			r.Note = notes
		}
		inputs = append(inputs, &Send{r})
	}
	for _, f := range u.FanOuts {
		inputs = append(inputs, f)
	}
	return title, nil, inputs
}

// movesBase reports whether the SET changes a column of the base key.
func (u *UpdateRows) movesBase() bool {
	for _, attr := range baseAttrs(u.Entity) {
		for _, c := range u.Entity.Templates[attr].Columns() {
			for _, a := range u.Set {
				if a.Column == c {
					return true
				}
			}
		}
	}
	return false
}

func (u *UpdateRows) arithNote() string {
	var cols []string
	for _, a := range u.Set {
		if c, _, _, ok := a.Arith(); ok {
			cols = append(cols, c.Name)
		}
	}
	if len(cols) == 0 {
		return ""
	}
	return "arithmetic on " + strings.Join(cols, ", ") + " is computed by DynamoDB; where the column is NULL the result is NULL (REMOVE)"
}

func (u *UpdateRows) keyText() string {
	if u.Key != nil {
		return keyString(u.Key)
	}
	return rowKeyText(u.Entity, u.Alias)
}

// rowKeyText prints the base key of each row read.
func rowKeyText(e *mapping.Entity, alias string) string {
	var parts []string
	for _, attr := range baseAttrs(e) {
		kv := &KeyValue{Attr: attr, Template: e.Templates[attr], Bind: map[string]parser.Expr{}}
		for _, c := range kv.Template.Columns() {
			kv.Bind[c] = &parser.Column{Table: alias, Name: c, Pos: -1}
		}
		parts = append(parts, attr+" = "+kv.String())
	}
	return strings.Join(parts, ", ")
}

// DeleteRows deletes rows of one entity: with Key, one DeleteItem with
// ReturnValues ALL_OLD (which says whether a row was there) guarded by
// Cond; otherwise the rows Read finds, one DeleteItem each guarded by
// attribute_exists(partition key) and Cond, in parallel.
type DeleteRows struct {
	Table  string
	PKAttr string
	Entity *mapping.Entity
	Alias  string
	Key    []*KeyValue
	Read   Node
	Slots  []Slot
	Cond   parser.Expr
	// Unchanged is as in UpdateRows.
	Unchanged []string
}

// Describe implements Node.
func (d *DeleteRows) Describe() (string, []string, []Node) {
	var inputs []Node
	r := &Request{Op: "DeleteItem", Table: d.Table, Note: "ReturnValues ALL_OLD counts the rows deleted"}
	if d.Key != nil {
		r.Key, r.Condition, r.Per = keyString(d.Key), condText("", d.Cond), "statement"
	} else {
		inputs = append(inputs, d.Read)
		r.Key, r.Condition, r.Per = rowKeyText(d.Entity, d.Alias), condText("attribute_exists("+d.PKAttr+")", d.Cond, d.Unchanged...), "row read, in parallel"
	}
	return "delete " + d.Entity.Name, nil, append(inputs, &Send{r})
}

// FanOut keeps the copies of one source column in step: for each source
// row written, Query Copy.Path (keyed by the copy's key column alone) for
// the items that carry the copy, and rewrite each copy that differs from
// the source's new value with an update guarded by the value the Query
// saw, so that a copy changed in between is skipped, not clobbered. The
// updates go in TransactWriteItems of up to CopiesPerTransact (fewer
// when their estimated size would pass 4 MB), each with
// a ConditionCheck that the source still holds the value written, so a
// fan-out overtaken by a later change of its source writes nothing stale
// and stops with a conflict. Index reads are eventually consistent: after
// the updates the Query is repeated (at most MaxRounds times in all)
// until it shows no copy it has not already tried that still differs.
type FanOut struct {
	Table  string
	Copy   *mapping.Copy
	Copier *mapping.Entity
	// SourceKey is the source's key column, whose value the copies hold
	// in Copy.KeyColumn.
	SourceKey string
}

// MaxRounds bounds the Queries of one fan-out for one source row.
const MaxRounds = 3

// CopiesPerTransact is how many copy updates one TransactWriteItems of a
// fan-out holds: the limit of actions less the source's ConditionCheck.
const CopiesPerTransact = maxTransactItems - 1

// QueryRequest describes the Query that finds the copies, sent once per
// what.
func (f *FanOut) QueryRequest(per string) *Request {
	p := f.Copy.Path
	key := p.PKAttr + " = " + bindText(p.PK, "{"+f.Copy.Source.Name+"."+f.SourceKey+"}")
	if prefix := f.SKPrefix(); prefix != "" {
		key += " AND begins_with(" + p.SKAttr + ", " + value.Literal(prefix) + ")"
	}
	return &Request{Op: "Query", Table: f.Table, Index: p.Index, Key: key, Reads: []string{f.Copier.Name},
		Project: f.Project(), Per: per}
}

// SKPrefix is the literal start of the copy path's sort key template,
// which keeps the Query to the copier's items.
func (f *FanOut) SKPrefix() string {
	if f.Copy.Path.SK == nil {
		return ""
	}
	return f.Copy.Path.SK.LiteralPrefix()
}

// Project lists what the Query asks for: the base keys and the copy.
func (f *FanOut) Project() []string {
	return append(baseAttrs(f.Copier), f.Copy.Column)
}

// UpdateRequest describes the update of each stale copy; what says
// which value of the source it is set to ("as written", "as read").
func (f *FanOut) UpdateRequest(what string) *Request {
	return &Request{Op: "UpdateItem", Table: f.Table, Key: rowKeyText(f.Copier, f.Copier.Name),
		Condition: "attribute_exists(" + baseAttrs(f.Copier)[0] + ") AND " + f.Copy.Column + " = {the value the Query saw} (attribute_not_exists when it had none)",
		Update:    "SET " + f.Copy.Column + " = {" + f.Copy.Source.Name + "." + f.Copy.SourceColumn + " " + what + "}",
		Note:      "one action per copy that differs"}
}

// SourceCheck describes the ConditionCheck on the source item that each
// transaction of copy updates carries.
func (f *FanOut) SourceCheck(what string) *Request {
	src := f.Copy.Source
	return &Request{Op: "ConditionCheck", Table: f.Table, Key: rowKeyText(src, src.Name),
		Condition: "attribute_exists(" + baseAttrs(src)[0] + ") AND " + f.Copy.SourceColumn + " = {" + src.Name + "." + f.Copy.SourceColumn + " " + what + "}",
		Note:      "when it fails, a newer change of the source owns the copies: stop with a conflict"}
}

// Transact describes the transactions that carry the copy updates.
func (f *FanOut) Transact(what string) *Transact {
	return &Transact{Table: f.Table, Actions: []Node{&checkSend{f.SourceCheck(what)}, &Send{f.UpdateRequest(what)}},
		Size: fmt.Sprintf("1 + up to %d (fewer past about 4 MB)", CopiesPerTransact),
		Note: "one transaction after another per source row; a copy whose condition fails is dropped (skipped, or already right) and the others are sent again"}
}

// Describe implements Node.
func (f *FanOut) Describe() (string, []string, []Node) {
	title := fmt.Sprintf("fan-out %s.%s from %s.%s (copies found by %s)", f.Copier.Name, f.Copy.Column, f.Copy.Source.Name,
		f.Copy.SourceColumn, pathName(f.Copy.Path))
	return title, nil, []Node{&Send{f.QueryRequest("source row written, repeated while it shows stale copies not yet tried (at most 3)")}, f.Transact("as written")}
}

// checkSend is a ConditionCheck action of a transaction, as EXPLAIN
// prints it.
type checkSend struct{ Req *Request }

// Request describes the action.
func (c *checkSend) Request() *Request { return c.Req }

// Describe implements Node.
func (c *checkSend) Describe() (string, []string, []Node) {
	return "condition-check " + c.Req.Table + "  key: " + c.Req.Key, c.Req.details(), nil
}

func pathName(p *mapping.AccessPath) string {
	if p.IsBase() {
		return "the base table"
	}
	return "index " + p.Index
}

// CopyCheck lists (CHECK COPIES) or rewrites (REPAIR COPIES) every copy
// of the source rows Read finds that differs from its source: one Query
// of each FanOut's copy path per source row, and for REPAIR one guarded
// UpdateItem per copy that differs.
type CopyCheck struct {
	Source  *mapping.Entity
	Read    Node
	Slots   []Slot
	FanOuts []*FanOut
	Repair  bool
}

// CopyCheckColumns are the columns CHECK COPIES returns.
var CopyCheckColumns = []string{"entity", "key", "column", "copy_value", "source", "source_value"}

// Describe implements Node.
func (c *CopyCheck) Describe() (string, []string, []Node) {
	title := "check copies of " + c.Source.Name
	if c.Repair {
		title = "repair copies of " + c.Source.Name
	}
	inputs := []Node{c.Read}
	for _, f := range c.FanOuts {
		inputs = append(inputs, &Send{f.QueryRequest("source row")})
		if c.Repair {
			inputs = append(inputs, f.Transact("as read"))
		}
	}
	return title, nil, inputs
}

var (
	_ Node = (*Send)(nil)
	_ Node = (*Transact)(nil)
	_ Node = (*InsertRows)(nil)
	_ Node = (*UpdateRows)(nil)
	_ Node = (*DeleteRows)(nil)
	_ Node = (*FanOut)(nil)
	_ Node = (*checkSend)(nil)
	_ Node = (*CopyCheck)(nil)
)
