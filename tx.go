package dynosql

import (
	"context"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
)

// Tx is a transaction: writes made with Exec are planned and checked at
// once, and sent together at Commit as one DynamoDB TransactWriteItems,
// all of them or none. Each must name its rows by their full key (INSERT,
// UPDATE or DELETE by key, with guards and the WHERE's conditions); a
// statement that cannot join a transaction is refused at Exec, before
// anything is sent, and leaves the transaction as it was. Reads are not
// part of a transaction: run them on the DB. A Tx belongs to one
// goroutine.
type Tx struct {
	db   *DB
	plan planner.Transaction
	done bool
}

// Begin starts a transaction.
func (db *DB) Begin() *Tx { return &Tx{db: db} }

// Exec plans a write of the transaction; nothing is sent before Commit.
// RowsAffected counts the rows the statement names; whether they are
// written is known at Commit.
func (tx *Tx) Exec(ctx context.Context, sql string, args ...any) (Result, error) {
	p, err := tx.db.PlanContext(ctx, sql, args...)
	if err != nil {
		return Result{}, err
	}
	return tx.ExecPlan(ctx, p)
}

// ExecPlan adds a planned write to the transaction.
func (tx *Tx) ExecPlan(ctx context.Context, p *planner.Plan) (Result, error) {
	if tx.done {
		return Result{}, errs.New(errs.Invalid, "the transaction has ended").WithHint("BEGIN a new one")
	}
	if err := notControl(p); err != nil {
		return Result{}, err
	}
	if _, err := tx.db.safety.enter(ctx, p); err != nil {
		return Result{}, err
	}
	next, err := tx.plan.With(p)
	if err != nil {
		return Result{}, err // the statement is not added
	}
	tx.plan = *next
	n := int64(1)
	if ins, ok := p.Root.(*planner.InsertRows); ok {
		n = int64(len(ins.Rows))
	}
	return Result{RowsAffected: n}, nil
}

// Commit sends the transaction's writes as one TransactWriteItems. When a
// condition fails (a row already there, or missing, or failing its
// WHERE) nothing is written and the error names the statement.
func (tx *Tx) Commit(ctx context.Context) (Result, error) {
	if tx.done {
		return Result{}, errs.New(errs.Invalid, "the transaction has ended").WithHint("BEGIN a new one")
	}
	if err := tx.db.open(); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		// Ended before anything was sent: nothing landed, and the
		// transaction stays open for a Commit with a live context.
		return Result{}, errs.New(errs.Canceled, "the transaction was not sent: %v", err).Wrap(err).
			WithHint("Commit again with a context that has not ended, or Rollback; nothing was written")
	}
	tx.done = true
	ctx, err := tx.db.safety.enter(ctx, &planner.Plan{Writes: len(tx.plan.Statements) > 0, Verb: "COMMIT", SQL: "COMMIT"})
	if err != nil {
		return Result{}, err
	}
	r, err := tx.db.exec.Commit(ctx, &tx.plan)
	if err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: r.Affected}, nil
}

// Rollback ends the transaction without sending anything.
func (tx *Tx) Rollback() error {
	tx.done = true
	tx.plan = planner.Transaction{}
	return nil
}

// Statements returns how many writes the transaction holds.
func (tx *Tx) Statements() int { return len(tx.plan.Statements) }
