package planner

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Sent is one request of a plan as EXPLAIN describes it, with the SDK
// inputs the executor sends for it where the statement alone fixes them.
type Sent struct {
	// Node is the step that sends the request.
	Node Node
	// Request describes the request, as EXPLAIN prints it.
	Request *Request
	// Inputs are the SDK inputs (*dynamodb.GetItemInput,
	// *dynamodb.QueryInput, ...) sent for Request, built by the same
	// builders the executor calls, when every value in them comes from
	// the statement: one per IN value of a Query, one per 100 keys of a
	// BatchGetItem, one per transaction of an INSERT. Inputs is nil when
	// they depend on rows read at run time, on what an earlier request
	// found, or on an earlier request failing (an upsert's update):
	// Request then says how they are formed.
	Inputs []any
	// m is the mapping of the table the request goes to.
	m *mapping.Mapping
}

// Describe describes one of s's inputs the way EXPLAIN would: a Query
// sent for several partition values has one input, and one key, each.
func (s Sent) Describe(in any) *Request {
	return DescribeRequest(s.m, s.Request.Op, in)
}

// requestMapping is the mapping of the table n's requests go to.
func requestMapping(n Node) *mapping.Mapping {
	switch x := n.(type) {
	case *GetItem:
		return x.m
	case *Query:
		return x.m
	case *BatchGet:
		return x.m
	case *InsertRows:
		return x.Entity.Mapping()
	case *UpdateRows:
		return x.Entity.Mapping()
	case *DeleteRows:
		return x.Entity.Mapping()
	case *Scan:
		return x.m
	case *CopyCheck:
		return x.Source.Mapping()
	}
	return nil
}

// Sends lists the plan's requests in the order of Requests, each with
// its SDK inputs where the statement fixes them.
func (p *Plan) Sends() []Sent {
	var out []Sent
	p.eachRequester(func(n Node, reqs []*Request) {
		inputs := attach(n, reqs)
		for i, req := range reqs {
			out = append(out, Sent{Node: n, Request: req, Inputs: inputs[i], m: requestMapping(n)})
		}
	})
	return out
}

// attach returns, for each of reqs (the requests of n), the inputs the
// statement fixes. A read step has one request, which all its inputs
// belong to; a write's inputs are matched to the request they describe.
func attach(n Node, reqs []*Request) [][]any {
	out := make([][]any, len(reqs))
	if len(reqs) == 0 {
		return out
	}
	switch x := n.(type) {
	case *GetItem, *Query, *BatchGet:
		out[0] = readInputs(x)
		return out
	}
	for _, w := range writeInputs(n) {
		d := DescribeRequest(requestMapping(n), w.op, w.in)
		for i, r := range reqs {
			if out[i] == nil && sameRequest(d, r) {
				out[i] = []any{w.in}
				break
			}
		}
	}
	return out
}

// readInputs builds the inputs of a read step whose keys are all
// constants.
func readInputs(n Node) []any {
	var out []any
	switch x := n.(type) {
	case *GetItem:
		if !constantKeys(x.Key) {
			return nil
		}
		if in, err := x.Build(Explaining); err == nil && in != nil {
			out = append(out, in)
		}
	case *Query:
		if !constantKeys(x.PK) || (x.SK != nil && !literals(x.SK.Fixed)) {
			return nil
		}
		ins, err := x.Build(Explaining)
		if err != nil {
			return nil
		}
		for _, in := range ins {
			out = append(out, in)
		}
	case *BatchGet:
		var keys []map[string]types.AttributeValue
		seen := map[string]bool{}
		for _, l := range x.Lookups {
			if !l.Constant() {
				return nil
			}
			rendered, _ := l.Render(Explaining) // a key the statement cannot render is reported when it runs
			for _, k := range rendered {
				if id := x.m.ItemID(k); !seen[id] {
					seen[id] = true
					keys = append(keys, k)
				}
			}
		}
		for start := 0; start < len(keys); start += limits.BatchGetKeys {
			in, err := x.Build(keys[start:min(start+limits.BatchGetKeys, len(keys))])
			if err != nil {
				return nil
			}
			out = append(out, in)
		}
	}
	return out
}

type opInput struct {
	op string
	in any
}

// writeInputs builds the inputs of a write step that the statement alone
// fixes: an INSERT's puts (unless copies must be read to fill them), a
// constant-key UPDATE's UpdateItem (or, for a move, its whole-item
// read), a constant-key DELETE's DeleteItem.
func writeInputs(n Node) []opInput {
	var out []opInput
	switch x := n.(type) {
	case *InsertRows:
		if len(x.Fills) > 0 {
			return nil
		}
		items := make([]map[string]types.AttributeValue, len(x.Rows))
		for i, row := range x.Rows {
			it, err := x.Entity.Item(row)
			if err != nil {
				return nil
			}
			items[i] = it
		}
		if x.OnDuplicate != nil || len(items) == 1 {
			for _, it := range items {
				if put, err := x.PutInput(it); err == nil {
					out = append(out, opInput{"PutItem", put})
				}
			}
			return out
		}
		start := 0
		for _, end := range x.Batches {
			if tx, err := x.TransactInput(items[start:end]); err == nil {
				out = append(out, opInput{"TransactWriteItems", tx})
			}
			start = end
		}
	case *UpdateRows:
		key, ok := constantKey(x.Key)
		switch {
		case !ok:
		case x.Rewrites():
			out = append(out, opInput{"GetItem", x.MoveReadInput(key)})
		default:
			if in, err := x.UpdateInput(key, nil); err == nil {
				out = append(out, opInput{"UpdateItem", in})
			}
		}
	case *DeleteRows:
		if key, ok := constantKey(x.Key); ok {
			if in, err := x.DeleteInput(key, nil); err == nil {
				out = append(out, opInput{"DeleteItem", in})
			}
		}
	}
	return out
}

// constantKey renders a full key made of constants only.
func constantKey(kvs []*KeyValue) (map[string]types.AttributeValue, bool) {
	if len(kvs) == 0 || !constantKeys(kvs) {
		return nil, false
	}
	key, err := renderKey(kvs, Explaining)
	return key, err == nil
}

func constantKeys(kvs []*KeyValue) bool {
	for _, kv := range kvs {
		if !kv.Constant() {
			return false
		}
	}
	return true
}

func literals(bind map[string]parser.Expr) bool {
	for _, e := range bind {
		if _, ok := e.(*parser.Literal); !ok {
			return false
		}
	}
	return true
}

// sameRequest reports whether two descriptions are of the same request:
// same operation, table, index, key, expressions and item.
func sameRequest(a, b *Request) bool {
	if a.Op != b.Op || a.Table != b.Table || a.Index != b.Index || a.Key != b.Key || a.Filter != b.Filter ||
		a.Condition != b.Condition || a.Update != b.Update || a.Item != b.Item || len(a.Actions) != len(b.Actions) {
		return false
	}
	for i := range a.Actions {
		if !sameRequest(a.Actions[i], b.Actions[i]) {
			return false
		}
	}
	return true
}
