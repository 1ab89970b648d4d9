package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dynosql/dynosql/internal/cli"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testtext"
)

// TestMain runs the tests, or, when the test binary is invoked under the
// name dynosql from a script, the command itself. It does the command
// registration that testscript.Main would do by hand because
// testscript.Main exits on its own and ddblocal.Main must run to stop
// DynamoDB Local.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "dynosql" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	ddblocal.Main(m)
}

// params returns testscript parameters with the dynosql command on PATH:
// a link to this test binary under that name.
func params(t *testing.T, files []string, env ...string) testscript.Params {
	bin := filepath.Dir(linkDynosql(t, t.TempDir()))
	return testscript.Params{
		Files: files,
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			e.Setenv("SCHOOL_MAPPING", mustAbs(t, "../../testdata/school/mapping.yaml"))
			e.Setenv("LATIN1_E", "\xe9") // é in Latin-1: not UTF-8
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				e.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits, "perm": perm, "expand": expand, "unhex": unhex,
		},
	}
}

// linkDynosql links this test binary into dir under the name dynosql,
// which TestMain runs as the command, and returns the link's path.
func linkDynosql(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "dynosql")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// exits runs a command like exec and checks its exit status:
//
//	exits 2 dynosql --nope
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// perm checks the permission bits of a file:
//
//	perm 0600 .dynosql_history
func perm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perm MODE FILE")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[1]))
	ts.Check(err)
	if got := fi.Mode().Perm(); got != os.FileMode(want) {
		ts.Fatalf("%s has mode %04o, want %04o", args[1], got, want)
	}
}

// expand writes DST with the text of SRC, its [[N:text]] groups expanded
// (internal/testtext): statements thousands of characters long.
//
//	expand in1001.sql long.sql
func expand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expand SRC DST")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(testtext.Expand(ts.ReadFile(args[0]))), 0o644))
}

// unhex rewrites FILE with each \xHH in it replaced by the byte HH: text
// that is not UTF-8, or holds NUL bytes, which a script cannot hold.
//
//	unhex latin1.sql
func unhex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: unhex FILE")
	}
	s := ts.ReadFile(args[0])
	var b []byte
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], `\x`) && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 3
				continue
			}
		}
		b = append(b, s[i])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}

func mustAbs(t *testing.T, path string) string {
	p, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScripts runs the command scripts that need no DynamoDB server of
// their own: --demo and --embedded.
func TestScripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var local []string
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "endpoint") {
			local = append(local, f)
		}
	}
	testscript.Run(t, params(t, local))
}

// TestEndpointScripts runs the scripts that reach DynamoDB Local through
// --endpoint-url, given as $DDB_ENDPOINT.
func TestEndpointScripts(t *testing.T) {
	t.Parallel()
	url := ddblocal.Endpoint(t)
	files, err := filepath.Glob("testdata/endpoint*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, params(t, files, "DDB_ENDPOINT="+url))
}
