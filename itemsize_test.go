package dynosql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// An item past DynamoDB's 400 KB was sent, and DynamoDB's
// ValidationException came back with a hint to report a dynosql bug.
func TestItemsPastFourHundredKBAreRefusedBeforeSending(t *testing.T) {
	fx := testkit.Load(t, embedded, "school")
	big := strings.Repeat("x", 410<<10)
	for _, q := range []string{
		"INSERT INTO students (id, name) VALUES ('big1', ?)",
		"UPDATE students SET name = ? WHERE id = 'a91'",
	} {
		st := dynosql.NewStats()
		_, err := fx.DB.Exec(dynosql.WithStats(context.Background(), st), q, big)
		if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "400 KB") {
			t.Errorf("%s: got %v, want an invalid error naming the 400 KB limit", q, err)
		}
		if n := len(st.Snapshot().Requests); n != 0 {
			t.Errorf("%s: %s sent, want nothing", q, st.Snapshot().Line())
		}
	}
}
