package retry

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

func throttle() error {
	return &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate of requests exceeds the allowed throughput."}
}

func TestTheCeilingRetryerRetriesUntilTheCeilingNotACount(t *testing.T) {
	r := NewPolicy(time.Minute).retryer(time.Now())
	if r.MaxAttempts() != 0 {
		t.Errorf("MaxAttempts %d, want 0: no bound on the count", r.MaxAttempts())
	}
	for _, code := range []string{"ThrottlingException", "ProvisionedThroughputExceededException", "TransactionConflictException", "RequestLimitExceeded"} {
		if !r.IsErrorRetryable(&smithy.GenericAPIError{Code: code}) {
			t.Errorf("%s is not retried", code)
		}
	}
	if r.IsErrorRetryable(&smithy.GenericAPIError{Code: "ValidationException"}) {
		t.Error("ValidationException is retried")
	}
	d, err := r.RetryDelay(50, throttle())
	if err != nil || d <= 0 || d > time.Minute {
		t.Errorf("attempt 50 within the ceiling: delay %v, %v", d, err)
	}
}

func TestTheCeilingRetryerNeverWaitsPastTheCeiling(t *testing.T) {
	r := NewPolicy(time.Second).retryer(time.Now().Add(-900 * time.Millisecond))
	for range 20 {
		if d, err := r.RetryDelay(10, throttle()); err != nil || d > 100*time.Millisecond {
			t.Fatalf("100ms before the ceiling: delay %v, %v", d, err)
		}
	}
}

func TestTheCeilingRetryerStopsOnceTheCeilingHasPassed(t *testing.T) {
	r := NewPolicy(time.Second).retryer(time.Now().Add(-time.Second))
	_, err := r.RetryDelay(3, throttle())
	var ce *CeilingError
	var api smithy.APIError
	if !errors.As(err, &ce) || ce.Attempts != 3 || ce.Ceiling != time.Second {
		t.Fatalf("past the ceiling: %v, want a CeilingError after 3 attempts", err)
	}
	if !errors.As(err, &api) || api.ErrorCode() != "ThrottlingException" {
		t.Errorf("the CeilingError hides DynamoDB's error: %v", err)
	}
}

func TestTheCeilingRetryerGivesUpSoonOnAnEndpointThatDoesNotAnswer(t *testing.T) {
	r := NewPolicy(time.Minute).retryer(time.Now())
	down := &smithyhttp.RequestSendError{Err: errors.New("connection refused")}
	if _, err := r.RetryDelay(noAnswerAttempts-1, down); err != nil {
		t.Errorf("attempt %d: %v", noAnswerAttempts-1, err)
	}
	_, err := r.RetryDelay(noAnswerAttempts, down)
	var max *awsretry.MaxAttemptsError
	if !errors.As(err, &max) {
		t.Errorf("attempt %d: %v, want the SDK's MaxAttemptsError", noAnswerAttempts, err)
	}
}

// TestARequestThrottledForeverStopsAtTheCeiling runs the retryer in the
// SDK's own retry loop against a server that throttles every request.
func TestARequestThrottledForeverStopsAtTheCeiling(t *testing.T) {
	var attempts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`)
	}))
	defer srv.Close()
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("k", "s", ""),
	})
	// Past 2s: after the first throttle the adaptive rate limit may fall
	// to its floor of 0.5 sends a second, one wait of 2s.
	const ceiling = 3 * time.Second
	p := NewPolicy(ceiling)
	start := time.Now()
	_, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("T")}, p.Apply)
	took := time.Since(start)
	var ce *CeilingError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a CeilingError", err)
	}
	// Not much past it: the adaptive rate limit, which waits between
	// attempts too, is held to the ceiling as well.
	if took < ceiling || took > ceiling+300*time.Millisecond {
		t.Errorf("gave up after %v, want just past the %v ceiling", took, ceiling)
	}
	if attempts.Load() < 2 {
		t.Errorf("%d attempts, want retries up to the ceiling", attempts.Load())
	}
	t.Logf("%d attempts in %v: %v", attempts.Load(), took, err)
}

func TestBackoffSinceHonoursTheCeilingOfTheContext(t *testing.T) {
	ctx := WithCeiling(context.Background(), 200*time.Millisecond)
	last := errors.New("2 keys left unprocessed")
	start := time.Now()
	attempt := 0
	var err error
	for ; err == nil; attempt++ {
		err = BackoffSince(ctx, start, attempt, last)
	}
	took := time.Since(start)
	var ce *CeilingError
	if !errors.As(err, &ce) || !errors.Is(err, last) || ce.Ceiling != 200*time.Millisecond {
		t.Fatalf("got %v, want a CeilingError holding the last failure", err)
	}
	if took < 200*time.Millisecond || took > 400*time.Millisecond {
		t.Errorf("stopped after %v, want just past 200ms", took)
	}
	if ceilingOf(context.Background()) != DefaultCeiling {
		t.Errorf("a context without a ceiling has %v, want the default", ceilingOf(context.Background()))
	}
}
