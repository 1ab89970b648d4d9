package dynosql

import (
	"context"

	"github.com/dynosql/dynosql/executor"
)

// Stats counts what the statements run under a context sent, from inside
// the SDK's middleware: every attempt of every request by operation, the
// items returned, the capacity DynamoDB reports, and the items no entity
// claimed. Attach one with WithStats; read it with Snapshot.
type Stats = executor.Stats

// StatsSnapshot is a copy of a Stats' counters; Line sums it up as
// --stats prints it.
type StatsSnapshot = executor.Snapshot

// NewStats returns empty counters.
func NewStats() *Stats { return executor.NewStats() }

// NewWarningStats returns counters that gather only the items no entity
// claimed and their warnings, leaving the requests uncounted, which
// saves a few per cent of a short statement's time.
func NewWarningStats() *Stats { return executor.NewWarningStats() }

// WithStats returns a context whose statements count into s.
func WithStats(ctx context.Context, s *Stats) context.Context { return executor.WithStats(ctx, s) }
