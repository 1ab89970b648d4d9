package dynosql_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// TestWithProgressReportsEachTransactionOfAnInsert: a context from
// WithProgress gets a report after each transaction of a multi-row
// INSERT; without one, nothing is reported anywhere.
func TestWithProgressReportsEachTransactionOfAnInsert(t *testing.T) {
	m, err := mapping.Load(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := dynosql.OpenEmbedded(ctx, m, dynosql.WithNonAtomicInserts())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	var rows []string
	for i := range 150 {
		rows = append(rows, fmt.Sprintf("('p%03d', 'Course %d', 3)", i, i))
	}
	var mu sync.Mutex
	var got []int64
	pctx := dynosql.WithProgress(ctx, func(p dynosql.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Source != "courses" || p.Rows != 150 {
			t.Errorf("progress %+v", p)
		}
		got = append(got, p.Inserted)
	})
	if _, err := db.Exec(pctx, "INSERT INTO courses (id, title, credits) VALUES "+strings.Join(rows, ", ")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int64{100, 150}) {
		t.Errorf("reported %v rows inserted, want 100 then 150", got)
	}
}
