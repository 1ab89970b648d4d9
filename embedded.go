package dynosql

import (
	"bytes"
	"context"
	_ "embed"
	"slices"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

// The school dataset of the design articles, built into the binary for
// OpenDemo.
var (
	//go:embed testdata/school/mapping.yaml
	demoMapping []byte
	//go:embed testdata/school/data.jsonl
	demoData []byte
)

// OpenEmbedded starts an in-memory DynamoDB on a loopback port inside
// this process, creates the mapping's table in it, empty, and opens a DB
// over it with the ordinary SDK client. Close stops the server. It needs
// a mapping: the embedded server reports no key types, so its tables
// cannot be read raw.
func OpenEmbedded(ctx context.Context, m *mapping.Mapping, opts ...Option) (*DB, error) {
	if m == nil {
		return nil, errs.New(errs.Invalid, "OpenEmbedded needs a mapping: the table it makes is the mapping's").
			WithHint("load one with mapping.Load, or use OpenDemo for the built-in school dataset")
	}
	srv, err := backend.StartEmbedded()
	if err != nil {
		return nil, err
	}
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: srv.URL()})
	if err == nil {
		err = backend.CreateTable(ctx, client, m)
	}
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	db, err := Open(ctx, m, client, append(slices.Clone(opts), func(c *config) { c.embedded = true })...)
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	db.closers = append(db.closers, srv.Close)
	db.endpoint = srv.URL()
	return db, nil
}

// OpenDemo is OpenEmbedded with the built-in school dataset loaded:
// students, courses and enrollments, as in the design articles.
func OpenDemo(ctx context.Context, opts ...Option) (*DB, error) {
	m, err := mapping.Parse("demo:school/mapping.yaml", demoMapping)
	if err != nil {
		return nil, err
	}
	db, err := OpenEmbedded(ctx, m, opts...)
	if err != nil {
		return nil, err
	}
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: db.endpoint})
	if err == nil {
		_, err = backend.Load(ctx, client, m, bytes.NewReader(demoData))
	}
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// Endpoint returns the URL of the embedded backend, or "" for a DB over a
// caller's client.
func (db *DB) Endpoint() string { return db.endpoint }
