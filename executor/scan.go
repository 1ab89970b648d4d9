package executor

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/planner"
)

// Scanner is the one more method a client needs for the Scans a plan may
// hold: of an index the mapping marks scan: true, or any table when the
// session allows scans. Client has no Scan, so that the executor's other
// code paths cannot send one; *dynamodb.Client is a Scanner.
type Scanner interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

var _ Scanner = (*dynamodb.Client)(nil)

// scanIter reads a Scan's segments in parallel, each paged to the end,
// and yields their items' tuples as pages arrive.
type scanIter struct {
	r     *run
	s     *planner.Scan
	pages chan scanPage
	// ended counts the segments read to their last page: fewer when
	// the pages channel closes means the context stopped the others.
	ended atomic.Int32
	buf   []tuple
	once  sync.Once
}

type scanPage struct {
	items []map[string]types.AttributeValue
	err   error
}

func (it *scanIter) start(ctx context.Context) {
	it.pages = make(chan scanPage, it.s.Segments)
	sc, ok := it.r.ex.client.(Scanner)
	if !ok {
		it.pages <- scanPage{err: internal("the client cannot Scan, which the plan needs (%s)", it.s.Table)}
		close(it.pages)
		return
	}
	if it.s.AdHoc {
		it.r.log.note(fmt.Sprintf("a Scan of %s reads all of it: about %d items, %d bytes when DynamoDB last counted",
			it.s.Table, it.s.Size.Items, it.s.Size.Bytes))
	}
	var wg sync.WaitGroup
	for seg := range it.s.Segments {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err := it.s.Build(seg)
			for err == nil {
				// Each page takes one of the statement's request slots:
				// the concurrency bounds the segments too.
				select {
				case it.r.sem <- struct{}{}:
				case <-ctx.Done():
					return
				}
				var out *dynamodb.ScanOutput
				out, err = sc.Scan(ctx, in, it.r.ex.optFns(ctx)...)
				<-it.r.sem
				if err != nil {
					err = backendError("Scan", err)
					break
				}
				select {
				case it.pages <- scanPage{items: out.Items}:
				case <-ctx.Done():
					return
				}
				if len(out.LastEvaluatedKey) == 0 {
					it.ended.Add(1)
					return
				}
				in.ExclusiveStartKey = out.LastEvaluatedKey
			}
			select {
			case it.pages <- scanPage{err: err}:
			case <-ctx.Done():
			}
		}()
	}
	go func() { wg.Wait(); close(it.pages) }()
}

func (it *scanIter) next(ctx context.Context) (tuple, error) {
	it.once.Do(func() { it.start(ctx) })
	for len(it.buf) == 0 {
		select {
		case p, ok := <-it.pages:
			if !ok {
				if int(it.ended.Load()) < it.s.Segments {
					// A segment stopped part way, its context ended:
					// the rows so far are not all of them.
					return nil, backendError("Scan", cmp.Or(ctx.Err(), context.Canceled))
				}
				return nil, nil
			}
			if p.err != nil {
				return nil, p.err
			}
			var err error
			if it.buf, err = it.r.classify(it.s, p.items, it.s.Reads); err != nil {
				return nil, err
			}
		case <-ctx.Done():
			return nil, backendError("Scan", ctx.Err())
		}
	}
	t := it.buf[0]
	it.buf = it.buf[1:]
	return t, nil
}
