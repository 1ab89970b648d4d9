// Package planner turns a parsed statement and a mapping into a Plan: a
// small tree of steps, each one a key-based DynamoDB request or a
// client-side operation over rows. It is pure: no network, no context.
// Each request-sending step builds its SDK input in one place (requests.go,
// write_requests.go); EXPLAIN prints the input that builder makes, and
// the executor sends what the same builder makes for real values.
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
	// Columns are the output columns of a read, without the hidden sort
	// keys that Trim removes.
	Columns []Column
	// Explain is true for EXPLAIN: the session prints the plan and sends
	// nothing, unless Analyze is set too (EXPLAIN ANALYZE): then the
	// statement runs and the session reports what each step sent.
	Explain bool
	Analyze bool
	// ExplainFormat is EXPLAIN's FORMAT option: text, json, go or cli;
	// "" for the session's output format.
	ExplainFormat string
	// Writes is true for INSERT, UPDATE, DELETE and REPAIR COPIES, which
	// the executor runs with Exec rather than Query.
	Writes bool
	// Verb names the statement that writes, as messages do (INSERT,
	// UPDATE, DELETE, REPAIR COPIES); "" for a read.
	Verb string
	// Control is set, and Root nil, for BEGIN, COMMIT and ROLLBACK, which
	// the session carries out.
	Control Control
}

// Column is one output column: its name and DynamoDB type (S, N, B,
// BOOL, L, M, SS, NS), "" where the statement does not fix it (a NULL
// literal, an attribute an open entity does not declare).
type Column struct {
	Name string
	Type string
}

// ColumnNames returns the output column names.
func (p *Plan) ColumnNames() []string {
	names := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		names[i] = c.Name
	}
	return names
}

// Slot is one table reference of a statement: an alias bound to an entity.
type Slot struct {
	Alias  string
	Entity *mapping.Entity
}

// JoinKind says which rows a join keeps.
type JoinKind int

// Join kinds.
const (
	// Inner keeps the combinations for which the condition holds.
	Inner JoinKind = iota
	// LeftOuter also keeps an outer row that nothing matches, with NULLs
	// in the inner slots.
	LeftOuter
	// Semi keeps each outer row that something matches, once.
	Semi
	// Anti keeps each outer row that nothing matches.
	Anti
)

func (k JoinKind) String() string {
	return [...]string{"join", "left join", "semi join", "anti join"}[k]
}

// Node is one step of a plan.
type Node interface {
	// Inputs returns the steps this one reads rows from, in order.
	Inputs() []Node
	// Describe returns the step's one-line title and the lines of detail
	// EXPLAIN prints under it.
	Describe() (title string, details []string)
}

// Requester is a step that sends DynamoDB requests: Requests describes
// each kind it sends, as EXPLAIN prints them.
type Requester interface {
	Requests() []*Request
}

// String draws the plan as a tree, the form EXPLAIN prints.
func (p *Plan) String() string { return p.Annotated(nil) }

// Annotated draws the plan as String does, with the lines note returns
// for a step under its own (EXPLAIN ANALYZE's costs).
func (p *Plan) Annotated(note func(Node) []string) string {
	var b strings.Builder
	draw(&b, p.Root, "", "", note)
	return b.String()
}

// requestParent is a step (a write) whose requests EXPLAIN draws as its
// children, after the steps it reads from; a read step's one request is
// its own title instead.
type requestParent interface{ requestsBelow() }

func draw(b *strings.Builder, n Node, first, rest string, note func(Node) []string) {
	title, details := n.Describe()
	if note != nil {
		details = append(details, note(n)...)
	}
	inputs := n.Inputs()
	var reqs []*Request
	if r, ok := n.(Requester); ok {
		if _, below := n.(requestParent); below {
			reqs = r.Requests()
		}
	}
	b.WriteString(first + title + "\n")
	pad := rest + "│   "
	if len(inputs) == 0 && len(reqs) == 0 {
		pad = rest + "    "
	}
	for _, d := range details {
		b.WriteString(strings.TrimRight(pad+d, " ") + "\n")
	}
	last := len(reqs) + len(inputs) - 1
	for i, in := range inputs {
		if i == last {
			draw(b, in, rest+"└── ", rest+"    ", note)
		} else {
			draw(b, in, rest+"├── ", rest+"│   ", note)
		}
	}
	for i, r := range reqs {
		if len(inputs)+i == last {
			drawRequest(b, r, rest+"└── ", rest+"    ")
		} else {
			drawRequest(b, r, rest+"├── ", rest+"│   ")
		}
	}
}

func drawRequest(b *strings.Builder, r *Request, first, rest string) {
	b.WriteString(first + r.title() + "\n")
	pad := rest + "│   "
	if len(r.Actions) == 0 {
		pad = rest + "    "
	}
	for _, d := range r.details() {
		b.WriteString(strings.TrimRight(pad+d, " ") + "\n")
	}
	for i, a := range r.Actions {
		if i == len(r.Actions)-1 {
			drawRequest(b, a, rest+"└── ", rest+"    ")
		} else {
			drawRequest(b, a, rest+"├── ", rest+"│   ")
		}
	}
}

// Requests lists the DynamoDB requests of the plan in the order the
// executor first sends them: the JSON form of EXPLAIN.
func (p *Plan) Requests() []*Request {
	var out []*Request
	p.eachRequester(func(_ Node, reqs []*Request) { out = append(out, reqs...) })
	return out
}

// eachRequester calls fn for every step that sends requests, with them,
// in the order the executor first sends them: inputs before the step
// that reads them.
func (p *Plan) eachRequester(fn func(Node, []*Request)) {
	var walk func(Node)
	walk = func(n Node) {
		for _, in := range n.Inputs() {
			walk(in)
		}
		if r, ok := n.(Requester); ok {
			fn(n, r.Requests())
		}
	}
	if p.Root != nil {
		walk(p.Root)
	}
}

// Walk calls fn for n and every step below it, parents first.
func Walk(n Node, fn func(Node)) {
	fn(n)
	for _, in := range n.Inputs() {
		Walk(in, fn)
	}
}

// exprList formats expressions separated by ", ".
func exprList(es []parser.Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = parser.Format(e)
	}
	return strings.Join(s, ", ")
}
