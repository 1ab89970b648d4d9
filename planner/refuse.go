package planner

import (
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// refuse explains why slot s cannot be read without a Scan, or, when
// the reason is that IN lists give too many keys, says so (keyLimit).
func (b *selectBuilder) refuse(s int) error {
	if err := b.keyLimit(s); err != nil {
		return err
	}
	sl := b.sc.slots[s]
	var by []string
	conds := b.pool
	if b.left[s] {
		conds = b.leftOn[s]
	}
	for _, c := range conds {
		for col := range columnsOf(c) {
			if col.Table == sl.Alias && !slices.Contains(by, col.Name) {
				by = append(by, col.Name)
			}
		}
	}
	for _, c := range conds {
		if col, op := nullKeyCompare(c, sl); col != "" {
			// The key is given, as NULL: not a missing condition.
			return errs.New(errs.Invalid, "%s.%s %s matches no row: NULL equals nothing, so it names no key to read", sl.Alias, col, op).
				WithHint("give %s.%s a value (a nil argument is NULL)", sl.Alias, col)
		}
	}
	what := "reading " + sl.Entity.Name
	if sl.Alias != sl.Entity.Name {
		what += " " + sl.Alias
	}
	if len(by) > 0 {
		what += " by " + strings.Join(by, ", ")
	} else {
		what += " with no key condition"
	}
	pos := -1
	if s < len(b.sel.From) {
		pos = b.sel.From[s].Pos
	}
	m := b.mapping(s)
	e := errs.New(errs.Refused, "%s would need a Scan of %s", what, m.Table).At(b.sc.sql, pos)
	hint := "add " + scanHint(sl)
	var nonKey []string
	for _, c := range by {
		if !sl.Entity.IsKeyColumn(c) {
			nonKey = append(nonKey, c)
		}
	}
	if len(nonKey) > 0 {
		hint += ", or add an index keyed on " + strings.Join(nonKey, ", ")
	}
	for _, p := range sl.Entity.Paths() {
		if p.IsBase() || !m.Indexes[p.Index].Scan {
			continue
		}
		var conds []string
		for _, c := range sparseColumns(p, b.facts(s)) {
			conds = append(conds, qualified(sl.Alias, c)+" IS NOT NULL")
		}
		hint += "; or add " + strings.Join(conds, " AND ") + " to Scan index " + p.Index +
			" (scan: true), which holds only the items that have them"
	}
	e.Hint = hint + "; to read the whole table anyway, allow a Scan (--allow-scan; WithScans() in Go; allow_scan=1 in a DSN)"
	return &errs.ScanRefusedError{Base: e, Entity: sl.Entity.Name, Alias: sl.Alias, Table: m.Table}
}

// nullKeyCompare returns the key column of sl that c compares with
// NULL (id = NULL, id = ? given nil, id IN (NULL)) and how, or "".
func nullKeyCompare(c parser.Expr, sl Slot) (col, op string) {
	eq, lit, ok := columnEquals(c)
	if ok && lit.Value == nil && eq.Table == sl.Alias && sl.Entity.IsKeyColumn(eq.Name) {
		return eq.Name, "= NULL"
	}
	// col IN (NULL, ...) with nothing but NULLs: the same.
	in, ok := c.(*parser.In)
	if !ok || in.Not || len(in.List) == 0 {
		return "", ""
	}
	x, ok := in.Expr.(*parser.Column)
	if !ok || x.Table != sl.Alias || !sl.Entity.IsKeyColumn(x.Name) {
		return "", ""
	}
	for _, v := range in.List {
		if l, ok := v.(*parser.Literal); !ok || l.Value != nil {
			return "", ""
		}
	}
	return x.Name, "IN (NULL)"
}

// qualified writes alias.col as a statement must spell it: a name that
// is not an SQL identifier (orders-v2, p.k) in backquotes.
func qualified(alias, col string) string {
	return parser.Ident(alias) + "." + parser.Ident(col)
}

// scanHint says which conditions would let DynamoDB read the entity by
// key: one clause per access path.
func scanHint(sl Slot) string {
	var ways []string
	for _, p := range sl.Entity.Paths() {
		var conds []string
		for _, c := range p.PK.Columns() {
			conds = append(conds, qualified(sl.Alias, c)+" = ...")
		}
		way := "WHERE " + strings.Join(conds, " AND ")
		if p.Optional {
			var cols []string
			for _, k := range []*mapping.Key{p.PK, p.SK} {
				if k != nil {
					cols = append(cols, k.Columns()...)
				}
			}
			base := sl.Entity.BaseKeyColumns() // every item has them
			for _, c := range cols {
				if !slices.Contains(p.PK.Columns(), c) && !slices.Contains(base, c) {
					way += " AND " + qualified(sl.Alias, c) + " IS NOT NULL"
				}
			}
		}
		switch {
		case len(conds) == 0:
			way = "any WHERE (the key " + p.PKAttr + " = " + p.PK.Raw + " is constant)"
		case p.IsBase():
			way += " (the key " + p.PKAttr + " = " + p.PK.Raw + ")"
		case p.Optional:
			way += " (through index " + p.Index + ", " + p.PKAttr + " = " + p.PK.Raw + ", which holds only the items that have every one of its key columns)"
		default:
			way += " (through index " + p.Index + ", " + p.PKAttr + " = " + p.PK.Raw + ")"
		}
		ways = append(ways, way)
	}
	return strings.Join(ways, ", or ")
}
