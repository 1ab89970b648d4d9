package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
)

// ListTables returns the names of every table the client reaches,
// following ListTables' pages (at most 100 names each).
func ListTables(ctx context.Context, client dynamodb.ListTablesAPIClient) ([]string, error) {
	var names []string
	pages := dynamodb.NewListTablesPaginator(client, &dynamodb.ListTablesInput{})
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return nil, errs.FromAWS("ListTables", "", err)
		}
		names = append(names, out.TableNames...)
	}
	return names, nil
}

// shownTables bounds how many table names a hint lists.
const shownTables = 10

// ExplainMissingTable returns err with a hint that lists the tables the
// client does reach, nearest to table first, when err says that table
// does not exist; also ends the hint (what else the user may do). Any
// other error, or a failing ListTables (a policy without it), leaves err
// as it is.
func ExplainMissingTable(ctx context.Context, client *dynamodb.Client, table string, err error, also string) error {
	var e *errs.Error
	if !errors.As(err, &e) || !isCode(err, "ResourceNotFoundException") {
		return err
	}
	names, lerr := ListTables(ctx, client)
	if lerr != nil {
		return err
	}
	where := "in " + client.Options().Region
	if base := client.Options().BaseEndpoint; base != nil {
		where = "at " + *base
	}
	var hint string
	if len(names) == 0 {
		hint = fmt.Sprintf("there is no table %s: check --region and --endpoint-url", where)
	} else {
		near := errs.ByNearness(table, names)
		more := ""
		if len(near) > shownTables {
			more = fmt.Sprintf(" (and %d more)", len(near)-shownTables)
			near = near[:shownTables]
		}
		hint = fmt.Sprintf("the tables %s, nearest first: %s%s", where, strings.Join(near, ", "), more)
	}
	if also != "" {
		hint += "; " + also
	}
	e.Hint = hint
	return err
}

// DescribeCreated says in a few lines what a CreateTable request made:
// the table, its keys and their types, billing, and each index with its
// kind, keys and projection.
func DescribeCreated(in *dynamodb.CreateTableInput) string {
	attrTypes := map[string]string{}
	for _, d := range in.AttributeDefinitions {
		attrTypes[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	billing := "billed on demand"
	if in.BillingMode == "" || in.BillingMode == "PROVISIONED" {
		billing = "provisioned capacity"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "created table %s (%s): %s\n", aws.ToString(in.TableName), billing, schemaText(in.KeySchema, attrTypes, false))
	for _, g := range in.GlobalSecondaryIndexes {
		fmt.Fprintf(&b, "  global index %s: %s; projects %s\n", aws.ToString(g.IndexName), schemaText(g.KeySchema, attrTypes, false), projectionText(g.Projection))
	}
	for _, l := range in.LocalSecondaryIndexes {
		fmt.Fprintf(&b, "  local index %s: %s; projects %s\n", aws.ToString(l.IndexName), schemaText(l.KeySchema, attrTypes, true), projectionText(l.Projection))
	}
	return b.String()
}

// schemaText writes a key schema as "partition key PK (S), sort key SK
// (S)"; a local index shares the table's partition key, so only its sort
// key is said.
func schemaText(schema []types.KeySchemaElement, attrTypes map[string]string, local bool) string {
	var parts []string
	for _, k := range schema {
		name := aws.ToString(k.AttributeName)
		switch {
		case k.KeyType == types.KeyTypeHash && local:
		case k.KeyType == types.KeyTypeHash:
			parts = append(parts, fmt.Sprintf("partition key %s (%s)", name, attrTypes[name]))
		default:
			parts = append(parts, fmt.Sprintf("sort key %s (%s)", name, attrTypes[name]))
		}
	}
	return strings.Join(parts, ", ")
}

func projectionText(p *types.Projection) string {
	if p == nil {
		return "ALL"
	}
	if p.ProjectionType == types.ProjectionTypeInclude {
		return "INCLUDE " + strings.Join(p.NonKeyAttributes, ", ")
	}
	return string(p.ProjectionType)
}
