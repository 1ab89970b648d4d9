package planner

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// access is the best way found to read one slot, given which of its
// columns are bound.
type access struct {
	slot  int
	path  *mapping.AccessPath
	pk    []*KeyValue // one per partition value (IN fans out)
	sk    *SortSpec   // nil when the path has no sort key
	point bool        // the full base key is known: GetItem or BatchGetItem
	keys  [][]*KeyValue
	bound bool // some key column comes from an earlier row
	score int
	scan  bool // no key serves: a Scan of path (see scanAccess)
}

// Scores rank access paths: a point read beats a partition read, the
// base table beats an index, and a sort-key condition helps. A local
// index reads the same partition as the table, so its sort condition
// makes it beat the table without one.
const (
	scorePoint      = 100
	scoreBaseQuery  = 50
	scoreLocalQuery = 45
	scoreIndexQuery = 30
	scoreSortCond   = 10
)

// facts is what the conjuncts say of one slot's columns: what each is
// known to equal, the constant ranges on it, and which cannot be NULL in
// a row the statement keeps.
type facts struct {
	binds   map[string]binding
	ranges  map[string][]mapping.Bound
	nonNull map[string]bool
}

// bestAccess returns the best access path for slot s given the facts on
// its columns, or nil if every path would need a Scan.
func bestAccess(sl Slot, slot int, f facts, q Quirks) *access {
	var best *access
	for _, p := range sl.Entity.Paths() {
		a := tryPath(slot, p, f, q)
		if a != nil && (best == nil || a.score > best.score) {
			best = a
		}
	}
	return best
}

// tryPath returns the read of slot through path p, or nil when the facts
// do not bind its partition key, or when p is an index only some of the
// entity's items are in (optional) and the statement does not keep to
// those: every column of its keys must be one no row kept is NULL in.
func tryPath(slot int, p *mapping.AccessPath, f facts, q Quirks) *access {
	binds, ranges := f.binds, f.ranges
	for _, c := range p.PK.Columns() {
		if len(binds[c]) == 0 {
			return nil
		}
	}
	if p.Optional && len(sparseColumns(p, f)) > 0 {
		return nil
	}
	a := &access{slot: slot, path: p}
	if keyCount(p.PK.Columns(), binds) > limits.KeyValues {
		return nil // see keyLimit
	}
	pkVals := distinctFolded(expand(p.PK.Columns(), binds), p.PK)
	for _, bind := range pkVals {
		a.pk = append(a.pk, &KeyValue{Key: p.PK, Bind: bind})
	}
	a.bound = anyBound(pkVals)
	switch {
	case p.IsBase():
		a.score = scoreBaseQuery
	case p.Local && !q.NoLocalFetch:
		a.score = scoreLocalQuery
	default:
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
		keyCols := slices.Concat(p.PK.Columns(), skCols)
		if keyCount(keyCols, binds) > limits.KeyValues {
			return nil
		}
		full := distinctFolded(expand(keyCols, binds), p.PK, p.SK)
		a.bound = a.bound || anyBound(full)
		if p.IsBase() {
			a.point, a.score = true, scorePoint
			for _, bind := range full {
				a.keys = append(a.keys, []*KeyValue{{Key: p.PK, Bind: bind}, {Key: p.SK, Bind: bind}})
			}
			return a
		}
		// An index's sort key is one value for every partition read only
		// when each of its columns is bound to one value; a column it
		// shares with the partition key (ORG#{org} / ORG#{org}#U#{user})
		// takes each partition's own value, so an IN list on it is left
		// to sortSpec, which fixes single values only.
		if fixed, ok := singleValues(skCols, binds); ok {
			a.sk = &SortSpec{Key: p.SK, Fixed: fixed}
			a.score += scoreSortCond
			return a
		}
	}
	if a.sk = sortSpec(p, binds, ranges); a.sk.Condition(Explaining) != nil {
		a.score += scoreSortCond
	}
	return a
}

// sparseColumns returns the columns of an optional index's keys that the
// facts do not keep from being NULL: rows with them NULL are not in the
// index, so reading it would miss them.
func sparseColumns(p *mapping.AccessPath, f facts) []string {
	var out []string
	for _, k := range []*mapping.Key{p.PK, p.SK} {
		if k == nil {
			continue
		}
		for _, c := range k.Columns() {
			if !f.nonNull[c] && len(f.binds[c]) == 0 && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// singleValues returns the one value each of cols is bound to, or false
// when some column is bound to several (an IN list).
func singleValues(cols []string, binds map[string]binding) (map[string]parser.Expr, bool) {
	out := make(map[string]parser.Expr, len(cols))
	for _, c := range cols {
		if len(binds[c]) != 1 {
			return nil, false
		}
		out[c] = binds[c][0]
	}
	return out, true
}

// sortSpec narrows a partition by the sort key: its leading columns bound
// to one value each are fixed, and the ranges (and LIKE prefixes) on the
// column after them are bounds; the key codec makes the tightest
// condition of them it can (mapping.Key.Condition).
func sortSpec(p *mapping.AccessPath, binds map[string]binding, ranges map[string][]mapping.Bound) *SortSpec {
	s := &SortSpec{Key: p.SK, Fixed: map[string]parser.Expr{}}
	for _, c := range p.SK.Columns() {
		if b := binds[c]; len(b) == 1 {
			s.Fixed[c] = b[0]
			continue
		}
		break
	}
	col, narrows := p.SK.RangeColumn(s.IsFixed)
	switch {
	case narrows:
		s.Bounds = ranges[col]
	case p.SK.FoldedPrefix(col):
		for _, b := range ranges[col] {
			if b.Op == "prefix" {
				s.Bounds = append(s.Bounds, b)
			}
		}
	}
	return s
}

// expand turns the bindings of cols into every combination of values
// (IN lists multiply).
func expand(cols []string, binds map[string]binding) []map[string]parser.Expr {
	cols = distinct(cols)
	n := 1
	for _, c := range cols {
		n *= len(binds[c])
	}
	out := make([]map[string]parser.Expr, n)
	for i := range out {
		// Combination i, read as a number whose digits are each column's
		// value index: the last column varies fastest.
		m := make(map[string]parser.Expr, len(cols))
		rest := i
		for j := len(cols) - 1; j >= 0; j-- {
			values := binds[cols[j]]
			m[cols[j]] = values[rest%len(values)]
			rest /= len(values)
		}
		out[i] = m
	}
	return out
}

// distinctFolded drops the bindings that render the same keys as an
// earlier one: values that differ in case only, under a case-folded key
// (IN ('JLowe', 'jlowe')), would read one item or partition twice.
func distinctFolded(binds []map[string]parser.Expr, keys ...*mapping.Key) []map[string]parser.Expr {
	if !slices.ContainsFunc(keys, func(k *mapping.Key) bool { return k.Case != "" }) {
		return binds
	}
	seen := map[string]bool{}
	var out []map[string]parser.Expr
	for _, bind := range binds {
		row := mapping.Row{}
		for c, e := range bind {
			lit, ok := e.(*parser.Literal)
			if !ok {
				return binds // a column of a row read earlier: one read per row
			}
			row[c] = lit.Value
		}
		item := map[string]types.AttributeValue{}
		attrs := make([]string, len(keys))
		for i, k := range keys {
			av, err := k.Value(row)
			if err != nil {
				return binds // the request's own rendering reports it
			}
			item[k.Attr], attrs[i] = av, k.Attr
		}
		if id := mapping.KeyID(item, attrs); !seen[id] {
			seen[id] = true
			out = append(out, bind)
		}
	}
	return out
}

// distinct returns cols without repeats, in their order. A column can
// appear twice, apart: in both keys of REPO#{owner}#{name} /
// REPO#{owner}#{name}, where a column counted twice would read each key
// twice and return each row twice.
func distinct(cols []string) []string {
	if !hasRepeat(cols) {
		return cols // the usual case: no copy
	}
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func hasRepeat(cols []string) bool {
	for i, c := range cols {
		if slices.Contains(cols[:i], c) {
			return true
		}
	}
	return false
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
