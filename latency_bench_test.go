package dynosql_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/bench"
	"github.com/dynosql/dynosql/internal/testkit"
)

// BenchmarkJoinsAtLatency compares dynosql's joins with the pipelined
// requests an expert writes by hand (internal/bench), on DynamoDB Local
// behind a proxy that adds a fixed delay to every round trip, as AWS
// does. Each iteration runs dynosql, then the hand-written code, and the
// benchmark reports both times and their ratio (dynosql / by hand).
//
//	make ddblocal
//	DYNOSQL_REQUIRE_LOCAL=1 go test -run '^$' -bench BenchmarkJoinsAtLatency -benchtime 40x .
func BenchmarkJoinsAtLatency(b *testing.B) {
	ctx := context.Background()
	local := testkit.Backends()[0]
	roster := loadRoster(b, local, 1200, 1000)
	school := testkit.Load(b, local, "school")
	for _, delay := range []time.Duration{0, 5 * time.Millisecond} {
		cases := []struct {
			name   string
			fx     *testkit.Fixture
			sql    string
			byHand func(ctx context.Context, fx *proxied) (int, error)
		}{
			{"roster-1200", roster, "SELECT s.name, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'c99'",
				func(ctx context.Context, p *proxied) (int, error) {
					return bench.Roster(ctx, p.client, p.table, "c99", 8)
				}},
			{"student-courses", school, "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'",
				func(ctx context.Context, p *proxied) (int, error) {
					return bench.StudentCourses(ctx, p.client, p.table, "a91")
				}},
		}
		for _, c := range cases {
			b.Run("delay="+delay.String()+"/query="+c.name, func(b *testing.B) {
				p := proxy(b, c.fx, delay)
				run := func() int {
					rows, err := p.db.Query(ctx, c.sql)
					if err != nil {
						b.Fatal(err)
					}
					n := 0
					for rows.Next() {
						n++
					}
					if err := rows.Close(); err != nil {
						b.Fatal(err)
					}
					return n
				}
				want, err := c.byHand(ctx, p)
				if got := run(); err != nil || got != want || got == 0 {
					b.Fatalf("dynosql gave %d rows, the hand-written code %d (%v)", got, want, err)
				}
				var ours, theirs time.Duration
				for range b.N {
					start := time.Now()
					run()
					mid := time.Now()
					if _, err := c.byHand(ctx, p); err != nil {
						b.Fatal(err)
					}
					ours, theirs = ours+mid.Sub(start), theirs+time.Since(mid)
				}
				n := float64(b.N)
				b.ReportMetric(float64(ours.Microseconds())/1000/n, "dynosql-ms/op")
				b.ReportMetric(float64(theirs.Microseconds())/1000/n, "byhand-ms/op")
				b.ReportMetric(float64(ours)/float64(theirs), "ratio")
			})
		}
	}
}

// proxied is a fixture's table reached through a delaying proxy, by
// dynosql and by a plain client.
type proxied struct {
	db     *dynosql.DB
	client *dynamodb.Client
	table  string
}

func proxy(b *testing.B, fx *testkit.Fixture, delay time.Duration) *proxied {
	ctx := context.Background()
	p := testkit.StartProxy(b, aws.ToString(fx.Client.Options().BaseEndpoint), testkit.ProxyOptions{Delay: delay})
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: p.URL()})
	if err != nil {
		b.Fatal(err)
	}
	db, err := dynosql.Open(ctx, fx.Mapping, client)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return &proxied{db: db, client: client, table: fx.Mapping.Table}
}
