package planner

import (
	"iter"

	"github.com/dynosql/dynosql/parser"
)

// rewrite returns e with fn applied to every node, children first. fn
// returns the node to keep (its argument, or a replacement).
func rewrite(e parser.Expr, fn func(parser.Expr) (parser.Expr, error)) (parser.Expr, error) {
	if e == nil {
		return nil, nil
	}
	var err error
	r := func(x parser.Expr) parser.Expr {
		if err != nil || x == nil {
			return x
		}
		var out parser.Expr
		out, err = rewrite(x, fn)
		return out
	}
	list := func(xs []parser.Expr) []parser.Expr {
		out := make([]parser.Expr, len(xs))
		for i, x := range xs {
			out[i] = r(x)
		}
		return out
	}
	switch x := e.(type) {
	case *parser.Compare:
		e = &parser.Compare{Op: x.Op, L: r(x.L), R: r(x.R)}
	case *parser.In:
		e = &parser.In{Expr: r(x.Expr), List: list(x.List), Not: x.Not}
	case *parser.Between:
		e = &parser.Between{Expr: r(x.Expr), Lo: r(x.Lo), Hi: r(x.Hi), Not: x.Not}
	case *parser.Like:
		e = &parser.Like{Expr: r(x.Expr), Pattern: r(x.Pattern), Not: x.Not, Escape: x.Escape}
	case *parser.IsNull:
		e = &parser.IsNull{Expr: r(x.Expr), Not: x.Not}
	case *parser.And:
		e = &parser.And{L: r(x.L), R: r(x.R)}
	case *parser.Or:
		e = &parser.Or{L: r(x.L), R: r(x.R)}
	case *parser.Not:
		e = &parser.Not{E: r(x.E)}
	case *parser.Arith:
		e = &parser.Arith{Op: x.Op, L: r(x.L), R: r(x.R)}
	case *parser.Func:
		e = &parser.Func{Name: x.Name, Args: list(x.Args), Star: x.Star, Distinct: x.Distinct}
	}
	if err != nil {
		return nil, err
	}
	return fn(e)
}

// conjuncts splits e on AND.
func conjuncts(e parser.Expr) []parser.Expr {
	return appendConjuncts(nil, e)
}

func appendConjuncts(out []parser.Expr, e parser.Expr) []parser.Expr {
	switch x := e.(type) {
	case nil:
		return out
	case *parser.And:
		return appendConjuncts(appendConjuncts(out, x.L), x.R)
	}
	return append(out, e)
}

// and joins expressions with AND; nil for none.
func and(es []parser.Expr) parser.Expr {
	var out parser.Expr
	for _, e := range es {
		if out == nil {
			out = e
		} else {
			out = &parser.And{L: out, R: e}
		}
	}
	return out
}

// columnsOf yields the column references in e.
func columnsOf(e parser.Expr) iter.Seq[*parser.Column] {
	return func(yield func(*parser.Column) bool) {
		if e == nil {
			return
		}
		more := true
		parser.Walk(e, func(x parser.Expr) bool {
			if c, ok := x.(*parser.Column); ok && more {
				more = yield(c)
			}
			return more
		})
	}
}

// hasAggregate reports whether e calls an aggregate function.
func hasAggregate(e parser.Expr) bool {
	found := false
	if e == nil {
		return false
	}
	parser.Walk(e, func(x parser.Expr) bool {
		if _, ok := x.(*parser.Func); ok {
			found = true
		}
		return !found
	})
	return found
}
