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
	last := p.SK.Parts[len(p.SK.Parts)-1].Column == free
	if last {
		for _, r := range ranges[free] {
			lit := func(i int) parser.Expr { return &parser.Literal{Value: r.values[i]} }
			switch r.op {
			case "prefix":
				return &SortCond{Attr: p.SKAttr, Op: "begins_with", Values: []*KeyValue{kv(lit(0), false)}}
			case "between":
				return &SortCond{Attr: p.SKAttr, Op: "between", Values: []*KeyValue{kv(lit(0), false), kv(lit(1), false)}}
			case ">", ">=":
				return &SortCond{Attr: p.SKAttr, Op: "between", Values: []*KeyValue{kv(lit(0), false), kv(nil, true)}}
			case "<", "<=":
				return &SortCond{Attr: p.SKAttr, Op: "between", Values: []*KeyValue{kv(nil, false), kv(lit(0), false)}}
			}
		}
	}
	prefix := kv(nil, false)
	if s := prefix.String(); s == `""` {
		return nil
	}
	return &SortCond{Attr: p.SKAttr, Op: "begins_with", Values: []*KeyValue{prefix}}
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
