package executor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Exec runs a write plan: INSERT, UPDATE, DELETE or REPAIR COPIES.
func (ex *Executor) Exec(ctx context.Context, p *planner.Plan) (*Result, error) {
	sink := &warningSink{}
	ctx = context.WithValue(ctx, warningsKey{}, sink)
	var res *Result
	var err error
	switch x := p.Root.(type) {
	case *planner.InsertRows:
		res, err = ex.insert(ctx, x)
	case *planner.UpdateRows:
		res, err = ex.update(ctx, x)
	case *planner.DeleteRows:
		res, err = ex.delete(ctx, x)
	case *planner.CopyCheck:
		res, err = ex.repair(ctx, x)
	default:
		return nil, internal("no executor for write step %T", p.Root)
	}
	if res != nil {
		res.Warnings = sink.list
	}
	return res, err
}

// keyDesc names a row by its base key columns: (student_id='a91', course_id='math204').
func keyDesc(e *mapping.Entity, row mapping.Row) string {
	var parts []string
	for _, c := range e.BaseKeyColumns() {
		parts = append(parts, c+"="+parser.Format(&parser.Literal{Value: row[c]}))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func keyStrings(key map[string]types.AttributeValue) map[string]string {
	out := map[string]string{}
	for k, v := range key {
		out[k] = mapping.Text(v)
	}
	return out
}

func (ex *Executor) conflict(e *mapping.Entity, row mapping.Row, format string, args ...any) error {
	key, _ := e.BaseKey(row)
	msg := e.Name + " " + keyDesc(e, row) + " already exists"
	var folded []string
	for _, c := range e.BaseKeyColumns() {
		if e.Folds(c) {
			folded = append(folded, c)
		}
	}
	if len(folded) > 0 {
		verb := " differ"
		if len(folded) == 1 {
			verb = " differs"
		}
		msg += ", or a row whose " + strings.Join(folded, ", ") + verb + " from it in case only (the keys are case-folded)"
	}
	if format != "" {
		msg += "; " + fmt.Sprintf(format, args...)
	}
	return &errs.ConditionFailedError{Base: errs.New(errs.Conflict, "%s", msg), Entity: e.Name, Key: keyStrings(key)}
}

// conflictHeld is conflict for an INSERT or a move refused because
// held, the item DynamoDB found under the row's key (ALL_OLD; nil when
// unknown), is there. When held is no row of e (an item of another entity whose key
// renders alike, "ORDER#{id}#META" with id "a#LINE#1" against
// "ORDER#{id}#LINE#{ln}", told apart by the type attribute, or an item
// no entity describes), saying that a row of e already exists sent the
// user looking for a row no SELECT of e shows: the message names what
// holds the key instead.
func (ex *Executor) conflictHeld(e *mapping.Entity, row mapping.Row, held map[string]types.AttributeValue, format string, args ...any) error {
	err := ex.conflict(e, row, format, args...)
	if len(held) == 0 {
		return err
	}
	m := e.Mapping()
	owner := m.Classify(held, m.EntityList())
	// Under a case-folded key, the row holding the key may be another
	// than the one written (JLowe against jlowe).
	if owner == e {
		heldRow := e.Decode(held)
		if !slices.ContainsFunc(e.FoldedColumns(), func(c string) bool { return !value.Equal(row[c], heldRow[c]) }) {
			return err
		}
	}
	var keys []string
	for _, attr := range m.BaseKeyAttrs() {
		if av, ok := held[attr]; ok {
			keys = append(keys, attr+" = "+strconv.Quote(mapping.Text(av)))
		}
	}
	what := "an item no entity of the mapping describes"
	if owner != nil {
		what = "a row of " + owner.Name + " " + keyDesc(owner, owner.Decode(held))
	}
	var ce *errs.ConditionFailedError
	if errors.As(err, &ce) {
		msg := e.Name + " " + keyDesc(e, row) + " cannot be written: its key (" + strings.Join(keys, ", ") + ") already holds " + what
		if format != "" {
			msg += "; " + fmt.Sprintf(format, args...)
		}
		ce.Base.Message = msg
	}
	return err
}

// note appends what landed to an error's message.
func note(err error, format string, args ...any) error {
	var e *errs.Error
	if errors.As(err, &e) {
		e.Message += "; " + fmt.Sprintf(format, args...)
		return err
	}
	return errs.New(errs.Backend, "%v; %s", err, fmt.Sprintf(format, args...)).Wrap(err)
}

// changed reports whether an attribute of attrs differs between two
// versions of a row.
func changed(e *mapping.Entity, attrs []string, a, b mapping.Row) bool {
	for _, attr := range attrs {
		if e.Key(attr) != nil {
			va, vb := e.StoredKey(attr, a), e.StoredKey(attr, b)
			if (va == nil) != (vb == nil) || (va != nil && mapping.Text(va) != mapping.Text(vb)) {
				return true
			}
		} else if value.Key(a[attr]) != value.Key(b[attr]) {
			return true
		}
	}
	return false
}

func isConditionFailed(err error) (*types.ConditionalCheckFailedException, bool) {
	var ccf *types.ConditionalCheckFailedException
	return ccf, errors.As(err, &ccf)
}

// readRows runs a write step's reads to the end and returns the rows.
func (ex *Executor) readRows(ctx context.Context, read planner.Node, slots []planner.Slot) ([]mapping.Row, error) {
	// Stopped on an error, the reads still in flight stop too: a Scan's
	// other segments would go on paging, then wait for ever to hand over
	// pages nobody reads.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := ex.newRun(slots)
	defer r.finish(ctx)
	it, err := r.tuples(read)
	if err != nil {
		return nil, err
	}
	var rows []mapping.Row
	for {
		t, err := it.next(ctx)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return rows, nil
		}
		rows = append(rows, t[0])
	}
}

// rowEnv evaluates a resolved expression over one row.
type rowEnv mapping.Row

func (e rowEnv) column(c *parser.Column) value.Value { return e[c.Name] }
func (e rowEnv) aggregate(*parser.Func) value.Value  { return nil }

// holds reports whether cond is true on row (nil cond: true).
func holds(cond parser.Expr, row mapping.Row) bool {
	if cond == nil {
		return true
	}
	v, err := eval(cond, rowEnv(row))
	return err == nil && truth(v)
}

func cloneRow(row mapping.Row) mapping.Row {
	out := make(mapping.Row, len(row))
	for k, v := range row {
		out[k] = v
	}
	return out
}

// writeState is what became of one row's write, in a statement that
// writes rows one request each.
type writeState int

const (
	notSent writeState = iota // never sent: the statement stopped first
	landed                    // written
	skipped                   // its guard failed: changed since read, not written
	refused                   // refused with an error that says nothing was written
	unknown                   // failed without saying whether it ran
)

// outcomes records the state of each row's write; safe for the
// goroutines of eachWrite.
type outcomes struct {
	mu    sync.Mutex
	state []writeState
}

func newOutcomes(n int) *outcomes { return &outcomes{state: make([]writeState, n)} }

// record sets row i's state from its write's result.
func (o *outcomes) record(i int, ok bool, err error) {
	s := skipped
	switch {
	case ok:
		s = landed
	case err != nil && mayHaveLanded(err):
		s = unknown
	case err != nil:
		s = refused
	}
	o.mu.Lock()
	o.state[i] = s
	o.mu.Unlock()
}

// rows returns the indexes of the rows in state s.
func (o *outcomes) rows(s writeState) []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []int
	for i, x := range o.state {
		if x == s {
			out = append(out, i)
		}
	}
	return out
}

// mayHaveLanded reports whether a failed write may still have been done
// (DYNAMODB.md 4.4): anything but a refusal (a 4xx, a failed condition,
// a conflict found, an error before the request was sent).
func mayHaveLanded(err error) bool {
	if rejected(err) {
		return false
	}
	var cf *errs.ConditionFailedError
	if errors.As(err, &cf) {
		return false
	}
	var e *errs.Error
	if errors.As(err, &e) && (e.Kind == errs.Invalid || e.Kind == errs.Unsupported || e.Kind == errs.Internal || e.Kind == errs.Conflict) {
		return false
	}
	return true
}

// maxKeysListed bounds the keys an error lists for one state.
const maxKeysListed = 10

// keyList names rows by key: (id='3'), (id='12'), and 4 more.
func keyList(e *mapping.Entity, rows []mapping.Row, idx []int) string {
	var parts []string
	for _, i := range idx[:min(len(idx), maxKeysListed)] {
		parts = append(parts, keyDesc(e, rows[i]))
	}
	s := strings.Join(parts, ", ")
	if len(idx) > maxKeysListed {
		s += fmt.Sprintf(" and %d more", len(idx)-maxKeysListed)
	}
	return s
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// partial notes on err, which stopped a write of rows one request each
// (verb: "updated", "deleted"), what became of each row: written, may or
// may not have been (its request failed without saying whether it ran),
// refused, skipped, never sent; then finish, what to run to finish; and,
// when fanOuts were to follow the rows written, the REPAIR COPIES that
// brings their copies in step.
func partial(err error, e *mapping.Entity, rows []mapping.Row, o *outcomes, verb, finish string, fanOuts []*planner.FanOut) error {
	var parts []string
	if n := o.rows(landed); len(n) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s %s: %s", len(n), wasWere(len(n)), verb, keyList(e, rows, n)))
	} else {
		parts = append(parts, "none was "+verb)
	}
	if n := o.rows(unknown); len(n) > 0 {
		parts = append(parts, fmt.Sprintf("%d may or may not have been %s (the request failed without saying whether it ran; SELECT to see): %s", len(n), verb, keyList(e, rows, n)))
	}
	if n := o.rows(refused); len(n) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s refused, not %s: %s", len(n), wasWere(len(n)), verb, keyList(e, rows, n)))
		// Run again as it is, the statement meets the same refusal.
		finish = "first fix what refused those rows, then " + finish
	}
	if n := o.rows(skipped); len(n) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s skipped (changed since read: no longer meeting the WHERE)", len(n), wasWere(len(n))))
	}
	if n := o.rows(notSent); len(n) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not sent: %s", len(n), wasWere(len(n)), keyList(e, rows, n)))
	}
	msg := fmt.Sprintf("of the %d rows read, %s; to finish, %s", len(rows), strings.Join(parts, "; "), finish)
	var sources []mapping.Row
	for _, i := range append(o.rows(landed), o.rows(unknown)...) {
		sources = append(sources, rows[i])
	}
	if r := repairCopies(e, fanOuts, sources); r != "" {
		msg += "; the copies of the rows " + verb + " were not rewritten: run " + r
	}
	return note(err, "%s", msg)
}

// repairCopies returns the REPAIR COPIES statement that brings the copies
// of the source rows in step, or "" when no fan-out follows them.
func repairCopies(e *mapping.Entity, fanOuts []*planner.FanOut, sources []mapping.Row) string {
	if len(fanOuts) == 0 || len(sources) == 0 {
		return ""
	}
	key := fanOuts[0].SourceKey()
	var vals []string
	seen := map[string]bool{}
	for _, row := range sources {
		if v := row[key]; v != nil && !seen[value.Key(v)] {
			seen[value.Key(v)] = true
			vals = append(vals, parser.Format(&parser.Literal{Value: v}))
		}
	}
	switch len(vals) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("REPAIR COPIES FOR %s WHERE %s = %s", e.Name, key, vals[0])
	}
	return fmt.Sprintf("REPAIR COPIES FOR %s WHERE %s IN (%s)", e.Name, key, strings.Join(vals, ", "))
}

// rerunAdvice says whether running an UPDATE again finishes it: it does
// when every assignment sets a constant, not when one is arithmetic,
// which would apply twice to the rows already updated.
func rerunAdvice(set []*planner.Assign) string {
	var arith []string
	for _, a := range set {
		if _, _, _, ok := a.Arith(); ok {
			arith = append(arith, a.String())
		}
	}
	if len(arith) == 0 {
		return "run the statement again: it sets the same values on the rows already updated"
	}
	return fmt.Sprintf("do not run the statement again as is, which would apply %s a second time to the rows already updated: update the others by key",
		strings.Join(arith, ", "))
}

// Commit sends a transaction's writes as one TransactWriteItems (resent
// with the same token when cancelled only by conflicts or throttling). A
// cancellation by a failed condition writes nothing: the error names the
// statement whose condition failed.
func (ex *Executor) Commit(ctx context.Context, t *planner.Transaction) (*Result, error) {
	in, owner, err := t.Build()
	if err != nil || in == nil {
		return &Result{}, err
	}
	reasons, err := ex.transact(ctx, in)
	if err == nil {
		res := &Result{Affected: int64(len(in.TransactItems))}
		return res, ex.fillEarlierCopies(ctx, res, t)
	}
	if i := firstFailed(reasons); i >= 0 {
		st := t.Statements[owner[i]]
		why := "missing, already there, or failing its WHERE"
		if _, insert := st.Root.(*planner.InsertRows); insert && in.TransactItems[i].Put != nil {
			why = "a row with its key is already there"
		}
		if col := nullArith(st, reasons[i].Item); col != "" {
			why = fmt.Sprintf("there, but its %s is NULL: SQL leaves NULL + n NULL, and DynamoDB cannot add to a missing attribute in a transaction, which reads nothing first; run this UPDATE outside the transaction", col)
		}
		return &Result{}, &errs.ConditionFailedError{Base: errs.New(errs.Conflict,
			"statement %d of the transaction (%s) found its row not as it requires (%s); nothing was written",
			owner[i]+1, oneLineSQL(st.SQL), why), Entity: entityOf(st).Name, Key: keyStrings(baseKeyOf(entityOf(st), in.TransactItems[i]))}
	}
	// A request refused before it was sent (the embedded backend's guard
	// on numbers its floats would change) wrote nothing either: only an
	// error that may have let the request run is "no answer", as INSERT's
	// transactions tell it (mayHaveLanded).
	if len(reasons) > 0 || !mayHaveLanded(err) {
		return &Result{}, note(err, "nothing was written")
	}
	return &Result{}, note(err, "DynamoDB gave no answer: the transaction may or may not have been written (all of it or none); SELECT to see")
}

// fillEarlierCopies runs, once a transaction is written, the fan-outs
// that fill the copies written before the rows it inserted: one run per
// entity, over the rows of all its INSERTs. A row whose fill a later
// change overtook leaves those copies to that change, and the others go
// on; any other failure stops them, and its error names the REPAIR
// COPIES of every row not filled.
func (ex *Executor) fillEarlierCopies(ctx context.Context, res *Result, t *planner.Transaction) error {
	var sources []*planner.InsertRows // the first INSERT of each entity
	rows := map[*mapping.Entity][]mapping.Row{}
	for _, st := range t.Statements {
		ins, ok := st.Root.(*planner.InsertRows)
		if !ok || len(ins.Earlier) == 0 {
			continue
		}
		if _, seen := rows[ins.Entity]; !seen {
			sources = append(sources, ins)
		}
		rows[ins.Entity] = append(rows[ins.Entity], ins.Rows...)
	}
	var first error // the first fill a later change overtook
	for i, ins := range sources {
		err := ex.fanOuts(ctx, res, ins.Entity, ins.Earlier, rows[ins.Entity])
		switch {
		case err == nil:
			continue
		case overtaken(err):
			first = cmp.Or(first, err)
			continue
		}
		var rest []string
		for _, next := range sources[i+1:] {
			if r := repairCopies(next.Entity, next.Earlier, rows[next.Entity]); r != "" {
				rest = append(rest, r)
			}
		}
		if len(rest) > 0 {
			err = note(err, "nor were the copies of the rows of %d more %s: run %s", len(rest), plural(len(rest), "entity", "entities"), strings.Join(rest, ", and "))
		}
		return note(err, "the transaction was written")
	}
	return first
}

// nullArith returns the column an UPDATE of a transaction adds to that
// the item it failed on (found, as the cancellation returned it) does not
// hold, or "": the guard that the column exists failed, not the WHERE.
func nullArith(st *planner.Plan, found map[string]types.AttributeValue) string {
	u, ok := st.Root.(*planner.UpdateRows)
	if !ok || len(found) == 0 || !isEntitys(u.Entity, found) {
		return ""
	}
	old := u.Entity.Decode(found)
	if !holds(u.Cond, old) {
		return ""
	}
	for _, a := range u.Set {
		if c, _, _, ok := a.Arith(); ok && old[c.Name] == nil {
			return c.Name
		}
	}
	return ""
}

func oneLineSQL(s string) string { return strings.Join(strings.Fields(s), " ") }

// entityOf returns the entity a transactable write writes.
func entityOf(p *planner.Plan) *mapping.Entity {
	switch w := p.Root.(type) {
	case *planner.InsertRows:
		return w.Entity
	case *planner.UpdateRows:
		return w.Entity
	case *planner.DeleteRows:
		return w.Entity
	}
	return nil
}

// baseKeyOf returns the base key of the item of e a transaction's action
// writes.
func baseKeyOf(e *mapping.Entity, a types.TransactWriteItem) map[string]types.AttributeValue {
	var item map[string]types.AttributeValue
	switch {
	case a.Update != nil:
		item = a.Update.Key
	case a.Delete != nil:
		item = a.Delete.Key
	case a.Put != nil:
		item = a.Put.Item
	}
	key := map[string]types.AttributeValue{}
	for _, attr := range e.Mapping().BaseKeyAttrs() {
		key[attr] = item[attr]
	}
	return key
}
