package dynosql_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// requestLog records what a statement sends: requests by operation, and
// the partition keys of each BatchGetItem.
type requestLog struct {
	mu      sync.Mutex
	ops     map[string]int
	batches [][]string
}

func (l *requestLog) hook() dynosql.Option {
	return testkit.Hook("requestLog", func(ctx context.Context, op string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		l.mu.Lock()
		l.ops[op]++
		if bg, ok := in.Parameters.(*dynamodb.BatchGetItemInput); ok {
			var pks []string
			for _, ka := range bg.RequestItems {
				for _, k := range ka.Keys {
					pks = append(pks, k["PK"].(*types.AttributeValueMemberS).Value)
				}
			}
			l.batches = append(l.batches, pks)
		}
		l.mu.Unlock()
		return next.HandleInitialize(ctx, in)
	})
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ops, l.batches = map[string]int{}, nil
}

// loadRoster loads the school mapping with a course c99 of n students
// (and a course c98 that every 24th also takes), so that a roster join
// crosses many BatchGetItems. Each enrollment of c99 carries pad bytes
// in enrolledOn, which no roster reads: 1000 take its Query past a 1 MB
// page.
func loadRoster(t testing.TB, b testkit.Backend, n, pad int, opts ...dynosql.Option) *testkit.Fixture {
	t.Helper()
	m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rows := []backend.DatasetRow{
		{Entity: "courses", Row: mapping.Row{"id": "c99", "title": "Big Lecture", "credits": "3"}},
		{Entity: "courses", Row: mapping.Row{"id": "c98", "title": "Seminar"}},
	}
	grades := []string{"A", "B", "C", "D", "F"}
	for i := range n {
		id := fmt.Sprintf("s%04d", i)
		rows = append(rows,
			backend.DatasetRow{Entity: "students", Row: mapping.Row{"id": id, "name": "Student " + id, "year": fmt.Sprint(1 + i%4)}},
			backend.DatasetRow{Entity: "enrollments", Row: mapping.Row{"student_id": id, "course_id": "c99", "grade": grades[i%5],
				"enrolledOn": "2026-09-01" + strings.Repeat(" ", pad)}})
		if i%24 == 0 {
			rows = append(rows, backend.DatasetRow{Entity: "enrollments", Row: mapping.Row{"student_id": id, "course_id": "c98"}})
		}
	}
	return testkit.LoadRows(t, b, m, rows, opts...)
}

// A join sends the DynamoDB minimum: one Query page per page the outer
// partition takes, then ceil(distinct keys / 100) BatchGetItems, every
// one full but the last. A key that depends on no outer row (the course
// of WHERE c.id = 'c99') is asked for once, not once per group of rows.
func TestJoinsSendTheRequestMinimum(t *testing.T) {
	cases := []struct {
		name, sql              string
		rows, queries, batches int
		keys                   int
	}{
		{"a course's roster", "SELECT s.name, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'c99'", 1200, 2, 12, 1200},
		{"the roster with the course's title", "SELECT s.name, c.title, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id JOIN courses c ON c.id = e.course_id WHERE c.id = 'c99'", 1200, 2, 13, 1201},
		// c98's 50 students take c99 and c98: a Query for each student,
		// then one for each of the 2 courses, not one per (student,
		// course) row. 50 rows of c98 and c99: 50 * (1 + 10) rows.
		{"the first students of each course of c98's students",
			"SELECT e.student_id, e2.course_id, e3.student_id FROM enrollments e JOIN enrollments e2 ON e2.student_id = e.student_id JOIN enrollments e3 ON e3.course_id = e2.course_id AND e3.student_id < 's0010' WHERE e.course_id = 'c98'",
			550, 1 + 50 + 2, 0, 0},
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			log := &requestLog{}
			log.reset()
			// Pages of 700 items: the outer Query takes two pages, as
			// a partition past DynamoDB's 1 MB page limit does.
			fx := loadRoster(t, b, 1200, 0, pageLimitHook(700), log.hook())
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					log.reset()
					rows, err := fx.Query(context.Background(), c.sql)
					if err != nil {
						t.Fatal(err)
					}
					if len(rows) != c.rows {
						t.Errorf("got %d rows, want %d", len(rows), c.rows)
					}
					log.mu.Lock()
					ops, batches := log.ops, log.batches
					log.mu.Unlock()
					if ops["Query"] != c.queries || ops["BatchGetItem"] != c.batches || ops["Query"]+ops["BatchGetItem"] != c.queries+c.batches {
						t.Errorf("sent %v; want Query %d and BatchGetItem %d (%d distinct keys), %d requests in all",
							ops, c.queries, c.batches, c.keys, c.queries+c.batches)
					}
					var sizes []int
					course, keys := 0, 0
					for _, pks := range batches {
						sizes = append(sizes, len(pks))
						keys += len(pks)
						if slices.Contains(pks, "CRS#c99") {
							course++
						}
					}
					slices.Sort(sizes)
					if keys != c.keys || (len(sizes) > 1 && sizes[1] != 100) {
						t.Errorf("BatchGetItem key counts %v: want %d keys, 100 a request but one", sizes, c.keys)
					}
					if c.keys == 1201 && course != 1 {
						t.Errorf("the course was asked for in %d BatchGetItems, want 1", course)
					}
					fx.AgreeWithSQLite(t, testkit.Select{SQL: c.sql})
				})
			}
		})
	}
}

// Only a counted statement asks DynamoDB for the capacity its requests
// consume, and then every request of it asks: the report costs each
// response bytes to read. On DynamoDB Local, a91's courses cost a Query
// of 6 small items (0.5 units, eventually consistent) and a BatchGetItem
// of 5 (2.5 units); a counted UPDATE reports its write too.
func TestOnlyCountedStatementsAskForCapacity(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent, asked int
	hook := testkit.Hook("capacity", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		mu.Lock()
		sent++
		if f := reflect.ValueOf(in.Parameters).Elem().FieldByName("ReturnConsumedCapacity"); f.IsValid() && f.String() != "" {
			asked++
		}
		mu.Unlock()
		return next.HandleInitialize(ctx, in)
	})
	fx := testkit.Load(t, testkit.Backends()[0], "school", hook)
	run := func(ctx context.Context, sql string) (int, int) {
		t.Helper()
		mu.Lock()
		sent, asked = 0, 0
		mu.Unlock()
		var err error
		if strings.HasPrefix(sql, "SELECT") {
			_, err = fx.Query(ctx, sql)
		} else {
			_, err = fx.DB.Exec(ctx, sql)
		}
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return sent, asked
	}
	const courses = "SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'"
	for name, ctx := range map[string]context.Context{
		"no stats":      context.Background(),
		"warnings only": dynosql.WithStats(context.Background(), dynosql.NewWarningStats()),
	} {
		if s, a := run(ctx, courses); s != 2 || a != 0 {
			t.Errorf("%s: %d of %d requests asked for capacity, want none of 2", name, a, s)
		}
	}
	stats := dynosql.NewStats()
	if s, a := run(dynosql.WithStats(context.Background(), stats), courses); s != 2 || a != 2 {
		t.Errorf("counted: %d of %d requests asked for capacity, want 2 of 2", a, s)
	}
	if c := stats.Snapshot().Capacity; c != 3 {
		t.Errorf("counted: %g capacity units, want 3 (0.5 for the Query, 2.5 for the BatchGetItem)", c)
	}
	stats = dynosql.NewStats()
	if s, a := run(dynosql.WithStats(context.Background(), stats), "UPDATE enrollments SET grade = 'A' WHERE student_id = 'a91' AND course_id = 'cs101'"); s == 0 || a != s {
		t.Errorf("counted UPDATE: %d of %d requests asked for capacity, want all", a, s)
	}
	if c := stats.Snapshot().Capacity; c <= 0 {
		t.Errorf("counted UPDATE: %g capacity units, want its write's", c)
	}
}

// An uncorrelated EXISTS whose table is read first, over two partitions,
// reads each with one Query: pages of one item each, which one
// partition's first row asks for, would read them an item a request.
func TestAnUncorrelatedExistsReadsEachPartitionInOnePage(t *testing.T) {
	const sql = "SELECT c.title FROM courses c WHERE c.id = 'cs101' AND EXISTS (SELECT 1 FROM enrollments e WHERE e.student_id IN ('a91', 'b07'))"
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			log := &requestLog{}
			log.reset()
			fx := testkit.Load(t, b, "school", log.hook())
			fx.AgreeWithSQLite(t, testkit.Select{SQL: sql})
			log.mu.Lock()
			defer log.mu.Unlock()
			if want := map[string]int{"Query": 2, "BatchGetItem": 1}; !maps.Equal(log.ops, want) {
				t.Errorf("sent %v, want %v", log.ops, want)
			}
		})
	}
}
