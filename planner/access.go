package planner

import (
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// access is the best way found to read one slot, given which of its
// columns are bound.
type access struct {
	slot  int
	path  *mapping.AccessPath
	pk    []*KeyValue // one per partition value (IN fans out)
	sk    *SortCond
	point bool          // the full base key is known: GetItem or BatchGetItem
	keys  [][]*KeyValue // the full keys, when point
	bound bool          // some key column comes from an earlier row
	score int
}

// binding is what a column is known to equal: one expression (a literal
// or an earlier row's column), or a list of literals (IN).
type binding []parser.Expr

// rangeCond is a condition on one column that can narrow a sort key.
type rangeCond struct {
	op     string // "<", "<=", ">", ">=", "between", "prefix"
	values []value.Value
}

// Scores rank access paths: a point read beats a partition read, the
// base table beats an index, and a sort-key condition helps.
const (
	scorePoint      = 100
	scoreBaseQuery  = 50
	scoreIndexQuery = 30
	scoreSortCond   = 10
	maxKeyValues    = 1000 // IN lists multiply; past this many keys, refuse
)

// bestAccess returns the best access path for slot s given the bindings of
// its columns and the range conditions on them, or nil if every path would
// need a Scan.
func bestAccess(sl Slot, slot int, binds map[string]binding, ranges map[string][]rangeCond) *access {
	var best *access
	for _, p := range sl.Entity.Paths() {
		a := tryPath(slot, p, binds, ranges)
		if a != nil && (best == nil || a.score > best.score) {
			best = a
		}
	}
	return best
}

func tryPath(slot int, p *mapping.AccessPath, binds map[string]binding, ranges map[string][]rangeCond) *access {
	for _, c := range p.PK.Columns() {
		if len(binds[c]) == 0 {
			return nil
		}
	}
	a := &access{slot: slot, path: p}
	pkVals := expand(p.PK.Columns(), binds)
	if len(pkVals) > maxKeyValues {
		return nil
	}
	for _, bind := range pkVals {
		a.pk = append(a.pk, &KeyValue{Attr: p.PKAttr, Template: p.PK, Bind: bind})
	}
	a.bound = anyBound(pkVals)
	if p.IsBase() {
		a.score = scoreBaseQuery
	} else {
		a.score = scoreIndexQuery
	}
	if p.SK == nil {
		if p.IsBase() {
			a.point, a.score = true, scorePoint
			for _, pk := range a.pk {
				a.keys = append(a.keys, []*KeyValue{pk})
			}
		}
		return a
	}
	skCols := p.SK.Columns()
	all := true
	for _, c := range skCols {
		all = all && len(binds[c]) > 0
	}
	if all {
		full := expand(append(p.PK.Columns(), skCols...), binds)
		if len(full) > maxKeyValues {
			return nil
		}
		a.bound = a.bound || anyBound(full)
		if p.IsBase() {
			a.point, a.score = true, scorePoint
			for _, bind := range full {
				a.keys = append(a.keys, []*KeyValue{
					{Attr: p.PKAttr, Template: p.PK, Bind: bind},
					{Attr: p.SKAttr, Template: p.SK, Bind: bind},
				})
			}
			return a
		}
		if len(full) == len(pkVals) {
			a.sk = &SortCond{Attr: p.SKAttr, Op: "=", Values: []*KeyValue{{Attr: p.SKAttr, Template: p.SK, Bind: full[0]}}}
			a.score += scoreSortCond
		}
		return a
	}
	if a.sk = sortCond(p, binds, ranges); a.sk != nil {
		a.score += scoreSortCond
	}
	return a
}

// sortCond narrows a partition by the sort key when its leading columns
// are bound: equality extends the literal prefix; a range or LIKE 'p%' on
// the template's last column (a string) becomes a range or begins_with;
// otherwise the prefix alone keeps the read to this entity's items.
func sortCond(p *mapping.AccessPath, binds map[string]binding, ranges map[string][]rangeCond) *SortCond {
	bind := map[string]parser.Expr{}
	var free string
	for _, c := range p.SK.Columns() {
		if b := binds[c]; len(b) == 1 {
			bind[c] = b[0]
			continue
		}
		free = c
		break
	}
	kv := func(app parser.Expr, max bool) *KeyValue {
		return &KeyValue{Attr: p.SKAttr, Template: p.SK, Bind: bind, Prefix: true, Append: app, Max: max}
	}
	if last := p.SK.Parts[len(p.SK.Parts)-1].Column == free; last {
		if sk := rangeSortCond(p.SKAttr, ranges[free], kv); sk != nil {
			return sk
		}
	}
	prefix := kv(nil, false)
	if s := prefix.String(); s == `""` {
		return nil
	}
	return &SortCond{Attr: p.SKAttr, Op: "begins_with", Values: []*KeyValue{prefix}}
}

// rangeSortCond folds every range condition on the sort key's last column
// into the tightest interval: one BETWEEN (DynamoDB takes one sort-key
// condition). A LIKE prefix serves when there is no range. An empty
// interval (lo > hi) is no key condition at all: DynamoDB would reject it,
// and the client's check returns no row anyway.
func rangeSortCond(attr string, conds []rangeCond, kv func(parser.Expr, bool) *KeyValue) *SortCond {
	var lo, hi, prefix *string
	for _, r := range conds {
		v, _ := r.values[0].(string)
		switch r.op {
		case "prefix":
			prefix = &v
		case ">", ">=":
			lo = maxString(lo, v)
		case "<", "<=":
			hi = minString(hi, v)
		case "between":
			w, _ := r.values[1].(string)
			lo, hi = maxString(lo, v), minString(hi, w)
		}
	}
	lit := func(s string) parser.Expr { return &parser.Literal{Value: s} }
	switch {
	case lo != nil && hi != nil && *lo > *hi:
		return nil
	case lo != nil && hi != nil:
		return &SortCond{Attr: attr, Op: "between", Values: []*KeyValue{kv(lit(*lo), false), kv(lit(*hi), false)}}
	case lo != nil:
		return &SortCond{Attr: attr, Op: "between", Values: []*KeyValue{kv(lit(*lo), false), kv(nil, true)}}
	case hi != nil:
		return &SortCond{Attr: attr, Op: "between", Values: []*KeyValue{kv(nil, false), kv(lit(*hi), false)}}
	case prefix != nil:
		return &SortCond{Attr: attr, Op: "begins_with", Values: []*KeyValue{kv(lit(*prefix), false)}}
	}
	return nil
}

func maxString(cur *string, v string) *string {
	if cur == nil || v > *cur {
		return &v
	}
	return cur
}

func minString(cur *string, v string) *string {
	if cur == nil || v < *cur {
		return &v
	}
	return cur
}

// expand turns the bindings of cols into every combination of values
// (IN lists multiply).
func expand(cols []string, binds map[string]binding) []map[string]parser.Expr {
	out := []map[string]parser.Expr{{}}
	for _, c := range slices.Compact(slices.Clone(cols)) {
		var next []map[string]parser.Expr
		for _, partial := range out {
			for _, e := range binds[c] {
				m := make(map[string]parser.Expr, len(partial)+1)
				for k, v := range partial {
					m[k] = v
				}
				m[c] = e
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}

func anyBound(binds []map[string]parser.Expr) bool {
	for _, b := range binds {
		for _, e := range b {
			if _, ok := e.(*parser.Column); ok {
				return true
			}
		}
	}
	return false
}

// pkText is the partition key an access reads, for merging reads of one
// partition; "" when it is not a single constant.
func (a *access) pkText() string {
	if len(a.pk) != 1 || a.bound || !a.pk[0].Constant() {
		return ""
	}
	return a.path.Index + "\x00" + a.pk[0].String()
}

// scanHint says which conditions would let DynamoDB read the entity by
// key: one clause per access path.
func scanHint(sl Slot) string {
	var ways []string
	for _, p := range sl.Entity.Paths() {
		var conds []string
		for _, c := range p.PK.Columns() {
			conds = append(conds, sl.Alias+"."+c+" = ...")
		}
		way := "WHERE " + strings.Join(conds, " AND ")
		if p.IsBase() {
			way += " (the key " + p.PKAttr + " = " + p.PK.Raw + ")"
		} else {
			way += " (through index " + p.Index + ", " + p.PKAttr + " = " + p.PK.Raw + ")"
		}
		ways = append(ways, way)
	}
	return strings.Join(ways, ", or ")
}
