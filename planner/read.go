package planner

import (
	"fmt"
	"strings"

	"github.com/dynosql/dynosql/parser"
)

// Read says which slot the items of one entity fill.
type Read struct {
	Slot   int
	Alias  string
	Entity string
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
}

// Request describes the GetItem sent.
func (g *GetItem) Request() *Request {
	return &Request{Op: "GetItem", Table: g.Table, Key: keyString(g.Key), Reads: readList([]Read{g.Read}),
		Project: g.Project, Consistent: g.Consistent, Per: "statement"}
}

// Describe implements Node.
func (g *GetItem) Describe() (string, []string, []Node) {
	r := g.Request()
	r.Per = ""
	return r.title(), r.details(), nil
}

// Query reads one partition of the base table or of an index, narrowed by
// a sort-key condition, and pages to the end (or until LIMIT is met).
// Requires: every column of the partition key template bound, to
// constants or to columns of earlier rows. With several PK values (IN) it
// sends one paginated Query per value, in parallel.
type Query struct {
	Table string
	Index string // "" for the base table
	PK    []*KeyValue
	SK    *SortCond // nil: the whole partition
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
	// Query per outer row.
	Bound bool
}

// Request describes the Query sent.
func (q *Query) Request() *Request {
	keys := make([]string, len(q.PK))
	for i, k := range q.PK {
		keys[i] = k.Attr + " = " + k.String()
	}
	key := strings.Join(keys, " | ")
	if len(q.PK) > 1 {
		key = "(" + key + ")"
	}
	if q.SK != nil {
		key += " AND " + q.SK.String()
	}
	r := &Request{Op: "Query", Table: q.Table, Index: q.Index, Key: key, Reads: readList(q.Reads),
		Project: q.Project, Consistent: q.Consistent, Per: "statement"}
	if q.Filter != nil {
		r.Filter = parser.Format(q.Filter)
	}
	switch {
	case q.Bound:
		r.Per = "outer row"
	case len(q.PK) > 1:
		r.Per = "value, in parallel"
	}
	var notes []string
	if q.Desc {
		notes = append(notes, "descending (ScanIndexForward = false)")
	}
	if q.Limit > 0 {
		notes = append(notes, fmt.Sprintf("pages of %d items (Limit)", q.Limit))
	}
	if q.CountOnly {
		notes = append(notes, "Select = COUNT: counts, returns no items")
	}
	r.Note = strings.Join(notes, "; ")
	return r
}

// Describe implements Node.
func (q *Query) Describe() (string, []string, []Node) {
	r := q.Request()
	if r.Per == "statement" {
		r.Per = ""
	}
	return r.title(), r.details(), nil
}

// Lookup is one entity a BatchGet reads: its full base key for each outer
// row, or constant keys.
type Lookup struct {
	Read Read
	// Keys lists full keys; with bound columns each is rendered once per
	// outer row, and constants once in all.
	Keys [][]*KeyValue
	// Refetch marks a lookup of the same slot's base item after a read
	// through an index that does not project every needed attribute: the
	// fetched row replaces the index row.
	Refetch bool
}

// BatchGet reads items by full key with BatchGetItem: at most 100 distinct
// keys a request, chunks in parallel, unprocessed keys retried.
// Requires: every column of each lookup's base key templates bound.
type BatchGet struct {
	Table      string
	Lookups    []*Lookup
	Project    []string
	Consistent bool
}

// Request describes the BatchGetItem sent.
func (b *BatchGet) Request() *Request {
	var keys []string
	var reads []Read
	bound := false
	for _, l := range b.Lookups {
		for _, k := range l.Keys {
			keys = append(keys, keyString(k))
			for _, kv := range k {
				bound = bound || !kv.Constant()
			}
		}
		reads = append(reads, l.Read)
	}
	r := &Request{Op: "BatchGetItem", Table: b.Table, Key: strings.Join(keys, " | "), Reads: readList(reads),
		Project: b.Project, Consistent: b.Consistent, Per: "100 distinct keys"}
	if bound {
		r.Per = "100 distinct keys of outer rows"
	}
	return r
}

// Describe implements Node.
func (b *BatchGet) Describe() (string, []string, []Node) {
	r := b.Request()
	return r.title(), r.details(), nil
}

// Join extends each row of Outer with the rows that Inner reads for it.
// Inner is a *BatchGet or a *Query whose keys bind Outer's columns; On is
// checked on each combined row. A Left join keeps outer rows that find
// nothing, with NULLs in the inner slots.
type Join struct {
	Outer Node
	Inner Node
	Left  bool
	On    parser.Expr
	// Slots are the slots Inner fills.
	Slots []int
}

// Describe implements Node.
func (j *Join) Describe() (string, []string, []Node) {
	if bg, ok := j.Inner.(*BatchGet); ok && len(bg.Lookups) == 1 && bg.Lookups[0].Refetch {
		r := bg.Lookups[0].Read
		return "fetch-base-items " + r.Alias + " (the index does not project every needed column)", nil, []Node{j.Outer, j.Inner}
	}
	title := "lookup-join"
	if j.Left {
		title = "left-lookup-join"
	}
	if j.On != nil {
		title += " " + parser.Format(j.On)
	}
	return title, nil, []Node{j.Outer, j.Inner}
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
	Left  bool
	On    parser.Expr // nil for the first step
}

// Describe implements Node.
func (p *PartitionJoin) Describe() (string, []string, []Node) {
	var parts []string
	for _, s := range p.Steps[1:] {
		kind := "join"
		if s.Left {
			kind = "left join"
		}
		on := ""
		if s.On != nil {
			on = " on " + parser.Format(s.On)
		}
		parts = append(parts, fmt.Sprintf("%s %s%s", kind, s.Alias, on))
	}
	return "partition-join " + strings.Join(parts, "; "), nil, []Node{p.Input}
}
