package repl

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// Reads whose items no entity claims are warned about on stderr whether
// or not --stats counts the requests: without it the shell gathers only
// the warnings (the counting middleware costs a short statement a few
// per cent), with it the stats line counts the items too.
func TestUnclaimedItemsAreWarnedAboutWithOrWithoutStats(t *testing.T) {
	ctx := context.Background()
	fx := testkit.Load(t, testkit.Backends()[1], "school")
	text, err := os.ReadFile(testkit.Testdata("school", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The table's enrollment items no longer fit the edited template.
	edited := strings.Replace(string(text), `SK: "ENROLL#CRS#{course_id}"`, `SK: "ENROLL#CRS#{course_id}#V2"`, 1)
	m, err := mapping.Parse("edited.yaml", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	m.Table = fx.Mapping.Table
	db, err := dynosql.Open(ctx, m, fx.Client)
	if err != nil {
		t.Fatal(err)
	}
	for _, stats := range []bool{false, true} {
		var out, errOut bytes.Buffer
		s := NewSession(db, &out, &errOut)
		s.Stats = stats
		if err := s.Run(ctx, "SELECT course_id FROM enrollments WHERE student_id = 'a91'"); err != nil {
			t.Fatal(err)
		}
		got := errOut.String()
		if !strings.Contains(got, "WARNING: ") || !strings.Contains(got, "none of them is a enrollments item") {
			t.Errorf("--stats %v: stderr %q; want the warning about a91's enrollment items", stats, got)
		}
		if counted := strings.Contains(got, "5 items matched no entity"); counted != stats {
			t.Errorf("--stats %v: stderr %q; want the stats line only with --stats", stats, got)
		}
	}
}

// The meta-commands that send requests (\dt, and \d of a table read raw)
// run under a statement's context, which Ctrl-C cancels: in the shell,
// where Ctrl-C between statements does nothing, one waiting on an
// endpoint that does not answer could otherwise not be stopped. Here
// Ctrl-C comes as each starts.
func TestCtrlCCancelsTheRequestsOfMetaCommands(t *testing.T) {
	ctx := context.Background()
	db, err := dynosql.Open(ctx, nil, testkit.Embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, meta := range []string{`\dt`, `\d Orders`} {
		t.Run(meta, func(t *testing.T) {
			var out, errOut bytes.Buffer
			s := NewSession(db, &out, &errOut)
			s.Interrupt = func(ctx context.Context) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(ctx)
				cancel()
				return ctx, cancel
			}
			_ = s.Meta(ctx, meta)
			if !strings.Contains(errOut.String(), "ERROR: canceled") {
				t.Errorf("stderr does not say %s was canceled:\n%s", meta, errOut.String())
			}
		})
	}
}
