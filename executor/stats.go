package executor

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Stats counts what one statement sent, from inside the SDK's middleware
// stack: every attempt of every request (retries included), the items
// that came back, and the capacity DynamoDB reports it consumed.
// The zero value is ready to use, as NewStats's is.
type Stats struct {
	mu        sync.Mutex
	requests  map[string]int
	items     int
	capacity  float64
	unclaimed int
	warnings  []string
	// calls, when tracing, holds every request as sent (EXPLAIN ANALYZE).
	calls   []*Call
	tracing bool
	// warningsOnly leaves the requests uncounted (NewWarningStats).
	warningsOnly bool
}

// Call is one request a traced statement sent (see NewTracingStats):
// its operation and input, and what it cost, retries included.
type Call struct {
	Op       string
	Input    any
	Attempts int
	Items    int
	Capacity float64
	Took     time.Duration
	Err      error
}

// NewTracingStats returns empty counters that also keep every request
// (Calls), for EXPLAIN ANALYZE.
func NewTracingStats() *Stats { return &Stats{requests: map[string]int{}, tracing: true} }

// Calls returns the requests sent so far, when tracing.
func (s *Stats) Calls() []*Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Call(nil), s.calls...)
}

type callKey struct{}

// NewStats returns empty counters.
func NewStats() *Stats { return &Stats{requests: map[string]int{}} }

// NewWarningStats returns counters of what the executor finds itself,
// the items no entity claimed and their warnings, that leave the
// requests, items and capacity uncounted. Counting puts two middlewares
// on every request, about 2% of a short statement's time against
// DynamoDB Local (BENCHMARKS.md), which the shell pays only when it
// prints the counts (--stats).
func NewWarningStats() *Stats { return &Stats{requests: map[string]int{}, warningsOnly: true} }

type statsKey struct{}

// WithStats returns a context whose statements count into s.
func WithStats(ctx context.Context, s *Stats) context.Context {
	return context.WithValue(ctx, statsKey{}, s)
}

// StatsFrom returns the counters a context carries, or nil.
func StatsFrom(ctx context.Context) *Stats {
	s, _ := ctx.Value(statsKey{}).(*Stats)
	return s
}

// attach adds the counting middleware to one request.
func (s *Stats) attach(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("dynosqlStats",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				s.count(middleware.GetOperationName(ctx))
				if c, ok := ctx.Value(callKey{}).(*Call); ok {
					s.mu.Lock()
					c.Attempts++
					s.mu.Unlock()
				}
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
	}, func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("dynosqlStatsResult",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				askCapacity(in.Parameters)
				var call *Call
				if s.tracing {
					call = &Call{Op: middleware.GetOperationName(ctx), Input: in.Parameters}
					ctx = context.WithValue(ctx, callKey{}, call)
				}
				start := time.Now()
				out, md, err := next.HandleInitialize(ctx, in)
				var items int
				var capacity float64
				if err == nil {
					items, capacity = s.result(out.Result)
				}
				if call != nil {
					s.mu.Lock()
					call.Items, call.Capacity, call.Took, call.Err = items, capacity, time.Since(start), err
					s.calls = append(s.calls, call)
					s.mu.Unlock()
				}
				return out, md, err
			}), middleware.Before)
	})
}

// addUnclaimed records items a statement's reads returned that no
// entity claimed, and the warnings about them.
func (s *Stats) addUnclaimed(n int, warnings []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unclaimed += n
	s.warnings = append(s.warnings, warnings...)
}

func (s *Stats) count(op string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addRequests(op, 1)
}

// addRequests counts n requests of op; a zero Stats counts too.
func (s *Stats) addRequests(op string, n int) {
	if s.requests == nil {
		s.requests = map[string]int{}
	}
	s.requests[op] += n
}

// result adds the items and consumed capacity of a response, and
// returns them.
func (s *Stats) result(out any) (int, float64) {
	var items int
	var cc []types.ConsumedCapacity
	switch o := out.(type) {
	case *dynamodb.GetItemOutput:
		if o.Item != nil {
			items = 1
		}
		cc = one(o.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		items, cc = int(o.Count), one(o.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		items, cc = int(o.Count), one(o.ConsumedCapacity)
	case *dynamodb.BatchGetItemOutput:
		for _, r := range o.Responses {
			items += len(r)
		}
		cc = o.ConsumedCapacity
	case *dynamodb.PutItemOutput:
		cc = one(o.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		cc = one(o.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		cc = one(o.ConsumedCapacity)
	case *dynamodb.TransactWriteItemsOutput:
		cc = o.ConsumedCapacity
	}
	var capacity float64
	for _, c := range cc {
		if c.CapacityUnits != nil {
			capacity += *c.CapacityUnits
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items += items
	s.capacity += capacity
	return items, capacity
}

// askCapacity asks DynamoDB to report the capacity a counted request
// consumes. Only counted requests ask (the planner builds none that
// does): the report costs every response bytes to read. The input is
// the executor's own copy for this request.
func askCapacity(in any) {
	const total = types.ReturnConsumedCapacityTotal
	switch x := in.(type) {
	case *dynamodb.GetItemInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.QueryInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.ScanInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.BatchGetItemInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.PutItemInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.UpdateItemInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.DeleteItemInput:
		x.ReturnConsumedCapacity = total
	case *dynamodb.TransactWriteItemsInput:
		x.ReturnConsumedCapacity = total
	}
}

func one(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}

// Snapshot is a copy of the counters.
type Snapshot struct {
	Requests map[string]int `json:"requests"` // attempts by operation name
	Items    int            `json:"items"`    // items returned
	Capacity float64        `json:"capacity"` // capacity units consumed, as DynamoDB reports them
	// Unclaimed counts the items returned that no entity of the
	// statement claimed (another entity's, or items the mapping does not
	// describe).
	Unclaimed int      `json:"unclaimed"`
	Warnings  []string `json:"warnings,omitempty"`
}

// Merge adds a snapshot's counts to s: a statement counted apart (EXPLAIN
// ANALYZE's) still counts in its session's figures.
func (s *Stats) Merge(sn Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for op, n := range sn.Requests {
		s.addRequests(op, n)
	}
	s.items += sn.Items
	s.capacity += sn.Capacity
	s.unclaimed += sn.Unclaimed
	s.warnings = append(s.warnings, sn.Warnings...)
}

// Snapshot returns the counters so far.
func (s *Stats) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := make(map[string]int, len(s.requests))
	for k, v := range s.requests {
		req[k] = v
	}
	return Snapshot{Requests: req, Items: s.items, Capacity: s.capacity, Unclaimed: s.unclaimed, Warnings: append([]string(nil), s.warnings...)}
}

// Line sums up what a statement sent, as --stats prints it: "2 requests
// (BatchGetItem 1, Query 1), 11 items read, 0 capacity units", and how
// many items matched no entity when some did not.
func (sn Snapshot) Line() string {
	ops := make([]string, 0, len(sn.Requests))
	for _, op := range sn.Ops() {
		ops = append(ops, fmt.Sprintf("%s %d", op, sn.Requests[op]))
	}
	req := plural(sn.Total(), "request", "requests")
	if len(ops) > 0 {
		req += " (" + strings.Join(ops, ", ") + ")"
	}
	line := fmt.Sprintf("%s, %s read, %g capacity units", req, plural(sn.Items, "item", "items"), sn.Capacity)
	if sn.Unclaimed > 0 {
		line += fmt.Sprintf(", %s matched no entity", plural(sn.Unclaimed, "item", "items"))
	}
	return line
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Total returns the number of requests sent.
func (sn Snapshot) Total() int {
	n := 0
	for _, v := range sn.Requests {
		n += v
	}
	return n
}

// Ops returns the operation names in order.
func (sn Snapshot) Ops() []string {
	ops := make([]string, 0, len(sn.Requests))
	for k := range sn.Requests {
		ops = append(ops, k)
	}
	sort.Strings(ops)
	return ops
}
