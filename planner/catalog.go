package planner

import (
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// ListTables lists the logical tables a session can name (SHOW TABLES):
// the mapping's entities, then every DynamoDB table of the account or
// endpoint that no entity lives in, read raw. Their names come from
// ListTables, every page.
type ListTables struct {
	// Entities are the mapping's entities, by name.
	Entities []*mapping.Entity
	// MappedOnly: the backend cannot list its tables (the embedded
	// server has no ListTables), so only the mapping's are listed.
	MappedOnly bool
}

// Inputs implements Node.
func (*ListTables) Inputs() []Node { return nil }

// Describe implements Node.
func (l *ListTables) Describe() (string, []string) {
	if l.MappedOnly {
		return "list the mapping's entities; nothing sent (this backend cannot list its tables)", nil
	}
	return "list the mapping's entities, then the DynamoDB tables no entity lives in", nil
}

// Requests implements Requester.
func (l *ListTables) Requests() []*Request {
	if l.MappedOnly {
		return nil // the executor sends nothing: see executor/catalog.go
	}
	return []*Request{{Op: "ListTables", Per: "100 table names (every page)"}}
}

// ListTablesColumns are SHOW TABLES' columns: the name to use in SQL, what
// it is (an entity of the mapping, or a table read raw), and the
// DynamoDB table its items live in.
var ListTablesColumns = []Column{{"name", "S"}, {"kind", "S"}, {"dynamodb_table", "S"}}

// DescribeTable describes a DynamoDB table read raw (DESCRIBE name): one
// row for the table and one per index, as DescribeTable reports them.
type DescribeTable struct {
	Table string
}

// Inputs implements Node.
func (*DescribeTable) Inputs() []Node { return nil }

// Describe implements Node.
func (d *DescribeTable) Describe() (string, []string) {
	return "describe table " + d.Table + ": its keys, indexes, billing and size", nil
}

// Requests implements Requester.
func (d *DescribeTable) Requests() []*Request {
	return []*Request{{Op: "DescribeTable", Table: d.Table}}
}

// DescribeTableColumns are the columns of a raw table's DESCRIBE: what
// the row describes (table, global index, local index), its name, its key
// attributes with their types, what an index projects, the billing mode
// (with provisioned capacity), and the item count, size and status
// DescribeTable reports (DynamoDB refreshes the counts about every six
// hours).
var DescribeTableColumns = []Column{
	{"kind", "S"}, {"name", "S"}, {"partition_key", "S"}, {"sort_key", "S"},
	{"projection", "S"}, {"billing", "S"}, {"items", "N"}, {"bytes", "N"}, {"status", "S"},
}

// Values yields rows known when the statement is planned (the DESCRIBE
// of a mapped entity, read from the mapping).
type Values struct {
	Rows [][]value.Value
}

// Inputs implements Node.
func (*Values) Inputs() []Node { return nil }

// Describe implements Node.
func (v *Values) Describe() (string, []string) {
	return "rows read from the mapping; nothing sent", nil
}

// planCatalog plans SHOW TABLES and DESCRIBE.
func (p *Planner) planCatalog(sql string, stmt parser.Statement) (*Plan, error) {
	if _, ok := stmt.(*parser.ShowTables); ok {
		return &Plan{SQL: sql, Root: &ListTables{Entities: p.cat.EntityList(), MappedOnly: p.opts.Quirks.NoListTables}, Columns: ListTablesColumns}, nil
	}
	d := stmt.(*parser.Describe)
	e, err := p.cat.Entity(d.Table)
	if err != nil {
		return nil, errs.As(err).At(sql, d.Pos)
	}
	if e.Raw() {
		return &Plan{SQL: sql, Root: &DescribeTable{Table: e.Mapping().Table}, Columns: DescribeTableColumns}, nil
	}
	return &Plan{SQL: sql, Root: &Values{Rows: entityColumns(e)}, Columns: EntityColumns}, nil
}

// EntityColumns are the columns of a mapped entity's DESCRIBE: each
// column, its type, and whether it is stored in a key or as an attribute.
var EntityColumns = []Column{{"column", "S"}, {"type", "S"}, {"stored", "S"}}

func entityColumns(e *mapping.Entity) [][]value.Value {
	var rows [][]value.Value
	for _, c := range e.ColumnNames() {
		rows = append(rows, []value.Value{c, e.Columns[c], e.Stored(c)})
	}
	return rows
}
