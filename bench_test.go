package dynosql_test

import (
	"context"
	"io"
	"maps"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/bench"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// BenchmarkJoins compares dynosql with the requests an expert writes by
// hand for the same answer (internal/bench, pipelined as dynosql is), side by side on each backend: the ratio of
// the two is dynosql's overhead (parsing, planning, stitching). Run as
// in BENCHMARKS.md.
func BenchmarkJoins(b *testing.B) {
	ctx := context.Background()
	for _, be := range testkit.Backends() {
		fx := testkit.Load(b, be, "school")
		table := fx.Mapping.Table
		cases := []struct {
			name string
			sql  string
			sdk  func() (int, error)
		}{
			{
				name: "student-courses",
				sql:  "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'",
				sdk:  func() (int, error) { return bench.StudentCourses(ctx, fx.Client, table, "a91") },
			},
			{
				name: "course-roster",
				sql:  "SELECT s.name, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'",
				sdk:  func() (int, error) { return bench.Roster(ctx, fx.Client, table, "cs101", 8) },
			},
		}
		for _, c := range cases {
			want, err := c.sdk()
			if err != nil {
				b.Fatal(err)
			}
			got, err := fx.Query(ctx, c.sql)
			if err != nil || len(got) != want {
				b.Fatalf("%s: dynosql gave %d rows (%v), the hand-written code %d", c.name, len(got), err, want)
			}
			b.Run("backend="+be.Name+"/query="+c.name+"/impl=by-hand", func(b *testing.B) {
				for range b.N {
					if _, err := c.sdk(); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("backend="+be.Name+"/query="+c.name+"/impl=dynosql", func(b *testing.B) {
				for range b.N {
					if _, err := fx.Query(ctx, c.sql); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkOwnWork measures what dynosql itself spends on a repeated
// statement, a student's courses printed as TSV, as the CLI's -f script
// of BENCHMARKS.md runs it: the plan from the cache, the requests built,
// the items classified and joined, the rows printed. The requests are
// answered from a recording of the embedded backend's answers, so that
// neither a server nor the SDK's request path is in the figure.
func BenchmarkOwnWork(b *testing.B) {
	const sql = "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'"
	ctx := context.Background()
	fx := testkit.Load(b, testkit.Backends()[1], "school")
	db, err := dynosql.Open(ctx, fx.Mapping, &replayClient{Client: fx.Client}, dynosql.WithoutTableCheck())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rows, err := db.Query(ctx, sql)
		if err != nil {
			b.Fatal(err)
		}
		n, err := (&format.Printer{W: io.Discard, F: format.TSV}).Rows(rows)
		if err != nil || n != 5 || len(rows.Warnings()) > 0 {
			b.Fatalf("%d rows (%v), warnings %q; want a91's 5 courses", n, err, rows.Warnings())
		}
		_ = rows.Close()
	}
}

// replayClient answers each Query and BatchGetItem with a copy of the
// first answer of its kind, which is right for one statement repeated.
// The copy is deep enough for the executor, which takes a page's items
// as its own.
type replayClient struct {
	*dynamodb.Client
	query *dynamodb.QueryOutput
	batch *dynamodb.BatchGetItemOutput
}

func (r *replayClient) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if r.query == nil {
		out, err := r.Client.Query(ctx, in, opts...)
		if err != nil {
			return nil, err
		}
		r.query = out
		r.query.Items = cloneItems(out.Items)
	}
	out := *r.query
	out.Items = cloneItems(r.query.Items)
	return &out, nil
}

func (r *replayClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if r.batch == nil {
		out, err := r.Client.BatchGetItem(ctx, in, opts...)
		if err != nil {
			return nil, err
		}
		r.batch = out
		r.batch.Responses = cloneResponses(out.Responses)
	}
	out := *r.batch
	out.Responses = cloneResponses(r.batch.Responses)
	return &out, nil
}

func cloneItems(items []map[string]types.AttributeValue) []map[string]types.AttributeValue {
	out := make([]map[string]types.AttributeValue, len(items))
	for i, item := range items {
		out[i] = maps.Clone(item)
	}
	return out
}

func cloneResponses(r map[string][]map[string]types.AttributeValue) map[string][]map[string]types.AttributeValue {
	out := map[string][]map[string]types.AttributeValue{}
	for table, items := range r {
		out[table] = cloneItems(items)
	}
	return out
}

// plannable returns the golden SELECTs that dynosql plans against the
// school mapping and sqlparser parses too, for the planning benchmarks.
func plannable(b *testing.B, db *dynosql.DB) []string {
	var out []string
	for _, sql := range goldenStatements(b, "select_*.txt") {
		if _, err := sqlparser.Parse(sql); err != nil {
			continue
		}
		if _, err := db.Plan(sql); err == nil {
			out = append(out, sql)
		}
	}
	return out
}

// schoolDB opens a DB over the school mapping that sends nothing: enough
// to plan.
func schoolDB(b *testing.B) *dynosql.DB {
	m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	db, err := dynosql.Open(context.Background(), m, nil, dynosql.WithoutTableCheck())
	if err != nil {
		b.Fatal(err)
	}
	return db
}

// BenchmarkParseAndPlan compares, over the golden SELECTs, dynosql's
// parse and plan of a statement seen for the first time with
// xwb1989/sqlparser's parse alone, the library dynosql's parser builds
// on, alternating the two; and the same for the three-table join of a
// student's courses alone. Run as in BENCHMARKS.md.
func BenchmarkParseAndPlan(b *testing.B) {
	const join = "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'"
	m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	p := planner.New(m, planner.Options{})
	for _, set := range []struct {
		name  string
		stmts []string
	}{{"golden", plannable(b, schoolDB(b))}, {"join3", []string{join}}} {
		b.Run("stmts="+set.name, func(b *testing.B) {
			testkit.Alternate(b, len(set.stmts), "sqlparser", func() {
				for _, sql := range set.stmts {
					if _, err := sqlparser.Parse(sql); err != nil {
						b.Fatal(err)
					}
				}
			}, "dynosql", func() {
				for _, sql := range set.stmts {
					st, err := parser.Parse(sql)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := p.Plan(sql, st, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkPlanCache compares planning the golden SELECTs through
// DB.Plan, as Query and Exec do, on a DB that has not seen them (first)
// and on one that has (repeated), alternating the two.
func BenchmarkPlanCache(b *testing.B) {
	stmts := plannable(b, schoolDB(b))
	warm := schoolDB(b)
	plan := func(db *dynosql.DB) {
		for _, sql := range stmts {
			if _, err := db.Plan(sql); err != nil {
				b.Fatal(err)
			}
		}
	}
	plan(warm)
	var fresh *dynosql.DB
	testkit.Alternate(b, len(stmts), "first", func() {
		fresh = schoolDB(b) // costs nothing next to planning 60 statements
		plan(fresh)
	}, "repeated", func() { plan(warm) })
}
