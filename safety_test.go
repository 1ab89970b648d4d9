package dynosql_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// sentOps returns an option that records the operation of every request
// the DB sends, and a function listing them.
func sentOps() (dynosql.Option, func() []string) {
	var mu sync.Mutex
	var ops []string
	hook := testkit.Hook("sentOps", func(ctx context.Context, op string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		mu.Lock()
		ops = append(ops, op)
		mu.Unlock()
		return next.HandleInitialize(ctx, in)
	})
	return hook, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), ops...)
	}
}

// Read-only refuses every write before a single request is sent, the
// reads a partition write would start with included, and lets reads run.
func TestReadOnlySendsNoWriteRequest(t *testing.T) {
	hook, sent := sentOps()
	fx := testkit.Load(t, testkit.Backends()[1], "blog", dynosql.WithReadOnly(), hook)
	ctx := context.Background()
	for kind, sql := range map[string]string{
		"INSERT":        "INSERT INTO users (id, name) VALUES ('99', 'New')",
		"UPDATE":        "UPDATE users SET name = 'Renamed' WHERE id = '12'", // a source of 120 copies
		"DELETE":        "-- a comment first\nDELETE FROM posts WHERE authorId = '12'",
		"REPAIR COPIES": "REPAIR COPIES FOR users WHERE id = '12'",
	} {
		_, err := fx.DB.Exec(ctx, sql)
		if !errors.Is(err, dynosql.ErrReadOnly) {
			t.Fatalf("%s: got %v, want a read-only error", kind, err)
		}
		if want := "read-only: " + kind + " refused: "; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %q, want it to start %q", kind, err, want)
		}
		if p, err := fx.DB.Plan(sql); err == nil {
			if _, err := fx.DB.QueryPlan(ctx, p); !errors.Is(err, dynosql.ErrReadOnly) {
				t.Errorf("%s through QueryPlan: %v, want a read-only error", kind, err)
			}
		}
	}
	if ops := sent(); len(ops) != 0 {
		t.Fatalf("refused writes sent %v", ops)
	}
	if got := query(t, fx.DB, "SELECT name FROM users WHERE id = '12'"); len(got) != 1 {
		t.Errorf("a read: %v", got)
	}
	query(t, fx.DB, "CHECK COPIES FOR users WHERE id = '12'")
	query(t, fx.DB, "EXPLAIN UPDATE users SET name = 'x' WHERE id = '12'")
	for _, op := range sent() {
		switch op {
		case "GetItem", "Query", "BatchGetItem":
		default:
			t.Errorf("reads sent %s", op)
		}
	}
}

// The retry ceiling reaches the requests of a client the DB did not
// build, whose own retryer would give up after a few attempts.
func TestRetryCeilingReachesTheCallersClient(t *testing.T) {
	srv, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	proxy := testkit.StartProxy(t, srv.URL(), testkit.ProxyOptions{})
	client, err := backend.NewClient(context.Background(), backend.Options{Endpoint: proxy.URL()})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := backend.CreateTable(context.Background(), client, m); err != nil {
		t.Fatal(err)
	}
	const ceiling = 1500 * time.Millisecond
	db, err := dynosql.Open(context.Background(), m, client, dynosql.WithRetryCeiling(ceiling))
	if err != nil {
		t.Fatal(err)
	}
	proxy.Throttle(1, time.Minute)
	start := time.Now()
	rows, err := db.Query(context.Background(), "SELECT name FROM students WHERE id = 'a91'")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
	}
	took := time.Since(start)
	var ce *retry.CeilingError
	var be *dynosql.BackendError
	if !errors.As(err, &ce) || !errors.As(err, &be) || be.Code != "ThrottlingException" {
		t.Fatalf("got %v, want a ThrottlingException given up at the ceiling", err)
	}
	if took < ceiling || took > ceiling+time.Second {
		t.Errorf("gave up after %v, want just past the %v ceiling", took, ceiling)
	}
	t.Logf("%v after %v; proxy: %v", err, took, proxy.Requests())
}
