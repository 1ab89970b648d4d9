package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// Exec runs a write plan: INSERT, UPDATE, DELETE or REPAIR COPIES.
func (ex *Executor) Exec(ctx context.Context, p *planner.Plan) (*Result, error) {
	switch x := p.Root.(type) {
	case *planner.InsertRows:
		return ex.insert(ctx, x)
	case *planner.UpdateRows:
		return ex.update(ctx, x)
	case *planner.DeleteRows:
		return ex.delete(ctx, x)
	case *planner.CopyCheck:
		return ex.repair(ctx, x)
	}
	return nil, internal("no executor for write step %T", p.Root)
}

// maxTransactRetries bounds the resends of a transaction cancelled only
// by conflicts or throttling (DYNAMODB.md 3.4), with the same token.
const maxTransactRetries = 5

// run returns a run for a write step's reads.
func (ex *Executor) newRun(slots []planner.Slot) *run {
	r := &run{ex: ex, plan: &planner.Plan{Slots: slots}, slots: map[string]int{}}
	for i, s := range slots {
		r.slots[s.Alias] = i
	}
	return r
}

// item renders the item stored for row: every key attribute the entity's
// templates give, and the non-NULL columns.
func item(e *mapping.Entity, row mapping.Row) (map[string]types.AttributeValue, error) {
	it := make(map[string]types.AttributeValue, len(row)+len(e.Templates))
	for col, v := range row {
		if v != nil {
			it[col] = value.ToAttr(v)
		}
	}
	for attr, t := range e.Templates {
		s, err := t.Render(row)
		if err != nil {
			return nil, errs.New(errs.Invalid, "%s key %s = %q: %v", e.Name, attr, t.Raw, err)
		}
		it[attr] = &types.AttributeValueMemberS{Value: s}
	}
	return it, nil
}

// baseKey renders row's base-table key.
func (ex *Executor) baseKey(e *mapping.Entity, row mapping.Row) (map[string]types.AttributeValue, error) {
	key, err := e.KeyItem(row, ex.m.PartitionKey, ex.m.SortKey)
	if err != nil {
		return nil, errs.New(errs.Invalid, "%s: %v", e.Name, err)
	}
	return key, nil
}

// keyDesc names a row by its base key columns: (student_id='a91', course_id='math204').
func keyDesc(e *mapping.Entity, row mapping.Row) string {
	var parts []string
	seen := map[string]bool{}
	for _, p := range e.Paths()[:1] {
		cols := p.PK.Columns()
		if p.SK != nil {
			cols = append(cols, p.SK.Columns()...)
		}
		for _, c := range cols {
			if !seen[c] {
				seen[c] = true
				parts = append(parts, c+"="+parser.Format(&parser.Literal{Value: row[c]}))
			}
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func keyStrings(key map[string]types.AttributeValue) map[string]string {
	out := map[string]string{}
	for k, v := range key {
		out[k] = value.Text(value.FromAttr(v))
	}
	return out
}

func (ex *Executor) conflict(e *mapping.Entity, row mapping.Row, format string, args ...any) error {
	key, _ := ex.baseKey(e, row)
	msg := e.Name + " " + keyDesc(e, row) + " already exists"
	if format != "" {
		msg += "; " + fmt.Sprintf(format, args...)
	}
	return &errs.ConditionFailedError{Base: errs.New(errs.Conflict, "%s", msg), Entity: e.Name, Key: keyStrings(key)}
}

// note appends what landed to an error's message.
func note(err error, format string, args ...any) error {
	var e *errs.Error
	if errors.As(err, &e) {
		e.Message += "; " + fmt.Sprintf(format, args...)
		return err
	}
	return errs.New(errs.Backend, "%v; %s", err, fmt.Sprintf(format, args...)).Wrap(err)
}

// buildCond ANDs the guard with the statement's conditions.
func buildCond(guard expression.ConditionBuilder, more ...expression.ConditionBuilder) expression.ConditionBuilder {
	c := guard
	for _, m := range more {
		c = expression.And(c, m)
	}
	return c
}

// sqlCond converts the WHERE's checkable conditions, if any.
func sqlCond(e parser.Expr) ([]expression.ConditionBuilder, error) {
	if e == nil {
		return nil, nil
	}
	c, err := condition(e)
	if err != nil {
		return nil, err
	}
	return []expression.ConditionBuilder{c}, nil
}

// asRead requires each of attrs to hold what row, as read, gives it:
// a column's value, or an index key attribute rendered from the row's
// key columns; attribute_not_exists where the row has none.
func asRead(e *mapping.Entity, attrs []string, row mapping.Row) []expression.ConditionBuilder {
	var out []expression.ConditionBuilder
	for _, attr := range attrs {
		var v types.AttributeValue
		if t := e.Templates[attr]; t != nil {
			if s, err := t.Render(row); err == nil {
				v = &types.AttributeValueMemberS{Value: s}
			}
		} else if x := row[attr]; x != nil {
			v = value.ToAttr(x)
		}
		if v == nil {
			out = append(out, expression.AttributeNotExists(expression.Name(attr)))
		} else {
			out = append(out, expression.Equal(expression.Name(attr), expression.Value(v)))
		}
	}
	return out
}

// changed reports whether an attribute of attrs differs between two
// versions of a row.
func changed(e *mapping.Entity, attrs []string, a, b mapping.Row) bool {
	for _, attr := range attrs {
		if t := e.Templates[attr]; t != nil {
			sa, ea := t.Render(a)
			sb, eb := t.Render(b)
			if sa != sb || (ea == nil) != (eb == nil) {
				return true
			}
		} else if value.Key(a[attr]) != value.Key(b[attr]) {
			return true
		}
	}
	return false
}

func isConditionFailed(err error) (*types.ConditionalCheckFailedException, bool) {
	var ccf *types.ConditionalCheckFailedException
	return ccf, errors.As(err, &ccf)
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

// readRows runs a write step's reads to the end and returns the rows.
func (ex *Executor) readRows(ctx context.Context, read planner.Node, slots []planner.Slot) ([]mapping.Row, error) {
	r := ex.newRun(slots)
	it, err := r.tuples(read)
	if err != nil {
		return nil, err
	}
	var rows []mapping.Row
	for {
		t, err := it.next(ctx)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return rows, nil
		}
		rows = append(rows, t[0])
	}
}

// rowEnv evaluates a resolved expression over one row.
type rowEnv mapping.Row

func (e rowEnv) column(c *parser.Column) value.Value { return e[c.Name] }
func (e rowEnv) aggregate(*parser.Func) value.Value  { return nil }

// holds reports whether cond is true on row (nil cond: true).
func holds(cond parser.Expr, row mapping.Row) bool {
	if cond == nil {
		return true
	}
	v, err := eval(cond, rowEnv(row))
	return err == nil && truth(v)
}

func cloneRow(row mapping.Row) mapping.Row {
	out := make(mapping.Row, len(row))
	for k, v := range row {
		out[k] = v
	}
	return out
}
