package parser

// TableName is a table a statement names, where it is named.
type TableName struct {
	Name string
	Pos  int
}

// Tables lists the tables stmt names, in the order written, subqueries
// included (a name named twice is listed twice): what a session must
// know of before it plans the statement.
func Tables(stmt Statement) []TableName {
	var out []TableName
	var sel func(*Select)
	expr := func(e Expr) {
		Walk(e, func(x Expr) bool {
			switch x := x.(type) {
			case *InSelect:
				Walk(x.Expr, func(Expr) bool { return true })
				sel(x.Select)
				return false
			case *Exists:
				sel(x.Select)
				return false
			}
			return true
		})
	}
	sel = func(s *Select) {
		for _, t := range s.From {
			out = append(out, TableName{t.Name, t.Pos})
			expr(t.On)
		}
		for _, c := range s.Columns {
			expr(c.Expr)
		}
		expr(s.Where)
		expr(s.Having)
	}
	var walk func(Statement)
	walk = func(stmt Statement) {
		switch s := stmt.(type) {
		case *Select:
			sel(s)
		case *Union:
			walk(s.Left)
			walk(s.Right)
		case *Explain:
			walk(s.Statement)
		case *Insert:
			out = append(out, TableName{s.Table, s.Pos})
		case *Update:
			out = append(out, TableName{s.Table, s.Pos})
			expr(s.Where)
		case *Delete:
			out = append(out, TableName{s.Table, s.Pos})
			expr(s.Where)
		case *CheckCopies:
			out = append(out, TableName{s.Table, s.Pos})
			expr(s.Where)
		case *Describe:
			out = append(out, TableName{s.Table, s.Pos})
		}
	}
	walk(stmt)
	return out
}
