package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
