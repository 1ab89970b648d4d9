package backend_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/backend"
)

// stderrOf runs f with os.Stderr sent to a pipe and returns what f printed.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = saved }()
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	f()
	_ = w.Close()
	return <-out
}

// The SDK warns ("response did not match expected checksum") when an error
// response carries no X-Amz-Crc32, which the embedded server never sends.
// That warning must not reach the user's terminal, and must reach it with
// Debug, or this test would prove nothing.
func TestTheEmbeddedBackendPrintsNothingOnStderrUnlessDebugging(t *testing.T) {
	e, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	}()
	for _, debug := range []bool{false, true} {
		printed := stderrOf(t, func() {
			c, err := backend.NewClient(t.Context(), backend.Options{Endpoint: e.URL(), Debug: debug})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String("Missing")})
			if err == nil {
				t.Fatal("DescribeTable of a missing table succeeded")
			}
			_, _ = c.CreateTable(t.Context(), loadMapping(t, "school").CreateTableInput())
		})
		switch {
		case !debug && printed != "":
			t.Errorf("stderr without Debug = %q, want nothing", printed)
		case debug && !strings.Contains(printed, "expected checksum"):
			t.Errorf("stderr with Debug = %q, want the SDK's checksum warning", printed)
		}
	}
}
