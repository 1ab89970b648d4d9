// Package testkit sets up what end-to-end tests share: the two backends
// every behaviour test runs on (DynamoDB Local and the embedded server),
// a fresh table loaded with a dataset from testdata/, a DB over it, and
// the SQLite oracle holding the same rows.
package testkit

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// Backend is one DynamoDB implementation the tests run against.
type Backend struct {
	Name   string
	Client func(t testing.TB) *dynamodb.Client
}

// Backends returns DynamoDB Local (the reference) and the embedded server.
func Backends() []Backend {
	return []Backend{
		{Name: "ddblocal", Client: ddblocal.Client},
		{Name: "embedded", Client: Embedded},
	}
}

// Embedded starts an embedded server for t, stopped when t ends, and
// returns a client for it.
func Embedded(t testing.TB) *dynamodb.Client {
	t.Helper()
	srv, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c, err := backend.NewClient(context.Background(), backend.Options{Endpoint: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Testdata returns the path of a file under the module's testdata/.
func Testdata(parts ...string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(file), "..", "..", "testdata"}, parts...)...)
}

// Fixture is a dataset loaded into a fresh table and into SQLite.
type Fixture struct {
	DB      *dynosql.DB
	Client  *dynamodb.Client
	Mapping *mapping.Mapping
	Rows    []backend.DatasetRow
	Oracle  *oracle.DB
}

// Load creates a table of its own on b for the dataset testdata/<name>/
// (mapping.yaml and data.jsonl), loads the rows into it and into SQLite,
// and opens a DB over it with opts. Everything is released when t ends.
func Load(t testing.TB, b Backend, name string, opts ...dynosql.Option) *Fixture {
	t.Helper()
	return LoadWith(t, b, name, nil, opts...)
}

// LoadWith is Load with the mapping adjusted before the table is created
// (say, GSI1 made KEYS_ONLY).
func LoadWith(t testing.TB, b Backend, name string, adjust func(*mapping.Mapping), opts ...dynosql.Option) *Fixture {
	t.Helper()
	m, err := mapping.Load(Testdata(name, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if adjust != nil {
		adjust(m)
	}
	data, err := os.Open(Testdata(name, "data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = data.Close() }()
	rows, err := backend.ReadDataset(data, m)
	if err != nil {
		t.Fatal(err)
	}
	return LoadRows(t, b, m, rows, opts...)
}

// LoadText is LoadRows for a mapping written as YAML text and rows as
// dataset JSON lines (possibly none): the small designs a test spells
// out beside its statements.
func LoadText(t testing.TB, b Backend, mappingYAML, rows string, opts ...dynosql.Option) *Fixture {
	t.Helper()
	m, err := mapping.Parse("test.yaml", []byte(mappingYAML))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := backend.ReadDataset(strings.NewReader(rows), m)
	if err != nil {
		t.Fatal(err)
	}
	return LoadRows(t, b, m, parsed, opts...)
}

// LoadRows creates a table of its own on b for mapping m (renamed so no
// other test shares it), writes rows into it and into SQLite, and opens a
// DB over it.
func LoadRows(t testing.TB, b Backend, m *mapping.Mapping, rows []backend.DatasetRow, opts ...dynosql.Option) *Fixture {
	t.Helper()
	ctx := context.Background()
	m.Table = ddblocal.UniqueTable(t, m.Table)
	client := b.Client(t)
	if err := backend.CreateTable(ctx, client, m); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = backend.DeleteTable(context.Background(), client, m) })
	if _, err := backend.Write(ctx, client, m, rows); err != nil {
		t.Fatal(err)
	}
	orc, err := oracle.Open(m, rows)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = orc.Close() })
	db, err := dynosql.Open(ctx, m, client, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return &Fixture{DB: db, Client: client, Mapping: m, Rows: rows, Oracle: orc}
}

// Query runs sql through the fixture's DB and collects its rows.
func (fx *Fixture) Query(ctx context.Context, sql string, args ...any) ([][]value.Value, error) {
	rows, err := fx.DB.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var got [][]value.Value
	for rows.Next() {
		got = append(got, rows.RawValues())
	}
	return got, rows.Err()
}

// AgreeWithSQLite runs q through dynosql and through SQLite and fails t
// when the rows differ (as lists when q orders them, else as multisets).
func (fx *Fixture) AgreeWithSQLite(t testing.TB, q Select) {
	t.Helper()
	fx.AgreeWithSQLiteExcept(t, q, nil)
}

// AgreeWithSQLiteExcept is AgreeWithSQLite on the rows for which drop
// (when not nil) is false, on both sides: for rows SQLite is known to
// answer otherwise.
func (fx *Fixture) AgreeWithSQLiteExcept(t testing.TB, q Select, drop func([]value.Value) bool) {
	t.Helper()
	want, err := fx.Oracle.Query(q.OracleSQL())
	if err != nil {
		t.Fatalf("sqlite: %v", err)
	}
	got, err := fx.Query(context.Background(), q.SQL, q.Args...)
	if err != nil {
		t.Fatalf("dynosql: %v", err)
	}
	if drop != nil {
		got, want = slices.DeleteFunc(got, drop), slices.DeleteFunc(want, drop)
	}
	if diff := oracle.SameRows(got, want, q.Ordered()); diff != "" {
		t.Errorf("rows differ from SQLite:\n%s", diff)
	}
}
