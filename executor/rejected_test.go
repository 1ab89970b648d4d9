package executor

import (
	"testing"

	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"

	"github.com/dynosql/dynosql/internal/retry"
)

// A write surely changed nothing only when its one attempt was refused:
// a throttle after retries may follow an attempt that landed (answered
// by a 5xx), and DynamoDB's ValidationException carries no fault yet
// refuses the request.
func TestRejectedOnlyForAnAttemptRefused(t *testing.T) {
	throttle := &smithy.GenericAPIError{Code: "ThrottlingException", Fault: smithy.FaultClient}
	validation := &smithy.GenericAPIError{Code: "ValidationException"}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"a validation error", validation, true},
		{"a client fault", throttle, true},
		{"a throttle after retries", &awsretry.MaxAttemptsError{Attempt: 3, Err: throttle}, false},
		{"a throttle at the ceiling", &retry.CeilingError{Err: throttle}, false},
		{"a server fault", &smithy.GenericAPIError{Code: "InternalServerError", Fault: smithy.FaultServer}, false},
	} {
		if got := rejected(nil, c.err); got != c.want {
			t.Errorf("%s: rejected = %v, want %v", c.name, got, c.want)
		}
	}
}
