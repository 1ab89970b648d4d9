package planner

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// Request describes one kind of DynamoDB request a step sends, as the
// request's builder made it: expressions with their names and values
// substituted. It is what EXPLAIN prints, in its text and JSON forms.
type Request struct {
	Op         string   `json:"op"` // GetItem, Query, BatchGetItem, PutItem, ...
	Table      string   `json:"table"`
	Index      string   `json:"index,omitempty"`
	Key        string   `json:"key,omitempty"`       // key or key condition, values inline
	Filter     string   `json:"filter,omitempty"`    // FilterExpression, values inline
	Condition  string   `json:"condition,omitempty"` // ConditionExpression of a write
	Update     string   `json:"update,omitempty"`    // UpdateExpression of a write
	Item       string   `json:"item,omitempty"`      // the attributes a PutItem writes
	Project    []string `json:"project,omitempty"`   // attributes asked for
	Reads      []string `json:"reads,omitempty"`     // "entity alias" for each entity classified
	Consistent bool     `json:"consistent"`
	Per        string   `json:"per,omitempty"` // what one request is sent for: "statement", "distinct key of outer rows", "value, in parallel", "100 distinct keys of outer rows"
	Note       string   `json:"note,omitempty"`
	// Actions are the actions of a TransactWriteItems, in order.
	Actions []*Request `json:"actions,omitempty"`
	// index is the kind of index read: "global" or "local"; "" for the table.
	index string
}

// DescribeRequest describes an SDK input of operation op (GetItem,
// Query, BatchGetItem, PutItem, UpdateItem, DeleteItem,
// TransactWriteItems) the way EXPLAIN prints it. m orders key
// attributes (the table's first). EXPLAIN describes what the request
// builders make; tests describe what was really sent, and compare.
func DescribeRequest(m *mapping.Mapping, op string, input any) *Request {
	return describeInput(only(m), op, input)
}

// only is the mappingOf of requests to m's table alone.
func only(m *mapping.Mapping) func(string) *mapping.Mapping {
	return func(string) *mapping.Mapping { return m }
}

// describeInput is DescribeRequest taking each table's mapping from
// mappingOf; a table it returns nil for has its keys printed by name.
func describeInput(mappingOf func(table string) *mapping.Mapping, op string, input any) *Request {
	d := describer{mappingOf: mappingOf}
	switch in := input.(type) {
	case *dynamodb.GetItemInput:
		r := &Request{Op: op, Table: aws.ToString(in.TableName), Key: d.key(aws.ToString(in.TableName), in.Key), Consistent: aws.ToBool(in.ConsistentRead)}
		r.Project = d.projection(in.ProjectionExpression, in.ExpressionAttributeNames)
		return r
	case *dynamodb.QueryInput:
		r := &Request{Op: op, Table: aws.ToString(in.TableName), Index: aws.ToString(in.IndexName), Consistent: aws.ToBool(in.ConsistentRead)}
		r.Key = d.expr(in.KeyConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		r.Filter = d.expr(in.FilterExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		r.Project = d.projection(in.ProjectionExpression, in.ExpressionAttributeNames)
		var notes []string
		if in.ScanIndexForward != nil && !*in.ScanIndexForward {
			notes = append(notes, "descending (ScanIndexForward = false)")
		}
		if in.Limit != nil {
			notes = append(notes, fmt.Sprintf("pages of %d items (Limit), twice as many each page after", *in.Limit))
		}
		if in.Select == types.SelectCount {
			notes = append(notes, "Select = COUNT: counts, returns no items")
		}
		r.Note = strings.Join(notes, "; ")
		return r
	case *dynamodb.ScanInput:
		r := &Request{Op: op, Table: aws.ToString(in.TableName), Index: aws.ToString(in.IndexName), Consistent: aws.ToBool(in.ConsistentRead)}
		r.Filter = d.expr(in.FilterExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		r.Project = d.projection(in.ProjectionExpression, in.ExpressionAttributeNames)
		return r
	case *dynamodb.BatchGetItemInput:
		for table, ka := range in.RequestItems {
			r := &Request{Op: op, Table: table, Consistent: aws.ToBool(ka.ConsistentRead)}
			keys := make([]string, len(ka.Keys))
			for i, k := range ka.Keys {
				keys[i] = d.key(table, k)
			}
			r.Key = strings.Join(keys, " | ")
			r.Project = d.projection(ka.ProjectionExpression, ka.ExpressionAttributeNames)
			return r
		}
	case *dynamodb.PutItemInput:
		return d.put(op, aws.ToString(in.TableName), in.Item, in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	case *dynamodb.UpdateItemInput:
		return d.update(op, aws.ToString(in.TableName), in.Key, in.UpdateExpression, in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	case *dynamodb.DeleteItemInput:
		return &Request{Op: op, Table: aws.ToString(in.TableName), Key: d.key(aws.ToString(in.TableName), in.Key),
			Condition: d.expr(in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)}
	case *dynamodb.TransactWriteItemsInput:
		r := &Request{Op: op}
		for _, a := range in.TransactItems {
			r.Actions = append(r.Actions, d.action(a))
		}
		if len(r.Actions) > 0 {
			r.Table = r.Actions[0].Table
		}
		return r
	}
	return &Request{Op: op}
}

type describer struct {
	mappingOf func(table string) *mapping.Mapping // orders key attributes
}

func (d describer) action(a types.TransactWriteItem) *Request {
	switch {
	case a.Put != nil:
		p := a.Put
		return d.put("Put", aws.ToString(p.TableName), p.Item, p.ConditionExpression, p.ExpressionAttributeNames, p.ExpressionAttributeValues)
	case a.Update != nil:
		u := a.Update
		return d.update("Update", aws.ToString(u.TableName), u.Key, u.UpdateExpression, u.ConditionExpression, u.ExpressionAttributeNames, u.ExpressionAttributeValues)
	case a.Delete != nil:
		x := a.Delete
		return &Request{Op: "Delete", Table: aws.ToString(x.TableName), Key: d.key(aws.ToString(x.TableName), x.Key),
			Condition: d.expr(x.ConditionExpression, x.ExpressionAttributeNames, x.ExpressionAttributeValues)}
	case a.ConditionCheck != nil:
		c := a.ConditionCheck
		return &Request{Op: "ConditionCheck", Table: aws.ToString(c.TableName), Key: d.key(aws.ToString(c.TableName), c.Key),
			Condition: d.expr(c.ConditionExpression, c.ExpressionAttributeNames, c.ExpressionAttributeValues)}
	}
	return &Request{}
}

func (d describer) put(op, table string, item map[string]types.AttributeValue, cond *string, names map[string]string, vals map[string]types.AttributeValue) *Request {
	key := map[string]types.AttributeValue{}
	if m := d.mappingOf(table); m != nil {
		for _, attr := range m.BaseKeyAttrs() {
			if av, ok := item[attr]; ok {
				key[attr] = av
			}
		}
	}
	return &Request{Op: op, Table: table, Key: d.key(table, key), Item: d.attrs(item), Condition: d.expr(cond, names, vals)}
}

func (d describer) update(op, table string, key map[string]types.AttributeValue, update, cond *string, names map[string]string, vals map[string]types.AttributeValue) *Request {
	return &Request{Op: op, Table: table, Key: d.key(table, key), Update: d.expr(update, names, vals), Condition: d.expr(cond, names, vals)}
}

// key prints a key of table: the table's key attributes first, then the
// others, each as attr = value.
func (d describer) key(table string, key map[string]types.AttributeValue) string {
	names := make([]string, 0, len(key))
	for k := range key {
		names = append(names, k)
	}
	var order []string
	if m := d.mappingOf(table); m != nil {
		order = m.KeyAttrs()
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := slices.Index(order, names[i]), slices.Index(order, names[j])
		if a < 0 {
			a = len(order)
		}
		if b < 0 {
			b = len(order)
		}
		if a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " = " + literal(key[n])
	}
	return strings.Join(parts, ", ")
}

// attrs prints an item's attributes, by name.
func (d describer) attrs(item map[string]types.AttributeValue) string {
	names := make([]string, 0, len(item))
	for k := range item {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " = " + literal(item[n])
	}
	return strings.Join(parts, ", ")
}

// placeholder matches an expression's #name and :value placeholders.
var placeholder = regexp.MustCompile(`[#:][0-9A-Za-z_]+`)

// expr substitutes names and values into an expression, in one pass so
// that a value's text ("USER#3") is never read as a placeholder, and
// joins the clauses of an UpdateExpression (SET ...\nREMOVE ...) on one
// line.
func (d describer) expr(e *string, names map[string]string, vals map[string]types.AttributeValue) string {
	if e == nil {
		return ""
	}
	s := placeholder.ReplaceAllStringFunc(*e, func(p string) string {
		if n, ok := names[p]; ok && p[0] == '#' {
			return n
		}
		if av, ok := vals[p]; ok && p[0] == ':' {
			return literal(av)
		}
		return p
	})
	return strings.Join(strings.Fields(s), " ")
}

func (d describer) projection(p *string, names map[string]string) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, part := range strings.Split(*p, ",") {
		out = append(out, d.expr(aws.String(strings.TrimSpace(part)), names, nil))
	}
	return out
}

// placeholderText matches the whole text of a value that stands for one
// known only when the statement runs ({e.course_id}, see
// mapping.Placeholder): EXPLAIN prints it bare.
var placeholderText = regexp.MustCompile(`^\{[^{}"]+\}$`)

// literal prints a value as EXPLAIN shows it: strings quoted, numbers
// bare, binaries as X'hex', placeholders bare.
func literal(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		if placeholderText.MatchString(x.Value) {
			return x.Value
		}
	case *types.AttributeValueMemberN:
		return x.Value
	}
	return value.Literal(value.FromAttr(av))
}

// String draws the request as EXPLAIN does: its title, then its details
// and its actions, indented.
func (r *Request) String() string {
	var b strings.Builder
	drawRequest(&b, r, "", "")
	return b.String()
}

// title is the request's first line in the EXPLAIN tree.
func (r *Request) title() string {
	var b strings.Builder
	b.WriteString(opTitle(r.Op) + " " + r.Table)
	if r.Index != "" {
		b.WriteString(" index " + r.Index)
	}
	if r.Key != "" {
		b.WriteString("  key: " + r.Key)
	}
	return b.String()
}

// details are the lines EXPLAIN prints under the title.
func (r *Request) details() []string {
	var d []string
	if len(r.Reads) > 0 {
		d = append(d, "reads: "+strings.Join(r.Reads, ", "))
	}
	if r.Filter != "" {
		d = append(d, "filter: "+r.Filter)
	}
	if r.Condition != "" {
		d = append(d, "condition: "+r.Condition)
	}
	if r.Update != "" {
		d = append(d, "update: "+r.Update)
	}
	if r.Item != "" {
		d = append(d, "item: "+r.Item)
	}
	if len(r.Project) > 0 {
		d = append(d, "project: "+strings.Join(r.Project, ", "))
	}
	switch r.Op {
	case "GetItem", "Query", "BatchGetItem", "Scan":
		d = append(d, r.consistency())
	}
	if r.Per != "" {
		d = append(d, "one request per "+r.Per)
	}
	if r.Note != "" {
		d = append(d, r.Note)
	}
	return d
}

func (r *Request) consistency() string {
	switch {
	case r.Consistent:
		return "strongly consistent"
	case r.index == "global":
		return "eventually consistent (a global index allows no other)"
	}
	return "eventually consistent"
}

func opTitle(op string) string {
	switch op {
	case "GetItem":
		return "get-item"
	case "Query":
		return "query"
	case "BatchGetItem":
		return "batch-get"
	case "PutItem", "Put":
		return "put-item"
	case "UpdateItem", "Update":
		return "update-item"
	case "DeleteItem", "Delete":
		return "delete-item"
	case "ConditionCheck":
		return "condition-check"
	case "TransactWriteItems":
		return "transact-write"
	case "Scan":
		return "scan"
	}
	return op
}
