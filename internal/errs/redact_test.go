package errs_test

import (
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
)

// Fake credentials, shaped like real ones.
const (
	keyID  = "AKIAZZFAKEKEYID12345"
	secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKESECRET"
	token  = "IQoJb3JpZ2luX2VjEFAKESESSIONTOKEN//////////wEaCXVzLWVhc3QtMSJGMEQCIFAKE="
)

func TestRedactKeepsWhatIdentifiesTheRequestAndHidesTheSecrets(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			name: "the Authorization header keeps the algorithm, the scope and the signed headers",
			in:   "Authorization: AWS4-HMAC-SHA256 Credential=" + keyID + "/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=accept-encoding;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=0f3c9d6a8b7e5f4a3c2b1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a",
			want: "Authorization: AWS4-HMAC-SHA256 Credential=AKIA****/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=accept-encoding;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=<redacted>",
		},
		{
			name: "the session token header",
			in:   "X-Amz-Security-Token: " + token + "\r\nX-Amz-Target: DynamoDB_20120810.Query",
			want: "X-Amz-Security-Token: <redacted>\r\nX-Amz-Target: DynamoDB_20120810.Query",
		},
		{
			name: "a presigned query string",
			in:   "?X-Amz-Credential=" + keyID + "%2F20250101&X-Amz-Security-Token=" + token + "&X-Amz-Signature=abc123",
			want: "?X-Amz-Credential=AKIA****%2F20250101&X-Amz-Security-Token=<redacted>&X-Amz-Signature=<redacted>",
		},
		{
			name: "a shared credentials file quoted in an error",
			in:   "aws_access_key_id = " + keyID + "\naws_secret_access_key=" + secret + "\naws_session_token = " + token,
			want: "aws_access_key_id = AKIA****\naws_secret_access_key=<redacted>\naws_session_token = <redacted>",
		},
		{
			name: "credential_process JSON",
			in:   `{"Version":1,"AccessKeyId":"` + keyID + `","SecretAccessKey":"` + secret + `","SessionToken":"` + token + `"}`,
			want: `{"Version":1,"AccessKeyId":"AKIA****","SecretAccessKey":"<redacted>","SessionToken":"<redacted>"}`,
		},
		{
			name: "an STS answer",
			in:   "<AccessKeyId>ASIAZZFAKEKEYID12345</AccessKeyId><SecretAccessKey>" + secret + "</SecretAccessKey><SessionToken>" + token + "</SessionToken>",
			want: "<AccessKeyId>ASIA****</AccessKeyId><SecretAccessKey><redacted></SecretAccessKey><SessionToken><redacted></SessionToken>",
		},
		{
			name: "an access key id anywhere",
			in:   "the key ASIAZZFAKEKEYID12345 was refused",
			want: "the key ASIA**** was refused",
		},
		{
			name: "text without credentials",
			in:   "Query on School failed: ValidationException: One or more parameter values were invalid",
			want: "Query on School failed: ValidationException: One or more parameter values were invalid",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errs.Redact(tt.in)
			if got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := errs.Redact(got); again != got {
				t.Errorf("a second Redact changed %q to %q", got, again)
			}
		})
	}
}

func TestRedactHidesTheEnvironmentsCredentialsWherever(t *testing.T) {
	const id = "dynosqlfakekeyid0123" // not shaped like AWS's
	t.Setenv("AWS_ACCESS_KEY_ID", id)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_SESSION_TOKEN", token)
	got := errs.Redact("profile said " + id + ", " + secret + " and " + token)
	for _, s := range []string{secret, token, id[4:]} {
		if strings.Contains(got, s) {
			t.Errorf("%q still holds %q", got, s)
		}
	}
	if want := "profile said dyno****, <redacted> and <redacted>"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRedactLeavesShortEnvironmentValuesAlone(t *testing.T) {
	// DynamoDB Local's dummy credentials are no secret, and hiding
	// "dynosql" would blank the program's own name.
	t.Setenv("AWS_SECRET_ACCESS_KEY", "dynosql")
	if got := errs.Redact("dynosql devel"); got != "dynosql devel" {
		t.Errorf("got %q", got)
	}
}
