package executor

import (
	"context"
	"sync"
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
		if failed() || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
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
