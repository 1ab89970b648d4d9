package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// loadDocs loads n docs, all with body 'x', one item each, in a table
// whose reads by body need a Scan (allowed).
func loadDocs(t *testing.T, b testkit.Backend, n int, opts ...dynosql.Option) *testkit.Fixture {
	t.Helper()
	var data strings.Builder
	for i := range n {
		fmt.Fprintf(&data, `{"entity":"docs","row":{"id":"d%04d","body":"x"}}`+"\n", i)
	}
	return testkit.LoadText(t, b, `
table: Big
partition_key: PK
sort_key: SK
entities:
  docs:
    keys: {PK: "D#{id}", SK: "DOC"}
    columns: {id: S, body: S}
`, data.String(), append([]dynosql.Option{dynosql.WithScans()}, opts...)...)
}

// A Scan whose context ends part way ends with an error, never as if the
// table had no more items: a caller checking rows.Err() would take the
// rows it got for the whole answer. The Scan pages hold one item each
// (the shape of a large table), and the caller is slow after its first
// row, so that the Scan's segments see the end before the next Next.
func TestACanceledScanIsAnErrorNotAShortAnswer(t *testing.T) {
	const docs = 40
	onePerPage := testkit.Hook("scanPage", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if s, ok := in.Parameters.(*dynamodb.ScanInput); ok {
			one := int32(1)
			s.Limit = &one
		}
		return next.HandleInitialize(ctx, in)
	})
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := loadDocs(t, b, docs, onePerPage)
			// About one run in five ended quietly before the fix: forty
			// runs all pass by chance once in 7,000.
			for run := range 40 {
				ctx, cancel := context.WithCancel(context.Background())
				rows, err := fx.DB.Query(ctx, "SELECT id FROM docs WHERE body <> ''")
				if err != nil {
					cancel()
					t.Fatal(err)
				}
				n := 0
				for rows.Next() {
					if n++; n == 1 {
						cancel()
						time.Sleep(5 * time.Millisecond)
					}
				}
				err = rows.Err()
				_ = rows.Close()
				cancel()
				if n < docs && !errors.Is(err, dynosql.ErrCanceled) {
					t.Fatalf("run %d: %d of %d rows, then %v; want a canceled error", run, n, docs, err)
				}
			}
		})
	}
}

// An UPDATE whose Scan fails in one segment stops the other segments
// too: they would otherwise page on, then wait for ever to hand over
// pages nobody reads, a goroutine each for the life of the process.
// Segment 0 fails on its second page, and the other segments send no
// second page before that, so that more pages are left than the Scan
// buffers. Not parallel: it counts the process's goroutines, and only
// DynamoDB Local reads segments apart (the embedded backend has one).
func TestAWriteWhoseScanFailsLeavesNoSegmentRunning(t *testing.T) {
	failed := make(chan struct{})
	var once sync.Once
	hook := testkit.Hook("failSegment0", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		s, ok := in.Parameters.(*dynamodb.ScanInput)
		if !ok {
			return next.HandleInitialize(ctx, in)
		}
		s.Limit = aws.Int32(1) // a page an item: the shape of a large table
		if s.ExclusiveStartKey != nil {
			if aws.ToInt32(s.Segment) == 0 {
				once.Do(func() { close(failed) })
				return middleware.InitializeOutput{}, middleware.Metadata{}, &smithy.GenericAPIError{Code: "ValidationException", Message: "injected"}
			}
			select {
			case <-failed:
			case <-ctx.Done():
				return middleware.InitializeOutput{}, middleware.Metadata{}, ctx.Err()
			}
		}
		return next.HandleInitialize(ctx, in)
	})
	fx := loadDocs(t, testkit.Backends()[0], 60, hook)
	_, err := fx.DB.Exec(context.Background(), "UPDATE docs SET body = 'y' WHERE body = 'x'")
	if err == nil || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("got %v, want the injected Scan failure", err)
	}
	left := 0
	for range 50 {
		if left = goroutinesIn("executor.(*scanIter).start"); left == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("%d goroutines of the failed Scan still running after 5 s", left)
}

// goroutinesIn counts the goroutines whose stack holds fn.
func goroutinesIn(fn string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			count := 0
			for _, g := range strings.Split(string(buf[:n]), "\n\n") {
				if strings.Contains(g, fn) {
					count++
				}
			}
			return count
		}
		buf = make([]byte, 2*len(buf))
	}
}

// A Scan's segments keep to --concurrency (WithConcurrency), as a join's
// lookups do: a session held to one request at a time, to spare a busy
// table, must not read it four segments at once. Each Scan request
// waits a little for another to join it, so that segments free to
// overlap do.
func TestAScanKeepsToTheConcurrency(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprintf("concurrency %d", n), func(t *testing.T) {
			var inFlight, most atomic.Int32
			hook := testkit.Hook("countScans", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				s, ok := in.Parameters.(*dynamodb.ScanInput)
				if !ok {
					return next.HandleInitialize(ctx, in)
				}
				s.Limit = aws.Int32(1)
				now := inFlight.Add(1)
				defer inFlight.Add(-1)
				for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
				}
				for range 10 {
					if inFlight.Load() > int32(n) {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				return next.HandleInitialize(ctx, in)
			})
			fx := loadDocs(t, testkit.Backends()[0], 8, dynosql.WithConcurrency(n), hook)
			rows, err := fx.Query(context.Background(), "SELECT id FROM docs WHERE body = 'x'")
			if err != nil || len(rows) != 8 {
				t.Fatalf("got %d rows, %v; want 8", len(rows), err)
			}
			if m := most.Load(); m > int32(n) {
				t.Errorf("%d Scan requests in flight at once, past the concurrency of %d", m, n)
			}
		})
	}
}
