package dynosql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// BenchmarkJoins compares dynosql with the requests an expert writes by
// hand for the same answer, side by side on each backend: the ratio of
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
				sdk:  func() (int, error) { return studentCoursesByHand(ctx, fx.Client, table, "a91") },
			},
			{
				name: "course-roster",
				sql:  "SELECT s.name, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'",
				sdk:  func() (int, error) { return courseRosterByHand(ctx, fx.Client, table, "cs101") },
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

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// studentCoursesByHand is the expert's version of a student's courses:
// one Query of the student's partition (profile and edges), one
// BatchGetItem of the courses.
func studentCoursesByHand(ctx context.Context, c *dynamodb.Client, table, id string) (int, error) {
	out, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ProjectionExpression:      aws.String("PK, SK, #n, grade"),
		ExpressionAttributeNames:  map[string]string{"#n": "name"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("STU#" + id)},
	})
	if err != nil {
		return 0, err
	}
	var keys []map[string]types.AttributeValue
	for _, item := range out.Items {
		sk := item["SK"].(*types.AttributeValueMemberS).Value
		if course, ok := strings.CutPrefix(sk, "ENROLL#CRS#"); ok {
			keys = append(keys, map[string]types.AttributeValue{"PK": s("CRS#" + course), "SK": s("META")})
		}
	}
	return batchGetAll(ctx, c, table, keys, "title")
}

// courseRosterByHand reads a course's edges through GSI1, then the
// students in BatchGetItems of 100.
func courseRosterByHand(ctx context.Context, c *dynamodb.Client, table, course string) (int, error) {
	var keys []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		IndexName:                 aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :pk AND begins_with(GSI1SK, :stu)"),
		ProjectionExpression:      aws.String("PK, SK, grade"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("CRS#" + course), ":stu": s("STU#")},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return 0, err
		}
		for _, item := range page.Items {
			keys = append(keys, map[string]types.AttributeValue{"PK": item["PK"], "SK": s("PROFILE")})
		}
	}
	return batchGetAll(ctx, c, table, keys, "#n")
}

// batchGetAll reads keys 100 at a time, asking for PK, SK and attr (#n
// stands for name, a reserved word), and retries unprocessed keys.
func batchGetAll(ctx context.Context, c *dynamodb.Client, table string, keys []map[string]types.AttributeValue, attr string) (int, error) {
	n := 0
	for len(keys) > 0 {
		chunk := keys[:min(100, len(keys))]
		keys = keys[len(chunk):]
		ka := types.KeysAndAttributes{Keys: chunk, ProjectionExpression: aws.String("PK, SK, " + attr)}
		if attr == "#n" {
			ka.ExpressionAttributeNames = map[string]string{"#n": "name"}
		}
		req := map[string]types.KeysAndAttributes{table: ka}
		for len(req) > 0 {
			out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
			if err != nil {
				return 0, err
			}
			n += len(out.Responses[table])
			req = out.UnprocessedKeys
		}
	}
	return n, nil
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
