package testkit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/testkit"
)

// proxied starts an embedded server and a proxy in front of it, and
// returns the proxy and a client of it.
func proxied(t *testing.T, o testkit.ProxyOptions) (*testkit.Proxy, *dynamodb.Client) {
	t.Helper()
	srv, err := backend.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	p := testkit.StartProxy(t, srv.URL(), o)
	c, err := backend.NewClient(context.Background(), backend.Options{Endpoint: p.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// once sends one request with the SDK's retries off, so that every
// throttled request comes back as an error.
func once(c *dynamodb.Client) error {
	_, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("Nothing")},
		func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	return err
}

func errorCode(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorCode()
	}
	return ""
}

func TestProxyDelaysEveryRequest(t *testing.T) {
	const delay, n = 30 * time.Millisecond, 5
	p, c := proxied(t, testkit.ProxyOptions{Delay: delay})
	start := time.Now()
	for range n {
		if code := errorCode(once(c)); code != "ResourceNotFoundException" {
			t.Fatalf("through the proxy: %q, want the server's ResourceNotFoundException", code)
		}
	}
	if took := time.Since(start); took < n*delay {
		t.Errorf("%d requests took %v, want at least %v", n, took, n*delay)
	}
	if got := p.Requests()["DescribeTable"]; got != n {
		t.Errorf("counted %d DescribeTable, want %d", got, n)
	}
}

func TestProxyThrottlesTheGivenFraction(t *testing.T) {
	for _, code := range []string{testkit.Throttling, testkit.ThroughputExceeded} {
		t.Run(code, func(t *testing.T) {
			const n = 400
			p, c := proxied(t, testkit.ProxyOptions{Seed: 7, Code: code})
			p.Throttle(0.3, time.Minute)
			throttled := 0
			for range n {
				switch got := errorCode(once(c)); got {
				case code:
					throttled++
				case "ResourceNotFoundException":
				default:
					t.Fatalf("unexpected answer %q", got)
				}
			}
			if throttled < n*25/100 || throttled > n*35/100 {
				t.Errorf("%d of %d requests throttled, want about 30%%", throttled, n)
			}
			if got := p.Throttled()["DescribeTable"]; got != throttled {
				t.Errorf("the proxy counted %d throttled, the client saw %d", got, throttled)
			}
			if got := p.Requests()["DescribeTable"]; got != n {
				t.Errorf("counted %d requests, want %d", got, n)
			}
		})
	}
}

func TestProxyThrottlingWindowEnds(t *testing.T) {
	p, c := proxied(t, testkit.ProxyOptions{})
	p.Throttle(1, 200*time.Millisecond)
	if err := once(c); errorCode(err) != testkit.Throttling {
		t.Fatalf("inside the window: %v, want ThrottlingException", err)
	}
	time.Sleep(250 * time.Millisecond)
	if code := errorCode(once(c)); code != "ResourceNotFoundException" {
		t.Fatalf("after the window: %q, want the request forwarded", code)
	}
}

func TestProxyThrottlesTheSameRequestsForTheSameSeed(t *testing.T) {
	pattern := func() []bool {
		p, c := proxied(t, testkit.ProxyOptions{Seed: 42})
		p.Throttle(0.5, time.Minute)
		var got []bool
		for range 40 {
			got = append(got, errorCode(once(c)) == testkit.Throttling)
		}
		return got
	}
	a, b := pattern(), pattern()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("request %d: throttled %v in one run, %v in the other", i, a[i], b[i])
		}
	}
}
