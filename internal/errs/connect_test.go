package errs_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
)

// The SDK says "get identity: get credentials: ..." when it has nothing
// to sign a request with; the default chain's last words are the EC2
// instance metadata service's.
func TestARequestWithoutCredentialsSaysSo(t *testing.T) {
	none := sdkError("DescribeTable", fmt.Errorf("get identity: get credentials: %w",
		errors.New("failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, request canceled")))
	e := errs.As(errs.FromAWS("DescribeTable", "School", none))
	if e.Message != "DescribeTable on School failed: no AWS credentials found" || !strings.Contains(e.Hint, "aws sso login") {
		t.Errorf("no credentials: %q, hint %q", e.Message, e.Hint)
	}
	expired := sdkError("Query", fmt.Errorf("get identity: get credentials: %w",
		errors.New("failed to refresh cached credentials, refresh cached SSO token failed, unable to refresh SSO token")))
	e = errs.As(errs.FromAWS("Query", "School", expired))
	want := "Query on School failed: cannot get AWS credentials: failed to refresh cached credentials, refresh cached SSO token failed, unable to refresh SSO token"
	if e.Message != want || !strings.Contains(e.Hint, "aws sso login") {
		t.Errorf("expired credentials: %q, hint %q", e.Message, e.Hint)
	}
}
