package errs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// retriedUntil is implemented by errors that ended a request because
// retrying it had taken the retry ceiling (internal/retry.CeilingError).
type retriedUntil interface {
	error
	RetryCeiling() time.Duration
}

// FromAWS reduces the error of an AWS SDK request to one line naming the
// request (op, "on resource" when resource is not empty), DynamoDB's
// error code and message, with a hint for the common codes, so that no
// raw SDK dump reaches the user. An error that is already dynosql's is
// returned as it is, a context's end becomes Canceled, and the SDK's own
// error stays reachable with errors.As. The message is redacted. It
// returns nil for nil.
func FromAWS(op, resource string, err error) error {
	if err == nil {
		return nil
	}
	var de Detailed
	if errors.As(err, &de) {
		// Raised by dynosql inside the SDK's stack (the embedded
		// backend's number guard, a test's hook): the SDK's "operation
		// error DynamoDB: PutItem," wrapper says nothing it does not.
		return de
	}
	where := op
	if resource != "" {
		where += " on " + resource
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return New(Canceled, "%s stopped: deadline exceeded", where).Wrap(err)
	}
	if errors.Is(err, context.Canceled) {
		return New(Canceled, "%s canceled", where).Wrap(err)
	}
	var ceiling retriedUntil
	retried := errors.As(err, &ceiling)
	var api smithy.APIError
	var send *smithyhttp.RequestSendError
	var e *Error
	code := ""
	switch {
	case notDynamoDB(err) != "":
		e = New(Backend, "%s failed: %s", where, notDynamoDB(err)).
			WithHint("check the endpoint (--endpoint-url, AWS_ENDPOINT_URL_DYNAMODB): DynamoDB Local answers at the root of its port, such as http://localhost:8000")
	case credentialsProblem(err) != "":
		e = New(Backend, "%s failed: %s", where, credentialsProblem(err)).
			WithHint("sign in (aws configure, aws sso login, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), or name a profile with --profile; DynamoDB Local (--endpoint-url) needs none")
	case errors.As(err, &api):
		code = api.ErrorCode()
		e = New(Backend, "%s failed: %s: %s", where, code, Redact(api.ErrorMessage()))
		e.Hint = hintFor(op, resource, code, api.ErrorMessage())
	case errors.As(err, &send):
		e = New(Backend, "%s failed: DynamoDB did not answer: %s", where, Redact(fmt.Sprint(send.Err))).
			WithHint("check the endpoint (--endpoint-url, AWS_ENDPOINT_URL_DYNAMODB), the region and the network")
		var dns *net.DNSError
		if errors.As(err, &dns) && strings.HasPrefix(dns.Name, "dynamodb.") {
			e.Hint = fmt.Sprintf("no DynamoDB endpoint %s: check the region (--region, AWS_REGION) and the network", dns.Name)
		}
	case retried:
		last := "still failing"
		if cause := errors.Unwrap(ceiling); cause != nil {
			last = cause.Error()
		}
		e = New(Backend, "%s failed: %s", where, Redact(last))
	default:
		msg := err.Error()
		var oe *smithy.OperationError // says the request again: "operation error DynamoDB: Query, ..."
		if errors.As(err, &oe) && oe.Err != nil {
			msg = oe.Err.Error()
		}
		e = New(Backend, "%s failed: %s", where, Redact(msg))
	}
	if retried {
		e.Message += fmt.Sprintf(" (gave up after %s of retries, the retry ceiling)", ceiling.RetryCeiling())
		e.Hint = "run the statement again later, or give it longer with --retry-ceiling (dynosql.WithRetryCeiling)"
	}
	return &BackendError{Base: e.Wrap(err), Op: op, Code: code}
}

// The parts of an AccessDeniedException's message that name what was
// denied: "... is not authorized to perform: dynamodb:Query on resource:
// arn:aws:dynamodb:us-east-1:123456789012:table/School/index/GSI1 because ...".
var (
	deniedActionRe   = regexp.MustCompile(`perform: (dynamodb:\w+)`)
	deniedResourceRe = regexp.MustCompile(`on resource: (arn:[^\s]+)`)
)

// hintFor says what to do about a DynamoDB error code.
func hintFor(op, resource, code, message string) string {
	table := "the table"
	if resource != "" {
		table = "table " + resource
	}
	switch code {
	case "AccessDeniedException":
		action, on := "dynamodb:"+op, table+" (and its indexes, for index reads)"
		if m := deniedActionRe.FindStringSubmatch(message); m != nil {
			action = m[1]
		}
		if m := deniedResourceRe.FindStringSubmatch(message); m != nil {
			on = m[1]
		}
		return fmt.Sprintf("these credentials lack %s on %s: grant it (README: Permissions lists what each mode needs), or use other credentials (--profile, AWS_PROFILE)", action, on)
	case "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignatureException", "MissingAuthenticationTokenException":
		return "DynamoDB does not accept these credentials: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or --profile and ~/.aws/credentials"
	case "ExpiredTokenException", "ExpiredToken":
		return "the session's credentials have expired: renew them (aws sso login, or a new session token) and run the statement again"
	case "ResourceNotFoundException":
		return fmt.Sprintf("no %s at this endpoint and region: check --region, --endpoint-url and the mapping's table", table)
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
		return "DynamoDB throttled the requests: run the statement again later, give it longer with --retry-ceiling, or raise the table's capacity"
	case "TransactionConflictException":
		return "another request was writing the same items: run the statement again"
	case "ValidationException":
		if strings.Contains(message, "Item size") {
			return "DynamoDB stores at most 400 KB in one item, attribute names included: keep large values elsewhere (in S3, say) and store a reference to them"
		}
		return "DynamoDB refused the request as dynosql built it: EXPLAIN shows the request; if the statement is valid, please report it"
	case "InternalServerError", "ServiceUnavailable":
		return "a failure on DynamoDB's side: run the statement again"
	case "LimitExceededException":
		return "too many table operations in flight in this account and region: wait, then try again"
	}
	return ""
}

// notDynamoDB describes an HTTP answer that did not come from DynamoDB:
// one the SDK could not read as DynamoDB's JSON, or an error without
// DynamoDB's error type (the SDK calls it UnknownError), as a web server
// or a proxy answers at a wrong URL. It returns "" for any other error.
func notDynamoDB(err error) string {
	var resp *smithyhttp.ResponseError
	if !errors.As(err, &resp) || resp.Response == nil || resp.Response.Response == nil {
		return ""
	}
	var api smithy.APIError
	var deser *smithy.DeserializationError
	if !errors.As(err, &deser) && (!errors.As(err, &api) || api.ErrorCode() != "UnknownError") {
		return ""
	}
	status := resp.Response.StatusCode
	at := "the endpoint"
	if req := resp.Response.Request; req != nil && req.URL != nil {
		at = req.URL.Scheme + "://" + req.URL.Host + req.URL.Path // no user info, no query
	}
	return fmt.Sprintf("%s answered HTTP %d %s, not as DynamoDB does: it is not a DynamoDB endpoint", at, status, http.StatusText(status))
}

// credentialsProblem says why a request could not be signed: no
// credentials found, or the SDK's reason when it found some it could not
// use (an expired SSO session). The SDK has no error type for either;
// its message says "get identity: get credentials: ...". It returns ""
// for any other error.
func credentialsProblem(err error) string {
	const marker = "get identity: get credentials: "
	msg := err.Error()
	i := strings.Index(msg, marker)
	switch {
	case i < 0:
		return ""
	case strings.Contains(msg, "EC2 IMDS"):
		// The default chain ends at the instance metadata service:
		// failing there means no earlier source had credentials.
		return "no AWS credentials found"
	}
	return "cannot get AWS credentials: " + Redact(msg[i+len(marker):])
}
