package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// A Scan whose context ends part way ends with an error, never as if the
// table had no more items: a caller checking rows.Err() would take the
// rows it got for the whole answer. The Scan pages hold one item each
// (the shape of a large table), and the caller is slow after its first
// row, so that the Scan's segments see the end before the next Next.
func TestACanceledScanIsAnErrorNotAShortAnswer(t *testing.T) {
	const docs = 40
	var data strings.Builder
	for i := range docs {
		fmt.Fprintf(&data, `{"entity":"docs","row":{"id":"d%04d","body":"x"}}`+"\n", i)
	}
	onePerPage := testkit.Hook("scanPage", func(ctx context.Context, _ string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if s, ok := in.Parameters.(*dynamodb.ScanInput); ok {
			one := int32(1)
			s.Limit = &one
		}
		return next.HandleInitialize(ctx, in)
	})
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, `
table: Big
partition_key: PK
sort_key: SK
entities:
  docs:
    keys: {PK: "D#{id}", SK: "DOC"}
    columns: {id: S, body: S}
`, data.String(), dynosql.WithScans(), onePerPage)
			// About one run in five ended quietly before the fix: forty
			// runs all pass by chance once in 7,000.
			for run := range 40 {
				ctx, cancel := context.WithCancel(context.Background())
				rows, err := fx.DB.Query(ctx, "SELECT id FROM docs WHERE body <> ''")
				if err != nil {
					cancel()
					t.Fatal(err)
				}
				n := 0
				for rows.Next() {
					if n++; n == 1 {
						cancel()
						time.Sleep(5 * time.Millisecond)
					}
				}
				err = rows.Err()
				_ = rows.Close()
				cancel()
				if n < docs && !errors.Is(err, dynosql.ErrCanceled) {
					t.Fatalf("run %d: %d of %d rows, then %v; want a canceled error", run, n, docs, err)
				}
			}
		})
	}
}
