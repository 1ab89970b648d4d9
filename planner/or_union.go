package planner

import (
	"slices"

	"github.com/dynosql/dynosql/parser"
)

// union plans a one-table statement whose WHERE holds an OR that no key
// serves as a whole but a key serves each branch of (student_id = 'a91'
// OR course_id = 'math204'): one read per branch, a row two branches
// read kept once, and the whole WHERE checked on what comes back.
func (b *selectBuilder) union() Node {
	for i, c := range b.pool {
		or, ok := c.(*parser.Or)
		if !ok {
			continue
		}
		rest := slices.Concat(b.pool[:i], b.pool[i+1:])
		u := &Union{}
		for s := range b.sc.slots {
			b.keepKeys(s) // the Union tells rows apart by their keys
		}
		for _, branch := range disjuncts(or) {
			sub := &selectBuilder{p: b.p, sc: b.sc, sel: b.sel, left: b.left, leftOn: b.leftOn,
				needed: b.needed, shown: b.shown, whole: true, placed: map[int]bool{}, anti: b.anti, semiJoined: map[int]bool{}}
			sub.pool = append(slices.Clone(rest), conjuncts(branch)...)
			sub.used = make([]bool, len(sub.pool))
			sub.cls = newClasses(sub.pool)
			n, err := sub.reads()
			if err != nil {
				u = nil
				break
			}
			u.Branches = append(u.Branches, n)
		}
		if u != nil {
			return &Filter{Input: u, Cond: and(b.pool)}
		}
	}
	return nil
}

// disjuncts splits e on OR.
func disjuncts(e parser.Expr) []parser.Expr {
	if o, ok := e.(*parser.Or); ok {
		return append(disjuncts(o.L), disjuncts(o.R)...)
	}
	return []parser.Expr{e}
}
