package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// blobMapping is one partition of large items, to cross DynamoDB's 1 MB
// page limit.
const blobMapping = `
table: Blobs
partition_key: PK
sort_key: SK
entities:
  blobs:
    keys: {PK: "BLOB#{grp}", SK: "ITEM#{id}"}
    columns: {grp: S, id: S, data: S, tag: S}
`

// loadBlobs writes n items of size bytes each into one partition.
func loadBlobs(t *testing.T, b testkit.Backend, n, size int, opts ...dynosql.Option) *testkit.Fixture {
	t.Helper()
	m, err := mapping.Parse("blobs.yaml", []byte(blobMapping))
	if err != nil {
		t.Fatal(err)
	}
	payload := strings.Repeat("x", size)
	var rows []backend.DatasetRow
	for i := range n {
		rows = append(rows, backend.DatasetRow{Entity: "blobs", Row: mapping.Row{
			"grp": "g", "id": fmt.Sprintf("%03d", i), "data": payload, "tag": "plain"}})
	}
	return testkit.LoadRows(t, b, m, rows, opts...)
}

// countStats runs sql with a stats counter and returns rows and counts.
func countStats(t *testing.T, fx *testkit.Fixture, sql string) ([][]value.Value, executor.Snapshot) {
	t.Helper()
	stats := executor.NewStats()
	rows, err := fx.Query(executor.WithStats(context.Background(), stats), sql)
	if err != nil {
		t.Fatal(err)
	}
	return rows, stats.Snapshot()
}

// A partition larger than 1 MB comes in several pages, all read
// (DYNAMODB.md 1.1).
func TestQueryPagesToTheEndPastTheOneMegabyteLimit(t *testing.T) {
	t.Parallel()
	fx := loadBlobs(t, testkit.Backends()[0], 64, 50_000) // DynamoDB Local: the embedded server has no page limit
	rows, st := countStats(t, fx, "SELECT id FROM blobs WHERE grp = 'g'")
	if len(rows) != 64 {
		t.Errorf("got %d rows, want all 64 across pages", len(rows))
	}
	if st.Requests["Query"] < 3 {
		t.Errorf("sent %d Query requests for 3.2 MB, want at least 3 pages", st.Requests["Query"])
	}
}

// pageLimitHook sets Limit on every Query, so each page evaluates that
// many items. Limit counts items before the filter, so with a filter that
// matches nothing every page is empty and still carries a
// LastEvaluatedKey: the shape DynamoDB gives a large partition whose
// matches are rare. (DynamoDB Local applies its 1 MB after the filter,
// unlike the service, so a real large partition would not show it there.)
func pageLimitHook(limit int32) dynosql.Option {
	return testkit.Hook("pageLimit", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if q, ok := in.Parameters.(*dynamodb.QueryInput); ok {
			q.Limit = &limit
		}
		return next.HandleInitialize(ctx, in)
	})
}

// An empty page with a LastEvaluatedKey is not the end of a Query.
func TestEmptyPagesDoNotEndAQuery(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := loadBlobs(t, b, 20, 10, pageLimitHook(3))
			rows, st := countStats(t, fx, "SELECT id FROM blobs WHERE grp = 'g' AND tag = 'none'")
			if len(rows) != 0 || st.Requests["Query"] < 7 {
				t.Errorf("got %d rows in %d Query requests, want 0 rows after 7 pages of 3 items", len(rows), st.Requests["Query"])
			}
			rows, _ = countStats(t, fx, "SELECT id FROM blobs WHERE grp = 'g' AND tag = 'plain' AND id > '015'")
			if len(rows) != 4 {
				t.Errorf("got %d rows, want the 4 items after 015, found on the last pages", len(rows))
			}
		})
	}
}

// Rows stream: a LIMIT satisfied by the first page sends no second Query.
func TestLimitStopsReadingEarly(t *testing.T) {
	t.Parallel()
	fx := loadBlobs(t, testkit.Backends()[0], 64, 50_000)
	rows, st := countStats(t, fx, "SELECT id FROM blobs WHERE grp = 'g' LIMIT 3")
	if len(rows) != 3 {
		t.Fatalf("got %d rows, want 3", len(rows))
	}
	if st.Requests["Query"] != 1 {
		t.Errorf("sent %d Query requests, want 1: the first page holds 3 rows", st.Requests["Query"])
	}
}

// More than 100 keys go in several BatchGetItem requests, duplicates
// removed (DynamoDB rejects both, where the embedded server does not).
func TestBatchGetSplitsAt100DistinctKeys(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			var ids []string
			for _, r := range fx.Rows {
				if r.Entity == "students" && len(ids) < 150 {
					ids = append(ids, "'"+r.Row["id"].(string)+"'")
				}
			}
			ids = append(ids, ids[:30]...) // duplicates
			sql := "SELECT id, name FROM students WHERE id IN (" + strings.Join(ids, ", ") + ")"
			fx.AgreeWithSQLite(t, testkit.Select{SQL: sql})
			_, st := countStats(t, fx, sql)
			if st.Requests["BatchGetItem"] != 2 {
				t.Errorf("sent %d BatchGetItem requests for 150 distinct keys, want 2", st.Requests["BatchGetItem"])
			}
			// 258 enrollments of cs101 → 258 students, looked up 100 outer rows at a time.
			join := "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'"
			fx.AgreeWithSQLite(t, testkit.Select{SQL: join})
			_, st = countStats(t, fx, join)
			if st.Requests["BatchGetItem"] != 3 {
				t.Errorf("sent %d BatchGetItem requests for 258 students, want 3", st.Requests["BatchGetItem"])
			}
		})
	}
}

// unprocessedHook returns a request hook that makes DynamoDB's first
// answers to BatchGetItem partial, as the service does under load: half
// of the items move to UnprocessedKeys, for the first n responses.
func unprocessedHook(m *mapping.Mapping, n int32) dynosql.Option {
	var left atomic.Int32
	left.Store(n)
	return testkit.Hook("unprocessed", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		out, md, err := next.HandleInitialize(ctx, in)
		res, ok := out.Result.(*dynamodb.BatchGetItemOutput)
		if err != nil || !ok || left.Add(-1) < 0 {
			return out, md, err
		}
		for table, items := range res.Responses {
			half := len(items) / 2
			ka := in.Parameters.(*dynamodb.BatchGetItemInput).RequestItems[table]
			asked := ka.Keys
			ka.Keys = nil
			for _, item := range items[half:] {
				// The key asked for: the item holds only the key
				// attributes its projection names.
				i := slices.IndexFunc(asked, func(k map[string]types.AttributeValue) bool {
					return mapping.Text(item[m.PartitionKey]) == mapping.Text(k[m.PartitionKey]) &&
						(item[m.SortKey] == nil || mapping.Text(item[m.SortKey]) == mapping.Text(k[m.SortKey]))
				})
				ka.Keys = append(ka.Keys, asked[i])
			}
			res.Responses[table] = items[:half]
			res.UnprocessedKeys = map[string]types.KeysAndAttributes{table: ka}
		}
		return out, md, err
	})
}

// A partial BatchGetItem is not an error: unprocessed keys are asked
// again, with backoff, until every row is there (DYNAMODB.md 2.2).
func TestUnprocessedKeysAreRetriedUntilDone(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			fx := testkit.Load(t, b, "school", unprocessedHook(m, 4))
			q := testkit.Select{SQL: "SELECT s.name, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'"}
			rows, st := countStats(t, fx, q.SQL)
			if len(rows) != 258 || st.Requests["BatchGetItem"] < 3+4 {
				t.Errorf("got %d rows in %d BatchGetItem requests, want 258 rows in 3 requests and 4 retries", len(rows), st.Requests["BatchGetItem"])
			}
			fx.AgreeWithSQLite(t, q)
		})
	}
}

// Canceling the statement's context stops the requests in flight and
// reports a canceled error, not a DynamoDB failure.
func TestCancelStopsTheStatement(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			stall := testkit.Hook("stall", func(ctx context.Context, op string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if op == "BatchGetItem" {
					<-ctx.Done() // a request that never answers in time
				}
				return next.HandleInitialize(ctx, in)
			})
			fx := testkit.Load(t, b, "school", stall)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := fx.Query(ctx, "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'")
			if !errors.Is(err, dynosql.ErrCanceled) {
				t.Fatalf("got %v, want a canceled error", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v to stop", d)
			}
		})
	}
}

// Open checks the mapping against the table DynamoDB describes.
func TestOpenRefusesAMappingThatDoesNotFitTheTable(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			bad := strings.ReplaceAll(blobMapping, "Blobs", fx.Mapping.Table)
			bad = strings.Replace(bad, "entities:", "indexes:\n  GSI2: {partition_key: G2PK}\nentities:", 1)
			bad = strings.Replace(bad, `SK: "ITEM#{id}"}`, `SK: "ITEM#{id}", G2PK: "T#{tag}"}`, 1)
			m, err := mapping.Parse("bad.yaml", []byte(bad))
			if err != nil {
				t.Fatal(err)
			}
			_, err = dynosql.Open(context.Background(), m, fx.Client)
			if !errors.Is(err, dynosql.ErrMapping) || !strings.Contains(err.Error(), "GSI2") {
				t.Fatalf("got %v, want a mapping error naming GSI2", err)
			}
		})
	}
}

// Ordered by the sort key with a LIMIT, a Query reads only the rows the
// statement returns: DynamoDB sorts (ScanIndexForward) and the Query's
// Limit cuts the page.
func TestOrderBySortKeyReadsOnlyTheRowsNeeded(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			q := testkit.Select{SQL: "SELECT student_id FROM enrollments WHERE course_id = 'cs101' ORDER BY student_id DESC LIMIT 3 OFFSET 2"}
			fx.AgreeWithSQLite(t, q)
			rows, st := countStats(t, fx, q.SQL)
			if len(rows) != 3 || st.Requests["Query"] != 1 || st.Items != 5 {
				t.Errorf("got %d rows from %d items in %d Query requests, want 3 rows from 5 items in 1", len(rows), st.Items, st.Requests["Query"])
			}
		})
	}
}

// Canceled while rows stream out of a join, the statement's error is a
// dynosql error of kind canceled, as before the first row. On DynamoDB
// Local: the embedded server may still be answering a canceled
// BatchGetItem when the test's cleanup deletes its table, and minidyn
// does not guard its tables against that (a data race under -race).
func TestCancelMidStreamIsACanceledError(t *testing.T) {
	fx := testkit.Load(t, testkit.Backends()[0], "school")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := fx.DB.Query(ctx, "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	if !rows.Next() {
		t.Fatalf("no first row: %v", rows.Err())
	}
	cancel()
	for rows.Next() {
	}
	if err := rows.Err(); !errors.Is(err, dynosql.ErrCanceled) {
		t.Errorf("rows.Err() = %v (%T), want a canceled error", err, err)
	}
}
