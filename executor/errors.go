package executor

import "github.com/dynosql/dynosql/internal/errs"

// backendError reduces a failed request to one line naming the request
// and DynamoDB's error code, keeping the original for errors.As.
func backendError(op string, err error) error { return errs.FromAWS(op, "", err) }
