package backend

import (
	"errors"

	"github.com/aws/smithy-go"
)

// isCode reports whether err is a service error with the given code.
func isCode(err error, code string) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == code
}
