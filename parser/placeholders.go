package parser

// Placeholders returns how many arguments st takes (the highest ?
// number), subqueries and both sides of a UNION included, or -1 for a
// statement that takes none by its nature (SHOW TABLES, BEGIN...).
func Placeholders(st Statement) int {
	var exprs []Expr
	n := 0
	switch s := st.(type) {
	case *Explain:
		return Placeholders(s.Statement)
	case *Union:
		n = max(Placeholders(s.Left), Placeholders(s.Right))
		exprs = append(exprs, s.Limit, s.Offset)
		for _, o := range s.OrderBy {
			exprs = append(exprs, o.Expr)
		}
	case *Select:
		exprs = selectExprs(s)
	case *Insert:
		for _, row := range s.Rows {
			exprs = append(exprs, row...)
		}
		for _, a := range s.OnDuplicate {
			exprs = append(exprs, a.Expr)
		}
	case *Update:
		for _, a := range s.Set {
			exprs = append(exprs, a.Expr)
		}
		exprs = append(exprs, s.Where)
	case *Delete:
		exprs = append(exprs, s.Where)
	case *CheckCopies:
		exprs = append(exprs, s.Where)
	default:
		return -1
	}
	var visit func(x Expr) bool
	visit = func(x Expr) bool {
		switch x := x.(type) {
		case *Placeholder:
			n = max(n, x.Index+1)
		case *InSelect: // Walk goes into neither side
			Walk(x.Expr, visit)
			n = max(n, Placeholders(x.Select))
		case *Exists:
			n = max(n, Placeholders(x.Select))
		}
		return true
	}
	for _, e := range exprs {
		Walk(e, visit)
	}
	return n
}

// selectExprs returns every expression of s but those of its subqueries.
func selectExprs(s *Select) []Expr {
	var exprs []Expr
	for _, c := range s.Columns {
		exprs = append(exprs, c.Expr)
	}
	for _, t := range s.From {
		exprs = append(exprs, t.On)
	}
	exprs = append(exprs, s.Where, s.Having, s.Limit, s.Offset)
	exprs = append(exprs, s.GroupBy...)
	for _, o := range s.OrderBy {
		exprs = append(exprs, o.Expr)
	}
	return exprs
}
