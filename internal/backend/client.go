// Package backend reaches a DynamoDB endpoint: AWS itself, DynamoDB Local,
// or the embedded in-memory server. It builds the SDK client, creates
// tables from a mapping and loads datasets into them.
package backend

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/retry"
)

// Options says which endpoint to reach and how.
type Options struct {
	Endpoint string // base URL such as http://127.0.0.1:8000; empty for AWS
	Region   string // empty: from the environment or shared config
	Profile  string // shared config profile; empty: the default chain
	Debug    bool   // show the SDK's own log lines on stderr
}

// maxAttempts pins the client's own retryer, so that behaviour does not
// change with the SDK's defaults or AWS_MAX_ATTEMPTS (DYNAMODB.md 5.5,
// 5.7). It serves the requests no DB sends (creating tables, loading
// datasets, Open's DescribeTable); a DB gives each of its requests a
// retryer bounded by time instead (retry.Policy), which a client-wide
// retryer cannot be: it has no clock per request.
const maxAttempts = 5

// NewClient returns a DynamoDB client for o. With an endpoint and no
// credentials in the environment it signs with dummy credentials, which
// DynamoDB Local and the embedded server accept.
func NewClient(ctx context.Context, o Options) (*dynamodb.Client, error) {
	// The SDK warns on stderr about responses without X-Amz-Crc32, which
	// the embedded server never sends: keep its log off the terminal.
	var logger logging.Logger = logging.Nop{}
	if o.Debug {
		logger = NewLogger(os.Stderr)
	}
	opts := []func(*config.LoadOptions) error{
		config.WithLogger(logger),
		config.WithRetryer(func() aws.Retryer { return retry.Adaptive(maxAttempts) }),
	}
	if o.Region != "" {
		opts = append(opts, config.WithRegion(o.Region))
	}
	if o.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(o.Profile))
	}
	if o.Endpoint != "" && o.Profile == "" && !envCredentials() {
		// Looking further down the default chain would probe the EC2
		// metadata service, which a local endpoint never needs.
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("dynosql", "dynosql", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		// A broken profile's error may quote the shared config file.
		return nil, errs.New(errs.Backend, "cannot configure the AWS SDK: %s", errs.Redact(err.Error())).Wrap(err).
			WithHint("check AWS_REGION, AWS_PROFILE and ~/.aws/config")
	}
	if cfg.Region == "" && o.Endpoint != "" {
		cfg.Region = "us-east-1" // local servers ignore it, but the signer needs one
	}
	if o.Debug {
		cfg.ClientLogMode = aws.LogRetries | aws.LogRequest | aws.LogResponse
	}
	return dynamodb.NewFromConfig(cfg, func(do *dynamodb.Options) {
		if o.Endpoint != "" {
			do.BaseEndpoint = aws.String(o.Endpoint)
		}
	}), nil
}

// envCredentials reports whether the environment names credentials or a
// profile, which then take precedence over the dummy ones.
func envCredentials() bool {
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}
