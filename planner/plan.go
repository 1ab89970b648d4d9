// Package planner turns a parsed statement and a mapping into a Plan: a
// small tree of steps, each one a key-based DynamoDB request or a
// client-side operation over rows. It is pure: no network, no context.
// EXPLAIN prints a Plan and the executor runs the same value.
package planner

import (
	"strings"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Plan is a planned statement.
type Plan struct {
	SQL  string
	Root Node
	// Slots names the table references of a read, in FROM order; a row
	// in flight holds one entity row per slot.
	Slots []Slot
	// Columns are the output column names of a read, without the hidden
	// sort keys that Trim removes.
	Columns []string
	// Explain is true for EXPLAIN: the executor prints the plan and sends
	// nothing.
	Explain bool
	// Writes is true for INSERT, UPDATE, DELETE and REPAIR COPIES, which
	// the executor runs with Exec rather than Query.
	Writes bool
}

// Slot is one table reference of a statement: an alias bound to an entity.
type Slot struct {
	Alias  string
	Entity *mapping.Entity
}

// Node is one step of a plan.
type Node interface {
	// Describe returns the step's one-line title, the lines of detail
	// printed under it, and its inputs.
	Describe() (title string, details []string, inputs []Node)
}

// String draws the plan as a tree, the form EXPLAIN prints.
func (p *Plan) String() string {
	var b strings.Builder
	draw(&b, p.Root, "", "")
	return b.String()
}

func draw(b *strings.Builder, n Node, first, rest string) {
	title, details, inputs := n.Describe()
	b.WriteString(first + title + "\n")
	pad := rest + "│   "
	if len(inputs) == 0 {
		pad = rest + "    "
	}
	for _, d := range details {
		b.WriteString(strings.TrimRight(pad+d, " ") + "\n")
	}
	for i, in := range inputs {
		if i == len(inputs)-1 {
			draw(b, in, rest+"└── ", rest+"    ")
		} else {
			draw(b, in, rest+"├── ", rest+"│   ")
		}
	}
}

// Requests lists the DynamoDB requests of the plan in the order the
// executor first sends them: the JSON form of EXPLAIN.
func (p *Plan) Requests() []*Request {
	var out []*Request
	var walk func(Node)
	walk = func(n Node) {
		_, _, inputs := n.Describe()
		for _, in := range inputs {
			walk(in)
		}
		if r, ok := n.(interface{ Request() *Request }); ok {
			out = append(out, r.Request())
		}
	}
	walk(p.Root)
	return out
}

// Request describes one kind of DynamoDB request a step sends. It is
// what EXPLAIN prints for the step, in both its text and JSON forms.
type Request struct {
	Op         string   `json:"op"` // GetItem, Query, BatchGetItem, PutItem, ...
	Table      string   `json:"table"`
	Index      string   `json:"index,omitempty"`
	Key        string   `json:"key,omitempty"`       // key or key condition, values inline
	Filter     string   `json:"filter,omitempty"`    // FilterExpression, values inline
	Condition  string   `json:"condition,omitempty"` // ConditionExpression of a write
	Update     string   `json:"update,omitempty"`    // UpdateExpression of a write
	Project    []string `json:"project,omitempty"`   // attributes asked for
	Reads      []string `json:"reads,omitempty"`     // "entity alias" for each entity classified
	Consistent bool     `json:"consistent"`
	Per        string   `json:"per,omitempty"` // what one request is sent for: "statement", "outer row", "value", "100 keys"
	Note       string   `json:"note,omitempty"`
}

func (r *Request) title() string {
	var b strings.Builder
	b.WriteString(opTitle[r.Op] + " " + r.Table)
	if r.Index != "" {
		b.WriteString(" index " + r.Index)
	}
	if r.Key != "" {
		b.WriteString("  key: " + r.Key)
	}
	return b.String()
}

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
	if len(r.Project) > 0 {
		d = append(d, "project: "+strings.Join(r.Project, ", "))
	}
	cons := "eventually consistent"
	if r.Consistent {
		cons = "strongly consistent"
	}
	if r.Op == "GetItem" || r.Op == "Query" || r.Op == "BatchGetItem" {
		if r.Index != "" {
			cons += " (index reads always are)"
		}
		d = append(d, cons)
	}
	if r.Per != "" {
		d = append(d, "one request per "+r.Per)
	}
	if r.Note != "" {
		d = append(d, r.Note)
	}
	return d
}

var opTitle = map[string]string{
	"GetItem": "get-item", "Query": "query", "BatchGetItem": "batch-get",
	"PutItem": "put-item", "UpdateItem": "update-item", "DeleteItem": "delete-item",
	"TransactWriteItems": "transact-write",
}

// exprList formats expressions separated by ", ".
func exprList(es []parser.Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = parser.Format(e)
	}
	return strings.Join(s, ", ")
}
