package backend

import (
	"strings"
	"testing"
)

func TestARegionIsRefusedOnlyWhenItCannotBeOne(t *testing.T) {
	tests := []struct {
		region string
		msg    string // "" when the region passes
	}{
		{"eu-west-1", ""},
		{"us-gov-west-1", ""},
		{"ap-southeast-9", ""}, // shaped like a region, numbered past the list: maybe newer than it
		{"eu-wset-1", `unknown AWS region "eu-wset-1" (from --region); did you mean eu-west-1?`},
		{"us-east1", `unknown AWS region "us-east1" (from --region); did you mean us-east-1?`},
		{"US-EAST-1", `unknown AWS region "US-EAST-1" (from --region); did you mean us-east-1?`},
		{"eu-centrl-1", `unknown AWS region "eu-centrl-1" (from --region); did you mean eu-central-1?`},
		{"Frankfurt", `unknown AWS region "Frankfurt" (from --region)`},
		{"", "no AWS region given, and no endpoint"},
	}
	for _, tt := range tests {
		err := checkRegion(tt.region, "from --region")
		switch {
		case tt.msg == "" && err != nil:
			t.Errorf("%q: %v, want no error", tt.region, err)
		case tt.msg != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.msg)):
			t.Errorf("%q: %v, want %q", tt.region, err, tt.msg)
		}
	}
}

func TestAnEndpointNeedsItsScheme(t *testing.T) {
	for _, ok := range []string{"", "http://localhost:8000", "https://dynamodb.eu-west-1.amazonaws.com", "http://127.0.0.1:8000/"} {
		if err := checkEndpoint(ok, ""); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for bad, hint := range map[string]string{
		"localhost:8000":    "http://localhost:8000 for DynamoDB Local",
		"127.0.0.1:8000":    "http://127.0.0.1:8000 for DynamoDB Local",
		"ftp://example.com": "http://example.com for DynamoDB Local",
	} {
		err := checkEndpoint(bad, "")
		if err == nil || !strings.Contains(err.Error(), "does not start with http:// or https://") {
			t.Errorf("%q: %v", bad, err)
			continue
		}
		if h := errHint(err); !strings.Contains(h, hint) {
			t.Errorf("%q: hint %q, want it to hold %q", bad, h, hint)
		}
	}
	if err := checkEndpoint("http://", ""); err == nil || err.Error() != `invalid: endpoint "http://" has no host` {
		t.Errorf("http://: %v", err)
	}
}

func errHint(err error) string {
	type hinted interface{ Detail() string }
	if h, ok := err.(hinted); ok {
		return h.Detail()
	}
	return ""
}
