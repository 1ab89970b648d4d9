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

// The 400 KB check covers the item a statement writes, not the copies
// its fan-out writes: a name that fits in the users item is copied into
// every post of the author, which then passes 400 KB. DynamoDB refuses
// that copy after the users item was renamed (a partial write); the
// embedded backend stores a post DynamoDB would refuse. The name alone,
// under the attribute authorName and beside the post's keys, is past
// 400 KB: the planner can tell before sending anything.
func TestCopiesPastFourHundredKBAreRefusedBeforeSending(t *testing.T) {
	ctx := context.Background()
	// users item: PK "USER#1" (8) + SK "PROFILE" (9) + name (4 + n);
	// post item: authorName (10 + n) + PK "POST#p1" (9) + SK "META" (6)
	// + GSI1PK "USER#1" (12) + GSI1SK "POST#p1" (13) + id...
	n := 400<<10 - 8 - 9 - 4 - 8 // DynamoDB Local counts a few bytes more than this bound
	name := strings.Repeat("n", n)
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.Load(t, b, "blog")
			if _, err := fx.DB.Exec(ctx, "INSERT INTO posts (id, authorId, title) VALUES ('p1', '1', 't')"); err != nil {
				t.Fatal(err)
			}
			_, err := fx.DB.Exec(ctx, "UPDATE users SET name = ? WHERE id = '1'", name)
			got, qerr := fx.Query(ctx, "SELECT length(name) FROM users WHERE id = '1'")
			if qerr != nil {
				got, qerr = fx.Query(ctx, "SELECT name FROM users WHERE id = '1'")
			}
			renamed := qerr == nil && len(fmt.Sprint(got)) > 1000
			if err == nil || renamed {
				t.Errorf("UPDATE to a name whose copy is past 400 KB: err %v, users renamed: %v; want it refused before sending, nothing renamed", err, renamed)
			}
			if err != nil {
				t.Logf("error: %.300v", err)
			}
		})
	}
}
