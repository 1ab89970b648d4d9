package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/mapping"
)

// createTable creates the mapping's table if it is missing and says on
// stderr what it created; it says nothing when the table was there.
func createTable(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping, stderr io.Writer) error {
	waitCtx, stopSpinner := waitingSpinner(ctx, stderr)
	created, err := backend.EnsureTable(waitCtx, client, m)
	stopSpinner()
	if err != nil {
		return err
	}
	if created != nil {
		fmt.Fprint(stderr, backend.DescribeCreated(created))
	}
	return nil
}

// openError adds to the error of opening the mapping's table, when the
// table does not exist, the tables that do, nearest first.
func openError(ctx context.Context, client *dynamodb.Client, m *mapping.Mapping, err error) error {
	return backend.ExplainMissingTable(ctx, client, m.Table, err,
		"or fix table: in "+m.Source+", or create the table with --create-table")
}
