package executor

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// fakeClient is a recording fake of Client (vitess's fake vcursor): each
// operation answers with the function a test gives it, and every input
// is kept in order. It tests the executor's own logic (paging, retries,
// joins, cancellation) in milliseconds; whether answers are right is the
// end-to-end tests' business, against real backends.
type fakeClient struct {
	mu       sync.Mutex
	calls    []any
	query    func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error)
	batchGet func(*dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error)
	getItem  func(*dynamodb.GetItemInput) (*dynamodb.GetItemOutput, error)
	transact func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error)
	put      func(*dynamodb.PutItemInput) (*dynamodb.PutItemOutput, error)
	update   func(*dynamodb.UpdateItemInput) (*dynamodb.UpdateItemOutput, error)
	// queryOptions counts the per-request options Query was given.
	queryOptions int
}

var _ Client = (*fakeClient)(nil)

func (f *fakeClient) record(in any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, in)
}

// inputs returns the recorded inputs of type T, in order.
func inputs[T any](f *fakeClient) []T {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []T
	for _, c := range f.calls {
		if x, ok := c.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func (f *fakeClient) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	f.record(in)
	return f.getItem(in)
}

func (f *fakeClient) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c := *in // the executor reuses its input for the next page
	f.record(&c)
	f.mu.Lock()
	f.queryOptions += len(optFns)
	f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return f.query(&c)
}

func (f *fakeClient) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c := *in // the executor reuses its input to send unprocessed keys
	f.record(&c)
	return f.batchGet(&c)
}

func (f *fakeClient) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	f.record(in)
	return f.put(in)
}

func (f *fakeClient) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	f.record(in)
	return f.update(in)
}

func (f *fakeClient) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	panic("DeleteItem: not scripted")
}

func (f *fakeClient) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if in.ClientRequestToken == nil {
		in.ClientRequestToken = new(string) // the SDK sets one before its retries
		*in.ClientRequestToken = "token"
	}
	f.record(in)
	return f.transact(in)
}

func (f *fakeClient) DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	panic("DescribeTable: not scripted")
}

func (f *fakeClient) ListTables(context.Context, *dynamodb.ListTablesInput, ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	panic("ListTables: not scripted")
}

// school is the school mapping, and plan plans a statement over it.
func school(t *testing.T) *mapping.Mapping {
	t.Helper()
	m, err := mapping.Load(filepath.Join("..", "testdata", "school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func plan(t *testing.T, m *mapping.Mapping, sql string) *planner.Plan {
	t.Helper()
	st, err := parser.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(m, planner.Options{}).Plan(sql, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// query runs a read plan on the fake and returns its rows as text.
func query(t *testing.T, f *fakeClient, m *mapping.Mapping, sql string) ([][]string, error) {
	t.Helper()
	return queryCtx(context.Background(), t, f, m, sql)
}

func queryCtx(ctx context.Context, t *testing.T, f *fakeClient, m *mapping.Mapping, sql string) ([][]string, error) {
	t.Helper()
	rows, err := New(f, Options{}).Query(ctx, plan(t, m, sql))
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		var r []string
		for _, v := range rows.Row() {
			r = append(r, value.Text(v))
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// item builds an item from attribute names and string values.
func item(kv ...string) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		it[kv[i]] = &types.AttributeValueMemberS{Value: kv[i+1]}
	}
	return it
}

// enrollment is a92's enrollment item in course c.
func enrollment(student, course, grade string) map[string]types.AttributeValue {
	return item("PK", "STU#"+student, "SK", "ENROLL#CRS#"+course, "GSI1PK", "CRS#"+course, "GSI1SK", "STU#"+student, "grade", grade)
}
