package executor

import (
	"context"
	"errors"

	"github.com/aws/smithy-go"

	"github.com/dynosql/dynosql/internal/errs"
)

// backendError reduces a failed request to one line naming the request
// and DynamoDB's error code, keeping the original for errors.As.
func backendError(op string, err error) error {
	if err == nil {
		return nil
	}
	var de errs.Detailed
	if errors.As(err, &de) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errs.New(errs.Canceled, "%s stopped: deadline exceeded", op).Wrap(err)
	}
	if errors.Is(err, context.Canceled) {
		return errs.New(errs.Canceled, "%s canceled", op).Wrap(err)
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		e := errs.New(errs.Backend, "%s failed: %s: %s", op, api.ErrorCode(), api.ErrorMessage()).Wrap(err)
		return &errs.BackendError{Base: e, Op: op, Code: api.ErrorCode()}
	}
	e := errs.New(errs.Backend, "%s failed: %v", op, err).Wrap(err)
	return &errs.BackendError{Base: e, Op: op}
}
