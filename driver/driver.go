// Package driver makes dynosql a database/sql driver. Importing it
// registers the driver under the name "dynosql":
//
//	import _ "github.com/dynosql/dynosql/driver"
//
//	db, err := sql.Open("dynosql", "mapping=school.yaml&endpoint=http://127.0.0.1:8000&region=us-east-1")
//	rows, err := db.QueryContext(ctx, "SELECT name FROM students WHERE id = ?", "a91")
//
// A program that already has a *dynosql.DB wraps it instead, without
// the registry:
//
//	sqlDB := sql.OpenDB(driver.NewConnector(db))
//
// # Data source names
//
// A DSN is a URL query string (keys and values URL-escaped, joined by &):
//
//	mapping=PATH      the mapping file; absent: every table is read raw
//	                  (needed with embedded=1)
//	endpoint=URL      DynamoDB endpoint such as http://127.0.0.1:8000;
//	                  absent: AWS itself
//	region=NAME       AWS region; absent: from the environment
//	profile=NAME      shared config profile; absent: the default chain
//	consistent=true   strongly consistent reads (see dynosql.WithConsistentReads)
//	concurrency=N     requests one statement has in flight (dynosql.WithConcurrency)
//	readonly=1        refuse every write before anything is sent (dynosql.WithReadOnly)
//	retry_ceiling=D   how long a throttled request is retried, e.g. 90s
//	                  (dynosql.WithRetryCeiling; default 60s)
//	nonatomic_inserts=1  write an INSERT of more than 100 rows one
//	                  transaction after another (dynosql.WithNonAtomicInserts)
//	allow_scan=1      let a statement no key serves Scan the table (dynosql.WithScans)
//	max_affected=N    rows an UPDATE or DELETE may change; more is refused
//	                  (dynosql.WithMaxAffected; default 1000, 0 for no limit)
//	embedded=1        an in-memory DynamoDB in this process, with the
//	                  mapping's table created empty (dynosql.OpenEmbedded)
//	demo=1            the embedded backend loaded with the built-in school
//	                  dataset; needs no mapping (dynosql.OpenDemo)
//
// An unknown key is an error, so that a misspelt option is not silently
// ignored. With a local endpoint and no credentials in the environment,
// requests are signed with dummy credentials, which DynamoDB Local
// accepts.
//
// # Connections
//
// All connections of one sql.DB share one *dynosql.DB, which is safe for
// concurrent use; it is opened by the first connection (checking the
// mapping against DescribeTable) and closed, with any embedded backend,
// by sql.DB.Close. A connector from NewConnector leaves the *dynosql.DB
// it was given open: its owner closes it.
//
// # Statements and values
//
// Arguments fill ? placeholders by position and are sent as DynamoDB
// values, never spliced into the text. They may be what dynosql's own
// Query takes (strings, integers, floats, bools, nil, json.Number,
// []string for a string set, []any and map[string]any for lists and
// maps) or a driver.Valuer that yields one of those. Named arguments
// (sql.Named) are refused.
//
// Columns come back as dynosql.DriverValue gives them: string, bool, nil
// for NULL, JSON text for lists, maps and sets, and for numbers int64
// (whole, fits), else the digits as a string, as drivers return DECIMAL:
// scanning into *float64 converts them, and into a string or a decimal
// type keeps every digit. ColumnTypeDatabaseTypeName reports the DynamoDB type of each
// column (S, N, BOOL, L, M, SS, NS) as the mapping declares it.
//
// Exec returns a Result whose RowsAffected counts the rows inserted,
// updated or deleted (the counts of denormalized copies rewritten are in
// dynosql.Result only); LastInsertId is an error, as DynamoDB generates
// no keys.
//
// Errors come back from database/sql as dynosql returned them, so
// errors.Is(err, dynosql.ErrRefused) and errors.As to *dynosql.Error,
// *dynosql.ScanRefusedError or *dynosql.ConditionFailedError work on
// them as on the root package's.
//
// # Transactions
//
// A sql.Tx is one DynamoDB TransactWriteItems: its writes (INSERT, and
// UPDATE or DELETE naming one row by its full key) are planned and
// checked when run, and sent together at Commit, all of them or none.
// A failed condition (a row already there, or missing, or failing its
// WHERE) fails Commit with dynosql.ErrConflict naming the statement,
// and nothing is written. Reads inside a transaction are refused:
// DynamoDB lets nothing be read in between. Rollback sends nothing.
package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

func init() { sql.Register("dynosql", Driver{}) }

// Driver is the database/sql driver registered as "dynosql". Programs use
// it through sql.Open; it is exported for sql.Register under another name.
type Driver struct{}

var (
	_ driver.Driver        = Driver{}
	_ driver.DriverContext = Driver{}
)

// Open opens a connection with a *dynosql.DB of its own, closed with the
// connection. database/sql calls OpenConnector instead, which shares one
// *dynosql.DB between connections.
func (d Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	cn, err := c.Connect(context.Background())
	if err != nil {
		return nil, err
	}
	cn.(*conn).release = c.(*connector).Close
	return cn, nil
}

// OpenConnector parses dsn (see the package documentation) and returns a
// connector that opens the *dynosql.DB on its first Connect.
func (Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &connector{cfg: cfg}, nil
}

// NewConnector returns a connector whose connections all run statements
// on db, for sql.OpenDB. Closing the sql.DB does not close db.
func NewConnector(db *dynosql.DB) driver.Connector {
	return &connector{db: db}
}

// dsnConfig is a parsed data source name.
type dsnConfig struct {
	mapping, endpoint, region, profile string
	embedded, demo                     bool
	opts                               []dynosql.Option
}

var dsnKeys = []string{"mapping", "endpoint", "region", "profile", "consistent", "concurrency", "embedded", "demo", "readonly", "retry_ceiling", "nonatomic_inserts", "allow_scan", "max_affected"}

func parseDSN(dsn string) (*dsnConfig, error) {
	q, err := url.ParseQuery(dsn)
	if err != nil {
		return nil, dsnError("%v", err)
	}
	cfg := &dsnConfig{}
	for key, vals := range q {
		if !slices.Contains(dsnKeys, key) {
			e := dsnError("unknown key %q", key)
			if near := errs.Nearest(key, dsnKeys); near != "" {
				e.Message += "; did you mean " + near + "?"
			}
			return nil, e
		}
		if len(vals) > 1 {
			return nil, dsnError("%s is given %d times", key, len(vals))
		}
		v := vals[0]
		switch key {
		case "mapping":
			cfg.mapping = v
		case "endpoint":
			cfg.endpoint = v
		case "region":
			cfg.region = v
		case "profile":
			cfg.profile = v
		case "consistent", "embedded", "demo", "readonly", "nonatomic_inserts", "allow_scan":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, dsnError("%s=%q is not true or false", key, v)
			}
			switch key {
			case "consistent":
				cfg.opts = append(cfg.opts, dynosql.WithConsistentReads(b))
			case "embedded":
				cfg.embedded = b
			case "demo":
				cfg.demo = b
			case "readonly":
				if b {
					cfg.opts = append(cfg.opts, dynosql.WithReadOnly())
				}
			case "nonatomic_inserts":
				if b {
					cfg.opts = append(cfg.opts, dynosql.WithNonAtomicInserts())
				}
			case "allow_scan":
				if b {
					cfg.opts = append(cfg.opts, dynosql.WithScans())
				}
			}
		case "max_affected":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, dsnError("max_affected=%q is not a whole number of rows (0 for no limit)", v)
			}
			cfg.opts = append(cfg.opts, dynosql.WithMaxAffected(n))
		case "concurrency":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, dsnError("concurrency=%q is not a positive whole number", v)
			}
			cfg.opts = append(cfg.opts, dynosql.WithConcurrency(n))
		case "retry_ceiling":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return nil, dsnError("retry_ceiling=%q is not a positive duration such as 90s or 5m", v)
			}
			cfg.opts = append(cfg.opts, dynosql.WithRetryCeiling(d))
		}
	}
	switch {
	case cfg.demo && (cfg.embedded || cfg.mapping != "" || cfg.endpoint != ""):
		return nil, dsnError("demo=1 brings its own mapping and backend; give it alone")
	case cfg.embedded && cfg.endpoint != "":
		return nil, dsnError("embedded=1 and endpoint=%s name two backends; give one", cfg.endpoint)
	case cfg.embedded && cfg.mapping == "":
		return nil, dsnError("embedded=1 needs a mapping: the table it makes is the mapping's").
			WithHint("add mapping=path/to/mapping.yaml, or use demo=1 for the built-in school dataset")
	}
	return cfg, nil
}

// dsnError is an error about the DSN. Its message is redacted: a DSN
// may be a connection string someone pasted credentials into.
func dsnError(format string, args ...any) *errs.Error {
	e := errs.New(errs.Invalid, "dynosql DSN: "+format, args...)
	e.Message = errs.Redact(e.Message)
	return e
}

// open opens the *dynosql.DB that cfg describes.
func (cfg *dsnConfig) open(ctx context.Context) (*dynosql.DB, error) {
	switch {
	case cfg.demo:
		return dynosql.OpenDemo(ctx, cfg.opts...)
	case cfg.embedded:
		m, err := mapping.Load(cfg.mapping)
		if err != nil {
			return nil, err
		}
		return dynosql.OpenEmbedded(ctx, m, cfg.opts...)
	}
	// The mapping first: a wrong path is the mistake to report, not the
	// region or the credentials it would otherwise wait behind.
	var m *mapping.Mapping // nil: every table read raw
	if cfg.mapping != "" {
		var err error
		if m, err = mapping.Load(cfg.mapping); err != nil {
			return nil, err
		}
	}
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: cfg.endpoint, Region: cfg.region, Profile: cfg.profile})
	if err != nil {
		return nil, err
	}
	return dynosql.Open(ctx, m, client, cfg.opts...)
}

// connector hands out connections over one *dynosql.DB: the one it was
// given, or the one it opens from cfg on the first Connect and owns.
type connector struct {
	cfg *dsnConfig // nil when db was given

	mu sync.Mutex
	db *dynosql.DB
}

var _ driver.Connector = (*connector)(nil)

// Connect returns a connection, opening the DB first if need be. A failed
// open is not remembered: the next Connect tries again.
func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db == nil {
		db, err := c.cfg.open(ctx)
		if err != nil {
			return nil, err
		}
		c.db = db
	}
	return &conn{db: c.db}, nil
}

// Driver returns the dynosql driver.
func (c *connector) Driver() driver.Driver { return Driver{} }

// Close closes the DB the connector opened; sql.DB.Close calls it.
func (c *connector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg == nil || c.db == nil {
		return nil
	}
	db := c.db
	c.db = nil
	return db.Close()
}
