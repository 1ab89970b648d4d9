package dynosql

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
)

// Analysis is what EXPLAIN ANALYZE reports: a plan that was run, each of
// its steps with the requests it sent and what they cost, and the total,
// which --stats would print for the same run.
type Analysis struct {
	Plan *planner.Plan
	// Steps holds the cost of each step that sent requests.
	Steps map[planner.Node]*StepCost
	// Other is the cost of requests no step announced (none, unless
	// EXPLAIN and the executor disagree).
	Other StepCost
	Total StatsSnapshot
	// Rows counts the rows returned, or for a write the rows changed.
	Rows int64
	Took time.Duration
}

// StepCost is what one step's requests cost.
type StepCost struct {
	Requests map[string]int `json:"requests"` // attempts by operation, retries included
	Items    int            `json:"items"`    // items returned
	Capacity float64        `json:"capacity"` // capacity units DynamoDB reported
	// Took sums the time of the step's requests, from first attempt to
	// answer; requests sent in parallel overlap.
	Took time.Duration `json:"-"`
}

func (c *StepCost) add(call *executor.Call) {
	if c.Requests == nil {
		c.Requests = map[string]int{}
	}
	c.Requests[call.Op] += max(call.Attempts, 1)
	c.Items += call.Items
	c.Capacity += call.Capacity
	c.Took += call.Took
}

// line sums up a step's cost as EXPLAIN ANALYZE prints it.
func (c *StepCost) line() string {
	sn := StatsSnapshot{Requests: c.Requests, Items: c.Items, Capacity: c.Capacity}
	// The time is the requests' own, summed: parallel requests overlap,
	// so it can exceed the statement's total.
	return fmt.Sprintf("actual: %s, %s in requests", sn.Line(), c.Took.Round(10*time.Microsecond))
}

// Analyze runs a plan from EXPLAIN ANALYZE (or any plan), writes
// included, and reports what each step sent. Read rows are counted and
// dropped. The requests count into the context's Stats too, as for any
// statement.
func (db *DB) Analyze(ctx context.Context, p *planner.Plan) (*Analysis, error) {
	if p.Control != planner.NoControl || p.Root == nil {
		return nil, errs.New(errs.Unsupported, "EXPLAIN ANALYZE runs reads and writes; this statement has no plan to run")
	}
	run := *p
	run.Explain, run.Analyze = false, false
	outer := executor.StatsFrom(ctx)
	trace := executor.NewTracingStats()
	ctx = executor.WithStats(ctx, trace)
	start := time.Now()
	var rows int64
	var err error
	if run.Writes {
		var res Result
		res, err = db.ExecPlan(ctx, &run)
		rows = res.RowsAffected
	} else {
		var r *Rows
		if r, err = db.QueryPlan(ctx, &run); err == nil {
			for r.Next() {
				rows++
			}
			err = r.Err()
			_ = r.Close()
		}
	}
	a := &Analysis{Plan: p, Steps: map[planner.Node]*StepCost{}, Total: trace.Snapshot(), Rows: rows, Took: time.Since(start)}
	if outer != nil {
		outer.Merge(a.Total)
	}
	if err != nil {
		return nil, err
	}
	m := planner.NewMatcher(p)
	for _, call := range trace.Calls() {
		step := m.Step(call.Op, call.Input)
		if step == nil {
			a.Other.add(call)
			continue
		}
		if a.Steps[step] == nil {
			a.Steps[step] = &StepCost{}
		}
		a.Steps[step].add(call)
	}
	return a, nil
}

// String draws the plan as EXPLAIN does, each step that sent requests
// with an "actual:" line, then the totals.
func (a *Analysis) String() string {
	var b strings.Builder
	b.WriteString(a.Plan.Annotated(func(n planner.Node) []string {
		if c := a.Steps[n]; c != nil {
			return []string{c.line()}
		}
		return nil
	}))
	if a.Other.Requests != nil {
		b.WriteString("requests no step announced: " + strings.TrimPrefix(a.Other.line(), "actual: ") + "\n")
	}
	fmt.Fprintf(&b, "total: %s; %s; %s\n", a.Total.Line(), rowsText(a.Plan, a.Rows), a.Took.Round(10*time.Microsecond))
	return b.String()
}

func rowsText(p *planner.Plan, n int64) string {
	verb := "returned"
	if p.Writes {
		verb = "changed"
	}
	if n == 1 {
		return "1 row " + verb
	}
	return fmt.Sprintf("%d rows %s", n, verb)
}

// JSON is the analysis as EXPLAIN ANALYZE's JSON output: each step in
// plan order with its description and cost, and the totals.
func (a *Analysis) JSON() any {
	type step struct {
		Step string   `json:"step"`
		Cost StepCost `json:"actual"`
		Ms   float64  `json:"ms"`
	}
	steps := []step{}
	planner.Walk(a.Plan.Root, func(n planner.Node) {
		if c := a.Steps[n]; c != nil {
			title, _ := n.Describe()
			steps = append(steps, step{Step: title, Cost: *c, Ms: ms(c.Took)})
		}
	})
	out := map[string]any{"plan": a.Plan.Requests(), "steps": steps, "total": a.Total, "rows": a.Rows, "ms": ms(a.Took)}
	if a.Other.Requests != nil {
		out["unannounced"] = a.Other
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
