package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// WithConcurrency below 1 is refused at Open, as --concurrency and the
// DSN's concurrency= are, rather than taken for the default of 8.
func TestOpenRefusesAConcurrencyBelowOne(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	for _, n := range []int{0, -3} {
		t.Run(fmt.Sprintf("WithConcurrency(%d)", n), func(t *testing.T) {
			db, err := dynosql.Open(context.Background(), fx.Mapping, fx.Client, dynosql.WithConcurrency(n))
			if db != nil {
				_ = db.Close()
			}
			if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), fmt.Sprintf("WithConcurrency(%d)", n)) {
				t.Errorf("got %v, want an invalid error naming WithConcurrency(%d)", err, n)
			}
		})
	}
}

// A closed DB refuses statements, saying it is closed: its embedded
// backend is gone, and a request would fail as if the endpoint were
// wrong, a write as if it might have landed.
func TestAClosedDBRefusesStatements(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx := db.Begin()
	if _, err := tx.Exec(ctx, "UPDATE students SET name = 'x' WHERE id = 'a91'"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	closed := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "closed") {
			t.Errorf("%s: got %v, want an invalid error saying the DB is closed", what, err)
		}
	}
	_, err = db.Query(ctx, "SELECT name FROM students WHERE id = 'a91'")
	closed("Query", err)
	_, err = db.Exec(ctx, "UPDATE students SET name = 'x' WHERE id = 'a91'")
	closed("Exec", err)
	_, err = tx.Commit(ctx)
	closed("Commit", err)
	_, err = db.Begin().Exec(ctx, "DELETE FROM students WHERE id = 'a91'")
	closed("Tx.Exec", err)
	if err := db.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// Close may be called from several goroutines at once (a DB is safe for
// concurrent use): -race saw them share the list of what to release.
func TestCloseFromManyGoroutines(t *testing.T) {
	db, err := dynosql.OpenDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := db.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// A write whose context ended before it started says that nothing was
// sent, not that its row may or may not have been written.
func TestAWriteWithAnEndedContextSaysNothingWasSent(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := fx.DB.Exec(ctx, "UPDATE students SET name = 'x' WHERE id = 'a91'")
	if !errors.Is(err, dynosql.ErrCanceled) || !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "may or may not") || !strings.Contains(err.Error(), "not sent") {
		t.Errorf("Exec with an ended context: %v", err)
	}
	rows, err := queryAll(fx.DB, "SELECT name FROM students WHERE id = 'a91'")
	if err != nil || len(rows) != 1 || rows[0][0] != "Ann Lee" {
		t.Errorf("a91 after the write that was not sent: %v, %v", rows, err)
	}
}
