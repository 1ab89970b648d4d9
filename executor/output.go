package executor

import (
	"context"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// rowIter yields output rows; a nil row with a nil error is the end.
type rowIter interface {
	next(ctx context.Context) ([]value.Value, error)
}

func (r *run) rows(n planner.Node) (rowIter, error) {
	switch x := n.(type) {
	case *planner.Project:
		in, err := r.tuples(x.Input)
		return &projectIter{r: r, in: in, exprs: x.Exprs}, err
	case *planner.Aggregate:
		in, err := r.tuples(x.Input)
		return &aggregateIter{r: r, in: in, a: x}, err
	case *planner.Distinct:
		in, err := r.rows(x.Input)
		return &distinctIter{in: in, seen: map[string]bool{}}, err
	case *planner.Sort:
		in, err := r.rows(x.Input)
		return &sortIter{in: in, keys: x.Keys}, err
	case *planner.Limit:
		r.limited = r.limited || streams(x.Input)
		in, err := r.rows(x.Input)
		return &limitIter{in: in, skip: x.Offset, left: x.Count}, err
	case *planner.Trim:
		in, err := r.rows(x.Input)
		return &trimIter{in: in, n: x.N}, err
	case *planner.Spread:
		in, err := r.rows(x.Input)
		return &spreadIter{in: in, s: x}, err
	case *planner.UnionRows:
		u := &unionRowsIter{}
		for _, side := range x.Sides {
			in, err := r.side(side.Slots).rows(side.Root)
			if err != nil {
				return nil, err
			}
			u.sides = append(u.sides, in)
		}
		return u, nil
	}
	return nil, internal("no executor for output step %T", n)
}

type projectIter struct {
	r     *run
	in    tupleIter
	exprs []parser.Expr
}

func (it *projectIter) next(ctx context.Context) ([]value.Value, error) {
	t, err := it.in.next(ctx)
	if err != nil || t == nil {
		return nil, err
	}
	row := make([]value.Value, len(it.exprs))
	en := env(tupleEnv{it.r, t}) // made an interface once, not per column
	for i, e := range it.exprs {
		if row[i], err = eval(e, en); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// aggregateIter groups all input rows, then yields one row per group.
type aggregateIter struct {
	r    *run
	in   tupleIter
	a    *planner.Aggregate
	out  [][]value.Value
	done bool
}

// group is one GROUP BY group: a row to evaluate plain expressions on
// and the state of each aggregate call.
type group struct {
	first tuple
	accs  map[*parser.Func]*accumulator
}

func (it *aggregateIter) next(ctx context.Context) ([]value.Value, error) {
	if !it.done {
		it.done = true
		if err := it.fill(ctx); err != nil {
			return nil, err
		}
	}
	if len(it.out) == 0 {
		return nil, nil
	}
	row := it.out[0]
	it.out = it.out[1:]
	return row, nil
}

func (it *aggregateIter) fill(ctx context.Context) error {
	var funcs []*parser.Func
	for _, e := range append(append([]parser.Expr{}, it.a.Exprs...), it.a.Having) {
		if e == nil {
			continue
		}
		parser.Walk(e, func(x parser.Expr) bool {
			if f, ok := x.(*parser.Func); ok {
				funcs = append(funcs, f)
				return false
			}
			return true
		})
	}
	groups := map[string]*group{}
	var order []string
	for {
		t, err := it.in.next(ctx)
		if err != nil {
			return err
		}
		if t == nil {
			break
		}
		env := tupleEnv{it.r, t}
		var key []byte
		for _, g := range it.a.Group {
			v, err := eval(g, env)
			if err != nil {
				return err
			}
			key = value.AppendKey(key, v)
		}
		g, ok := groups[string(key)]
		if !ok {
			g = &group{first: t, accs: map[*parser.Func]*accumulator{}}
			for _, f := range funcs {
				g.accs[f] = &accumulator{f: f, seen: map[string]bool{}}
			}
			groups[string(key)] = g
			order = append(order, string(key))
		}
		for _, f := range funcs {
			if err := g.accs[f].add(env); err != nil {
				return err
			}
		}
	}
	if len(it.a.Group) == 0 && len(groups) == 0 {
		g := &group{accs: map[*parser.Func]*accumulator{}}
		for _, f := range funcs {
			g.accs[f] = &accumulator{f: f, seen: map[string]bool{}}
		}
		groups[""], order = g, []string{""}
	}
	for _, k := range order {
		g := groups[k]
		env := groupEnv{tupleEnv{it.r, g.first}, g}
		if it.a.Having != nil {
			ok, err := eval(it.a.Having, env)
			if err != nil {
				return err
			}
			if !truth(ok) {
				continue
			}
		}
		row := make([]value.Value, len(it.a.Exprs))
		for i, e := range it.a.Exprs {
			v, err := eval(e, env)
			if err != nil {
				return err
			}
			row[i] = v
		}
		it.out = append(it.out, row)
	}
	return nil
}

// groupEnv evaluates output expressions of a group: columns from its
// first row (they are grouped on), aggregates from the accumulators.
type groupEnv struct {
	tupleEnv
	g *group
}

func (e groupEnv) column(c *parser.Column) value.Value {
	if e.t == nil {
		return nil
	}
	return e.tupleEnv.column(c)
}

func (e groupEnv) aggregate(f *parser.Func) value.Value { return e.g.accs[f].result() }

// accumulator computes one aggregate call over a group.
type accumulator struct {
	f       *parser.Func
	count   int64
	sum     *big.Rat
	extreme value.Value
	seen    map[string]bool
}

func (a *accumulator) add(en env) error {
	if a.f.Star {
		a.count++
		return nil
	}
	v, err := eval(a.f.Args[0], en)
	if err != nil || v == nil {
		return err
	}
	if a.f.Distinct {
		k := value.Key(v)
		if a.seen[k] {
			return nil
		}
		a.seen[k] = true
	}
	a.count++
	switch a.f.Name {
	case "SUM", "AVG":
		n, ok := v.(value.Number)
		if !ok {
			return errs.New(errs.Invalid, "%s needs numbers, got %s", a.f.Name, value.Literal(v))
		}
		r, _ := n.Rat()
		if a.sum == nil {
			a.sum = new(big.Rat)
		}
		a.sum.Add(a.sum, r)
	case "MIN":
		if a.extreme == nil || value.Order(v, a.extreme) < 0 {
			a.extreme = v
		}
	case "MAX":
		if a.extreme == nil || value.Order(v, a.extreme) > 0 {
			a.extreme = v
		}
	}
	return nil
}

func (a *accumulator) result() value.Value {
	switch a.f.Name {
	case "COUNT":
		return value.Number(big.NewInt(a.count).String())
	case "SUM":
		if a.sum == nil {
			return nil
		}
		return value.NumberFromRat(a.sum)
	case "AVG":
		if a.sum == nil {
			return nil
		}
		return value.NumberFromRat(new(big.Rat).Quo(a.sum, new(big.Rat).SetInt64(a.count)))
	}
	return a.extreme
}

type distinctIter struct {
	in   rowIter
	seen map[string]bool
}

func (it *distinctIter) next(ctx context.Context) ([]value.Value, error) {
	for {
		row, err := it.in.next(ctx)
		if err != nil || row == nil {
			return nil, err
		}
		var k []byte
		for _, v := range row {
			k = value.AppendKey(k, v)
		}
		if !it.seen[string(k)] {
			it.seen[string(k)] = true
			return row, nil
		}
	}
}

// drain reads every row of in: for the steps that must see them all
// before yielding any.
func drain(ctx context.Context, in rowIter) ([][]value.Value, error) {
	var rows [][]value.Value
	for {
		row, err := in.next(ctx)
		if err != nil || row == nil {
			return rows, err
		}
		rows = append(rows, row)
	}
}

// sortIter reads all rows, then yields them in order; NULLs first, as in
// SQLite, and last when descending.
type sortIter struct {
	in   rowIter
	keys []planner.SortKey
	rows [][]value.Value
	done bool
}

func (it *sortIter) next(ctx context.Context) ([]value.Value, error) {
	if !it.done {
		it.done = true
		rows, err := drain(ctx, it.in)
		if err != nil {
			return nil, err
		}
		it.rows = rows
		sort.SliceStable(it.rows, func(i, j int) bool {
			for _, k := range it.keys {
				c := value.Order(it.rows[i][k.Column], it.rows[j][k.Column])
				if k.Desc {
					c = -c
				}
				if c != 0 {
					return c < 0
				}
			}
			return false
		})
	}
	if len(it.rows) == 0 {
		return nil, nil
	}
	row := it.rows[0]
	it.rows = it.rows[1:]
	return row, nil
}

type limitIter struct {
	in   rowIter
	skip int64
	left int64 // < 0: no limit
}

func (it *limitIter) next(ctx context.Context) ([]value.Value, error) {
	for it.skip > 0 {
		row, err := it.in.next(ctx)
		if err != nil || row == nil {
			return nil, err
		}
		it.skip--
	}
	if it.left == 0 {
		return nil, nil
	}
	row, err := it.in.next(ctx)
	if err != nil || row == nil {
		return nil, err
	}
	it.left--
	return row, nil
}

type trimIter struct {
	in rowIter
	n  int
}

func (it *trimIter) next(ctx context.Context) ([]value.Value, error) {
	row, err := it.in.next(ctx)
	if err != nil || row == nil {
		return nil, err
	}
	return row[:it.n], nil
}

// unionRowsIter passes the rows of each side of a UNION in turn.
type unionRowsIter struct{ sides []rowIter }

func (it *unionRowsIter) next(ctx context.Context) ([]value.Value, error) {
	for len(it.sides) > 0 {
		row, err := it.sides[0].next(ctx)
		if err != nil || row != nil {
			return row, err
		}
		it.sides = it.sides[1:]
	}
	return nil, nil
}

// spreadIter reads every row, then yields them with each star column
// (a map of every attribute) spread into one column per attribute any
// row holds: key attributes first, then by name.
type spreadIter struct {
	in    rowIter
	s     *planner.Spread
	cols  []string
	names [][]string // per star, its attributes in order
	rows  [][]value.Value
	done  bool
}

// columns reads the rows, if not yet done, and returns the columns.
func (it *spreadIter) columns(ctx context.Context) ([]string, error) {
	if it.done {
		return it.cols, nil
	}
	it.done = true
	seen := make([]map[string]bool, len(it.s.Stars))
	for i := range seen {
		seen[i] = map[string]bool{}
		for _, k := range it.s.Base[i] {
			seen[i][k] = true
		}
	}
	rows, err := drain(ctx, it.in)
	if err != nil {
		return nil, err
	}
	it.rows = rows
	for _, row := range rows {
		for i, p := range it.s.Stars {
			m, _ := row[p].(map[string]value.Value)
			for k := range m {
				seen[i][k] = true
			}
		}
	}
	it.names = make([][]string, len(it.s.Stars))
	for i := range it.s.Stars {
		for _, k := range it.s.Keys[i] {
			if seen[i][k] {
				it.names[i] = append(it.names[i], k)
			}
		}
		var rest []string
		for k := range seen[i] {
			if !slices.Contains(it.names[i], k) {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		it.names[i] = append(it.names[i], rest...)
	}
	// Two tables' attributes may share a name (a self-join): those are
	// named by their table's alias, as the planner names other columns.
	count := map[string]int{}
	for c, name := range it.s.Names {
		if i := slices.Index(it.s.Stars, c); i >= 0 {
			for _, k := range it.names[i] {
				count[k]++
			}
		} else {
			count[name]++
		}
	}
	for c, name := range it.s.Names {
		i := slices.Index(it.s.Stars, c)
		if i < 0 {
			it.cols = append(it.cols, name)
			continue
		}
		alias := strings.TrimSuffix(name, "*")
		for _, k := range it.names[i] {
			if count[k] > 1 {
				k = alias + k
			}
			it.cols = append(it.cols, k)
		}
	}
	return it.cols, nil
}

func (it *spreadIter) next(ctx context.Context) ([]value.Value, error) {
	if _, err := it.columns(ctx); err != nil {
		return nil, err
	}
	if len(it.rows) == 0 {
		return nil, nil
	}
	row := it.rows[0]
	it.rows = it.rows[1:]
	var out []value.Value
	for c, v := range row {
		i := slices.Index(it.s.Stars, c)
		if i < 0 {
			out = append(out, v)
			continue
		}
		m, _ := v.(map[string]value.Value)
		for _, k := range it.names[i] {
			out = append(out, m[k])
		}
	}
	return out, nil
}
