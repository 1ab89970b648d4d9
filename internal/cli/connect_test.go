package cli_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynosql/dynosql/internal/cli"
)

// An endpoint that answers HTTP, but not as DynamoDB does (a web server,
// a proxy, a wrong path), is named as such, whatever its body: the SDK
// alone reports "UnknownError: UnknownError" or a decoding failure.
func TestAnEndpointThatIsNotDynamoDBIsNamedAsSuch(t *testing.T) {
	mapping, err := filepath.Abs("../../testdata/school/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		handler http.HandlerFunc
		answer  string
	}{
		{"an empty 404", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) }, "HTTP 404 Not Found"},
		{"a web server's 404 page", http.NotFound, "HTTP 404 Not Found"},
		{"a JSON error without DynamoDB's type", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"Missing Authentication Token"}`))
		}, "HTTP 403 Forbidden"},
		{"an HTML page", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html>hello</html>")) }, "HTTP 200 OK"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			var stdout, stderr bytes.Buffer
			code := cli.Main([]string{"-X", "--mapping", mapping, "--endpoint-url", srv.URL + "/api", "-e", "SELECT 1"}, os.Stdin, &stdout, &stderr)
			want := "ERROR: backend: DescribeTable on School failed: " + srv.URL + "/api answered " + tt.answer +
				", not as DynamoDB does: it is not a DynamoDB endpoint\n" +
				"hint: check the endpoint (--endpoint-url, AWS_ENDPOINT_URL_DYNAMODB): DynamoDB Local answers at the root of its port, such as http://localhost:8000\n"
			if code != cli.ExitUsage || stderr.String() != want || stdout.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and stderr:\n%s", code, stdout.String(), stderr.String(), cli.ExitUsage, want)
			}
		})
	}
}
