// Package bench holds what an expert writes by hand with aws-sdk-go-v2
// for the statements dynosql's benchmarks measure: the same answers from
// the fewest requests, pipelined, with minimal projections. A benchmark
// runs one of these beside dynosql on the same table; their ratio is
// dynosql's cost.
package bench

import (
	"context"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// Roster is SELECT s.name, e.grade FROM enrollments e JOIN students s ON
// s.id = e.student_id WHERE e.course_id = course on the school mapping,
// by hand: the course's edges through GSI1, page by page, and as each
// page arrives the students' BatchGetItems of 100 distinct keys, at most
// concurrency in flight, while the next page is read. It returns the
// number of rows.
func Roster(ctx context.Context, c *dynamodb.Client, table, course string, concurrency int) (int, error) {
	b := newBatcher(ctx, c, table, "PK, #n", map[string]string{"#n": "name"}, concurrency)
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		IndexName:                 aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :pk AND begins_with(GSI1SK, :stu)"),
		ProjectionExpression:      aws.String("PK, grade"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("CRS#" + course), ":stu": s("STU#")},
	})
	var students []string // of each edge
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			_, _ = b.wait()
			return 0, err
		}
		for _, item := range page.Items {
			pk := item["PK"].(*types.AttributeValueMemberS).Value
			students = append(students, pk)
			b.add(pk, "PROFILE")
		}
	}
	return b.rows(students)
}

// StudentCourses is SELECT s.name, c.title, e.grade FROM students s JOIN
// enrollments e ON e.student_id = s.id JOIN courses c ON c.id =
// e.course_id WHERE s.id = id, by hand: one Query of the student's
// partition (profile and edges), one BatchGetItem of the courses. It
// returns the number of rows.
func StudentCourses(ctx context.Context, c *dynamodb.Client, table, id string) (int, error) {
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
	b := newBatcher(ctx, c, table, "PK, title", nil, 1)
	var courses []string // of each edge
	for _, item := range out.Items {
		sk := item["SK"].(*types.AttributeValueMemberS).Value
		if course, ok := strings.CutPrefix(sk, "ENROLL#CRS#"); ok {
			courses = append(courses, "CRS#"+course)
			b.add("CRS#"+course, "META")
		}
	}
	return b.rows(courses)
}

// batcher sends BatchGetItems of 100 distinct keys as keys are added,
// at most limit at once, retrying unprocessed keys.
type batcher struct {
	ctx     context.Context
	c       *dynamodb.Client
	table   string
	ka      types.KeysAndAttributes // projection of every request
	seen    map[string]bool
	pending []map[string]types.AttributeValue
	sem     chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	found   map[string]bool // partition keys of the items read
	err     error
}

func newBatcher(ctx context.Context, c *dynamodb.Client, table, projection string, names map[string]string, limit int) *batcher {
	return &batcher{ctx: ctx, c: c, table: table, seen: map[string]bool{}, found: map[string]bool{}, sem: make(chan struct{}, limit),
		ka: types.KeysAndAttributes{ProjectionExpression: aws.String(projection), ExpressionAttributeNames: names}}
}

func (b *batcher) add(pk, sk string) {
	if b.seen[pk+"\x00"+sk] {
		return
	}
	b.seen[pk+"\x00"+sk] = true
	b.pending = append(b.pending, map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)})
	if len(b.pending) == 100 {
		b.flush()
	}
}

func (b *batcher) flush() {
	if len(b.pending) == 0 {
		return
	}
	ka := b.ka
	ka.Keys, b.pending = b.pending, nil
	b.wg.Add(1)
	b.sem <- struct{}{}
	go func() {
		defer func() { <-b.sem; b.wg.Done() }()
		req := map[string]types.KeysAndAttributes{b.table: ka}
		for len(req) > 0 {
			out, err := b.c.BatchGetItem(b.ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
			b.mu.Lock()
			if err != nil {
				b.err = err
				b.mu.Unlock()
				return
			}
			for _, item := range out.Responses[b.table] {
				b.found[item["PK"].(*types.AttributeValueMemberS).Value] = true
			}
			b.mu.Unlock()
			req = out.UnprocessedKeys
		}
	}()
}

// wait sends what is left and waits for every request.
func (b *batcher) wait() (map[string]bool, error) {
	b.flush()
	b.wg.Wait()
	return b.found, b.err
}

// rows waits, then counts the outer rows (by the partition key each
// looks up) whose item was found: the rows of an inner join.
func (b *batcher) rows(pks []string) (int, error) {
	found, err := b.wait()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, pk := range pks {
		if found[pk] {
			n++
		}
	}
	return n, nil
}
