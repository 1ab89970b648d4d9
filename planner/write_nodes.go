package planner

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

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
	if c, op, n, ok := a.Arith(); ok {
		return fmt.Sprintf("%s = %s %c %s", a.Column, c.Name, op, parser.Format(n))
	}
	return a.Column + " = " + parser.Format(a.Expr)
}

// InsertRows puts new rows of one entity. Each item carries every key
// attribute the entity's templates give and its non-NULL columns, and is
// guarded by attribute_not_exists(partition key) so that an existing row
// is never overwritten. One row is one PutItem; several are one
// TransactWriteItems per batch (at most 100 items and 4 MB each), sent
// one batch after another so that an error says which rows landed.
// With OnDuplicate, each row is a guarded PutItem and, when the row
// exists, the UpdateItem of OnDuplicate instead (MySQL's semantics),
// row by row.
type InsertRows struct {
	Table  string
	PKAttr string
	Entity *mapping.Entity
	Rows   []mapping.Row
	// Batches are the end indexes (exclusive) of each transaction's rows.
	Batches     []int
	OnDuplicate *UpdateRows // keyed by each row; nil without ON DUPLICATE KEY UPDATE
	// Fills are the copies the rows carry: each is read from its source
	// item (one GetItem per distinct source key) and written, or checked
	// against the value the statement gives.
	Fills []*mapping.Copy
	// FanOuts keep the copies of the columns OnDuplicate assigns in
	// step, for each row it updates.
	FanOuts []*FanOut
	// Earlier fill, for each row put new, the copies of it written
	// before it: a post written before its author holds NULL, which a
	// join to the author no longer gives once the author is there.
	Earlier []*FanOut
}

func (*InsertRows) requestsBelow() {}

// Inputs implements Node: an INSERT reads no rows.
func (ins *InsertRows) Inputs() []Node { return nil }

// Describe implements Node.
func (ins *InsertRows) Describe() (string, []string) {
	if len(ins.Rows) == 1 {
		return fmt.Sprintf("insert %s (1 row)", ins.Entity.Name), nil
	}
	return fmt.Sprintf("insert %s (%d rows)", ins.Entity.Name, len(ins.Rows)), nil
}

// Requests describes the requests the INSERT sends.
func (ins *InsertRows) Requests() []*Request {
	m := ins.Entity.Mapping()
	var out []*Request
	for _, c := range ins.Fills {
		out = append(out, fillRequest(ins.Table, ins.Entity, c))
	}
	items := make([]map[string]types.AttributeValue, len(ins.Rows))
	for i, row := range ins.Rows {
		filled := mapping.Row{}
		for k, v := range row {
			filled[k] = v
		}
		for _, c := range ins.Fills {
			if _, given := filled[c.Column]; !given {
				filled[c.Column] = mapping.Placeholder("{" + c.Source.Name + "." + c.SourceColumn + "}")
			}
		}
		items[i], _ = ins.Entity.Item(filled)
	}
	switch {
	case ins.OnDuplicate != nil:
		for i, it := range items {
			put, _ := ins.PutInput(it)
			out = append(out, DescribeRequest(m, "PutItem", put))
			key, _ := ins.Entity.KeyItem(ins.Entity.Decode(it), m.BaseKeyAttrs()...)
			if ins.OnDuplicate.Rewrites() {
				row := explainRow(ins.Entity, ins.Entity.Name)
				for _, c := range ins.Entity.BaseKeyColumns() {
					row[c] = ins.Rows[i][c]
				}
				rs := ins.OnDuplicate.moveRequests(row, key, "statement")
				rs[0].Note = "only when the put finds the row already there: " + rs[0].Note
				out = append(out, rs...)
				continue
			}
			up, err := ins.OnDuplicate.UpdateInput(key, nil)
			if err == nil {
				r := DescribeRequest(m, "UpdateItem", up)
				r.Note = "only when the put finds the row already there"
				out = append(out, r)
			}
		}
	case len(items) == 1:
		put, _ := ins.PutInput(items[0])
		out = append(out, DescribeRequest(m, "PutItem", put))
	default:
		start := 0
		for _, end := range ins.Batches {
			tx, _ := ins.TransactInput(items[start:end])
			r := DescribeRequest(m, "TransactWriteItems", tx)
			r.Note = fmt.Sprintf("%d actions, all or none; rows %d to %d", end-start, start+1, end)
			out = append(out, r)
			start = end
		}
	}
	for _, f := range ins.Earlier {
		out = append(out, f.Requests()...)
	}
	for _, f := range ins.FanOuts {
		out = append(out, f.Requests()...)
	}
	return out
}

// fillRequest describes the GetItem that reads a copy's source value.
func fillRequest(table string, e *mapping.Entity, c *mapping.Copy) *Request {
	in, err := FillInput(table, c, mapping.Placeholder("{"+e.Name+"."+c.KeyColumn+"}"))
	if err != nil {
		return &Request{Op: "GetItem", Table: table, Note: err.Error()}
	}
	r := DescribeRequest(e.Mapping(), "GetItem", in)
	r.Reads, r.Per = []string{c.Source.Name}, "distinct "+c.KeyColumn
	r.Note = fmt.Sprintf("fills %s.%s from %s.%s, or checks the value given", e.Name, c.Column, c.Source.Name, c.SourceColumn)
	return r
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
// every other attribute (those the mapping does not declare too) kept
// exactly as stored (MovedItem). It is written guarded by every
// attribute being as that read found it, as a Delete of the old key and
// a Put of the new one in one TransactWriteItems when the base key
// changes, else as one guarded Put.
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
	// ExactArith: the server's arithmetic is not exact
	// (Quirks.FloatNumbers), so the executor rewrites the item with the
	// value computed on the client, as a move does. In a transaction,
	// where nothing is read first, the server still computes it.
	ExactArith bool
	// ForQuirks: the rows are rewritten only for the embedded server's
	// quirks (NoRemove, NoIndexKeyUpdate, FloatNumbers), where DynamoDB
	// would update them in place. That server takes a condition of any
	// length, so the rewrite's guard is not held to DynamoDB's limit on
	// an expression (MoveWriteInputs).
	ForQuirks bool
	// Reinsert: the rewrite takes the item out of a sparse global index
	// on the embedded server, which would keep a stale entry of it there
	// (Quirks.StaleSparseIndex): the item is deleted and put back, in one
	// transaction, rather than put over itself.
	Reinsert bool
	// Fills are copies the moved rows carry, refilled from their source
	// when the key column that finds the source changes.
	Fills []*mapping.Copy
	// MaxAffected bounds the rows read that are written without asking
	// (0: no bound); see executor.WithConfirm.
	MaxAffected int
	// FanOuts keep the copies of the updated columns in step.
	FanOuts []*FanOut
}

func (*UpdateRows) requestsBelow() {}

// Inputs implements Node.
func (u *UpdateRows) Inputs() []Node { return readInput(u.Read) }

func readInput(read Node) []Node {
	if read == nil {
		return nil
	}
	return []Node{read}
}

// Describe implements Node.
func (u *UpdateRows) Describe() (string, []string) {
	switch {
	case u.Move:
		return "update " + u.Entity.Name + " (moves items: SET of a key column)", affectedNote(u.Read, u.MaxAffected)
	case u.ExactArith:
		return "update " + u.Entity.Name + " (rewrites items: arithmetic computed here, exactly)", affectedNote(u.Read, u.MaxAffected)
	}
	return "update " + u.Entity.Name, affectedNote(u.Read, u.MaxAffected)
}

// Rewrites reports whether each row is read whole and written back
// (moveOne) rather than updated in place: a move, or exact arithmetic.
func (u *UpdateRows) Rewrites() bool { return u.Move || u.ExactArith }

// Arithmetic reports whether an assignment computes from the column's
// stored value (SET n = n + 1): the UpdateItem is then not idempotent.
func (u *UpdateRows) Arithmetic() bool { return arithmetic(u.Set) }

// Requests describes the requests the UPDATE sends.
func (u *UpdateRows) Requests() []*Request {
	m := u.Entity.Mapping()
	row := explainRow(u.Entity, u.Alias)
	for _, kv := range u.Key {
		for col, e := range kv.Bind {
			row[col] = bindValue(e, Explaining)
		}
	}
	key, per := u.explainKey(row)
	var out []*Request
	if u.Rewrites() {
		out = u.moveRequests(row, key, per)
	} else {
		var read mapping.Row
		if u.Key == nil {
			read = row
		}
		in, err := u.UpdateInput(key, read)
		if err != nil {
			return []*Request{{Op: "UpdateItem", Table: u.Table, Note: err.Error()}}
		}
		r := DescribeRequest(m, "UpdateItem", in)
		r.Per, r.Note = per, u.arithNote()
		out = append(out, r)
	}
	for _, f := range u.FanOuts {
		out = append(out, f.Requests()...)
	}
	return out
}

// moveRequests describes a move of the row (placeholders) under key:
// the whole-item read, the copies' fills, and the guarded write.
func (u *UpdateRows) moveRequests(row mapping.Row, key map[string]types.AttributeValue, per string) []*Request {
	m := u.Entity.Mapping()
	var out []*Request
	r := DescribeRequest(m, "GetItem", u.MoveReadInput(key))
	r.Reads, r.Per, r.Note = []string{u.Entity.Name}, per,
		"the whole item, every attribute (those the mapping does not declare too); a row no longer meeting the WHERE is skipped"
	out = append(out, r)
	for _, c := range u.Fills {
		out = append(out, fillRequest(u.Table, u.Entity, c))
	}
	found, _ := u.Entity.Item(row)
	next := mapping.Row{}
	for k, v := range row {
		next[k] = v
	}
	for _, a := range u.Set {
		if l, ok := a.Expr.(*parser.Literal); ok {
			next[a.Column] = l.Value
		} else {
			next[a.Column] = mapping.Placeholder("{" + a.String() + "}")
		}
	}
	item, err := u.MovedItem(found, next)
	if err != nil {
		return append(out, &Request{Op: "PutItem", Table: u.Table, Note: err.Error()})
	}
	if u.Reinsert {
		del, put, err := u.ReinsertInputs(key, found, item)
		if err != nil {
			return append(out, &Request{Op: "DeleteItem", Table: u.Table, Note: err.Error()})
		}
		moved := strings.Replace(per, "row read", "row rewritten", 1)
		rd, rp := DescribeRequest(m, "DeleteItem", del), DescribeRequest(m, "PutItem", put)
		rd.Per, rp.Per = moved, moved
		rd.Note = "then the PutItem: the embedded server would keep a PutItem over the item in the sparse index it leaves"
		return append(out, rd, rp)
	}
	put, tx, err := u.MoveWriteInputs(key, found, item)
	switch {
	case err != nil:
		out = append(out, &Request{Op: "PutItem", Table: u.Table, Note: err.Error()})
	case put != nil:
		r := DescribeRequest(m, "PutItem", put)
		r.Per = strings.Replace(per, "row read", "row moved", 1)
		out = append(out, r)
	default:
		r := DescribeRequest(m, "TransactWriteItems", tx)
		r.Per, r.Note = strings.Replace(per, "row read", "row moved", 1), "2 actions, all or none"
		out = append(out, r)
	}
	return out
}

// explainKey is the key EXPLAIN shows the statement's writes under: the
// constant one, or each row read's, and what one write is sent for.
func (u *UpdateRows) explainKey(row mapping.Row) (map[string]types.AttributeValue, string) {
	if u.Key != nil {
		key, _ := renderKey(u.Key, Explaining)
		return key, "statement"
	}
	key, _ := u.Entity.BaseKey(row)
	return key, "row read, in parallel"
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
	// MaxAffected is as in UpdateRows.
	MaxAffected int
	// FanOuts set the copies of the deleted rows' columns to NULL.
	FanOuts []*FanOut
}

func (*DeleteRows) requestsBelow() {}

// Inputs implements Node.
func (d *DeleteRows) Inputs() []Node { return readInput(d.Read) }

// Describe implements Node.
func (d *DeleteRows) Describe() (string, []string) {
	return "delete " + d.Entity.Name, affectedNote(d.Read, d.MaxAffected)
}

// affectedNote says how a write that reads its rows first keeps to the
// session's limit on rows changed without confirmation.
func affectedNote(read Node, max int) []string {
	if read == nil || max <= 0 {
		return nil
	}
	return []string{fmt.Sprintf("writes once every row is read; more than %d rows asks first, or is refused in a script (--max-affected)", max)}
}

// Requests describes the DeleteItem sent.
func (d *DeleteRows) Requests() []*Request {
	row := explainRow(d.Entity, d.Alias)
	var key map[string]types.AttributeValue
	var read mapping.Row
	per := "statement"
	if d.Key != nil {
		key, _ = renderKey(d.Key, Explaining)
	} else {
		key, _ = d.Entity.BaseKey(row)
		read, per = row, "row read, in parallel"
	}
	in, err := d.DeleteInput(key, read)
	if err != nil {
		return []*Request{{Op: "DeleteItem", Table: d.Table, Note: err.Error()}}
	}
	r := DescribeRequest(d.Entity.Mapping(), "DeleteItem", in)
	r.Per, r.Note = per, "ReturnValues ALL_OLD counts the rows deleted"
	out := []*Request{r}
	for _, f := range d.FanOuts {
		out = append(out, f.Requests()...)
	}
	return out
}

// CopiesPerTransact is how many copy updates one TransactWriteItems of a
// fan-out holds: the limit of actions less the source's ConditionCheck.
const CopiesPerTransact = limits.TransactItems - 1

var (
	_ Node = (*InsertRows)(nil)
	_ Node = (*UpdateRows)(nil)
	_ Node = (*DeleteRows)(nil)
	_ Node = (*CopyCheck)(nil)
)
