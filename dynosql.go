package dynosql

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Client is the part of the DynamoDB API dynosql uses; *dynamodb.Client
// satisfies it. It has no Scan.
type Client = executor.Client

// DB runs statements against the entities of one mapping and, raw, the
// other DynamoDB tables its client reaches. It is safe for concurrent use
// by many goroutines.
type DB struct {
	m        *mapping.Mapping
	cat      *catalog
	planner  *planner.Planner
	exec     *executor.Executor
	closers  []func() error
	endpoint string // the embedded backend's URL, if the DB started one
	safety   safety
	cache    *planCache

	closeOnce sync.Once
	closed    atomic.Bool
}

type config struct {
	consistent bool
	// concurrency: see WithConcurrency; the executor's default unless
	// concurrencySet.
	concurrency    int
	concurrencySet bool
	hooks          []func(*dynamodb.Options)
	checkTable     bool
	// nonAtomicInserts: see WithNonAtomicInserts.
	nonAtomicInserts bool
	// allowScan: see WithScans.
	allowScan bool
	// maxAffected: see WithMaxAffected; DefaultMaxAffected unless set.
	maxAffected    int
	maxAffectedSet bool
	safety         safety
	// embedded: the client reaches the embedded server (OpenEmbedded),
	// whose quirks plans work around whether or not the table is checked.
	embedded bool
}

// embeddedQuirks are what the embedded server (minidyn) does otherwise
// than DynamoDB, which plans work around (ARCHITECTURE.md, "Raw tables
// and the embedded backend").
var embeddedQuirks = planner.Quirks{TextKeyOrder: true, NoRemove: true, NoSegments: true, NoLocalFetch: true, NoIndexKeyUpdate: true,
	FloatNumbers: true, NoListTables: true, StaleSparseIndex: true}

// Option configures Open.
type Option func(*config)

// WithConsistentReads asks for strongly consistent reads wherever DynamoDB
// allows them (never on a global secondary index).
func WithConsistentReads(on bool) Option { return func(c *config) { c.consistent = on } }

// WithConcurrency bounds the requests one statement has in flight at once
// (default 8). Open refuses n below 1, as --concurrency does.
func WithConcurrency(n int) Option {
	return func(c *config) { c.concurrency, c.concurrencySet = n, true }
}

// WithRequestHook adds fn to the options of every request dynosql sends:
// the SDK's own way to add middleware (tracing, counting, retries).
func WithRequestHook(fn func(*dynamodb.Options)) Option {
	return func(c *config) { c.hooks = append(c.hooks, fn) }
}

// WithNonAtomicInserts lets an INSERT of more rows than one transaction
// holds (100 items, 4 MB) be written one transaction after another; if
// one fails, the rows of those before it stay written (the error says
// which). Without it, such an INSERT is refused before anything is sent.
func WithNonAtomicInserts() Option { return func(c *config) { c.nonAtomicInserts = true } }

// WithScans lets a statement that no key serves Scan the table, in
// parallel segments, with a warning giving the table's size (Rows.Warnings,
// Result.Warnings). Without it such statements are refused; indexes the
// mapping marks scan: true are scanned either way, and only when the WHERE
// keeps to the items they hold.
func WithScans() Option { return func(c *config) { c.allowScan = true } }

// WithoutTableCheck skips the DescribeTable call that Open makes to check
// the mapping against the table (for tools that create the table later).
func WithoutTableCheck() Option { return func(c *config) { c.checkTable = false } }

// Open returns a DB for mapping m over client. Unless WithoutTableCheck is
// given, it checks the mapping against DescribeTable (key names, index
// names and keys) and learns each index's projection.
//
// A statement may also name a DynamoDB table the mapping does not
// describe: it is read raw, its columns the items' attributes (see
// mapping.Raw), after one DescribeTable the first time it is named. With
// a nil m every table is read raw.
func Open(ctx context.Context, m *mapping.Mapping, client Client, opts ...Option) (*DB, error) {
	c := config{checkTable: true}
	for _, o := range opts {
		o(&c)
	}
	if !c.maxAffectedSet {
		c.maxAffected = DefaultMaxAffected
	}
	if c.concurrencySet && c.concurrency < 1 {
		// The executor would take it for the default, 8: not what was asked.
		return nil, errs.New(errs.Invalid, "WithConcurrency(%d): give at least 1 request in flight", c.concurrency).
			WithHint("the default, 8, suits DynamoDB; leave WithConcurrency out for it")
	}
	var quirks planner.Quirks
	if c.checkTable && m != nil {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(m.Table)})
		if err != nil {
			e := errs.As(describeError(m, err))
			return nil, e
		}
		if err := m.CheckTable(out.Table); err != nil {
			return nil, err
		}
		if out.Table.TableStatus == "" {
			// Only the embedded server (minidyn) describes a table
			// without a status.
			quirks = embeddedQuirks
		}
	}
	if c.embedded {
		// OpenEmbedded knows its server, checked table or not
		// (WithoutTableCheck).
		quirks = embeddedQuirks
	}
	hooks := c.safety.open(c.hooks)
	if quirks.FloatNumbers {
		hooks = append(hooks, backend.GuardValues)
	}
	exec := executor.New(client, executor.Options{Concurrency: c.concurrency, OnRequest: hooks})
	cat := newCatalog(m, exec)
	return &DB{
		m:   m,
		cat: cat,
		planner: planner.New(cat, planner.Options{Consistent: c.consistent, Quirks: quirks, NonAtomicInserts: c.nonAtomicInserts, AllowScan: c.allowScan,
			MaxAffected: c.maxAffected}),
		exec:   exec,
		safety: c.safety,
		cache:  newPlanCache(planCacheSize),
	}, nil
}

// OpenFile loads the mapping at path and opens a DB with it.
func OpenFile(ctx context.Context, path string, client Client, opts ...Option) (*DB, error) {
	m, err := mapping.Load(path)
	if err != nil {
		return nil, err
	}
	return Open(ctx, m, client, opts...)
}

// Mapping returns the DB's mapping, nil when it has none.
func (db *DB) Mapping() *mapping.Mapping { return db.m }

// Entity returns the logical table name names: an entity of the
// mapping, or a DynamoDB table read raw, described (one DescribeTable)
// the first time it is named.
func (db *DB) Entity(ctx context.Context, name string) (*mapping.Entity, error) {
	if err := db.open(); err != nil {
		return nil, err
	}
	if e, err := db.cat.Entity(name); err == nil {
		return e, nil
	}
	if err := db.cat.describe(ctx, name); err != nil {
		return nil, err
	}
	return db.cat.Entity(name)
}

// Close releases what the DB started (the embedded backend of OpenDemo
// and OpenEmbedded); a DB over a caller's client has nothing to release.
// Statements after Close are refused with ErrInvalid, as database/sql
// refuses them after its Close; rows still being read from an embedded
// backend end with an error. Later calls, from any goroutine, do nothing.
func (db *DB) Close() error {
	var first error
	db.closeOnce.Do(func() {
		db.closed.Store(true)
		for _, c := range db.closers {
			if err := c(); err != nil && first == nil {
				first = err
			}
		}
	})
	return first
}

// open refuses a statement once the DB is closed: its embedded backend
// is gone, and a request would fail as if the endpoint were wrong, or a
// write as if it might have landed.
func (db *DB) open() error {
	if db.closed.Load() {
		return errs.New(errs.Invalid, "the DB is closed").WithHint("open a new one")
	}
	return nil
}

// Explain plans sql with args without sending anything and returns the
// plan: its String method draws the tree EXPLAIN prints, and Requests
// lists the DynamoDB requests, the JSON form. EXPLAIN in front of sql is
// allowed and ignored. QueryPlan or ExecPlan run the plan.
//
// A plan may be shared with other calls planning the same text (see
// PlanContext): read it, do not change what its fields point to.
func (db *DB) Explain(sql string, args ...any) (*planner.Plan, error) {
	return db.planText(context.Background(), sql, args, true)
}

// Plan parses and plans sql with args, for QueryPlan or ExecPlan. Unlike
// Explain, it keeps an EXPLAIN statement as it is: the plan's Explain
// field tells the caller to print it only. Planning sends nothing, but
// for a DescribeTable of each raw table the DB has not described yet.
func (db *DB) Plan(sql string, args ...any) (*planner.Plan, error) {
	return db.PlanContext(context.Background(), sql, args...)
}

// PlanContext is Plan with a context for the DescribeTable requests of
// raw tables named for the first time.
//
// The DB remembers the last few hundred statements it planned: the same
// text again is not parsed again, and with the same arguments (or none)
// not planned again either. The plan returned is then shared: each call
// gets its own Plan struct, but the steps, slots and columns it points
// to are the same, and must not be changed.
func (db *DB) PlanContext(ctx context.Context, sql string, args ...any) (*planner.Plan, error) {
	return db.planText(ctx, sql, args, false)
}

// planText plans sql through the cache; explain drops a leading EXPLAIN
// (DB.Explain), keeping its FORMAT for ExplainAs.
func (db *DB) planText(ctx context.Context, sql string, args []any, explain bool) (*planner.Plan, error) {
	if err := db.open(); err != nil {
		return nil, err
	}
	key := cacheKey(sql, explain)
	stmt, plan, planArgs := db.cache.get(key)
	if stmt == nil {
		var err error
		if stmt, err = parser.Parse(sql); err != nil {
			return nil, err
		}
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	if err := checkArgCount(stmt, vals); err != nil {
		return nil, err
	}
	ak, keep := argsKey(vals)
	if plan != nil && keep && ak == planArgs {
		return plan, nil
	}
	inner := stmt
	ex, explained := stmt.(*parser.Explain)
	if explained && explain {
		inner = ex.Statement
	}
	if plan, err = db.plan(ctx, sql, inner, vals); err != nil {
		return nil, err
	}
	if explained && explain {
		plan.ExplainFormat = ex.Format
	}
	if !keep {
		db.cache.put(key, stmt, nil, "")
		return plan, nil
	}
	db.cache.put(key, stmt, plan, ak)
	return plan, nil
}

// describeTimeout bounds the DescribeTable of a raw table when the
// caller's context has no deadline of its own.
const describeTimeout = 30 * time.Second

func (db *DB) plan(ctx context.Context, sql string, stmt parser.Statement, vals []value.Value) (*planner.Plan, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, describeTimeout)
		defer cancel()
	}
	if err := db.cat.learn(ctx, sql, stmt); err != nil {
		return nil, err
	}
	return db.planner.Plan(sql, stmt, vals)
}

// Query runs a statement that returns rows: SELECT, EXPLAIN, or CHECK
// COPIES. Rows are read from DynamoDB as Next asks for them. args fill
// the statement's ? placeholders in order, as DynamoDB values
// (value.FromGo says which Go values are taken).
func (db *DB) Query(ctx context.Context, sql string, args ...any) (*Rows, error) {
	p, err := db.PlanContext(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return db.QueryPlan(ctx, p)
}

// QueryPlan runs a plan from Explain (or any read plan) and returns its rows.
func (db *DB) QueryPlan(ctx context.Context, p *planner.Plan) (*Rows, error) {
	if err := db.open(); err != nil {
		return nil, err
	}
	if err := notControl(p); err != nil {
		return nil, err
	}
	if p.Explain && p.Analyze {
		// It runs the statement, as in the shell, and returns what
		// EXPLAIN ANALYZE prints, a line a row.
		a, err := db.Analyze(ctx, p)
		if err != nil {
			return nil, err
		}
		return textRows(a.String()), nil
	}
	if p.Explain {
		return textRows(p.String()), nil
	}
	ctx, err := db.safety.enter(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.Writes {
		return nil, errs.New(errs.Invalid, "this statement writes and returns no rows").WithHint("use Exec")
	}
	r, err := db.exec.Query(ctx, p)
	if err != nil {
		return nil, err
	}
	cols := r.Columns()
	return &Rows{src: r, columns: cols, types: columnTypes(p, cols)}, nil
}

// columnTypes returns the type of each output column. A raw table's
// SELECT * has columns the plan did not know: the key attributes have
// the table's key types, other attributes none.
func columnTypes(p *planner.Plan, cols []string) []string {
	types := make([]string, len(cols))
	if _, spread := p.Root.(*planner.Spread); !spread {
		for i, c := range p.Columns {
			types[i] = c.Type
		}
		return types
	}
	for i, name := range cols {
		for _, sl := range p.Slots {
			if t := sl.Entity.Columns[name]; t != "" && sl.Entity.IsKeyColumn(name) {
				types[i] = t
				break
			}
		}
	}
	return types
}

// Result is what a write did.
type Result struct {
	// RowsAffected counts the rows inserted, updated or deleted.
	RowsAffected int64
	// CopiesUpdated and CopiesSkipped count, for an UPDATE of a value that
	// other items copy, the copies rewritten and the copies left because
	// they no longer held the old value.
	CopiesUpdated int64
	CopiesSkipped int64
	// Warnings are what the statement's reads found wrong without
	// failing (see Rows.Warnings).
	Warnings []string
}

// Exec runs a statement that writes: INSERT, UPDATE, DELETE or REPAIR
// COPIES.
func (db *DB) Exec(ctx context.Context, sql string, args ...any) (Result, error) {
	p, err := db.PlanContext(ctx, sql, args...)
	if err != nil {
		return Result{}, err
	}
	return db.ExecPlan(ctx, p)
}

// ExecPlan runs a write plan.
func (db *DB) ExecPlan(ctx context.Context, p *planner.Plan) (Result, error) {
	if err := db.open(); err != nil {
		return Result{}, err
	}
	if err := notControl(p); err != nil {
		return Result{}, err
	}
	if p.Explain || !p.Writes {
		return Result{}, errs.New(errs.Invalid, "this statement returns rows").WithHint("use Query")
	}
	ctx, err := db.safety.enter(ctx, p)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		// Ended before anything was sent: a request sent with it would
		// fail and leave whether it landed unknown, which it is not.
		return Result{}, errs.New(errs.Canceled, "%s was not sent: %v", p.Verb, err).Wrap(err).
			WithHint("nothing was written; run it again with a context that has not ended")
	}
	r, err := db.exec.Exec(ctx, p)
	if err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: r.Affected, CopiesUpdated: r.CopiesUpdated, CopiesSkipped: r.CopiesSkipped, Warnings: r.Warnings}, nil
}

// checkArgCount refuses arguments left over, a ? missing from the SQL
// (too few are the planner's to refuse, where a ? needs one).
func checkArgCount(stmt parser.Statement, vals []value.Value) error {
	if len(vals) == 0 {
		return nil // the common case, a repeated statement's: no walk
	}
	if n := max(parser.Placeholders(stmt), 0); len(vals) > n {
		return errs.New(errs.Invalid, "the statement has %d placeholder(s) but %d arguments were given", n, len(vals)).
			WithHint("pass one argument for each ?")
	}
	return nil
}

// notControl refuses BEGIN, COMMIT and ROLLBACK, which steer the
// shell's session: from Go, a transaction is a Tx.
func notControl(p *planner.Plan) error {
	if p.Control == planner.NoControl {
		return nil
	}
	return errs.New(errs.Unsupported, "BEGIN, COMMIT and ROLLBACK steer the shell's transaction; from Go a transaction is a Tx").
		WithHint("use DB.Begin, or database/sql's DB.BeginTx, and its Commit or Rollback")
}

// describeError says why the table could not be described, in DynamoDB's
// words when it answered, and what to do about it.
func describeError(m *mapping.Mapping, err error) error {
	err = errs.FromAWS("DescribeTable", m.Table, err)
	var be *errs.BackendError
	if errors.As(err, &be) && be.Code == "ResourceNotFoundException" {
		be.Base.WithHint("no table %s at this endpoint and region: create it (dynosql --create-table), or check --region and the mapping's table", m.Table)
	}
	return err
}

// values converts Go arguments to DynamoDB values.
func values(args []any) ([]value.Value, error) {
	out := make([]value.Value, len(args))
	for i, a := range args {
		v, err := value.FromGo(a)
		if err == nil {
			err = holdable(v)
		}
		if err != nil {
			// Wrapped: a driver.Valuer's own error stays testable with errors.Is.
			return nil, errs.New(errs.Invalid, "argument %d: %v", i+1, err).Wrap(err)
		}
		out[i] = v
	}
	return out, nil
}

// holdable refuses, at any depth, what DynamoDB would refuse or store
// otherwise than given, as the parser refuses such literals: text that is
// not UTF-8 (it would be stored with U+FFFD in place of the bad bytes) and
// numbers past its precision or range.
func holdable(v value.Value) error {
	switch x := v.(type) {
	case string:
		if !utf8.ValidString(x) {
			return fmt.Errorf("%q is not UTF-8 text, which DynamoDB strings are; pass []byte for a binary", x)
		}
	case value.Number:
		if why, _ := parser.NumberProblem(string(x)); why != "" {
			return fmt.Errorf("%s %s", x, why)
		}
	case value.StringSet:
		if len(x) == 0 {
			return fmt.Errorf("an empty string set ([]string{}), which DynamoDB cannot hold; pass nil for NULL, or []any{} for an empty list")
		}
		for _, s := range x {
			if err := holdable(s); err != nil {
				return err
			}
		}
	case value.NumberSet:
		if len(x) == 0 {
			return fmt.Errorf("an empty number set, which DynamoDB cannot hold; pass nil for NULL")
		}
		for _, n := range x {
			if err := holdable(n); err != nil {
				return err
			}
		}
	case []value.Value:
		for _, e := range x {
			if err := holdable(e); err != nil {
				return err
			}
		}
	case map[string]value.Value:
		for k, e := range x {
			if err := holdable(k); err != nil {
				return err
			}
			if err := holdable(e); err != nil {
				return err
			}
		}
	}
	return nil
}
