package planner

import (
	"math"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Rewrites that let DynamoDB do the work where it can, applied once the
// reads are planned.

// orderByKey lets DynamoDB do the sorting when the statement reads one
// partition with one Query and orders by the sort key's columns after
// those the key condition fixes, in template order: the Query runs
// forward or backward (ScanIndexForward) and the Sort step goes. Then,
// with nothing else between the Query and LIMIT, the Query asks for pages
// of just the rows needed, and reading stops there.
//
// Where the key order is the columns' order only while their values hold
// no character sorting below the literal that follows them
// (mapping.OrderGuard), the rewrite is made only with a LIMIT (the one
// case where it saves reads): ascending, the executor checks every row
// read; descending, it reads a little past the LIMIT and the rows are
// sorted on the client (TopRead). It returns the root, which a TopRead
// may now top.
func (o *output) orderByKey(root Node, quirks Quirks) Node {
	read, filtered := root, false
	var where parser.Expr
	if f, ok := root.(*Filter); ok {
		read, filtered, where = f.Input, true, f.Cond
	}
	q, ok := read.(*Query)
	if !ok || len(q.PK) != 1 || q.Bound || len(q.Reads) != 1 || o.agg || o.distinct {
		return root
	}
	var guards []mapping.OrderGuard
	if len(o.sort) > 0 {
		if q.SK == nil || (quirks.TextKeyOrder && q.SK.Key.Type != mapping.KeyS) {
			return root
		}
		var by []string
		desc := o.sort[0].Desc
		for _, s := range o.sort {
			col, ok := o.exprs[s.Column].(*parser.Column)
			if !ok || col.Table != q.Reads[0].Alias || s.Desc != desc {
				break
			}
			by = append(by, col.Name)
		}
		fixed := q.SK.IsFixed
		// The longest run of ORDER BY terms the key order gives.
		for ; len(by) > 0; by = by[:len(by)-1] {
			if ok, g := q.SK.Key.Orders(fixed, by); ok {
				guards = g
				break
			}
		}
		// The executor's check sees only the rows read. Ascending, a row
		// the key order puts too early is read and fails it; descending,
		// such a row is put too late, past the LIMIT: the Query reads on
		// past it as far as such rows can be (TopRead), and the Sort
		// step stays.
		if len(by) > 0 && len(guards) > 0 && desc && o.limit > 0 {
			q.Desc = true
			top := &TopRead{Input: root, Slot: q.Reads[0].Slot, Rows: o.rowsNeeded(), Column: guards[0].Column, Sep: guards[0].Sep}
			if !filtered && q.Filter == nil && top.Rows < math.MaxInt64 {
				q.Limit = top.Rows + 1 // usually the row that ends the read comes in the first page
			}
			return top
		}
		if len(by) == 0 || (len(guards) > 0 && (o.limit < 0 || desc)) {
			return root
		}
		if len(by) < len(o.sort) && (q.Index != "" || !coversKey(q.SK, by)) {
			// Later terms order the rows the key leaves tied; only the
			// table's key, which no two items share, leaves none.
			return root
		}
		q.Desc = desc
		o.sort = nil
		if len(guards) > 0 {
			q.Order = &OrderCheck{Slot: q.Reads[0].Slot, Columns: by, Guards: guards, Key: q.SK.Key, Where: where}
		}
	}
	if !filtered && q.Filter == nil && o.limit >= 0 {
		q.Limit = o.rowsNeeded()
		if len(guards) > 0 && q.Limit < math.MaxInt64 {
			q.Limit++ // one row past the last, for the executor's order check
		}
	}
	return root
}

// rowsNeeded is LIMIT plus OFFSET, the rows the Limit step takes before
// it has what it needs: the largest int64 where the sum would pass it
// (LIMIT 9223372036854775807 OFFSET 1, every row after the first), which
// wrapped negative and ended a TopRead before its first row.
func (o *output) rowsNeeded() int64 {
	if o.limit > math.MaxInt64-o.offset {
		return math.MaxInt64
	}
	return o.limit + o.offset
}

// coversKey reports whether the fixed columns and by are every column of
// the sort key's template.
func coversKey(s *SortSpec, by []string) bool {
	n := len(by)
	for _, c := range s.Key.Columns() {
		if _, ok := s.Fixed[c]; ok {
			n++
		}
	}
	return n == len(s.Key.Columns())
}

// countOnly lets DynamoDB count when the statement is SELECT COUNT(*)
// over one Query that nothing filters and whose key condition meets no
// other entity's items, of an entity without a type to check.
func (o *output) countOnly(root Node, sc *scope) {
	q, ok := root.(*Query)
	if !ok || len(q.PK) != 1 || len(q.Reads) != 1 || q.Filter != nil || len(o.group) > 0 || o.having != nil || len(o.exprs) != 1 {
		return
	}
	if f, ok := o.exprs[0].(*parser.Func); !ok || f.Name != "COUNT" || !f.Star {
		return
	}
	if q.SK != nil && q.SK.Condition(Explaining) == nil {
		return // the whole partition, other entities' items too
	}
	if q.SK != nil && !q.SK.Key.MatchesAllUnder(q.SK.IsFixed) {
		return // the condition admits keys the template does not match
	}
	e := sc.slots[q.Reads[0].Slot].Entity
	if e.Type != "" && e.Mapping().TypeAttribute != "" {
		return // items typed as another entity would be counted
	}
	for _, p := range e.Paths() {
		if p.Index == q.Index && e.Mapping().Alone(e, p) && keysTheItem(e.Mapping(), p) {
			q.CountOnly, q.Project = true, nil
		}
	}
}

// keysTheItem reports whether a read through p sees every attribute of
// the base table's key in its key condition: the table itself, or an
// index keyed on the table's keys (an inverted index). Through any other
// index, items no entity describes (another program's, under base keys
// the entity's templates do not match) can hold the very index keys the
// condition asks for, and only reading their keys tells them apart.
func keysTheItem(m *mapping.Mapping, p *mapping.AccessPath) bool {
	if p.IsBase() {
		return true
	}
	for _, attr := range m.BaseKeyAttrs() {
		if attr != p.PKAttr && attr != p.SKAttr {
			return false
		}
	}
	return true
}
