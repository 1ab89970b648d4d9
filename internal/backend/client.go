// Package backend reaches a DynamoDB endpoint: AWS itself, DynamoDB Local,
// or the embedded in-memory server. It builds the SDK client, creates
// tables from a mapping and loads datasets into them.
package backend

import (
	"context"
	"net/url"
	"os"
	"strings"

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
// DynamoDB Local and the embedded server accept. Before anything is
// sent, it refuses an endpoint without http:// or https://, and, for
// AWS itself, a missing or unknown region and missing credentials: each
// would otherwise fail later with an error that does not say so.
func NewClient(ctx context.Context, o Options) (*dynamodb.Client, error) {
	if err := checkEndpoint(o.Endpoint, ""); err != nil {
		return nil, err
	}
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
	client := dynamodb.NewFromConfig(cfg, func(do *dynamodb.Options) {
		if o.Endpoint != "" {
			do.BaseEndpoint = aws.String(o.Endpoint)
		}
	})
	if o.Endpoint != "" {
		return client, nil
	}
	// The SDK may have found an endpoint of its own (AWS_ENDPOINT_URL,
	// a profile's endpoint_url): check it as the flag's; without one,
	// this is AWS, which needs a real region and credentials.
	if base := client.Options().BaseEndpoint; base != nil {
		return client, checkEndpoint(*base, endpointSource())
	}
	if err := checkRegion(cfg.Region, regionSource(o)); err != nil {
		return nil, err
	}
	if err := checkCredentials(ctx, cfg); err != nil {
		return nil, err
	}
	return client, nil
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

// checkEndpoint refuses an endpoint the SDK would send requests to as a
// path ("localhost:8000" becomes "localhost:///"): one without http://
// or https:// and a host. source says where it came from when not from
// the caller.
func checkEndpoint(endpoint, source string) error {
	if endpoint == "" {
		return nil
	}
	u, err := url.Parse(endpoint)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		return errs.New(errs.Invalid, "endpoint %q has no host", endpoint).
			WithHint("give the host and port, such as http://localhost:8000")
	}
	rest := endpoint
	if _, after, ok := strings.Cut(endpoint, "://"); ok {
		rest = after
	}
	if source != "" {
		source = " (" + source + ")"
	}
	return errs.New(errs.Invalid, "endpoint %q%s does not start with http:// or https://", endpoint, source).
		WithHint("write the scheme: http://%s for DynamoDB Local, which serves plain HTTP, or https://%s", rest, rest)
}

// endpointSource names where the SDK found an endpoint of its own.
func endpointSource() string {
	for _, v := range []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"} {
		if os.Getenv(v) != "" {
			return "from " + v
		}
	}
	return "from endpoint_url in the shared config file"
}

// checkCredentials asks the SDK's credential chain for credentials now,
// so that their absence is reported as such; the SDK caches what it
// finds, so the first request does not look again.
func checkCredentials(ctx context.Context, cfg aws.Config) error {
	if cfg.Credentials == nil {
		return errNoCredentials(nil)
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return errNoCredentials(err)
	}
	return nil
}

// errNoCredentials says that the credential chain came up empty, or, when
// it found credentials it could not use (an expired SSO session, a broken
// profile), what it said.
func errNoCredentials(err error) error {
	hint := "sign in (aws configure, aws sso login, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), " +
		"or name a profile with --profile; for DynamoDB Local, give --endpoint-url http://localhost:8000, which needs none"
	// The default chain ends at the EC2 instance metadata service: its
	// failure there means that no earlier source had any.
	if err == nil || strings.Contains(err.Error(), "EC2 IMDS") {
		return errs.New(errs.Backend, "no AWS credentials found, and no endpoint given").Wrap(err).WithHint("%s", hint)
	}
	return errs.New(errs.Backend, "cannot get AWS credentials: %s", errs.Redact(err.Error())).Wrap(err).WithHint("%s", hint)
}
