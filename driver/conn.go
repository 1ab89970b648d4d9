package driver

import (
	"context"
	"database/sql/driver"
	"io"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// conn is one database/sql connection. Its one state is the transaction
// BeginTx opened: until Commit or Rollback, its writes are gathered
// there; otherwise every statement goes straight to the shared
// *dynosql.DB.
type conn struct {
	db      *dynosql.DB
	release func() error // closes a DB of the conn's own (Driver.Open)
	tx      *dynosql.Tx
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

// Prepare implements driver.Conn.
func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext parses query, so that a syntax error shows at Prepare,
// and counts its placeholders. The statement is planned afresh on each
// run, because its arguments decide the plan (which keys to read).
func (c *conn) PrepareContext(_ context.Context, query string) (driver.Stmt, error) {
	st, err := parser.Parse(query)
	if err != nil {
		return nil, err
	}
	return &stmt{conn: c, query: query, inputs: parser.Placeholders(st)}, nil
}

// Close implements driver.Conn.
func (c *conn) Close() error {
	if c.release != nil {
		return c.release()
	}
	return nil
}

// Begin implements driver.Conn; see BeginTx.
func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx opens a transaction: the writes run on its sql.Tx are sent
// together at Commit as one TransactWriteItems (see the package
// documentation). Isolation levels and read-only transactions are not
// DynamoDB's to give.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if opts.Isolation != driver.IsolationLevel(0) || opts.ReadOnly {
		return nil, errs.New(errs.Unsupported, "transactions take no isolation level or read-only option").
			WithHint("begin with the default options: a transaction writes all or nothing")
	}
	c.tx = c.db.Begin()
	return &tx{c: c, ctx: ctx}, nil
}

// tx ends the conn's transaction.
// tx is a sql.Tx's transaction. ctx is BeginTx's: database/sql
// documents that it governs the transaction until Commit, whose
// TransactWriteItems it bounds and counts (WithStats) as it would a
// statement's requests.
type tx struct {
	c   *conn
	ctx context.Context
}

// Commit sends the transaction's writes.
func (t *tx) Commit() error {
	x := t.c.tx
	t.c.tx = nil
	_, err := x.Commit(t.ctx)
	return err
}

// Rollback drops them.
func (t *tx) Rollback() error {
	x := t.c.tx
	t.c.tx = nil
	return x.Rollback()
}

// QueryContext implements driver.QueryerContext.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.tx != nil {
		return nil, errs.New(errs.Unsupported, "reads inside a transaction are not supported: a transaction here writes, all or nothing").
			WithHint("query on the sql.DB, outside the sql.Tx")
	}
	r, err := c.db.Query(ctx, query, argValues(args)...)
	if err != nil {
		return nil, err
	}
	return &rows{r: r}, nil
}

// ExecContext implements driver.ExecerContext.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.tx != nil {
		r, err := c.tx.Exec(ctx, query, argValues(args)...)
		if err != nil {
			return nil, err
		}
		return result{r}, nil
	}
	r, err := c.db.Exec(ctx, query, argValues(args)...)
	if err != nil {
		return nil, err
	}
	return result{r}, nil
}

// CheckNamedValue accepts the arguments dynosql's Query takes
// (value.FromGo), a driver.Valuer and the pointers and named types that
// driver.DefaultParameterConverter resolves among them; it refuses named
// arguments.
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if nv.Name != "" {
		return errs.New(errs.Unsupported, "named argument %s: dynosql takes ? placeholders filled by position", nv.Name).
			WithHint("pass the value without sql.Named")
	}
	v, err := value.FromGo(nv.Value)
	if err != nil {
		// database/sql prefixes the argument's position.
		return errs.New(errs.Invalid, "%v", err).Wrap(err).
			WithHint("pass a string, number, bool, nil, []string, []any or map[string]any; format times as text")
	}
	nv.Value = v
	return nil
}

// argValues returns the values of args, checked by CheckNamedValue.
func argValues(args []driver.NamedValue) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a.Value
	}
	return out
}

// stmt is a prepared statement: its text and number of arguments.
type stmt struct {
	conn   *conn
	query  string
	inputs int
}

var (
	_ driver.Stmt             = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
	_ driver.StmtExecContext  = (*stmt)(nil)
)

// Close implements driver.Stmt; a stmt holds nothing to release.
func (s *stmt) Close() error { return nil }

// NumInput returns the number of ? placeholders, which database/sql checks
// the arguments against.
func (s *stmt) NumInput() int { return s.inputs }

// Exec implements driver.Stmt for callers without a context.
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

// Query implements driver.Stmt for callers without a context.
func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

// ExecContext implements driver.StmtExecContext.
func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.conn.ExecContext(ctx, s.query, args)
}

// QueryContext implements driver.StmtQueryContext.
func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.conn.QueryContext(ctx, s.query, args)
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}

// rows streams a query's rows to database/sql.
type rows struct {
	r *dynosql.Rows
}

var (
	_ driver.Rows                           = (*rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
)

// Columns implements driver.Rows.
func (r *rows) Columns() []string { return r.r.Columns() }

// Close implements driver.Rows; it stops requests still in flight.
func (r *rows) Close() error { return r.r.Close() }

// Next implements driver.Rows.
func (r *rows) Next(dest []driver.Value) error {
	if !r.r.Next() {
		if err := r.r.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	for i, v := range r.r.RawValues() {
		dest[i] = dynosql.DriverValue(v)
	}
	return nil
}

// ColumnTypeDatabaseTypeName returns the DynamoDB type of column i (S, N,
// BOOL, L, M, SS, NS), or "" where the statement does not fix one.
func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if types := r.r.ColumnTypes(); i < len(types) {
		return types[i]
	}
	return ""
}

// result is what an Exec did.
type result struct{ r dynosql.Result }

var _ driver.Result = result{}

// LastInsertId fails: DynamoDB generates no keys, so the statement's own
// values are the item's key.
func (result) LastInsertId() (int64, error) {
	return 0, errs.New(errs.Unsupported, "dynosql has no LastInsertId: DynamoDB generates no keys")
}

// RowsAffected returns the number of items written.
func (r result) RowsAffected() (int64, error) { return r.r.RowsAffected, nil }
