package draft

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

// Scanner is the part of the SDK client a sample needs; *dynamodb.Client
// satisfies it.
type Scanner interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

// Cost is what sampling a table took.
type Cost struct {
	Requests int
	Capacity float64 // read capacity units, as DynamoDB reports them
}

// Sample reads up to n items of table with a Scan. Everywhere else
// dynosql refuses Scans, and its executor's client has no Scan method:
// this one runs only because the user asked for a draft, reads at most n
// items (Limit, then pages until n or the end), and reports its cost. It
// takes the SDK client itself, never the executor's.
func Sample(ctx context.Context, client Scanner, table string, n int) ([]Item, Cost, error) {
	var items []Item
	var cost Cost
	in := &dynamodb.ScanInput{TableName: aws.String(table), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	for len(items) < n {
		in.Limit = aws.Int32(int32(min(n-len(items), 1<<20)))
		out, err := client.Scan(ctx, in)
		if err != nil {
			return nil, cost, errs.FromAWS("Scan", table, err)
		}
		cost.Requests++
		if c := out.ConsumedCapacity; c != nil {
			cost.Capacity += aws.ToFloat64(c.CapacityUnits)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return items[:min(len(items), n)], cost, nil
}

// FromDescription returns the table's schema as DescribeTable gives it.
func FromDescription(desc *types.TableDescription) Table {
	t := Table{Name: aws.ToString(desc.TableName), KeyTypes: map[string]string{}}
	for _, d := range desc.AttributeDefinitions {
		t.KeyTypes[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	t.PartitionKey, t.SortKey = mapping.KeyNames(desc.KeySchema)
	for _, g := range desc.GlobalSecondaryIndexes {
		pk, sk := mapping.KeyNames(g.KeySchema)
		t.Indexes = append(t.Indexes, withProjection(Index{Name: aws.ToString(g.IndexName), PartitionKey: pk, SortKey: sk}, g.Projection))
	}
	for _, l := range desc.LocalSecondaryIndexes {
		pk, sk := mapping.KeyNames(l.KeySchema)
		t.Indexes = append(t.Indexes, withProjection(Index{Name: aws.ToString(l.IndexName), PartitionKey: pk, SortKey: sk, Local: true}, l.Projection))
	}
	return t
}

func withProjection(ix Index, p *types.Projection) Index {
	ix.Projection = "ALL"
	if p != nil && p.ProjectionType != "" {
		ix.Projection = string(p.ProjectionType)
		ix.Include = p.NonKeyAttributes
	}
	return ix
}

// FromSample returns the input of the draft of a table from its
// description and a sample of its items.
func FromSample(desc *types.TableDescription, items []Item, cost Cost) Input {
	t := FromDescription(desc)
	counted := ""
	if desc.ItemCount != nil {
		counted = " (DescribeTable counts " + strconv.FormatInt(*desc.ItemCount, 10) + ", updated about every six hours)"
	}
	return Input{
		Table: t,
		Items: items,
		Open:  true,
		Header: []string{
			fmt.Sprintf("Drafted by dynosql mapping draft from table %s: %s sampled with %s%s.",
				t.Name, count(len(items), "item"), count(cost.Requests, "Scan request"), counted),
			"Entities, their keys, names and column types are inferred from the sample;",
			"comments mark what is guessed: check them before relying on the mapping.",
		},
	}
}
