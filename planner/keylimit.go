package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// keyCount is how many keys expand(cols, binds) would make: the product
// of the number of values each column is bound to, counted without
// making them (IN lists of 1000 values on two columns would make a
// million).
func keyCount(cols []string, binds map[string]binding) int {
	n := 1
	for _, c := range distinct(cols) {
		n *= len(binds[c])
		if n > limits.KeyValues {
			return limits.KeyValues + 1
		}
	}
	return n
}

// keyLimit explains a statement no table of which could be read when the
// reason is limits.KeyValues: some table has a key path whose key columns
// are all bound, but its IN lists multiply into more keys than the limit,
// so tryPath gave that path up. Slot s, the one being refused, is looked
// at first, then the others not yet read. It returns nil when no table is
// in that case (the refusal is then a Scan's).
func (b *selectBuilder) keyLimit(s int) error {
	order := []int{s}
	for i := range b.sc.slots {
		if i != s && !b.placed[i] {
			order = append(order, i)
		}
	}
	var first error
	for _, slot := range order {
		f := b.facts(slot)
		for _, p := range b.sc.slots[slot].Entity.Paths() {
			if p.Optional && len(sparseColumns(p, f)) > 0 {
				continue
			}
			cols := p.PK.Columns()
			n := keyCount(cols, f.binds)
			if n == 0 {
				continue // the partition key is not bound
			}
			if n <= limits.KeyValues && p.SK != nil && keyCount(p.SK.Columns(), f.binds) > 0 {
				cols = append(slices.Clone(cols), p.SK.Columns()...)
				n = keyCount(cols, f.binds)
			}
			if n <= limits.KeyValues {
				continue
			}
			// A table whose own IN list is too long is the one to name;
			// others may only be bound to it by a join.
			err, own := b.keyLimitError(slot, p, cols, f)
			if own {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
	return first
}

// keyLimitError is the error for slot's path p, whose key columns cols
// the IN lists bind to more than limits.KeyValues combinations; own
// reports that one of those lists is written on the slot's own column.
func (b *selectBuilder) keyLimitError(slot int, p *mapping.AccessPath, cols []string, f facts) (err error, own bool) {
	sl := b.sc.slots[slot]
	total := 1.0 // a float: several lists of thousands multiply past any int
	var parts []string
	widest, widestCol := 0, ""
	for _, c := range distinct(cols) {
		n := len(f.binds[c])
		total *= float64(n)
		parts = append(parts, fmt.Sprintf("%s: %d values", c, n))
		if n > widest {
			widest, widestCol = n, c
		}
	}
	count := fmt.Sprintf("%.0f keys", total)
	if len(parts) > 1 {
		count += " (" + strings.Join(parts, " × ") + ")"
	}
	via := ""
	if !p.IsBase() {
		via = " through index " + p.Index
	}
	pos, own := b.inListPos(slot, widestCol)
	return errs.New(errs.Unsupported, "reading %s%s by key would take %s, more than the %d keys one statement may read of a table",
		sl.Entity.Name, via, count, limits.KeyValues).At(b.sc.sql, pos).
		WithHint("split the IN list over several statements of at most %d keys each", limits.KeyValues), own
}

// inListPos returns the offset of the column of the longest IN list on
// slot's column col and true, or of the table's name and false when
// there is none.
func (b *selectBuilder) inListPos(slot int, col string) (int, bool) {
	sl := b.sc.slots[slot]
	pos, longest := -1, 0
	conds := append(slices.Clone(b.pool), b.leftOn[slot]...)
	for _, c := range conds {
		parser.Walk(c, func(e parser.Expr) bool {
			in, ok := e.(*parser.In)
			if !ok || in.Not {
				return true
			}
			if cc, ok := in.Expr.(*parser.Column); ok && cc.Table == sl.Alias && cc.Name == col && len(in.List) > longest {
				pos, longest = cc.Pos, len(in.List)
			}
			return true
		})
	}
	if longest > 0 {
		return pos, true
	}
	if slot < len(b.sel.From) {
		return b.sel.From[slot].Pos, false
	}
	return -1, false
}
