package backend

import (
	"context"
	"fmt"
	"io"

	"github.com/aws/smithy-go/logging"

	"github.com/dynosql/dynosql/internal/errs"
)

// NewLogger returns the logger for the SDK's own log (--debug): the SDK's
// standard logger on w, every line redacted. Its request log prints the
// Authorization and X-Amz-Security-Token headers, and debug output is
// what people paste into bug reports.
func NewLogger(w io.Writer) logging.Logger {
	return Redacting(logging.NewStandardLogger(w))
}

// Redacting wraps l so that every line it logs passes through
// errs.Redact first.
func Redacting(l logging.Logger) logging.Logger { return redacting{l} }

type redacting struct{ l logging.Logger }

// Logf formats the line, redacts it, and logs it.
func (r redacting) Logf(c logging.Classification, format string, v ...any) {
	r.l.Logf(c, "%s", errs.Redact(fmt.Sprintf(format, v...)))
}

// WithContext keeps a context-aware logger's behaviour, still redacted.
func (r redacting) WithContext(ctx context.Context) logging.Logger {
	if cl, ok := r.l.(logging.ContextLogger); ok {
		return redacting{cl.WithContext(ctx)}
	}
	return r
}
