package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// orderCheck verifies, on the rows of a Query read in key order for an
// ORDER BY, that the key order is the ORDER BY's: no value of a guarded
// column holds a character at or below the first of the literal that
// follows it in the key (with "#" after it, "a b" and "a#0" both sort
// before "a" once the rest of the key is added),
// and each row comes after the one before it. Either failure stops the
// statement with an error rather than a wrong order (or, with LIMIT, the
// wrong rows).
type orderCheck struct {
	r    *run
	c    *planner.OrderCheck
	desc bool
	prev mapping.Row
}

func newOrderCheck(r *run, q *planner.Query) *orderCheck {
	return &orderCheck{r: r, c: q.Order, desc: q.Desc}
}

func (o *orderCheck) check(ts []tuple) error {
	for _, t := range ts {
		if o.c.Where != nil {
			// Only rows with a guarded value holding a character at or
			// below the separator sort out of place, and the rows the
			// WHERE keeps are returned in order among themselves
			// whatever the rows it drops hold ("WARNING1 " read before
			// "WARNING1" for State IN ('WARNING1', 'WARNING2')): only
			// the rows kept are checked, rather than failing the
			// statement for a row it never returns.
			v, err := eval(o.c.Where, tupleEnv{o.r, t})
			if err != nil {
				return err
			}
			if !truth(v) {
				continue
			}
		}
		row := t[o.c.Slot]
		for _, g := range o.c.Guards {
			s, _ := row[g.Column].(string)
			if i := strings.IndexFunc(s, func(r rune) bool { return r <= rune(g.Sep[0]) }); i >= 0 {
				return o.fail(fmt.Sprintf("%s %s holds %q, which does not sort above %q", g.Column, value.Literal(s), s[i:i+1], g.Sep[:1]))
			}
		}
		if o.prev != nil {
			c := 0
			for _, col := range o.c.Columns {
				if c = value.Order(o.prev[col], row[col]); c != 0 {
					break
				}
			}
			if (c > 0 && !o.desc) || (c < 0 && o.desc) {
				return o.fail(fmt.Sprintf("the row with %s came after %s", o.show(row), o.show(o.prev)))
			}
		}
		o.prev = row
	}
	return nil
}

func (o *orderCheck) show(row mapping.Row) string {
	var parts []string
	for _, c := range o.c.Columns {
		parts = append(parts, c+" = "+value.Literal(row[c]))
	}
	return strings.Join(parts, ", ")
}

func (o *orderCheck) fail(what string) error {
	return errs.New(errs.Invalid, "ORDER BY %s cannot be read in the order of the sort key %s = %q: %s",
		strings.Join(o.c.Columns, ", "), o.c.Key.Attr, o.c.Key.Raw, what).
		WithHint("drop the LIMIT: the rows are then sorted on the client")
}

// topIter ends a backward read in key order once no row still to come
// can rank among the first top.Rows by the column (planner.TopRead): past
// those rows, it passes on only rows whose value is the least of theirs
// or extends it with a character at or below the separator's first (with
// "#ITEM" after it, "o#2" comes after "o"), and stops at the first other
// one, sending no further request.
type topIter struct {
	in    tupleIter
	top   *planner.TopRead
	seen  int64
	least string // of the first top.Rows values, once seen
	done  bool
}

func (it *topIter) next(ctx context.Context) (tuple, error) {
	if it.done {
		return nil, nil
	}
	t, err := it.in.next(ctx)
	if err != nil || t == nil {
		it.done = true
		return nil, err
	}
	v, _ := t[it.top.Slot][it.top.Column].(string)
	if it.seen < it.top.Rows {
		if it.seen == 0 || v < it.least {
			it.least = v
		}
		it.seen++
		return t, nil
	}
	rest, extends := strings.CutPrefix(v, it.least)
	if extends && (rest == "" || rest[0] <= it.top.Sep[0]) {
		return t, nil
	}
	it.done = true
	return nil, nil
}
