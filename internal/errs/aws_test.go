package errs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
)

// sdkError wraps err as the SDK returns a failed operation.
func sdkError(op string, err error) error {
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: op, Err: err}
}

func apiErr(code, msg string) error {
	return &smithy.GenericAPIError{Code: code, Message: msg, Fault: smithy.FaultClient}
}

func TestFromAWSNamesTheRequestTheCodeAndWhatToDo(t *testing.T) {
	tests := []struct {
		name, op, resource string
		err                error
		msg, hint          string // wanted in the message and the hint
		code               string
	}{
		{
			name: "access denied names the action and the resource DynamoDB gave",
			op:   "Query", resource: "School",
			err:  apiErr("AccessDeniedException", "User: arn:aws:iam::123456789012:user/ann is not authorized to perform: dynamodb:Query on resource: arn:aws:dynamodb:us-east-1:123456789012:table/School/index/GSI1 because no identity-based policy allows the dynamodb:Query action"),
			msg:  "Query on School failed: AccessDeniedException: User: ",
			hint: "these credentials lack dynamodb:Query on arn:aws:dynamodb:us-east-1:123456789012:table/School/index/GSI1: grant it (README: Permissions",
			code: "AccessDeniedException",
		},
		{
			name: "access denied without details names the request's action and table",
			op:   "PutItem", resource: "School",
			err:  apiErr("AccessDeniedException", "access denied"),
			hint: "these credentials lack dynamodb:PutItem on table School (and its indexes, for index reads)",
			code: "AccessDeniedException",
		},
		{
			name: "a missing table is named",
			op:   "DescribeTable", resource: "School",
			err:  apiErr("ResourceNotFoundException", "Requested resource not found"),
			msg:  "DescribeTable on School failed: ResourceNotFoundException: Requested resource not found",
			hint: "no table School at this endpoint and region",
			code: "ResourceNotFoundException",
		},
		{
			name: "without a resource, the message names the request only",
			op:   "BatchGetItem",
			err:  apiErr("ValidationException", "Too many items requested"),
			msg:  "BatchGetItem failed: ValidationException: Too many items requested",
			hint: "EXPLAIN shows the request",
			code: "ValidationException",
		},
		{
			name: "an endpoint that does not answer",
			op:   "DescribeTable", resource: "School",
			err:  &smithyhttp.RequestSendError{Err: errors.New(`Post "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: connection refused`)},
			msg:  `DescribeTable on School failed: DynamoDB did not answer: Post "http://127.0.0.1:1/": dial tcp`,
			hint: "check the endpoint (--endpoint-url",
		},
		{
			name: "throttled past the retry ceiling",
			op:   "UpdateItem", resource: "School",
			err:  &retry.CeilingError{Ceiling: 5 * time.Second, Attempts: 9, Err: apiErr("ThrottlingException", "Rate of requests exceeds the allowed throughput.")},
			msg:  "UpdateItem on School failed: ThrottlingException: Rate of requests exceeds the allowed throughput. (gave up after 5s of retries, the retry ceiling)",
			hint: "--retry-ceiling",
			code: "ThrottlingException",
		},
		{
			name: "unprocessed keys past the retry ceiling",
			op:   "BatchGetItem",
			err:  &retry.CeilingError{Ceiling: time.Minute, Attempts: 12, Err: errors.New("3 keys left unprocessed")},
			msg:  "BatchGetItem failed: 3 keys left unprocessed (gave up after 1m0s of retries, the retry ceiling)",
			hint: "--retry-ceiling",
		},
		{
			name: "credentials in a message are hidden",
			op:   "GetItem",
			err:  apiErr("UnrecognizedClientException", "The security token "+token+" is invalid"),
			msg:  "GetItem failed: UnrecognizedClientException: The security token",
			hint: "DynamoDB does not accept these credentials",
			code: "UnrecognizedClientException",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("AWS_SESSION_TOKEN", token)
			err := errs.FromAWS(tt.op, tt.resource, sdkError(tt.op, tt.err))
			var be *errs.BackendError
			if !errors.As(err, &be) {
				t.Fatalf("got %T %v, want a *errs.BackendError", err, err)
			}
			if be.Op != tt.op || be.Code != tt.code {
				t.Errorf("op %q code %q, want %q and %q", be.Op, be.Code, tt.op, tt.code)
			}
			if !errors.Is(err, errs.Backend) || !errors.Is(err, tt.err) {
				t.Errorf("%v is not a backend error wrapping the SDK's", err)
			}
			if !strings.Contains(be.Base.Message, tt.msg) {
				t.Errorf("message %q, want it to hold %q", be.Base.Message, tt.msg)
			}
			if !strings.Contains(be.Base.Hint, tt.hint) {
				t.Errorf("hint %q, want it to hold %q", be.Base.Hint, tt.hint)
			}
			if strings.Contains(err.Error()+be.Detail(), token) {
				t.Errorf("the session token shows: %v", err)
			}
		})
	}
}

func TestFromAWSLeavesOtherErrorsToTheirKind(t *testing.T) {
	if errs.FromAWS("Query", "School", nil) != nil {
		t.Error("nil is not an error")
	}
	own := errs.New(errs.Conflict, "users (id='12') already exists")
	if got := errs.FromAWS("PutItem", "School", fmt.Errorf("put: %w", own)); !errors.Is(got, errs.Conflict) {
		t.Errorf("dynosql's own error became %v", got)
	}
	got := errs.FromAWS("Query", "School", sdkError("Query", context.Canceled))
	if !errors.Is(got, errs.Canceled) || got.Error() != "canceled: Query on School canceled" {
		t.Errorf("a canceled request: %v", got)
	}
	got = errs.FromAWS("Query", "", sdkError("Query", context.DeadlineExceeded))
	if !errors.Is(got, errs.Canceled) || got.Error() != "canceled: Query stopped: deadline exceeded" {
		t.Errorf("a request past its deadline: %v", got)
	}
}
