package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// catalogRows answers SHOW TABLES, DESCRIBE and other rows the plan
// already holds; ok is false for any other step.
func (r *run) catalogRows(ctx context.Context, n planner.Node) (rows [][]value.Value, ok bool, err error) {
	switch x := n.(type) {
	case *planner.Values:
		return x.Rows, true, nil
	case *planner.ListTables:
		rows, err := r.listTables(ctx, x)
		return rows, true, err
	case *planner.DescribeTable:
		t, err := r.ex.DescribeTable(ctx, x.Table)
		if err != nil {
			return nil, true, err
		}
		return describeRows(t), true, nil
	}
	return nil, false, nil
}

// listTables lists the mapping's entities, then every table ListTables
// names (every page) that no entity lives in.
func (r *run) listTables(ctx context.Context, l *planner.ListTables) ([][]value.Value, error) {
	var rows [][]value.Value
	mapped := map[string]bool{}
	for _, e := range l.Entities {
		rows = append(rows, []value.Value{e.Name, "entity", e.Mapping().Table})
		mapped[e.Mapping().Table] = true
	}
	if l.MappedOnly {
		return rows, nil
	}
	names, err := r.ex.TableNames(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range names {
		if !mapped[t] {
			rows = append(rows, []value.Value{t, "table", t})
		}
	}
	return rows, nil
}

// describeRows is a raw table's DESCRIBE: the table, then its global and
// local indexes by name, in planner.DescribeTableColumns.
func describeRows(t *types.TableDescription) [][]value.Value {
	attrTypes := map[string]string{}
	for _, d := range t.AttributeDefinitions {
		attrTypes[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	key := func(schema []types.KeySchemaElement, kind types.KeyType) value.Value {
		for _, k := range schema {
			if k.KeyType == kind {
				name := aws.ToString(k.AttributeName)
				if typ := attrTypes[name]; typ != "" {
					return name + " (" + typ + ")"
				}
				return name
			}
		}
		return nil
	}
	billing := func(p *types.ProvisionedThroughputDescription) value.Value {
		if t.BillingModeSummary != nil && t.BillingModeSummary.BillingMode == types.BillingModePayPerRequest {
			return string(types.BillingModePayPerRequest)
		}
		if p == nil || aws.ToInt64(p.ReadCapacityUnits) == 0 {
			return string(types.BillingModePayPerRequest)
		}
		return fmt.Sprintf("PROVISIONED %d RCU, %d WCU", aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits))
	}
	count := func(n *int64) value.Value {
		if n == nil {
			return nil
		}
		return value.Number(fmt.Sprint(*n))
	}
	rows := [][]value.Value{{
		"table", aws.ToString(t.TableName), key(t.KeySchema, types.KeyTypeHash), key(t.KeySchema, types.KeyTypeRange),
		nil, billing(t.ProvisionedThroughput), count(t.ItemCount), count(t.TableSizeBytes), status(string(t.TableStatus)),
	}}
	gsis := slices.Clone(t.GlobalSecondaryIndexes)
	slices.SortFunc(gsis, func(a, b types.GlobalSecondaryIndexDescription) int {
		return strings.Compare(aws.ToString(a.IndexName), aws.ToString(b.IndexName))
	})
	for _, g := range gsis {
		rows = append(rows, []value.Value{
			"global index", aws.ToString(g.IndexName), key(g.KeySchema, types.KeyTypeHash), key(g.KeySchema, types.KeyTypeRange),
			projection(g.Projection), billing(g.ProvisionedThroughput), count(g.ItemCount), count(g.IndexSizeBytes), status(string(g.IndexStatus)),
		})
	}
	lsis := slices.Clone(t.LocalSecondaryIndexes)
	slices.SortFunc(lsis, func(a, b types.LocalSecondaryIndexDescription) int {
		return strings.Compare(aws.ToString(a.IndexName), aws.ToString(b.IndexName))
	})
	for _, l := range lsis {
		// A local index shares the table's capacity and status.
		rows = append(rows, []value.Value{
			"local index", aws.ToString(l.IndexName), key(l.KeySchema, types.KeyTypeHash), key(l.KeySchema, types.KeyTypeRange),
			projection(l.Projection), nil, count(l.ItemCount), count(l.IndexSizeBytes), nil,
		})
	}
	return rows
}

// projection names what an index projects: ALL, KEYS_ONLY, or INCLUDE
// with the attributes.
func projection(p *types.Projection) value.Value {
	if p == nil {
		return nil
	}
	if p.ProjectionType == types.ProjectionTypeInclude {
		return "INCLUDE " + strings.Join(p.NonKeyAttributes, ", ")
	}
	return string(p.ProjectionType)
}

// status is a table's or index's status; the embedded backend reports
// none.
func status(s string) value.Value {
	if s == "" {
		return nil
	}
	return s
}

// DescribeTable describes a table, through the statement's hooks and
// stats like every other request: the session learning a raw table.
func (ex *Executor) DescribeTable(ctx context.Context, table string) (*types.TableDescription, error) {
	out, err := ex.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, ex.optFns(ctx)...)
	if err != nil {
		return nil, errs.FromAWS("DescribeTable", table, err)
	}
	return out.Table, nil
}

// TableNames lists the tables the client reaches, every page.
func (ex *Executor) TableNames(ctx context.Context) ([]string, error) {
	var names []string
	pages := dynamodb.NewListTablesPaginator(ex.client, &dynamodb.ListTablesInput{})
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx, ex.optFns(ctx)...)
		if err != nil {
			return names, backendError("ListTables", err)
		}
		names = append(names, out.TableNames...)
	}
	return names, nil
}
