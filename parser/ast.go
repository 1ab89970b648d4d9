package parser

import "github.com/dynosql/dynosql/value"

// Statement is one parsed SQL statement: *Select, *Union, *Insert,
// *Update, *Delete, *Explain, *CheckCopies, *Begin, *Commit, *Rollback,
// *ShowTables or *Describe.
type Statement interface{ statement() }

// Select is a SELECT over one or more logical tables.
type Select struct {
	Distinct bool
	Columns  []SelectColumn
	From     []TableRef // in the order written; From[0].Join is JoinNone; empty without FROM
	Where    Expr       // nil when absent
	GroupBy  []Expr
	// GroupByPos[i] is the byte offset of GroupBy[i] in the statement,
	// -1 when unknown, for errors about a term.
	GroupByPos []int
	Having     Expr
	OrderBy    []OrderItem
	Limit      Expr // nil when absent; a *Literal or *Placeholder
	Offset     Expr
}

// SelectColumn is one item of the select list: an expression with an
// optional alias, or a star (Star) optionally qualified (Table).
type SelectColumn struct {
	Expr  Expr
	Alias string
	Star  bool
	Table string // for t.*
	// Text is the expression as written, for the output column name: cut
	// from the statement (COUNT(*) stays COUNT(*), spacing kept, alias
	// left out), "*" or "t.*" for stars, or sqlparser's rendering when
	// the text cannot be found.
	Text string
}

// JoinKind says how a table joins the ones before it.
type JoinKind int

// Join kinds. Comma joins ("FROM a, b WHERE ...") are inner joins whose
// condition is in WHERE.
const (
	JoinNone JoinKind = iota
	JoinInner
	JoinLeft
	JoinComma
)

// TableRef is a logical table in FROM with its alias (the name itself when
// no alias is given) and, for JOIN ... ON, its join condition.
type TableRef struct {
	Name  string
	Alias string
	Join  JoinKind
	On    Expr
	Pos   int // byte offset of the name in the statement
}

// OrderItem is one ORDER BY term.
type OrderItem struct {
	Expr Expr
	Desc bool
	Pos  int // byte offset of the term in the statement, -1 when unknown
}

// Insert is INSERT INTO t (cols) VALUES (...), (...).
type Insert struct {
	Table   string
	Columns []string
	// ColumnPos holds the byte offset of each of Columns in the statement.
	ColumnPos []int
	Rows      [][]Expr
	// OnDuplicate holds the assignments of ON DUPLICATE KEY UPDATE; a
	// non-nil empty slice never occurs.
	OnDuplicate []Assignment
	Pos         int
}

// Update is UPDATE t SET ... WHERE ....
type Update struct {
	Table string
	Alias string // the table name itself when no alias is given
	Set   []Assignment
	Where Expr
	Pos   int
}

// Assignment is column = expression in SET or ON DUPLICATE KEY UPDATE.
type Assignment struct {
	Column string
	Expr   Expr
	Pos    int // byte offset of the column in the statement, or -1
}

// Delete is DELETE FROM t WHERE ....
type Delete struct {
	Table string
	Alias string // the table name itself when no alias is given
	Where Expr
	Pos   int
}

// Explain is EXPLAIN <statement>: plan it, print the plan, send nothing.
type Explain struct {
	Statement Statement
	// Analyze (EXPLAIN ANALYZE, or the ANALYZE option) runs the
	// statement, writes included, and reports what each step sent.
	Analyze bool
	// Format is the FORMAT option, lower case: text, json, go or cli;
	// "" when not given.
	Format string
}

// CheckCopies is dynosql's own statement for denormalized copies:
//
//	CHECK COPIES FOR users WHERE id = '12'
//	REPAIR COPIES FOR users WHERE id = '12'
//
// It lists (or rewrites) every copy of the selected source rows' columns
// that differs from its source.
type CheckCopies struct {
	Table  string
	Where  Expr
	Repair bool
	Pos    int
}

// Union is SELECT ... UNION [ALL] SELECT ..., with the ORDER BY, LIMIT
// and OFFSET written after the last SELECT, which order and cut the
// union as a whole. Left and Right are *Select or *Union.
type Union struct {
	Left, Right Statement
	All         bool // UNION ALL keeps repeated rows
	Pos         int  // byte offset of the UNION keyword, -1 when unknown
	OrderBy     []OrderItem
	Limit       Expr
	Offset      Expr
}

// Begin starts a transaction (BEGIN or START TRANSACTION): the writes
// up to Commit are one DynamoDB transaction.
type Begin struct{}

// Commit sends the writes since Begin as one TransactWriteItems.
type Commit struct{}

// Rollback drops the writes since Begin; nothing was sent.
type Rollback struct{}

// ShowTables lists the DynamoDB tables of the account or endpoint.
type ShowTables struct{}

// Describe describes a table: DESCRIBE name (or DESC name).
type Describe struct {
	Table string
	Pos   int
}

func (*Select) statement()      {}
func (*Union) statement()       {}
func (*Begin) statement()       {}
func (*Commit) statement()      {}
func (*Rollback) statement()    {}
func (*ShowTables) statement()  {}
func (*Describe) statement()    {}
func (*Insert) statement()      {}
func (*Update) statement()      {}
func (*Delete) statement()      {}
func (*Explain) statement()     {}
func (*CheckCopies) statement() {}

// Expr is a scalar or boolean expression.
type Expr interface{ expr() }

// Column is a column reference, optionally qualified by a table alias.
type Column struct {
	Table string // alias or table name as written; "" when unqualified
	Name  string
	Pos   int // byte offset in the statement, or -1
}

// Literal is a constant: string, value.Number, bool or nil (NULL).
type Literal struct {
	Value value.Value
}

// Placeholder is a ? parameter; Index counts from 0 in order of appearance
// in the text (so LIMIT ?, ? gives the offset the lower index).
type Placeholder struct {
	Index int
}

// Compare is L op R with op one of = <> < <= > >=.
type Compare struct {
	Op   string
	L, R Expr
}

// In is Expr [NOT] IN (List...).
type In struct {
	Expr Expr
	List []Expr
	Not  bool
}

// Between is Expr [NOT] BETWEEN Lo AND Hi.
type Between struct {
	Expr, Lo, Hi Expr
	Not          bool
}

// Like is Expr [NOT] LIKE Pattern [ESCAPE 'c'], with % (any run of
// characters) and _ (one character) as wildcards. In Pattern, Escape
// followed by any character stands for that character itself (\% is a
// literal %, \\ one backslash), and an Escape that ends the pattern
// stands for itself, as in MySQL.
type Like struct {
	Expr, Pattern Expr
	Not           bool
	// Escape is the escape character: \ unless an ESCAPE clause names
	// another. The parser always sets it; 0 (a Like built by hand) means
	// no escape character.
	Escape rune
}

// IsNull is Expr IS [NOT] NULL.
type IsNull struct {
	Expr Expr
	Not  bool
}

// And is L AND R.
type And struct{ L, R Expr }

// Or is L OR R.
type Or struct{ L, R Expr }

// Not is NOT E.
type Not struct{ E Expr }

// Arith is L op R with op one of + - * /.
type Arith struct {
	Op   byte
	L, R Expr
}

// Func is an aggregate call: COUNT, MIN, MAX, SUM or AVG (Name is upper
// case). Star is COUNT(*).
type Func struct {
	Name     string
	Args     []Expr
	Star     bool
	Distinct bool
}

// InSelect is Expr [NOT] IN (SELECT one column FROM one table ...).
type InSelect struct {
	Expr   Expr
	Select *Select
	Not    bool
}

// Exists is EXISTS (SELECT ... FROM one table WHERE ...); NOT EXISTS is
// a Not around it.
type Exists struct {
	Select *Select
}

func (*InSelect) expr()    {}
func (*Exists) expr()      {}
func (*Column) expr()      {}
func (*Literal) expr()     {}
func (*Placeholder) expr() {}
func (*Compare) expr()     {}
func (*In) expr()          {}
func (*Between) expr()     {}
func (*Like) expr()        {}
func (*IsNull) expr()      {}
func (*And) expr()         {}
func (*Or) expr()          {}
func (*Not) expr()         {}
func (*Arith) expr()       {}
func (*Func) expr()        {}
