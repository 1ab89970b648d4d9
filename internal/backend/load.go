package backend

import (
	"context"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/mapping"
)

// batchWriteMax is BatchWriteItem's limit on requests per call.
const batchWriteMax = 25

// Load reads a dataset (see ReadDataset) and writes every row into the
// mapping's table with BatchWriteItem. It returns the number of items
// written. The table must exist (see CreateTable).
func Load(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping, r io.Reader) (int, error) {
	rows, err := ReadDataset(r, m)
	if err != nil {
		return 0, err
	}
	return Write(ctx, client, m, rows)
}

// Write puts rows into the mapping's table in batches of 25, retrying
// unprocessed items with backoff until all are written or ctx ends.
func Write(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping, rows []DatasetRow) (int, error) {
	items := make([]map[string]types.AttributeValue, 0, len(rows))
	firstLine := map[string]int{} // rendered base key → line, to catch duplicates
	for _, r := range rows {
		item, err := Item(m, r)
		if err != nil {
			return 0, err
		}
		key := keyText(m, item)
		if prev, dup := firstLine[key]; dup {
			return 0, errs.New(errs.Invalid, "dataset line %d: %s has the same key as line %d (%s)", r.Line, r.Entity, prev, key)
		}
		firstLine[key] = r.Line
		items = append(items, item)
	}
	written := 0
	for start := 0; start < len(items); start += batchWriteMax {
		chunk := items[start:min(start+batchWriteMax, len(items))]
		reqs := make([]types.WriteRequest, len(chunk))
		for i, item := range chunk {
			reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}
		}
		if err := batchWrite(ctx, client, m.Table, reqs); err != nil {
			return written, err
		}
		written += len(chunk)
	}
	return written, nil
}

// Item renders the item stored for a dataset row: its present columns
// plus every key attribute of its entity (mapping.Entity.Item).
func Item(m *mapping.Mapping, r DatasetRow) (map[string]types.AttributeValue, error) {
	e, err := m.Entity(r.Entity)
	if err != nil {
		return nil, err
	}
	item, err := e.Item(r.Row)
	if err != nil {
		return nil, errs.New(errs.Invalid, "dataset line %d: %s", r.Line, errs.As(err).Message)
	}
	return item, nil
}

func keyText(m *mapping.Mapping, item map[string]types.AttributeValue) string {
	parts := make([]string, 0, 2)
	for _, attr := range m.BaseKeyAttrs() {
		parts = append(parts, attr+"="+mapping.Text(item[attr]))
	}
	return strings.Join(parts, ", ")
}

// batchWrite sends one BatchWriteItem and resends whatever DynamoDB
// leaves unprocessed, with jittered exponential backoff.
func batchWrite(ctx context.Context, client *dynamodb.Client, table string, reqs []types.WriteRequest) error {
	for attempt := 0; len(reqs) > 0; attempt++ {
		out, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{table: reqs},
		})
		if err != nil {
			return errs.FromAWS("BatchWriteItem", table, err)
		}
		reqs = out.UnprocessedItems[table]
		if len(reqs) == 0 {
			return nil
		}
		if err := retry.Backoff(ctx, attempt); err != nil {
			return errs.New(errs.Canceled, "BatchWriteItem on %s: %d items still unprocessed: %v", table, len(reqs), err).Wrap(err)
		}
	}
	return nil
}
