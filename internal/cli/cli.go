// Package cli is the dynosql command: it reads the flags, opens a
// dynosql.DB on the backend they name, and hands statements to the repl
// package, from -e, -f, piped stdin or an interactive shell.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/mattn/go-isatty"
	"github.com/spf13/pflag"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/check"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/repl"
)

// Exit statuses.
const (
	ExitOK     = 0 // every statement succeeded
	ExitFailed = 1 // a statement failed
	ExitUsage  = 2 // bad flags, or the mapping or backend could not be opened
)

// MappingEnv names the variable that gives --mapping its default.
const MappingEnv = "DYNOSQL_MAPPING"

// HistoryName is the shell's history file, in the home directory.
const HistoryName = ".dynosql_history"

// HistoryEnv names the variable that moves the history file; set empty,
// it turns history off.
const HistoryEnv = "DYNOSQL_HISTFILE"

// StartupName is the start-up file, in the home directory, that runs
// before any statement unless -X is given.
const StartupName = ".dynosqlrc"

type options struct {
	mapping, endpoint, region, profile string
	embedded, demo, createTable        bool
	execute, files                     []string
	format, output                     string
	consistent, stats, allowPartial    bool
	debug, version, noStartup          bool
	readOnly, nonAtomicInserts         bool
	allowScan                          bool
	retryCeiling                       time.Duration
	maxAffected                        int
	concurrency                        int
}

// usage is the help text: the flag contract of the CLI issue, written
// out because pflag would print every boolean as --flag[=true|false].
const usage = `Usage: dynosql [flags]
       dynosql mapping draft|import ...   (dynosql mapping --help)
       dynosql check --mapping FILE FILE.sql...   (plan without running; check --help)

Run SQL against a DynamoDB single-table design.

  --mapping FILE         mapping file (also DYNOSQL_MAPPING); without one, every
                         table is read raw, its columns the items' attributes
  --endpoint-url URL     DynamoDB endpoint; without it the AWS SDK's own resolution
                         applies (AWS_ENDPOINT_URL_DYNAMODB, profiles, region)
  --region R, --profile P
  --embedded             in-memory backend inside this process, the mapping's table
                         created empty
  --demo                 embedded backend holding the built-in school dataset and
                         mapping (no other flag needed)
  --create-table         create the mapping's table and indexes (on-demand billing)
                         if missing, then go on
  -e, --execute SQL      run the statement(s) and exit; may be repeated; statements
                         separated by ';' (also -c, --command, as psql)
  -f, --file FILE        run statements from FILE ('-' for stdin) and exit; may be
                         repeated: the files run in order, after any -e
  --format F             table (the default, also when not a terminal), json, jsonl,
                         csv, tsv, markdown (also --output, as the AWS CLI)
  -X, --no-rc            do not run ~/.dynosqlrc first
  --consistent           strongly consistent reads where DynamoDB allows them
  --stats                after each statement, to stderr: requests by operation,
                         items read, consumed capacity, elapsed
  --allow-partial        keep going after a failed statement in -e, -f or piped
                         input (default: stop)
  --read-only            refuse INSERT, UPDATE, DELETE and REPAIR COPIES before
                         anything is sent
  --allow-scan           let a statement no key serves Scan the table, with a
                         warning on stderr giving the table's size (default:
                         refuse it)
  --non-atomic-inserts   write an INSERT of more than 100 rows one transaction
                         after another (default: refuse it, as it would not be
                         all or nothing)
  --max-affected N       rows an UPDATE or DELETE may change at once (default
                         1000, 0 for no limit); past it the shell asks, a script
                         stops before writing anything
  --retry-ceiling D      retry a throttled or failing request for up to D (default
                         60s), ever more slowly, before the statement fails
  --concurrency N        requests one statement keeps in flight at once: lookups
                         of a join, Queries per IN value or outer row, a Scan's
                         segments, fan-outs of copies, one per source row
                         (default 8)
  --debug                log the AWS SDK's requests, responses and warnings to
                         stderr, credentials redacted
  --version              print the version and exit

Without -e or -f, a terminal on stdin starts the shell (\? lists its commands);
otherwise statements are read from stdin. ~/.dynosqlrc, when it exists, runs
first, unless -X. The pager for tall tables is $PAGER (default less -FRX), \e
runs $EDITOR (or $VISUAL, default vi), history is kept in ~/.dynosql_history
or $DYNOSQL_HISTFILE.

Exit status: 0 when every statement succeeded, 1 when a statement failed,
2 for bad flags or when the mapping or the backend could not be opened.
`

func newFlagSet(o *options, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("dynosql", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	// The help text is usage above; the flags carry none of their own.
	fs.StringVar(&o.mapping, "mapping", os.Getenv(MappingEnv), "")
	fs.StringVar(&o.endpoint, "endpoint-url", "", "")
	fs.StringVar(&o.region, "region", "", "")
	fs.StringVar(&o.profile, "profile", "", "")
	fs.BoolVar(&o.embedded, "embedded", false, "")
	fs.BoolVar(&o.demo, "demo", false, "")
	fs.BoolVar(&o.createTable, "create-table", false, "")
	// -e and -c fill one list, so that their statements run in the
	// order given.
	execute := (*statements)(&o.execute)
	fs.VarP(execute, "execute", "e", "")
	fs.VarP(execute, "command", "c", "")
	fs.StringArrayVarP(&o.files, "file", "f", nil, "")
	fs.StringVar(&o.format, "format", "table", "")
	fs.StringVar(&o.output, "output", "", "")
	fs.BoolVarP(&o.noStartup, "no-rc", "X", false, "")
	fs.BoolVar(&o.consistent, "consistent", false, "")
	fs.BoolVar(&o.stats, "stats", false, "")
	fs.BoolVar(&o.allowPartial, "allow-partial", false, "")
	fs.BoolVar(&o.debug, "debug", false, "")
	fs.BoolVar(&o.readOnly, "read-only", false, "")
	fs.BoolVar(&o.nonAtomicInserts, "non-atomic-inserts", false, "")
	fs.BoolVar(&o.allowScan, "allow-scan", false, "")
	fs.DurationVar(&o.retryCeiling, "retry-ceiling", dynosql.DefaultRetryCeiling, "")
	fs.IntVar(&o.maxAffected, "max-affected", dynosql.DefaultMaxAffected, "")
	fs.IntVar(&o.concurrency, "concurrency", 8, "")
	fs.BoolVar(&o.version, "version", false, "")
	return fs
}

// statements is the value of -e and -c: each use adds one.
type statements []string

// String lists the statements given so far.
func (v *statements) String() string { return strings.Join(*v, "; ") }

// Set adds one -e or -c.
func (v *statements) Set(sql string) error {
	*v = append(*v, sql)
	return nil
}

// Type names the value in pflag's messages.
func (v *statements) Type() string { return "SQL" }

// Main runs the command with args (without the program name) and returns
// its exit status. Statements read stdin when it is not a terminal and
// neither -e nor -f is given; otherwise stdin is the shell's.
func Main(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "mapping" {
		return mappingMain(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "check" {
		return check.Main(args[1:], stdin, stdout, stderr)
	}
	var o options
	fs := newFlagSet(&o, stderr)
	fs.Usage = func() {} // a bad flag gets the ERROR line and a hint, not the whole help
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return ExitOK
		}
		return usageError(stderr, errs.New(errs.Invalid, "%v", err).WithHint("dynosql --help lists the flags"))
	}
	if o.version {
		fmt.Fprintln(stdout, "dynosql", version())
		return ExitOK
	}
	f, err := o.check(fs)
	if err != nil {
		return usageError(stderr, err)
	}

	ctx := context.Background()
	db, prompt, err := o.open(ctx, stderr)
	if err != nil {
		return usageError(stderr, err)
	}
	defer func() { _ = db.Close() }()
	if o.readOnly {
		prompt += " (read-only)"
	}

	s := repl.NewSession(db, stdout, stderr)
	s.Format, s.Stats, s.AllowPartial = f, o.stats, o.allowPartial
	setTerminal(s, stdout)
	setProgress(s, stderr)
	if !o.noStartup {
		if home, err := os.UserHomeDir(); err == nil {
			s.RunStartup(ctx, filepath.Join(home, StartupName))
		}
	}
	run(ctx, s, &o, stdin, stdout, stderr, prompt)
	if err := s.Close(); err != nil {
		s.Failed++
		reportTo(stderr, err)
	}
	if s.Failed > 0 {
		return ExitFailed
	}
	return ExitOK
}

// StdinName names statements read from stdin in their errors' FILE:LINE,
// as psql's "<stdin>".
const StdinName = "<stdin>"

// run feeds the statements to the session from wherever the flags say.
func run(ctx context.Context, s *repl.Session, o *options, stdin *os.File, stdout, stderr io.Writer, prompt string) {
	if len(o.execute) > 0 || len(o.files) > 0 {
		for _, sql := range o.execute {
			if err := s.RunScript(ctx, "", strings.NewReader(sql)); err != nil {
				return
			}
		}
		for _, file := range o.files {
			if err := runFile(ctx, s, file, stdin, stderr); err != nil {
				return
			}
		}
		return
	}
	if !isatty.IsTerminal(stdin.Fd()) {
		_ = s.RunScript(ctx, StdinName, stdin)
		return
	}
	history, set := os.LookupEnv(HistoryEnv)
	if home, err := os.UserHomeDir(); err == nil && !set {
		history = filepath.Join(home, HistoryName)
	}
	fmt.Fprintf(stdout, "dynosql %s on %s. Type \\? for help, \\q or Ctrl-D to leave.\n", version(), prompt)
	err := s.Shell(ctx, repl.ShellConfig{Prompt: prompt, HistoryFile: history, Stdin: stdin, Stdout: stdout, Stderr: stderr})
	if err != nil {
		s.Failed++
		reportTo(stderr, err)
	}
}

// runFile runs the statements of file ('-' for stdin); it returns an
// error when the script stopped early.
func runFile(ctx context.Context, s *repl.Session, file string, stdin *os.File, stderr io.Writer) error {
	if file == "-" {
		return s.RunScript(ctx, StdinName, stdin)
	}
	f, err := os.Open(file)
	if err != nil {
		s.Failed++
		reportTo(stderr, errs.New(errs.Invalid, "cannot read statements: %v", err))
		return err
	}
	defer func() { _ = f.Close() }()
	return s.RunScript(ctx, file, f)
}

// check refuses flag combinations that cannot mean anything.
func (o *options) check(fs *pflag.FlagSet) (format.Format, error) {
	if fs.NArg() > 0 {
		return "", errs.New(errs.Invalid, "unexpected argument %q", fs.Arg(0)).
			WithHint(`give statements with -e "SQL" or -f FILE`)
	}
	if fs.Changed("output") {
		if fs.Changed("format") && !strings.EqualFold(o.output, o.format) {
			return "", errs.New(errs.Invalid, "--format %s and --output %s disagree", o.format, o.output).
				WithHint("--output is another name for --format; give one")
		}
		o.format = o.output
	}
	f, err := format.Parse(o.format)
	if err != nil {
		return "", err
	}
	if o.maxAffected < 0 {
		return "", errs.New(errs.Invalid, "--max-affected %d: give a number of rows, or 0 for no limit", o.maxAffected)
	}
	if o.retryCeiling <= 0 {
		return "", errs.New(errs.Invalid, "--retry-ceiling %s: give a positive duration such as 90s or 5m", o.retryCeiling)
	}
	if o.concurrency < 1 {
		return "", errs.New(errs.Invalid, "--concurrency %d: give at least 1 request in flight", o.concurrency).
			WithHint("the default, 8, suits DynamoDB; more helps joins over many rows when round trips are slow")
	}
	if o.readOnly && o.createTable {
		return "", errs.New(errs.Invalid, "--read-only and --create-table: creating the table writes; give one")
	}
	if o.demo {
		for _, name := range []string{"mapping", "endpoint-url", "region", "profile", "embedded", "create-table"} {
			if fs.Changed(name) {
				return "", errs.New(errs.Invalid, "--demo brings its own backend and mapping; it cannot take --%s", name)
			}
		}
		return f, nil
	}
	if o.mapping == "" {
		// Without a mapping every table is read raw: there is nothing
		// to embed or create.
		for _, name := range []string{"embedded", "create-table"} {
			if fs.Changed(name) {
				return "", errs.New(errs.Invalid, "--%s needs a mapping: the tables it makes are the mapping's", name).
					WithHint("give --mapping FILE or set %s; or try dynosql --demo", MappingEnv)
			}
		}
	}
	if o.embedded && o.endpoint != "" {
		return "", errs.New(errs.Invalid, "--embedded and --endpoint-url name two backends; give one")
	}
	return f, nil
}

// open opens the DB the flags name and returns it with the shell's
// prompt: the table, and where it lives unless it is embedded.
func (o *options) open(ctx context.Context, stderr io.Writer) (*dynosql.DB, string, error) {
	opts := []dynosql.Option{dynosql.WithRetryCeiling(o.retryCeiling), dynosql.WithMaxAffected(o.maxAffected),
		dynosql.WithConcurrency(o.concurrency)}
	if o.readOnly {
		opts = append(opts, dynosql.WithReadOnly())
	}
	if o.nonAtomicInserts {
		opts = append(opts, dynosql.WithNonAtomicInserts())
	}
	if o.allowScan {
		opts = append(opts, dynosql.WithScans())
	}
	if o.consistent {
		opts = append(opts, dynosql.WithConsistentReads(true))
	}
	if o.debug {
		// A request hook reaches the embedded backends' clients too,
		// which the CLI does not build itself.
		opts = append(opts, dynosql.WithRequestHook(func(do *dynamodb.Options) {
			do.Logger = backend.NewLogger(stderr)
			do.ClientLogMode = aws.LogRetries | aws.LogRequest | aws.LogResponse
		}))
	}
	if o.demo {
		db, err := dynosql.OpenDemo(ctx, opts...)
		if err != nil {
			return nil, "", err
		}
		return db, db.Mapping().Table, nil
	}
	var m *mapping.Mapping
	if o.mapping != "" {
		var err error
		if m, err = mapping.Load(o.mapping); err != nil {
			return nil, "", err
		}
	}
	if o.embedded {
		db, err := dynosql.OpenEmbedded(ctx, m, opts...)
		if err == nil && o.createTable {
			fmt.Fprint(stderr, backend.DescribeCreated(m.CreateTableInput()))
		}
		return db, m.Table, err
	}
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: o.endpoint, Region: o.region, Profile: o.profile, Debug: o.debug})
	if err != nil {
		return nil, "", err
	}
	if o.createTable {
		if err := createTable(ctx, client, m, stderr); err != nil {
			return nil, "", err
		}
	}
	db, err := dynosql.Open(ctx, m, client, opts...)
	if err != nil {
		return nil, "", openError(ctx, client, m, err)
	}
	where := client.Options().Region
	if o.endpoint != "" {
		if u, err := url.Parse(o.endpoint); err == nil && u.Host != "" {
			where = u.Host
		}
	}
	if m == nil {
		return db, where, nil
	}
	return db, m.Table + "@" + where, nil
}

func usageError(stderr io.Writer, err error) int {
	reportTo(stderr, err)
	return ExitUsage
}

// reportTo prints an error in the shape the session uses: the ERROR line,
// then the detail.
func reportTo(w io.Writer, err error) {
	e := errs.As(err)
	fmt.Fprintf(w, "ERROR: %s\n%s", strings.Join(strings.Fields(e.Error()), " "), e.Detail())
}

// version is the module version the binary was built from, or "devel".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
