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
		if got := rejected(c.err); got != c.want {
			t.Errorf("%s: rejected = %v, want %v", c.name, got, c.want)
		}
	}
}

// A stopped INSERT of several transactions says which rows are in and
// how to finish without running the whole statement again, which would
// conflict on the rows already in.
func TestInsertStoppedSaysHowToFinish(t *testing.T) {
	for _, c := range []struct {
		start, end, n int
		rejected      bool
		want          string
	}{
		{0, 100, 250, true, "none of the rows was inserted"},
		{100, 200, 250, true, "rows 1 to 100 were inserted by earlier transactions; rows 101 to 250 were not; to finish, run the INSERT with VALUES rows 101 to 250 only, once the cause is fixed"},
		{100, 200, 250, false, "rows 1 to 100 were inserted by earlier transactions; rows 101 to 200 may or may not have been inserted (DynamoDB gave no answer); rows 201 to 250 were not; to finish, SELECT rows 101 to 200 and run the INSERT with VALUES those not there and rows 201 to 250"},
		{0, 100, 100, false, "rows 1 to 100 may or may not have been inserted (DynamoDB gave no answer); to finish, SELECT rows 1 to 100 and run the INSERT with VALUES those not there"},
	} {
		if got := insertStopped(c.start, c.end, c.n, c.rejected); got != c.want {
			t.Errorf("insertStopped(%d, %d, %d, %v):\n got %s\nwant %s", c.start, c.end, c.n, c.rejected, got, c.want)
		}
	}
}
