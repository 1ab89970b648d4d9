package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// tuplesText prints tuples as their slots' id (or student_id) and grade.
func tuplesText(ts []tuple) string {
	var rows []string
	for _, t := range ts {
		var grade any
		if t[1] != nil {
			grade = t[1]["grade"]
		}
		rows = append(rows, "["+value.Text(t[0]["id"])+" "+value.Text(grade)+"]")
	}
	return "[" + strings.Join(rows, " ") + "]"
}

// A Query is paged to the end: an empty page with a LastEvaluatedKey does
// not end it, and each page starts where the last one stopped.
func TestQueryPagesPastEmptyPagesToTheEnd(t *testing.T) {
	m := school(t)
	lek := func(s string) map[string]types.AttributeValue { return item("PK", "STU#a91", "SK", s) }
	pages := []*dynamodb.QueryOutput{
		{Items: []map[string]types.AttributeValue{enrollment("a91", "art150", "A")}, LastEvaluatedKey: lek("ENROLL#CRS#art150")},
		{LastEvaluatedKey: lek("ENROLL#CRS#bio999")},
		{Items: []map[string]types.AttributeValue{enrollment("a91", "cs101", "B")}},
	}
	n := 0
	f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		n++
		return pages[n-1], nil
	}}
	rows, err := query(t, f, m, "SELECT course_id, grade FROM enrollments WHERE student_id = 'a91'")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rows) != "[[art150 A] [cs101 B]]" {
		t.Errorf("rows = %v", rows)
	}
	ins := inputs[*dynamodb.QueryInput](f)
	if len(ins) != 3 || ins[0].ExclusiveStartKey != nil ||
		ins[1].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value != "ENROLL#CRS#art150" ||
		ins[2].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value != "ENROLL#CRS#bio999" {
		t.Errorf("pages were not chained by LastEvaluatedKey: %d queries", len(ins))
	}
}

// A join's BatchGetItem sends at most 100 distinct keys a request, and
// sends again the keys DynamoDB leaves unprocessed.
func TestBatchGetSendsUnprocessedKeysAgainAndChunksAt100(t *testing.T) {
	m := school(t)
	var edges []map[string]types.AttributeValue
	for i := range 150 {
		edges = append(edges, enrollment(fmt.Sprintf("s%03d", i), "cs101", "A"))
	}
	f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return &dynamodb.QueryOutput{Items: edges}, nil
	}}
	var first sync.Once
	f.batchGet = func(in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
		ka := in.RequestItems["School"]
		out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
		keys := ka.Keys
		half := false
		if len(keys) == 100 {
			first.Do(func() { half = true })
		}
		if half {
			// Half now, half left unprocessed.
			out.UnprocessedKeys = map[string]types.KeysAndAttributes{"School": {Keys: keys[50:], ProjectionExpression: ka.ProjectionExpression, ExpressionAttributeNames: ka.ExpressionAttributeNames}}
			keys = keys[:50]
		}
		for _, k := range keys {
			it := item("PK", k["PK"].(*types.AttributeValueMemberS).Value, "SK", "PROFILE", "name", "N")
			out.Responses["School"] = append(out.Responses["School"], it)
		}
		return out, nil
	}
	rows, err := query(t, f, m, "SELECT s.id FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = 'cs101'")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 150 {
		t.Errorf("got %d rows, want 150", len(rows))
	}
	gets := inputs[*dynamodb.BatchGetItemInput](f)
	sizes := []int{}
	for _, g := range gets {
		sizes = append(sizes, len(g.RequestItems["School"].Keys))
	}
	slices.Sort(sizes) // chunks go in parallel
	if fmt.Sprint(sizes) != "[50 50 100]" {
		t.Errorf("BatchGetItem key counts = %v, want 100, the 50 left unprocessed, and 50", sizes)
	}
}

// What each join kind keeps of an outer row, whatever the inner step
// read: a LEFT JOIN keeps an outer row whose inner rows the ON rejects
// (with NULLs), a semi join keeps it once, an anti join only without a
// match.
func TestJoinKindsKeepWhatSQLSays(t *testing.T) {
	m := school(t)
	r := New(&fakeClient{}, Options{}).newRun([]planner.Slot{{Alias: "s", Entity: m.Entities["students"]}, {Alias: "e", Entity: m.Entities["enrollments"]}})
	outer := tuple{{"id": "a91"}, nil}
	inner := []tuple{{nil, {"student_id": "a91", "grade": "A"}}, {nil, {"student_id": "a91", "grade": "B"}}}
	on := func(grade string) parser.Expr {
		return &parser.Compare{Op: "=", L: &parser.Column{Table: "e", Name: "grade"}, R: &parser.Literal{Value: grade}}
	}
	cases := []struct {
		kind planner.JoinKind
		on   parser.Expr
		want string
	}{
		{planner.Inner, on("A"), "[[a91 A]]"},
		{planner.Inner, on("Z"), "[]"},
		{planner.LeftOuter, on("Z"), "[[a91 NULL]]"},
		{planner.LeftOuter, on("B"), "[[a91 B]]"},
		{planner.Semi, nil, "[[a91 NULL]]"},
		{planner.Semi, on("Z"), "[]"},
		{planner.Anti, on("Z"), "[[a91 NULL]]"},
		{planner.Anti, on("A"), "[]"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s on %v", tc.kind, tc.on != nil), func(t *testing.T) {
			got, err := r.extend(outer, inner, tc.kind, tc.on)
			if err != nil {
				t.Fatal(err)
			}
			if s := tuplesText(got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}

// A transaction cancelled only by conflicts is sent again with the same
// token; one cancelled by a failed condition names the row.
func TestTransactionsResendConflictsAndNameTheFailedRow(t *testing.T) {
	m := school(t)
	calls := 0
	f := &fakeClient{transact: func(in *dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error) {
		calls++
		if calls == 1 {
			return nil, &types.TransactionCanceledException{Message: aws.String("conflict"),
				CancellationReasons: []types.CancellationReason{{Code: aws.String("TransactionConflict")}, {Code: aws.String("None")}}}
		}
		return nil, &types.TransactionCanceledException{Message: aws.String("condition"),
			CancellationReasons: []types.CancellationReason{{Code: aws.String("None")}, {Code: aws.String("ConditionalCheckFailed"), Item: in.TransactItems[1].Put.Item}}}
	}}
	ex := New(f, Options{})
	_, err := ex.Exec(context.Background(), plan(t, m, "INSERT INTO courses (id, title) VALUES ('c1', 'One'), ('c2', 'Two')"))
	var cf *errs.ConditionFailedError
	if !errors.As(err, &cf) || !strings.Contains(err.Error(), "courses (id='c2') already exists") || !strings.Contains(err.Error(), "none of the rows was inserted") {
		t.Fatalf("got %v, want a conflict naming c2 that says nothing was inserted", err)
	}
	txs := inputs[*dynamodb.TransactWriteItemsInput](f)
	if len(txs) != 2 || txs[0] != txs[1] {
		t.Errorf("sent %d transactions; want the conflicted one sent again, the same input and token", len(txs))
	}
}

// Canceling the context stops a Query in flight with a canceled error.
func TestCancelStopsAQueryInFlight(t *testing.T) {
	m := school(t)
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		cancel()
		return &dynamodb.QueryOutput{Items: []map[string]types.AttributeValue{enrollment("a91", "art150", "A")},
			LastEvaluatedKey: item("PK", "STU#a91", "SK", "ENROLL#CRS#art150")}, nil
	}}
	start := time.Now()
	_, err := queryCtx(ctx, t, f, m, "SELECT grade FROM enrollments WHERE student_id = 'a91' AND grade = 'B'")
	if !errors.Is(err, errs.Canceled) {
		t.Fatalf("got %v, want a canceled error", err)
	}
	if time.Since(start) > time.Second || len(inputs[*dynamodb.QueryInput](f)) != 2 {
		t.Errorf("the statement went on after it was canceled")
	}
}

// Rows a step already built, which need no request, still stop when the
// statement's context ends: a self-join of one partition of 40 items
// builds its 1,600 rows from one Query.
func TestCancelStopsRowsAlreadyBuilt(t *testing.T) {
	m := school(t)
	var items []map[string]types.AttributeValue
	for i := range 40 {
		items = append(items, enrollment("a91", fmt.Sprintf("c%02d", i), "A"))
	}
	f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return &dynamodb.QueryOutput{Items: items}, nil
	}}
	p := plan(t, m, "SELECT e.course_id, e2.course_id FROM enrollments e JOIN enrollments e2 ON e2.student_id = e.student_id WHERE e.student_id = 'a91'")
	if _, ok := p.Root.(*planner.Project).Input.(*planner.PartitionJoin); !ok {
		t.Fatalf("the plan is not one partition join:\n%s", p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := New(f, Options{}).Query(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
		cancel()
	}
	if !errors.Is(rows.Err(), errs.Canceled) || n > ctxCheckRows {
		t.Errorf("%d rows came after the statement was canceled, then %v; want at most %d, then a canceled error", n, rows.Err(), ctxCheckRows)
	}
}

// Items of no entity of the statement are counted and warned about,
// also by counters that leave the requests uncounted (the shell's
// without --stats), which put no middleware on the requests.
func TestItemsNoEntityClaimsAreWarnedAbout(t *testing.T) {
	m := school(t)
	for _, c := range []struct {
		name       string
		stats      *Stats
		middleware bool
	}{{"counting", NewStats(), true}, {"warnings only", NewWarningStats(), false}} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
				return &dynamodb.QueryOutput{Items: []map[string]types.AttributeValue{item("PK", "STU#a91", "SK", "ENROLL#math204")}}, nil
			}}
			rows, err := New(f, Options{}).Query(WithStats(context.Background(), c.stats), plan(t, m, "SELECT grade FROM enrollments WHERE student_id = 'a91'"))
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				t.Error("a row from an item no entity claims")
			}
			sn := c.stats.Snapshot()
			if w := rows.Warnings(); len(w) != 1 || sn.Unclaimed != 1 || len(sn.Warnings) != 1 {
				t.Errorf("warnings %q, unclaimed %d, stats warnings %q; want one warning and one item", w, sn.Unclaimed, sn.Warnings)
			}
			if got := f.queryOptions > 0; got != c.middleware {
				t.Errorf("the Query got %d per-request options; want them only when requests are counted", f.queryOptions)
			}
		})
	}
}

// Read in key order for ORDER BY a composite sort key's leading column,
// a value holding a character at or below the separator's first stops
// the statement: the key order would not be the column's. Descending,
// such a row would come past the LIMIT, unread: that ORDER BY is not
// read in key order at all, but sorted on the client.
func TestKeyOrderedReadsCheckTheOrderTheyClaim(t *testing.T) {
	m, err := mapping.Parse("orders.yaml", []byte(`
table: Things
partition_key: PK
sort_key: SK
entities:
  orders:
    keys: {PK: "C#{customer}", SK: "O#{date}#{id}"}
    columns: {customer: S, date: S, id: S}
`))
	if err != nil {
		t.Fatal(err)
	}
	order := func(date, id string) map[string]types.AttributeValue {
		return item("PK", "C#1", "SK", "O#"+date+"#"+id)
	}
	// Key order, ascending: "O#2020-06-30 23:00#b" sorts below
	// "O#2020-06-30#a", as, with a longer literal after the column,
	// "O#2020-06-30#2#X" below "O#2020-06-30#X".
	days, err := mapping.Parse("days.yaml", []byte(`
table: Things
partition_key: PK
sort_key: SK
entities:
  orders:
    keys: {PK: "C#{customer}", SK: "O#{date}#X"}
    columns: {customer: S, date: S}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m     *mapping.Mapping
		items []map[string]types.AttributeValue
		char  string
	}{
		{m, []map[string]types.AttributeValue{order("2020-06-30 23:00", "b"), order("2020-06-30", "a")}, " "},
		{days, []map[string]types.AttributeValue{item("PK", "C#1", "SK", "O#2020-06-30#2#X"), item("PK", "C#1", "SK", "O#2020-06-30#X")}, "#"},
	} {
		f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
			return &dynamodb.QueryOutput{Items: c.items}, nil
		}}
		_, err = query(t, f, c.m, "SELECT date FROM orders WHERE customer = '1' ORDER BY date LIMIT 1")
		if err == nil || !strings.Contains(err.Error(), `holds "`+c.char+`", which does not sort above "#"`) {
			t.Fatalf("got %v, want the order check to stop on %q", err, c.char)
		}
		if q := inputs[*dynamodb.QueryInput](f); len(q) != 1 || *q[0].Limit != 2 {
			t.Errorf("want one Query with Limit 2 (the row, and one past it for the check)")
		}
	}
	// Descending, the Query reads backward, as DynamoDB returns the
	// items: c and a, then b, which the key puts below them though its
	// date is the greatest; the read goes on while a date is the least
	// read so far or extends it below "#", and stops at d.
	f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return &dynamodb.QueryOutput{Items: []map[string]types.AttributeValue{
			order("2020-06-30", "c"), order("2020-06-30", "a"), order("2020-06-30 23:00", "b"), order("2020-06-29", "d"), order("2020-06-28", "e")}}, nil
	}}
	rows, err := query(t, f, m, "SELECT id FROM orders WHERE customer = '1' ORDER BY date DESC LIMIT 1")
	if err != nil || len(rows) != 1 || rows[0][0] != "b" {
		t.Errorf("descending: %v, %v; want b, the greatest date", rows, err)
	}
	if q := inputs[*dynamodb.QueryInput](f); len(q) != 1 || q[0].Limit == nil || *q[0].Limit != 2 || q[0].ScanIndexForward == nil || *q[0].ScanIndexForward {
		t.Errorf("descending: want one backward Query in pages of 2 (the row and the one that may end the read)")
	}
}

// A Query asked for pages of the rows a LIMIT needs gets fewer when
// items of other entities share its range (DynamoDB's Limit counts
// them): each next page asks for twice as many, so that a partition
// dense with other items costs a few round trips, not one per row.
func TestShortLimitedPagesGrow(t *testing.T) {
	m, err := mapping.Parse("orders.yaml", []byte(`
table: Things
partition_key: PK
sort_key: SK
type_attribute: _type
entities:
  orders:
    keys: {PK: "C#{customer}", SK: "O#{id}"}
    columns: {customer: S, id: S}
    type: order
  lines:
    keys: {PK: "C#{customer}", SK: "O#{id}#LINE#{n}"}
    columns: {customer: S, id: S, n: S}
    type: line
`))
	if err != nil {
		t.Fatal(err)
	}
	order := func(id string) map[string]types.AttributeValue {
		return item("PK", "C#1", "SK", "O#"+id, "_type", "order")
	}
	line := func(id, n string) map[string]types.AttributeValue {
		return item("PK", "C#1", "SK", "O#"+id+"#LINE#"+n, "_type", "line")
	}
	pages := [][]map[string]types.AttributeValue{
		{order("a"), line("a", "1")},
		{line("a", "2"), line("a", "3"), line("a", "4"), order("b")},
		{line("b", "1"), order("c")},
	}
	n := 0
	f := &fakeClient{query: func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		n++
		page := pages[n-1]
		return &dynamodb.QueryOutput{Items: page, LastEvaluatedKey: page[len(page)-1]}, nil
	}}
	rows, err := query(t, f, m, "SELECT id FROM orders WHERE customer = '1' ORDER BY id LIMIT 2")
	if err != nil || fmt.Sprint(rows) != "[[a] [b]]" {
		t.Fatalf("got %v, %v; want a and b", rows, err)
	}
	var limits []int32
	for _, in := range inputs[*dynamodb.QueryInput](f) {
		limits = append(limits, aws.ToInt32(in.Limit))
	}
	if fmt.Sprint(limits) != "[2 4]" {
		t.Errorf("page sizes asked %v, want [2 4]: the second page twice the first", limits)
	}
}
