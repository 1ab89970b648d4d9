package bench

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

// ServeDirEnv names the folder TestServe writes into; without it
// TestServe skips.
const ServeDirEnv = "DYNOSQL_BENCH_DIR"

// serveFor bounds how long TestServe serves.
const serveFor = time.Hour

// TestServe is not a test but the set-up of BENCHMARKS.md's process
// figures: it starts DynamoDB Local, loads the School table with Rows
// (StreamItems extra enrollments), starts a proxy adding 5 ms to every
// request in front of it, writes into $DYNOSQL_BENCH_DIR the file env
// (ENDPOINT, DELAYED: the two URLs) and the scripts, and serves until
// interrupted or for an hour. Run it with
//
//	DYNOSQL_BENCH_DIR=/tmp/bench go test -run TestServe -timeout 0 -v ./internal/bench
func TestServe(t *testing.T) {
	dir := os.Getenv(ServeDirEnv)
	if dir == "" {
		t.Skipf("set %s to a folder to serve the benchmark data", ServeDirEnv)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	endpoint := ddblocal.Endpoint(t)
	client := ddblocal.Client(t)
	m, err := mapping.Load(SchoolMapping())
	if err != nil {
		t.Fatal(err)
	}
	students := load(ctx, t, client, m, StreamItems)
	proxy := testkit.StartProxy(t, endpoint, testkit.ProxyOptions{Delay: 5 * time.Millisecond})
	env := fmt.Sprintf("ENDPOINT=%s\nDELAYED=%s\nMAPPING=%s\n", endpoint, proxy.URL(), SchoolMapping())
	if err := os.WriteFile(filepath.Join(dir, "env"), []byte(env), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Scripts(dir, students); err != nil {
		t.Fatal(err)
	}
	t.Logf("table %s loaded; %s holds env and the scripts:\n%s", m.Table, dir, env)
	select {
	case <-ctx.Done():
	case <-time.After(serveFor):
	}
}

// load creates m's table on client, emptied first, and writes Rows with
// extra enrollments into it, four writers at a time. It returns the
// school's own students.
func load(ctx context.Context, t testing.TB, client *dynamodb.Client, m *mapping.Mapping, extra int) []string {
	t.Helper()
	_ = backend.DeleteTable(ctx, client, m)
	if err := backend.CreateTable(ctx, client, m); err != nil {
		t.Fatal(err)
	}
	rows, students, err := Rows(m, extra)
	if err != nil {
		t.Fatal(err)
	}
	const writers = 4
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := range writers {
		part := rows[len(rows)*w/writers : len(rows)*(w+1)/writers]
		wg.Go(func() {
			if _, err := backend.Write(ctx, client, m, part); err != nil {
				errc <- err
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	return students
}
