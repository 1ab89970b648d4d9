package planner

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Read says which slot the items of one entity fill.
type Read struct {
	Slot   int
	Alias  string
	Entity string
	Of     *mapping.Entity // the entity called Entity
	// Alone is set when the request can meet no other entity's items
	// (mapping.Alone): its items are then checked only against the key
	// attributes it reads, and it reads none just to tell entities apart.
	Alone bool
}

func readList(rs []Read) []string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.Entity
		if r.Alias != r.Entity {
			s[i] += " " + r.Alias
		}
	}
	return s
}

// GetItem reads one item by its full base-table key, known from constants.
// Requires: every column of the base key templates bound to a constant.
type GetItem struct {
	Table      string
	Key        []*KeyValue
	Read       Read
	Project    []string
	Consistent bool
	m          *mapping.Mapping
	built      atomic.Pointer[*dynamodb.GetItemInput] // see builtOnce
}

// Inputs implements Node: a GetItem reads no other step.
func (g *GetItem) Inputs() []Node { return nil }

// Requests describes the GetItem sent.
func (g *GetItem) Requests() []*Request {
	in, err := g.Build(Explaining)
	switch {
	case err != nil:
		return []*Request{{Op: "GetItem", Table: g.Table, Note: "no request: " + err.Error()}}
	case in == nil:
		return []*Request{{Op: "GetItem", Table: g.Table, Note: "no request: a key column is NULL"}}
	}
	r := DescribeRequest(g.m, "GetItem", in)
	r.Reads, r.Per = readList([]Read{g.Read}), "statement"
	return []*Request{r}
}

// Describe implements Node.
func (g *GetItem) Describe() (string, []string) { return describeOne(g.Requests()[0]) }

// describeOne is a read step's title and details: its request's, without
// "one request per statement".
func describeOne(r *Request) (string, []string) {
	c := *r
	if c.Per == "statement" {
		c.Per = ""
	}
	return c.title(), c.details()
}

// Query reads one partition of the base table or of an index, narrowed by
// a sort-key condition, and pages to the end (or until LIMIT is met).
// Requires: every column of the partition key template bound, to
// constants or to columns of earlier rows. With several PK values (IN) it
// sends one paginated Query per value, in parallel.
type Query struct {
	Table string
	Index string // "" for the base table
	Local bool   // Index is a local secondary index
	PK    []*KeyValue
	SK    *SortSpec // nil: the whole partition
	// Filter becomes the FilterExpression. It never removes a row the
	// statement wants (it holds only conditions that are false whenever
	// the SQL predicate is not true); the executor re-checks the whole
	// predicate on the client.
	Filter     parser.Expr
	Reads      []Read // entities the partition's items are classified into
	Project    []string
	Consistent bool
	Desc       bool // ScanIndexForward = false
	// Limit, when above zero, is the page size to ask for: the statement
	// needs no more rows than that from this Query (DynamoDB's Limit
	// counts items read, so paging still goes on if a page falls short).
	Limit int64
	// CountOnly asks DynamoDB for the number of matching items only
	// (Select=COUNT): the statement is a bare COUNT(*) and the key
	// condition meets no other entity's items. It costs the same reads but
	// sends no items back.
	CountOnly bool
	// Bound is true when the key binds columns of earlier rows: one
	// Query per distinct key of the outer rows.
	Bound bool
	// Order, when set, is the ORDER BY the Query's key order gives only
	// as long as the values read keep the guards: the executor checks
	// each row and stops with an error otherwise (see mapping.OrderGuard).
	Order *OrderCheck
	m     *mapping.Mapping
	built atomic.Pointer[[]*dynamodb.QueryInput] // see builtOnce
}

// OrderCheck is what the executor checks on the rows of a Query read in
// key order for an ORDER BY the key gives only under guards.
type OrderCheck struct {
	Slot    int
	Columns []string // the ORDER BY columns, in order
	Guards  []mapping.OrderGuard
	Key     *mapping.Key // the sort key read
	// Where is the condition the client checks on the Query's rows (its
	// Filter step), nil for none: a row it drops is never returned, so
	// its place in the key order cannot misorder the answer.
	Where parser.Expr
}

// Inputs implements Node: a Query reads no other step.
func (q *Query) Inputs() []Node { return nil }

// Requests describes the Query sent.
func (q *Query) Requests() []*Request {
	ins, err := q.Build(Explaining)
	r := &Request{Op: "Query", Table: q.Table, Index: q.Index, Note: "no request: the conditions admit no key"}
	if err == nil && len(ins) > 0 {
		r = DescribeRequest(q.m, "Query", ins[0])
		if len(ins) > 1 {
			keys := make([]string, len(ins))
			for i, in := range ins {
				keys[i] = DescribeRequest(q.m, "Query", in).Key
			}
			r.Key = strings.Join(keys, " | ")
		}
	}
	r.Reads, r.Per = readList(q.Reads), "statement"
	switch {
	case q.Bound:
		r.Per = "distinct key of outer rows"
	case len(q.PK) > 1:
		r.Per = "value, in parallel"
	}
	r.index = indexKind(q.Index, q.Local)
	if q.Order != nil {
		var cols []string
		for _, g := range q.Order.Guards {
			cols = append(cols, fmt.Sprintf("%s holds no character below %q", g.Column, g.Sep[:1]))
		}
		r.Note = strings.TrimPrefix(r.Note+"; ORDER BY read in key order while "+strings.Join(cols, " and ")+
			" (checked on every row read)", "; ")
	}
	return []*Request{r}
}

// Describe implements Node.
func (q *Query) Describe() (string, []string) { return describeOne(q.Requests()[0]) }

func indexKind(index string, local bool) string {
	switch {
	case index == "":
		return ""
	case local:
		return "local"
	}
	return "global"
}

// Lookup is one entity a BatchGet reads: its full base key for each outer
// row, or constant keys.
type Lookup struct {
	Read Read
	// Keys lists full keys; with bound columns each is rendered once per
	// outer row, and constants once in all.
	Keys [][]*KeyValue
}

// Constant reports whether the lookup's keys depend on no outer row.
func (l *Lookup) Constant() bool {
	for _, k := range l.Keys {
		for _, kv := range k {
			if !kv.Constant() {
				return false
			}
		}
	}
	return true
}

// BatchGet reads items by full key with BatchGetItem: at most 100 distinct
// keys a request, chunks in parallel, unprocessed keys retried.
// Requires: every column of each lookup's base key templates bound.
type BatchGet struct {
	Table   string
	Lookups []*Lookup
	// Project holds every base key attribute that tells the items asked
	// for apart, since they come back in no order: it leaves out only one
	// that holds the same constant in every lookup's keys (SK = "PROFILE").
	Project    []string
	Consistent bool
	m          *mapping.Mapping
	projection atomic.Pointer[builtProjection] // see builtOnce
}

// Inputs implements Node: a BatchGet reads no other step (a Join gives
// it the outer rows its keys are bound to).
func (b *BatchGet) Inputs() []Node { return nil }

// Requests describes the BatchGetItem sent.
func (b *BatchGet) Requests() []*Request {
	var reads []Read
	bound := false
	var all []map[string]types.AttributeValue
	for _, l := range b.Lookups {
		keys, _ := l.Render(Explaining) // see Lookup.Render
		all = append(all, keys...)
		reads = append(reads, l.Read)
		bound = bound || !l.Constant()
	}
	in, err := b.Build(all)
	if err != nil {
		return []*Request{{Op: "BatchGetItem", Table: b.Table}}
	}
	r := DescribeRequest(b.m, "BatchGetItem", in)
	r.Reads, r.Per = readList(reads), "100 distinct keys"
	if bound {
		r.Per = "100 distinct keys of outer rows"
	}
	return []*Request{r}
}

// Describe implements Node.
func (b *BatchGet) Describe() (string, []string) { return describeOne(b.Requests()[0]) }

func (b *BatchGet) reads() []Read {
	var rs []Read
	for _, l := range b.Lookups {
		rs = append(rs, l.Read)
	}
	return rs
}

// Join extends each row of Outer with the rows that Inner reads for it.
// Inner is a *BatchGet or a *Query whose keys bind Outer's columns; On is
// checked on each combined row, and Kind says what is kept (Inner,
// LeftOuter, Semi, Anti).
type Join struct {
	Outer Node
	Inner Node
	Kind  JoinKind
	On    parser.Expr
	// Slots are the slots Inner fills.
	Slots []int
}

// Inputs implements Node.
func (j *Join) Inputs() []Node { return []Node{j.Outer, j.Inner} }

// Describe implements Node.
func (j *Join) Describe() (string, []string) {
	title := "lookup-join"
	switch j.Kind {
	case LeftOuter:
		title = "left-lookup-join"
	case Semi:
		title = "semi-lookup-join"
	case Anti:
		title = "anti-lookup-join"
	}
	if j.On != nil {
		title += " " + parser.Format(j.On)
	}
	return title, nil
}

// Refetch replaces the row of Slot, read through an index that does not
// project every attribute the statement needs, by the base item Get reads
// by its full key. A row whose base item is gone is dropped.
type Refetch struct {
	Input Node
	Get   *BatchGet
	Slot  int
}

// Inputs implements Node.
func (r *Refetch) Inputs() []Node { return []Node{r.Input, r.Get} }

// Describe implements Node.
func (r *Refetch) Describe() (string, []string) {
	return "fetch-base-items " + r.Get.Lookups[0].Read.Alias + " (the index does not project every needed column)", nil
}

// PartitionJoin joins the entities one Query read from a single
// partition (a student's profile and enrollment edges), in the order of
// Steps, on the client.
type PartitionJoin struct {
	Input Node // a *Query with several Reads
	Steps []PartitionStep
}

// PartitionStep adds one slot to the rows of a PartitionJoin.
type PartitionStep struct {
	Slot  int
	Alias string
	Kind  JoinKind
	On    parser.Expr // nil for the first step
}

// Inputs implements Node.
func (p *PartitionJoin) Inputs() []Node { return []Node{p.Input} }

// Describe implements Node.
func (p *PartitionJoin) Describe() (string, []string) {
	var parts []string
	for _, s := range p.Steps[1:] {
		on := ""
		if s.On != nil {
			on = " on " + parser.Format(s.On)
		}
		parts = append(parts, fmt.Sprintf("%s %s%s", s.Kind, s.Alias, on))
	}
	return "partition-join " + strings.Join(parts, "; "), nil
}
