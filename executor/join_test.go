package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// queryWith runs a read plan on the fake with executor options and
// returns its rows as text.
func queryWith(t *testing.T, f *fakeClient, opts Options, m *mapping.Mapping, sql string) [][]string {
	t.Helper()
	rows, err := New(f, opts).Query(context.Background(), plan(t, m, sql))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		var r []string
		for _, v := range rows.Row() {
			r = append(r, value.Text(v))
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// profiles answers a BatchGetItem with a profile (or a course) for every
// key asked for, and counts how often each key was asked for.
type profiles struct {
	mu    sync.Mutex
	asked map[string]int
	sizes []int
}

func (p *profiles) batchGet(in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asked == nil {
		p.asked = map[string]int{}
	}
	keys := in.RequestItems["School"].Keys
	p.sizes = append(p.sizes, len(keys))
	var items []map[string]types.AttributeValue
	for _, k := range keys {
		pk := k["PK"].(*types.AttributeValueMemberS).Value
		p.asked[pk]++
		items = append(items, item("PK", pk, "SK", k["SK"].(*types.AttributeValueMemberS).Value, "name", "N"+pk[4:], "title", "T"+pk[4:]))
	}
	return &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{"School": items}}, nil
}

// roster returns n enrollments of course in key order, from student
// s0000 on.
func roster(course string, from, n int) []map[string]types.AttributeValue {
	var items []map[string]types.AttributeValue
	for i := from; i < from+n; i++ {
		items = append(items, enrollment(fmt.Sprintf("s%04d", i), course, "A"))
	}
	return items
}

// The lookup join is a pipeline: the second page of enrollments is
// read while the BatchGetItem of the first page's students is in flight,
// every BatchGetItem but the last holds 100 keys whatever the page size,
// and the rows keep the order of the enrollments.
func TestLookupJoinOverlapsOuterPagesWithFullBatches(t *testing.T) {
	m := school(t)
	p := &profiles{}
	page2 := make(chan struct{})
	var overlapped atomic.Bool
	f := &fakeClient{batchGet: func(in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
		select {
		case <-page2:
			overlapped.Store(true)
		case <-time.After(2 * time.Second): // a join that waits for its lookups before it reads on
		}
		return p.batchGet(in)
	}}
	f.query = func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		if in.ExclusiveStartKey == nil {
			return &dynamodb.QueryOutput{Items: roster("cs101", 0, 150), LastEvaluatedKey: item("PK", "x")}, nil
		}
		close(page2)
		return &dynamodb.QueryOutput{Items: roster("cs101", 150, 150)}, nil
	}
	rows := queryWith(t, f, Options{}, m, "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'")
	if !overlapped.Load() {
		t.Error("no BatchGetItem was in flight while the second page of enrollments was read")
	}
	if fmt.Sprint(p.sizes) != "[100 100 100]" {
		t.Errorf("BatchGetItem key counts = %v, want [100 100 100] for 300 students in pages of 150", p.sizes)
	}
	if len(rows) != 300 || rows[0][0] != "Ns0000" || rows[299][0] != "Ns0299" || rows[150][0] != "Ns0150" {
		t.Errorf("got %d rows, want 300 in the order of the enrollments", len(rows))
	}
}

// A key that depends on no outer row (the course of WHERE c.id = ...)
// is asked for once per statement, not once per group of outer rows.
func TestConstantLookupKeyIsReadOnce(t *testing.T) {
	m := school(t)
	p := &profiles{}
	f := &fakeClient{batchGet: p.batchGet, query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return &dynamodb.QueryOutput{Items: roster("c99", 0, 250)}, nil
	}}
	rows := queryWith(t, f, Options{}, m, "SELECT s.name, c.title FROM enrollments e JOIN students s ON s.id = e.student_id JOIN courses c ON c.id = e.course_id WHERE c.id = 'c99'")
	if len(rows) != 250 || rows[0][1] != "Tc99" {
		t.Fatalf("got %d rows (%v...), want 250 with the course's title", len(rows), rows[:min(1, len(rows))])
	}
	slices.Sort(p.sizes) // requests go in parallel
	if p.asked["CRS#c99"] != 1 || fmt.Sprint(p.sizes) != "[51 100 100]" {
		t.Errorf("the course was asked for %d times in BatchGetItems of %v keys; want once, in 3 requests of 251 keys", p.asked["CRS#c99"], p.sizes)
	}
}

// A join with a Query per outer row runs them in parallel, never more
// at once than the concurrency option allows.
func TestPerRowQueriesRunInParallelWithinTheLimit(t *testing.T) {
	m := school(t)
	var inFlight, most atomic.Int32
	f := &fakeClient{query: func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		if in.IndexName == nil { // the outer read: a91's 20 enrollments
			var items []map[string]types.AttributeValue
			for i := range 20 {
				items = append(items, enrollment("a91", fmt.Sprintf("c%02d", i), "A"))
			}
			return &dynamodb.QueryOutput{Items: items}, nil
		}
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		course := strings.TrimPrefix(in.ExpressionAttributeValues[":0"].(*types.AttributeValueMemberS).Value, "CRS#")
		return &dynamodb.QueryOutput{Items: roster(course, 0, 2)}, nil
	}}
	rows := queryWith(t, f, Options{Concurrency: 3}, m, "SELECT e.course_id, e2.student_id FROM enrollments e JOIN enrollments e2 ON e2.course_id = e.course_id WHERE e.student_id = 'a91'")
	if len(rows) != 40 || rows[0][0] != "c00" || rows[39][0] != "c19" {
		t.Errorf("got %d rows, want 40 in the order of the outer rows", len(rows))
	}
	if m := most.Load(); m > 3 || m < 2 {
		t.Errorf("at most %d Queries were in flight at once; want 2 or 3 with Concurrency 3", m)
	}
}

// Outer rows that bind the same key share one Query: a91's 20 courses
// each have the students s0000 and s0001, whose own enrollments are then
// read once each, not once per course. With a budget too small to keep a
// read, the key is read again when it comes back, and the rows are the
// same.
func TestPerRowQueriesAreSentOncePerDistinctKey(t *testing.T) {
	m := school(t)
	const sql = "SELECT e.course_id, e2.student_id, e3.course_id FROM enrollments e JOIN enrollments e2 ON e2.course_id = e.course_id JOIN enrollments e3 ON e3.student_id = e2.student_id WHERE e.student_id = 'a91'"
	fake := func() *fakeClient {
		return &fakeClient{query: func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
			pk := in.ExpressionAttributeValues[":0"].(*types.AttributeValueMemberS).Value
			var items []map[string]types.AttributeValue
			switch {
			case in.IndexName != nil: // a course's roster
				items = roster(strings.TrimPrefix(pk, "CRS#"), 0, 2)
			case pk == "STU#a91":
				for i := range 20 {
					items = append(items, enrollment("a91", fmt.Sprintf("c%02d", i), "A"))
				}
			default: // s0000's or s0001's own courses
				items = []map[string]types.AttributeValue{enrollment(strings.TrimPrefix(pk, "STU#"), "x1", "B"), enrollment(strings.TrimPrefix(pk, "STU#"), "x2", "C")}
			}
			return &dynamodb.QueryOutput{Items: items}, nil
		}}
	}
	perStudent := func(f *fakeClient) map[string]int {
		n := map[string]int{}
		for _, in := range inputs[*dynamodb.QueryInput](f) {
			if pk := in.ExpressionAttributeValues[":0"].(*types.AttributeValueMemberS).Value; in.IndexName == nil && pk != "STU#a91" {
				n[pk]++
			}
		}
		return n
	}
	shared := fake()
	want := queryWith(t, shared, Options{Concurrency: 3}, m, sql)
	if len(want) != 80 || want[0][0] != "c00" || want[79][0] != "c19" {
		t.Fatalf("got %d rows, want 80 (20 courses, 2 students each, 2 courses each) in outer order", len(want))
	}
	if got := perStudent(shared); got["STU#s0000"] != 1 || got["STU#s0001"] != 1 || len(got) != 2 {
		t.Errorf("students' Queries sent %v, want each once", got)
	}
	uncached := fake()
	rows := queryWith(t, uncached, Options{Concurrency: 1, joinCacheItems: 1}, m, sql)
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("with no reads kept, rows differ:\n%v\nwant\n%v", rows, want)
	}
	if got := perStudent(uncached); got["STU#s0000"] < 2 {
		t.Errorf("students' Queries sent %v with a budget of 1 item: a read was kept past it", got)
	}
}

// Under a LIMIT the join reads ahead little at first: a LIMIT the first
// rows meet sends one BatchGetItem, not one per 100 rows of the page.
func TestLimitedJoinSendsFewLookups(t *testing.T) {
	m := school(t)
	p := &profiles{}
	f := &fakeClient{batchGet: p.batchGet, query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return &dynamodb.QueryOutput{Items: roster("cs101", 0, 1000)}, nil
	}}
	rows := queryWith(t, f, Options{}, m, "SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101' LIMIT 3")
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(rows) != 3 || len(p.sizes) != 1 {
		t.Errorf("got %d rows from %d BatchGetItems, want 3 rows from 1", len(rows), len(p.sizes))
	}
}
