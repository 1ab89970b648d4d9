package planner_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	"github.com/cockroachdb/datadriven"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
)

// TestExplainAgreesWithExecution runs every statement of the golden
// files that plans, on the embedded backend over the school or blog
// dataset, and checks that each request the SDK really sent is one
// EXPLAIN announced: same operation, table, index, key or key condition,
// filter, condition, update, projection and consistency, values aside
// (EXPLAIN shows {e.course_id} where a request holds each outer row's
// value). A BatchGetItem's keys and a transaction's actions are compared
// one by one.
func TestExplainAgreesWithExecution(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every golden statement on the embedded backend")
	}
	fixtures := map[string]*agreeFixture{}
	checked := 0
	top := t
	datadriven.Walk(t, "../testdata/plan", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "plan" || strings.HasPrefix(d.Expected, "error:") {
				return d.Expected
			}
			name, projection, args := caseArgs(d)
			key := name + "/" + projection + "/" + fmt.Sprint(d.HasArg("allow_scan"))
			if fixtures[key] == nil {
				var opts []dynosql.Option
				if d.HasArg("allow_scan") {
					opts = append(opts, dynosql.WithScans())
				}
				fixtures[key] = newAgreeFixture(t, top.Cleanup, name, projection, opts...)
			}
			fixtures[key].check(t, d.Pos, d.Input, args)
			checked++
			return d.Expected
		})
	})
	t.Logf("checked %d statements", checked)
	if checked < 60 {
		t.Errorf("checked %d statements; the golden files hold more", checked)
	}
}

// caseArgs reads a plan command's arguments (see plannerFor).
func caseArgs(d *datadriven.TestData) (name, projection string, args []any) {
	name = "school"
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "mapping":
			name = a.Vals[0]
		case "projection":
			projection = a.Vals[0]
		case "args":
			for _, v := range a.Vals {
				args = append(args, v)
			}
		}
	}
	return name, projection, args
}

// agreeFixture is a dataset loaded into an embedded server, with a DB
// that records every request it sends.
type agreeFixture struct {
	db   *dynosql.DB
	mu   sync.Mutex
	sent []*planner.Request
	m    *mapping.Mapping
}

// newAgreeFixture starts the fixture; cleanup (the whole test's) stops it.
func newAgreeFixture(t *testing.T, cleanup func(func()), name, projection string, opts ...dynosql.Option) *agreeFixture {
	ctx := context.Background()
	m := loadMapping(t, name)
	if projection != "" {
		m.Indexes["GSI1"].Projection = projection
		if projection == "INCLUDE" {
			m.Indexes["GSI1"].Include = []string{"grade"}
		}
	}
	srv, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	cleanup(func() { _ = srv.Close() })
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	if err := backend.CreateTable(ctx, client, m); err != nil {
		t.Fatal(err)
	}
	data, err := os.Open("../testdata/" + name + "/data.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = data.Close() }()
	if _, err := backend.Load(ctx, client, m, data); err != nil {
		t.Fatal(err)
	}
	f := &agreeFixture{m: m}
	record := dynosql.WithRequestHook(func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("agree",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					f.mu.Lock()
					f.sent = append(f.sent, planner.DescribeRequest(m, middleware.GetOperationName(ctx), in.Parameters))
					f.mu.Unlock()
					return next.HandleInitialize(ctx, in)
				}), middleware.After)
		})
	})
	if f.db, err = dynosql.Open(ctx, m, client, append(opts, record)...); err != nil {
		t.Fatal(err)
	}
	return f
}

// check runs sql and compares what was sent with what EXPLAIN says,
// through the Matcher EXPLAIN ANALYZE charges requests to steps with.
func (f *agreeFixture) check(t *testing.T, pos, sql string, args []any) {
	t.Helper()
	plan, err := f.db.Explain(sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", pos, err)
	}
	m := planner.NewMatcher(plan)
	for _, r := range f.run(t, pos, sql, args) {
		if s, ok := m.Announced(r); !ok {
			announced := m.Shapes()
			slices.Sort(announced)
			t.Errorf("%s: %s\nsent a request EXPLAIN did not announce:\n  %s\nEXPLAIN announced:\n  %s", pos, sql, s,
				strings.Join(announced, "\n  "))
		}
	}
}

// run runs sql and returns the requests it sent.
func (f *agreeFixture) run(t *testing.T, pos, sql string, args []any) []*planner.Request {
	t.Helper()
	ctx := context.Background()
	plan, err := f.db.Plan(sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", pos, err)
	}
	f.mu.Lock()
	f.sent = nil
	f.mu.Unlock()
	if plan.Writes {
		_, err = f.db.ExecPlan(ctx, plan)
	} else {
		var rows *dynosql.Rows
		if rows, err = f.db.QueryPlan(ctx, plan); err == nil {
			for rows.Next() {
			}
			err = rows.Err()
		}
	}
	if err != nil && !strings.Contains(err.Error(), "conflict") {
		t.Fatalf("%s: %s: %v", pos, sql, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent
}
