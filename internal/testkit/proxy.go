package testkit

import (
	"fmt"
	"hash/crc32"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The throttling errors a Proxy can answer with, as DynamoDB words them.
const (
	Throttling           = "ThrottlingException"
	ThroughputExceeded   = "ProvisionedThroughputExceededException"
	throttleMessage      = "Rate of requests exceeds the allowed throughput."
	throughputMessage    = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
	dynamoDBTargetPrefix = "DynamoDB_20120810."
)

// ProxyOptions say what a Proxy does to the requests it forwards.
type ProxyOptions struct {
	// Delay is added to every request before it is forwarded or
	// throttled: what a round trip to AWS costs (a few ms) that a local
	// server does not.
	Delay time.Duration
	// Seed picks which requests of a throttling window are throttled, so
	// that a run can be repeated.
	Seed uint64
	// Code is the error throttled requests get: Throttling (the default)
	// or ThroughputExceeded.
	Code string
}

// Proxy is an HTTP reverse proxy on a loopback port in front of a
// DynamoDB endpoint (DynamoDB Local or the embedded server), for tests
// and benchmarks: it delays every request, answers a fraction of the
// requests of a time window with a throttling error instead of
// forwarding them, and counts requests by operation (X-Amz-Target).
type Proxy struct {
	srv   *httptest.Server
	proxy *httputil.ReverseProxy
	opts  ProxyOptions

	mu        sync.Mutex
	rng       *rand.Rand
	fraction  float64   // of requests throttled until until
	until     time.Time // end of the throttling window
	total     int
	requests  map[string]int
	throttled map[string]int
}

// StartProxy starts a Proxy in front of the endpoint at target (a base
// URL such as http://127.0.0.1:8000), stopped when tb ends. Clients reach
// it at URL().
func StartProxy(tb testing.TB, target string, o ProxyOptions) *Proxy {
	tb.Helper()
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		tb.Fatalf("proxy target %q is not a base URL: %v", target, err)
	}
	if o.Code == "" {
		o.Code = Throttling
	}
	if o.Code != Throttling && o.Code != ThroughputExceeded {
		tb.Fatalf("proxy code %q: want %s or %s", o.Code, Throttling, ThroughputExceeded)
	}
	p := &Proxy{
		opts:      o,
		rng:       rand.New(rand.NewPCG(o.Seed, o.Seed^0x5eed)),
		requests:  map[string]int{},
		throttled: map[string]int{},
	}
	quiet := log.New(io.Discard, "", 0) // a canceled request is the test's doing
	p.proxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Host = r.In.Host // the host the request was signed for
		},
		// One statement has several requests in flight; the default of 2
		// idle connections would open a new one for most of them.
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
		ErrorLog:  quiet,
	}
	p.srv = httptest.NewUnstartedServer(p)
	p.srv.Config.ErrorLog = quiet
	p.srv.Start()
	tb.Cleanup(p.srv.Close)
	return p
}

// URL returns the proxy's base URL, for an endpoint option.
func (p *Proxy) URL() string { return p.srv.URL }

// Throttle answers fraction (0 to 1) of the requests received during the
// next d with the throttling error, chosen by the seeded generator; the
// others are forwarded. A later call replaces the window.
func (p *Proxy) Throttle(fraction float64, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fraction, p.until = fraction, time.Now().Add(d)
}

// Requests returns how many requests the proxy received, throttled ones
// included, by operation (Query, BatchGetItem, ...).
func (p *Proxy) Requests() map[string]int { return p.snapshot(p.requests) }

// Throttled returns how many requests the proxy throttled, by operation.
func (p *Proxy) Throttled() map[string]int { return p.snapshot(p.throttled) }

func (p *Proxy) snapshot(m map[string]int) map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ServeHTTP counts, delays, then throttles or forwards one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), dynamoDBTargetPrefix)
	throttle, n := p.admit(op)
	if p.opts.Delay > 0 {
		t := time.NewTimer(p.opts.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
	}
	if !throttle {
		p.proxy.ServeHTTP(w, r)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body) // so the connection can be reused
	msg := throttleMessage
	if p.opts.Code == ThroughputExceeded {
		msg = throughputMessage
	}
	body := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, p.opts.Code, msg)
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10))
	h.Set("X-Amzn-Requestid", fmt.Sprintf("proxy-throttled-%d", n))
	w.WriteHeader(http.StatusBadRequest)
	_, _ = io.WriteString(w, body)
}

// admit counts a request and decides whether to throttle it; it returns
// the request's number too.
func (p *Proxy) admit(op string) (throttle bool, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total++
	p.requests[op]++
	if time.Now().Before(p.until) && p.rng.Float64() < p.fraction {
		p.throttled[op]++
		return true, p.total
	}
	return false, p.total
}
