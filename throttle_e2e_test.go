package dynosql_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// throttled loads rows on b as testkit.LoadRows does, then opens a second
// DB on the same table whose requests go through a proxy that throttles
// on demand. The fixture's own DB reads past the proxy, to check results.
func throttled(t *testing.T, b testkit.Backend, mappingName string, rows []backend.DatasetRow, opts ...dynosql.Option) (*testkit.Fixture, *testkit.Proxy, *dynosql.DB) {
	t.Helper()
	m, err := mapping.Load(testkit.Testdata(mappingName, "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fx := testkit.LoadRows(t, b, m, rows)
	proxy := testkit.StartProxy(t, aws.ToString(fx.Client.Options().BaseEndpoint), testkit.ProxyOptions{Seed: 15})
	client, err := backend.NewClient(context.Background(), backend.Options{Endpoint: proxy.URL()})
	if err != nil {
		t.Fatal(err)
	}
	// Thousands of rows change at once here, on purpose.
	opts = append([]dynosql.Option{dynosql.WithMaxAffected(0)}, opts...)
	db, err := dynosql.Open(context.Background(), fx.Mapping, client, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return fx, proxy, db
}

// enrollments returns a student with n enrollments: one partition of
// n+1 items.
func enrollments(student string, n int) []backend.DatasetRow {
	rows := []backend.DatasetRow{{Entity: "students", Row: mapping.Row{"id": student, "name": "Many Courses"}}}
	for i := range n {
		rows = append(rows, backend.DatasetRow{Entity: "enrollments", Row: mapping.Row{
			"student_id": student, "course_id": fmt.Sprintf("c%04d", i), "grade": "C"}})
	}
	return rows
}

// wantCount fails t unless sql, run past the proxy, counts want.
func wantCount(t *testing.T, fx *testkit.Fixture, sql string, want int) {
	t.Helper()
	got := query(t, fx.DB, sql)
	if fmt.Sprint(got[0][0]) != fmt.Sprint(want) {
		t.Errorf("%s: %v, want %d", sql, got[0][0], want)
	}
}

// A partition UPDATE through a proxy that throttles 30% of requests for
// a few seconds slows down, retries, and finishes right without help.
func TestPartitionUpdateRidesOutThrottling(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			const n = 300
			fx, proxy, db := throttled(t, b, "school", enrollments("t1", n))
			proxy.Throttle(0.3, 3*time.Second)
			start := time.Now()
			res, err := db.Exec(context.Background(), "UPDATE enrollments SET grade = 'A' WHERE student_id = 't1'")
			if err != nil {
				t.Fatalf("after %v: %v", time.Since(start), err)
			}
			t.Logf("%v; requests %v, throttled %v", time.Since(start), proxy.Requests(), proxy.Throttled())
			if res.RowsAffected != n {
				t.Errorf("%d rows affected, want %d", res.RowsAffected, n)
			}
			if sum(proxy.Throttled()) == 0 {
				t.Error("the proxy throttled nothing: the test proves nothing")
			}
			wantCount(t, fx, "SELECT COUNT(*) FROM enrollments WHERE student_id = 't1' AND grade = 'A'", n)
		})
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// posts returns a user with n posts, each holding a copy of the name.
func posts(user string, n int) []backend.DatasetRow {
	rows := []backend.DatasetRow{{Entity: "users", Row: mapping.Row{"id": user, "name": "Prolific"}}}
	for i := range n {
		rows = append(rows, backend.DatasetRow{Entity: "posts", Row: mapping.Row{
			"id": fmt.Sprintf("%s-p%04d", user, i), "authorId": user, "authorName": "Prolific", "title": "t"}})
	}
	return rows
}

// The fault test: a 2,000-copy fan-out and a 2,000-item
// partition UPDATE through a proxy throttling 30% of requests for 20
// seconds finish right; with a 5-second ceiling (and harder throttling)
// they stop with the command that resumes them, and running it finishes
// right.
func TestLongWritesRideOutSustainedThrottling(t *testing.T) {
	if os.Getenv("DYNOSQL_LONG") == "" {
		// About two minutes on DynamoDB Local: four statements, each
		// through 20 s of throttling. CI runs it (.ci/run).
		t.Skip("a long fault test: run with DYNOSQL_LONG=1")
	}
	t.Parallel()
	const n = 2000
	statements := []struct {
		name, mapping string
		rows          []backend.DatasetRow
		sql, check    string
	}{
		{"fan-out", "blog", posts("u1", n),
			"UPDATE users SET name = 'Renamed' WHERE id = 'u1'",
			"SELECT COUNT(*) FROM posts WHERE authorId = 'u1' AND authorName = 'Renamed'"},
		{"partition update", "school", enrollments("t1", n),
			"UPDATE enrollments SET grade = 'A' WHERE student_id = 't1'",
			"SELECT COUNT(*) FROM enrollments WHERE student_id = 't1' AND grade = 'A'"},
	}
	b := testkit.Backends()[0]
	for _, s := range statements {
		// Each statement has its own table and proxy, and spends most of
		// its time waiting out throttling: side by side they cost the
		// suite one wait, not four.
		t.Run(s.name+" finishes", func(t *testing.T) {
			t.Parallel()
			fx, proxy, db := throttled(t, b, s.mapping, s.rows)
			proxy.Throttle(0.3, 20*time.Second)
			start := time.Now()
			if _, err := db.Exec(context.Background(), s.sql); err != nil {
				t.Fatalf("after %v: %v", time.Since(start), err)
			}
			t.Logf("%v; requests %v, throttled %v", time.Since(start), proxy.Requests(), proxy.Throttled())
			wantCount(t, fx, s.check, n)
		})
		t.Run(s.name+" stops at a 5s ceiling and resumes", func(t *testing.T) {
			t.Parallel()
			fx, proxy, db := throttled(t, b, s.mapping, s.rows, dynosql.WithRetryCeiling(5*time.Second))
			// At 30% the fan-out's 21 transactions, sent one after the
			// other, may each get through within 5s: throttle harder so
			// that one surely does not.
			proxy.Throttle(0.7, 20*time.Second)
			_, err := db.Exec(context.Background(), s.sql)
			if err == nil {
				t.Fatal("finished under 20s of throttling with a 5s ceiling")
			}
			t.Logf("stopped: %v", err)
			resume := s.sql
			if s.name == "fan-out" {
				resume = repairIn(t, err)
			}
			proxy.Throttle(0, 0)
			if _, err := db.Exec(context.Background(), resume); err != nil {
				t.Fatalf("%s: %v", resume, err)
			}
			wantCount(t, fx, s.check, n)
		})
	}
}

// Throttling still is ridden out by an arithmetic UPDATE: a throttled
// request was not carried out, so resending it adds once.
func TestArithmeticUpdateRidesOutThrottling(t *testing.T) {
	fx, proxy, db := throttled(t, testkit.Backends()[0], "school", enrollments("t1", 0))
	proxy.Throttle(0.3, 3*time.Second)
	if _, err := db.Exec(context.Background(), "UPDATE students SET year = 1 WHERE id = 't1'"); err != nil {
		t.Fatal(err)
	}
	proxy.Throttle(0.5, 3*time.Second)
	for range 20 {
		if _, err := db.Exec(context.Background(), "UPDATE students SET year = year + 1 WHERE id = 't1'"); err != nil {
			t.Fatal(err)
		}
	}
	if sum(proxy.Throttled()) == 0 {
		t.Error("the proxy throttled nothing: the test proves nothing")
	}
	wantCount(t, fx, "SELECT year FROM students WHERE id = 't1'", 21)
}
