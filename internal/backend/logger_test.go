package backend_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"

	"github.com/dynosql/dynosql/internal/backend"
)

func TestTheDebugLogIsRedacted(t *testing.T) {
	const (
		keyID = "AKIAZZFAKEKEYID12345"
		token = "IQoJb3JpZ2luX2VjEFAKESESSIONTOKENxyz0123456789"
	)
	t.Setenv("AWS_ACCESS_KEY_ID", keyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKESECRET")
	t.Setenv("AWS_SESSION_TOKEN", token)
	e, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	c, err := backend.NewClient(context.Background(), backend.Options{Endpoint: e.URL()})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	_, _ = c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("T")}, func(o *dynamodb.Options) {
		o.Logger = backend.NewLogger(&log)
		o.ClientLogMode = aws.LogRequest | aws.LogResponse
	})
	out := log.String()
	if !strings.Contains(out, "Credential=AKIA****/") || !strings.Contains(out, "X-Amz-Security-Token: <redacted>") {
		t.Errorf("the request log lost what identifies the request, or was not redacted:\n%s", out)
	}
	if strings.Contains(out, keyID[4:]) || strings.Contains(out, token) {
		t.Errorf("credentials in the log:\n%s", out)
	}
}

type contextLogger struct{ lines *[]string }

func (l contextLogger) Logf(_ logging.Classification, format string, v ...any) {
	*l.lines = append(*l.lines, fmt.Sprintf(format, v...))
}

func (l contextLogger) WithContext(context.Context) logging.Logger { return l }

func TestARedactingLoggerStaysRedactingWithAContext(t *testing.T) {
	var lines []string
	l := backend.Redacting(contextLogger{&lines})
	l = l.(logging.ContextLogger).WithContext(context.Background())
	l.Logf(logging.Debug, "X-Amz-Security-Token: %s", "secret-session-token-value")
	if len(lines) != 1 || lines[0] != "X-Amz-Security-Token: <redacted>" {
		t.Fatalf("logged %q", lines)
	}
}
