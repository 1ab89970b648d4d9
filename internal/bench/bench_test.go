package bench

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// schoolOn loads the school table with items in all (Rows grown with
// BigStudent's enrollments) on b and opens a DB over it.
func schoolOn(b *testing.B, be testkit.Backend, items int) *dynosql.DB {
	m, err := mapping.Load(SchoolMapping())
	if err != nil {
		b.Fatal(err)
	}
	base, _, err := Rows(m, 0)
	if err != nil {
		b.Fatal(err)
	}
	m.Table = ddblocal.UniqueTable(b, m.Table)
	client := be.Client(b)
	load(context.Background(), b, client, m, max(0, items-len(base)))
	db, err := dynosql.Open(context.Background(), m, client)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return db
}

// drain runs sql and reads its rows.
func drain(b *testing.B, db *dynosql.DB, sql string) {
	rows, err := db.Query(context.Background(), sql)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil || n == 0 {
		b.Fatalf("%s: %d rows, %v", sql, n, err)
	}
	_ = rows.Close()
}

// BenchmarkEmbedded runs a student's courses on the embedded backend and
// on DynamoDB Local, alternating, over tables of 10,000 and 100,000
// items: minidyn evaluates a Query's key condition over every item of
// the table, so its time grows with the table, not with the result.
func BenchmarkEmbedded(b *testing.B) {
	sql := fmt.Sprintf(CoursesSQL, "a91")
	for _, items := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("items=%d", items), func(b *testing.B) {
			local := schoolOn(b, testkit.Backend{Name: "ddblocal", Client: ddblocal.Client}, items)
			embedded := schoolOn(b, testkit.Backend{Name: "embedded", Client: testkit.Embedded}, items)
			b.ResetTimer()
			testkit.Alternate(b, 1, "ddblocal", func() { drain(b, local, sql) }, "embedded", func() { drain(b, embedded, sql) })
		})
	}
}

// BenchmarkChecksum sends the same Query through a client that checks
// each response's CRC32 (the SDK's default) and one that does not,
// alternating, to a loopback server answering with a fixed response of
// a few items (about 1 KB) or of a full page (about 1 MB): the client's
// cost alone, without a backend's noise.
func BenchmarkChecksum(b *testing.B) {
	for _, items := range []int{5, 7000} {
		var body strings.Builder
		fmt.Fprintf(&body, `{"Count":%d,"ScannedCount":%d,"Items":[`, items, items)
		for i := range items {
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `{"PK":{"S":"STU#big"},"SK":{"S":"ENROLL#CRS#x%06d"},"course_id":{"S":"x%06d"},"grade":{"S":"A"},"enrolledOn":{"S":"2026-09-01"}}`, i, i)
		}
		body.WriteString("]}")
		resp := []byte(body.String())
		crc := strconv.FormatUint(uint64(crc32.ChecksumIEEE(resp)), 10)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.Header().Set("X-Amz-Crc32", crc)
			_, _ = w.Write(resp)
		}))
		b.Cleanup(srv.Close)
		checked, err := backend.NewClient(context.Background(), backend.Options{Endpoint: srv.URL})
		if err != nil {
			b.Fatal(err)
		}
		unchecked := dynamodb.New(checked.Options(), func(o *dynamodb.Options) { o.DisableValidateResponseChecksum = true })
		in := &dynamodb.QueryInput{
			TableName:                 aws.String("School"),
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "STU#big"}},
		}
		query := func(c *dynamodb.Client) func() {
			return func() {
				out, err := c.Query(context.Background(), in)
				if err != nil || len(out.Items) != items {
					b.Fatalf("Query: %v", err)
				}
			}
		}
		b.Run(fmt.Sprintf("bytes=%d", len(resp)), func(b *testing.B) {
			testkit.Alternate(b, 1, "checked", query(checked), "unchecked", query(unchecked))
		})
	}
}
