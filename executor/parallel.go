package executor

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// parallel runs fn for 0..n-1 with at most Concurrency at once, and
// returns the first error; the others are canceled.
func (ex *Executor) parallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	if n == 1 {
		return fn(ctx, 0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, ex.opts.Concurrency)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return backendError("request", ctx.Err())
	}
	return first
}

// eachWrite runs fn for 0..n-1, at most Concurrency at once. Unlike
// parallel it lets writes in flight finish after an error (so that the
// count of what landed is exact) and only stops starting new ones.
func (ex *Executor) eachWrite(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	sem := make(chan struct{}, ex.opts.Concurrency)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	failed := func() bool { mu.Lock(); defer mu.Unlock(); return first != nil }
	for i := range n {
		sem <- struct{}{} // a slot first: a write that fails meanwhile stops the rest
		if failed() || ctx.Err() != nil {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return backendError("write", ctx.Err())
	}
	return first
}

// job is one request of a join's inner side (with its pages or its
// retries of unprocessed keys), run in the background so that the
// statement goes on reading outer rows meanwhile. Its fields are set
// before done is closed, and read only after.
type job struct {
	done  chan struct{}
	err   error
	items []map[string]types.AttributeValue
	// byID holds a BatchGetItem's items by the key asked for.
	byID map[string]map[string]types.AttributeValue
}

func newJob() *job { return &job{done: make(chan struct{})} }

// start runs fn as job j once one of the statement's request slots is
// free: the statement's joins share Concurrency slots, so chained joins
// do not multiply it.
func (r *run) start(ctx context.Context, j *job, fn func(ctx context.Context) error) {
	go r.runJob(ctx, j, fn)
}

// runJob runs fn as job j in this goroutine, within a request slot. The
// caller that would only wait for j runs it so (a hand-off fewer).
func (r *run) runJob(ctx context.Context, j *job, fn func(ctx context.Context) error) {
	defer close(j.done)
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		j.err = backendError("request", ctx.Err())
		return
	}
	defer func() { <-r.sem }()
	j.err = fn(ctx)
}

// ready reports, without waiting, whether j has ended.
func (j *job) ready() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// wait waits for j to end and returns its error.
func (j *job) wait(ctx context.Context) error {
	select {
	case <-j.done:
		return j.err
	case <-ctx.Done():
		return backendError("request", ctx.Err())
	}
}
