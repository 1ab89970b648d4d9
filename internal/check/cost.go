package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Request is one kind of request a statement sends, and how many.
type Request struct {
	Op    string `json:"op"`
	Table string `json:"table"`
	Index string `json:"index,omitempty"`
	// Count is how many are sent: a number, or a formula of the
	// statement's variables (Cost.Vars), such as ceil(n/100).
	Count string `json:"count"`
	// Consistency of a read: strong, eventual, or eventual (global
	// index); empty for writes.
	Consistency string `json:"consistency,omitempty"`
	// Paged is true for a Query, which sends one more request for each
	// 1 MB of items it reads.
	Paged bool `json:"paged,omitempty"`
}

// Var is a variable of the counts: the number of rows of some kind,
// known only when the statement runs.
type Var struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// Cost is what a plan sends.
type Cost struct {
	Requests []Request `json:"requests"`
	Vars     []Var     `json:"vars,omitempty"`
}

// Total sums the requests up: "1 Query + ceil(n/100) BatchGetItem".
func (c *Cost) Total() string {
	if len(c.Requests) == 0 {
		return "no request"
	}
	parts := make([]string, len(c.Requests))
	for i, r := range c.Requests {
		parts[i] = r.Count + " " + r.Op
	}
	return strings.Join(parts, " + ")
}

// Consistency says how consistent the statement's reads are.
func (c *Cost) Consistency() string {
	strong, eventual, global := 0, 0, 0
	for _, r := range c.Requests {
		switch r.Consistency {
		case "strong":
			strong++
		case "eventual":
			eventual++
		case "eventual (global index)":
			global++
		}
	}
	switch {
	case strong+eventual+global == 0:
		return "no reads"
	case eventual+global == 0:
		return "strongly consistent"
	case global > 0 && eventual == 0 && strong == 0:
		return "eventually consistent (a global index allows no other)"
	case global > 0:
		return "eventually consistent (a global index allows no other; --consistent makes the table's reads strong)"
	case strong > 0:
		return "partly eventually consistent"
	}
	return "eventually consistent (--consistent makes it strong)"
}

// costOf walks a plan's steps and counts their requests.
func costOf(p *planner.Plan) *Cost {
	c := &coster{cost: &Cost{Requests: []Request{}}}
	if p.Root != nil { // nil for BEGIN, COMMIT and ROLLBACK
		c.node(p.Root, "")
	}
	return c.cost
}

type coster struct{ cost *Cost }

// variable returns the name of the variable meaning, adding it.
func (c *coster) variable(meaning string) string {
	for _, v := range c.cost.Vars {
		if v.Meaning == meaning {
			return v.Name
		}
	}
	names := "nmkjpqrst"
	name := fmt.Sprintf("n%d", len(c.cost.Vars)+1)
	if len(c.cost.Vars) < len(names) {
		name = names[len(c.cost.Vars) : len(c.cost.Vars)+1]
	}
	c.cost.Vars = append(c.cost.Vars, Var{name, meaning})
	return name
}

func (c *coster) add(r Request) { c.cost.Requests = append(c.cost.Requests, r) }

func consistency(consistent bool, index string, local bool) string {
	switch {
	case consistent:
		return "strong"
	case index != "" && !local:
		return "eventual (global index)"
	}
	return "eventual"
}

// times is count requests for each of per (a variable), or count alone.
func times(count, per string) string {
	switch {
	case per == "":
		return count
	case count == "1":
		return per
	}
	return count + "*" + per
}

// node counts the requests of n and the steps below it; per is the
// variable n runs once for (each outer row), "" for once.
func (c *coster) node(n planner.Node, per string) {
	switch x := n.(type) {
	case *planner.GetItem:
		c.add(Request{Op: "GetItem", Table: x.Table, Count: times("1", per), Consistency: consistency(x.Consistent, "", false)})
	case *planner.Query:
		count := "1"
		if len(x.PK) > 1 {
			count = fmt.Sprint(len(x.PK))
		}
		c.add(Request{Op: "Query", Table: x.Table, Index: x.Index, Count: times(count, per),
			Consistency: consistency(x.Consistent, x.Index, x.Local), Paged: true})
	case *planner.Scan:
		// Each segment is one request, paged to the end of its part of
		// the table or index: a Scan reads every item there.
		c.add(Request{Op: "Scan", Table: x.Table, Index: x.Index, Count: times(fmt.Sprint(x.Segments), per),
			Consistency: consistency(x.Consistent, x.Index, x.Local), Paged: true})
	case *planner.BatchGet:
		count := fmt.Sprintf("ceil(%s/%d)", per, limits.BatchGetKeys)
		if per == "" {
			keys := 0
			for _, l := range x.Lookups {
				keys += len(l.Keys)
			}
			count = fmt.Sprint((keys + limits.BatchGetKeys - 1) / limits.BatchGetKeys)
		}
		c.add(Request{Op: "BatchGetItem", Table: x.Table, Count: count, Consistency: consistency(x.Consistent, "", false)})
	case *planner.Join:
		c.node(x.Outer, per)
		c.node(x.Inner, c.variable("rows of "+strings.Join(aliases(x.Outer), ", ")))
	case *planner.Refetch:
		c.node(x.Input, per)
		c.node(x.Get, c.variable("rows of "+x.Get.Lookups[0].Read.Alias+" read through the index"))
	case *planner.ListTables:
		if !x.MappedOnly {
			c.add(Request{Op: "ListTables", Count: c.variable("pages of 100 table names")})
		}
	case *planner.DescribeTable:
		c.add(Request{Op: "DescribeTable", Table: x.Table, Count: "1"})
	case *planner.InsertRows:
		c.insert(x)
	case *planner.UpdateRows:
		c.update(x)
	case *planner.DeleteRows:
		each := c.rows(x.Read, x.Alias)
		c.add(Request{Op: "DeleteItem", Table: x.Table, Count: times("1", each)})
		for _, f := range x.FanOuts {
			c.fanOut(f, each)
		}
	case *planner.CopyCheck:
		each := c.rows(x.Read, x.Source.Name)
		for _, f := range x.FanOuts {
			c.add(Request{Op: "Query", Table: f.Table, Index: f.Copy.Path.Index, Count: times("1", each),
				Consistency: consistency(false, f.Copy.Path.Index, f.Copy.Path.Local), Paged: true})
			if x.Repair {
				c.add(Request{Op: "TransactWriteItems", Table: f.Table, Count: times(c.copies(), each)})
			}
		}
	default:
		for _, in := range n.Inputs() {
			c.node(in, per)
		}
	}
}

// rows counts the reads of a write's rows and returns the variable for
// them, or "" when the write names its one row by key.
func (c *coster) rows(read planner.Node, alias string) string {
	if read == nil {
		return ""
	}
	c.node(read, "")
	return c.variable("rows of " + alias + " read")
}

// copies is the formula of a fan-out's transactions for one source row.
func (c *coster) copies() string {
	return fmt.Sprintf("ceil(%s/%d)", c.variable("copies that differ from their source"), planner.CopiesPerTransact)
}

// fanOut counts the requests that keep copies in step, for each source
// row written.
func (c *coster) fanOut(f *planner.FanOut, each string) {
	queries := times(fmt.Sprintf("1 to %d", planner.MaxRounds), each)
	if n, err := strconv.Atoi(each); err == nil {
		queries = fmt.Sprintf("%d to %d", n, n*planner.MaxRounds)
		if n == 1 {
			each = ""
		}
	}
	c.add(Request{Op: "Query", Table: f.Table, Index: f.Copy.Path.Index, Count: queries,
		Consistency: consistency(false, f.Copy.Path.Index, f.Copy.Path.Local), Paged: true})
	c.add(Request{Op: "TransactWriteItems", Table: f.Table, Count: times(c.copies(), each)})
}

func (c *coster) insert(x *planner.InsertRows) {
	for _, f := range x.Fills {
		distinct := map[string]bool{}
		for _, row := range x.Rows {
			distinct[value.Key(row[f.KeyColumn])] = true
		}
		c.add(Request{Op: "GetItem", Table: x.Table, Count: fmt.Sprint(len(distinct)), Consistency: "strong"})
	}
	rows := fmt.Sprint(len(x.Rows))
	switch {
	case x.OnDuplicate != nil:
		c.add(Request{Op: "PutItem", Table: x.Table, Count: rows})
		op := "UpdateItem"
		if x.OnDuplicate.Move {
			op = "GetItem + PutItem or TransactWriteItems"
		}
		c.add(Request{Op: op, Table: x.Table, Count: "0 to " + rows})
		for _, f := range x.FanOuts {
			c.fanOut(f, c.variable("rows the INSERT updates"))
		}
	case len(x.Rows) == 1:
		c.add(Request{Op: "PutItem", Table: x.Table, Count: "1"})
	default:
		c.add(Request{Op: "TransactWriteItems", Table: x.Table, Count: fmt.Sprint(len(x.Batches))})
	}
	// The copies written before each new source row are looked for
	// (and filled) once it is in.
	inserted := rows
	if x.OnDuplicate != nil {
		inserted = c.variable("rows the INSERT inserts")
	}
	for _, f := range x.Earlier {
		c.fanOut(f, inserted)
	}
}

func (c *coster) update(x *planner.UpdateRows) {
	each := c.rows(x.Read, x.Alias)
	if x.Move {
		c.add(Request{Op: "GetItem", Table: x.Table, Count: times("1", each), Consistency: "strong"})
		for range x.Fills {
			c.add(Request{Op: "GetItem", Table: x.Table, Count: times("1", each), Consistency: "strong"})
		}
		c.add(Request{Op: "PutItem or TransactWriteItems", Table: x.Table, Count: times("1", each)})
	} else {
		c.add(Request{Op: "UpdateItem", Table: x.Table, Count: times("1", each)})
	}
	for _, f := range x.FanOuts {
		c.fanOut(f, each)
	}
}

// aliases lists the table references a step reads, in order.
func aliases(n planner.Node) []string {
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	planner.Walk(n, func(x planner.Node) {
		switch r := x.(type) {
		case *planner.GetItem:
			add(r.Read.Alias)
		case *planner.Query:
			for _, rd := range r.Reads {
				add(rd.Alias)
			}
		case *planner.BatchGet:
			for _, l := range r.Lookups {
				add(l.Read.Alias)
			}
		case *planner.Scan:
			for _, rd := range r.Reads {
				add(rd.Alias)
			}
		}
	})
	return out
}
