package executor

import (
	"context"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/limits"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Options tune the executor.
type Options struct {
	// Concurrency bounds the requests one statement has in flight at
	// once (BatchGetItem chunks, queries per IN value or outer row),
	// besides the page of the outer read being fetched. Zero means 8.
	Concurrency int
	// OnRequest, when set, is added to every request's middleware stack
	// (for counting or tracing); it is the SDK's own hook.
	OnRequest []func(*dynamodb.Options)
	// joinCacheItems is limits.JoinCacheItems, smaller in tests.
	joinCacheItems int
}

// Executor runs plans with one client. It is safe for concurrent use.
type Executor struct {
	client Client
	opts   Options
}

// New returns an Executor that sends requests through client.
func New(client Client, opts Options) *Executor {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	if opts.joinCacheItems <= 0 {
		opts.joinCacheItems = limits.JoinCacheItems
	}
	return &Executor{client: client, opts: opts}
}

// Offline reports whether the executor has no client: it plans, and
// sends nothing (dynosql check without an endpoint).
func (ex *Executor) Offline() bool { return ex.client == nil }

// optFns returns the per-request options: the caller's hooks and the
// statement's stats counter, if the context carries one that counts
// requests.
func (ex *Executor) optFns(ctx context.Context) []func(*dynamodb.Options) {
	// Capped, so that a caller appending its own options (a count of
	// attempts) writes a copy, never the array other requests share.
	fns := slices.Clip(ex.opts.OnRequest)
	if s := StatsFrom(ctx); s != nil && !s.warningsOnly {
		fns = append(fns, s.attach)
	}
	return fns
}

// Rows is the result of a read: a stream of rows pulled with Next. Close
// it to stop the requests still in flight.
type Rows struct {
	columns  []string
	it       rowIter
	ctx      context.Context
	cancel   context.CancelFunc
	row      []value.Value
	err      error
	run      *run
	warnings []string
	returned int // rows Next has returned
}

// ctxCheckRows is how often Next checks the statement's context itself:
// rows a step already built (a partition join's cross product) need no
// request, so nothing else would notice that the context ended.
const ctxCheckRows = 64

// Query runs a read plan and returns its rows. The rows are read as Next
// asks for them, so a LIMIT stops the reads early.
func (ex *Executor) Query(ctx context.Context, p *planner.Plan) (*Rows, error) {
	if cc, ok := p.Root.(*planner.CopyCheck); ok {
		rows, err := ex.checkCopies(ctx, cc)
		if err != nil {
			return nil, err
		}
		return &Rows{columns: p.ColumnNames(), it: &sliceRows{rows: rows}, ctx: ctx}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	r := ex.newRun(p.Slots)
	if rows, ok, err := r.catalogRows(ctx, p.Root); ok {
		if err != nil {
			cancel()
			return nil, err
		}
		return &Rows{columns: p.ColumnNames(), it: &sliceRows{rows: rows}, ctx: ctx, cancel: cancel, run: r}, nil
	}
	it, err := r.rows(p.Root)
	if err != nil {
		cancel()
		return nil, err
	}
	return &Rows{columns: p.ColumnNames(), it: it, ctx: ctx, cancel: cancel, run: r}, nil
}

// Columns returns the output column names. Those of a raw table's SELECT
// * are known once its rows are read: Columns reads them first.
func (r *Rows) Columns() []string {
	if sp, ok := r.it.(*spreadIter); ok {
		cols, err := sp.columns(r.ctx)
		if err != nil {
			r.err = err
		}
		return cols
	}
	return r.columns
}

// Next advances to the next row, reporting false at the end or on error.
func (r *Rows) Next() bool {
	if r.err != nil || r.it == nil {
		return false
	}
	r.returned++
	if r.returned%ctxCheckRows == 0 && r.ctx.Err() != nil {
		r.err = backendError("request", r.ctx.Err())
		_ = r.Close()
		return false
	}
	row, err := r.it.next(r.ctx)
	if err != nil {
		r.err = err
		_ = r.Close()
		return false
	}
	if row == nil {
		_ = r.Close()
		return false
	}
	r.row = row
	return true
}

// Row returns the current row; its slice is the caller's to keep.
func (r *Rows) Row() []value.Value { return r.row }

// Err returns the error that ended the rows, if any.
func (r *Rows) Err() error { return r.err }

// Close stops the statement's requests. It is safe to call twice.
func (r *Rows) Close() error {
	if r.cancel != nil {
		r.cancel()
	}
	r.it = nil
	if r.run != nil {
		r.warnings = r.run.finish(r.ctx)
		r.run = nil
	}
	return nil
}

// Warnings returns what the statement found wrong without failing: reads
// whose items no entity claimed. They are known once the rows end or are
// closed.
func (r *Rows) Warnings() []string { return r.warnings }

// finish adds the run's unclaimed items to the statement's stats and
// returns its warnings, which a write's Result also carries.
func (r *run) finish(ctx context.Context) []string {
	n, warnings := r.log.unclaimed()
	if s := StatsFrom(ctx); s != nil {
		s.addUnclaimed(n, warnings)
	}
	if w, ok := ctx.Value(warningsKey{}).(*warningSink); ok {
		w.add(warnings)
	}
	return warnings
}

// warningSink collects the warnings of a write's reads.
type warningSink struct {
	mu   sync.Mutex
	list []string
}

type warningsKey struct{}

func (w *warningSink) add(ws []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, ws...)
}

// run holds the state of one execution of a plan's reads.
type run struct {
	ex    *Executor
	slots []planner.Slot
	alias map[string]int // alias → slot
	log   *readLog
	sem   chan struct{} // the request slots its joins share (see start)
	// limited is set when a LIMIT may stop the statement before its
	// reads end: joins then read ahead little at first (see joinIter).
	limited bool
}

// newRun returns a run over the slots of a plan (or of a write's reads).
func (ex *Executor) newRun(slots []planner.Slot) *run {
	r := &run{ex: ex, slots: slots, alias: map[string]int{}, log: &readLog{}, sem: make(chan struct{}, ex.opts.Concurrency)}
	for i, s := range slots {
		r.alias[s.Alias] = i
	}
	return r
}

// side returns a run for one side of a UNION: its own slots, the
// statement's log of reads.
func (r *run) side(slots []planner.Slot) *run {
	s := r.ex.newRun(slots)
	s.log = r.log
	return s
}

func internal(format string, args ...any) error {
	return errs.New(errs.Internal, format, args...)
}

// Result is what a write statement did.
type Result struct {
	Affected int64 // rows inserted, updated or deleted
	// CopiesUpdated and CopiesSkipped count the denormalized copies a
	// fan-out rewrote, and those it left because they no longer held the
	// old value.
	CopiesUpdated int64
	CopiesSkipped int64
	// Warnings are what the statement's reads found wrong without
	// failing (see Rows.Warnings).
	Warnings []string
}
