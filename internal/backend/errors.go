package backend

import (
	"context"
	"errors"

	"github.com/aws/smithy-go"

	"github.com/dynosql/dynosql/internal/errs"
)

// apiError reduces an SDK error to one line naming the request, so that no
// raw SDK dump reaches the user.
func apiError(op, table string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errs.New(errs.Canceled, "%s on %s: %v", op, table, err).Wrap(err)
	}
	code, msg := "", err.Error()
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code, msg = ae.ErrorCode(), ae.ErrorMessage()
	}
	base := errs.New(errs.Backend, "%s on %s failed: %s", op, table, msg).Wrap(err)
	if code != "" {
		base.Message = op + " on " + table + " failed: " + code + ": " + msg
	}
	return &errs.BackendError{Base: base, Op: op, Code: code}
}

// isCode reports whether err is a service error with the given code.
func isCode(err error, code string) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == code
}
