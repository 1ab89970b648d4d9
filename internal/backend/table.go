package backend

import (
	"context"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
	"github.com/dynosql/dynosql/mapping"
)

// pollEvery is how often CreateTable and DeleteTable look at the table
// while they wait; local servers are ready at once, AWS takes seconds.
const pollEvery = 200 * time.Millisecond

// CreateTable creates the mapping's table and indexes unless the table
// exists, then waits, as long as ctx allows, until the table and every
// index are ACTIVE. Create tables before using them concurrently: the
// embedded server's CreateTable races with writes.
func CreateTable(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping) error {
	_, err := EnsureTable(ctx, client, m)
	return err
}

// EnsureTable is CreateTable, and returns the request that created the
// table, or nil when the table was already there (or another program
// created it first).
func EnsureTable(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping) (*dynamodb.CreateTableInput, error) {
	var created *dynamodb.CreateTableInput
	_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(m.Table)})
	switch {
	case err == nil:
	case isCode(err, "ResourceNotFoundException"):
		in := m.CreateTableInput()
		_, err = client.CreateTable(ctx, in)
		switch {
		case err == nil:
			created = in
		case !isCode(err, "ResourceInUseException"):
			return nil, errs.FromAWS("CreateTable", m.Table, err)
		}
	default:
		return nil, errs.FromAWS("DescribeTable", m.Table, err)
	}
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(m.Table)})
		if err != nil {
			return nil, errs.FromAWS("DescribeTable", m.Table, err)
		}
		if active(out.Table) {
			return created, nil
		}
		if fn, ok := ctx.Value(waitingKey{}).(func(string)); ok {
			fn(waiting(out.Table))
		}
		if err := retry.Sleep(ctx, pollEvery); err != nil {
			return nil, errs.New(errs.Canceled, "table %s is not ACTIVE yet: %v", m.Table, err).Wrap(err)
		}
	}
}

type waitingKey struct{}

// WithWaiting returns a context whose CreateTable calls fn each time it
// finds the table or an index not yet ACTIVE, with what it waits for.
func WithWaiting(ctx context.Context, fn func(waiting string)) context.Context {
	return context.WithValue(ctx, waitingKey{}, fn)
}

// waiting says what of the table is not ACTIVE yet.
func waiting(t *types.TableDescription) string {
	var parts []string
	if t.TableStatus != types.TableStatusActive {
		parts = append(parts, aws.ToString(t.TableName)+" "+string(t.TableStatus))
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != "" && g.IndexStatus != types.IndexStatusActive {
			parts = append(parts, aws.ToString(g.IndexName)+" "+string(g.IndexStatus))
		}
	}
	return strings.Join(parts, ", ")
}

// active reports whether the table and its indexes accept reads and
// writes. The embedded server reports no table status at all, which
// means it is ready.
func active(t *types.TableDescription) bool {
	if t.TableStatus != "" && t.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != "" && g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}

// DeleteTable deletes the mapping's table if it exists and waits, as long
// as ctx allows, until it is gone.
func DeleteTable(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping) error {
	_, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(m.Table)})
	if isCode(err, "ResourceNotFoundException") {
		return nil
	}
	if err != nil {
		return errs.FromAWS("DeleteTable", m.Table, err)
	}
	for {
		_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(m.Table)})
		if isCode(err, "ResourceNotFoundException") {
			return nil
		}
		if err != nil {
			return errs.FromAWS("DescribeTable", m.Table, err)
		}
		if err := retry.Sleep(ctx, pollEvery); err != nil {
			return errs.New(errs.Canceled, "table %s is not deleted yet: %v", m.Table, err).Wrap(err)
		}
	}
}
