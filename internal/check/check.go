// Package check is the dynosql check command: it plans every statement
// of SQL files against a mapping, sends no data request, and reports
// what each statement would send (which requests, on which table or
// index, how their number grows with the rows read, how consistent its
// reads are) or why it is refused. It is meant for code review and CI:
// the exit status is 1 when any statement is refused or fails to plan.
package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/pflag"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// Exit statuses.
const (
	ExitOK      = 0 // every statement is served
	ExitRefused = 1 // a statement is refused or does not plan
	ExitUsage   = 2 // bad flags, an unreadable file, mapping or table
)

const usage = `Usage: dynosql check [flags] FILE.sql...

Plan every statement of the files against the mapping without running it,
and print, for each (FILE:LINE), the requests it would send, how many, and
how consistent its reads are, or why it is refused. '-' reads stdin.
? placeholders are planned with a value of the type the statement gives
them (the column's they meet).

  --mapping FILE         mapping file (also DYNOSQL_MAPPING)
  --endpoint-url URL     read the table's description (index projections)
  --region R, --profile P  from DynamoDB; without them, nothing is sent and
                         the mapping's projections are assumed
  --consistent           plan strongly consistent reads, as dynosql --consistent
  --format F             text (default) or json

Exit status: 0 when every statement is served, 1 when one is refused or
does not plan, 2 for bad flags or an unreadable file, mapping or table.
`

type options struct {
	mapping, endpoint, region, profile, format string
	consistent                                 bool
}

// Main runs dynosql check with args (after "check") and returns its exit
// status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	fs := pflag.NewFlagSet("dynosql check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.mapping, "mapping", os.Getenv("DYNOSQL_MAPPING"), "")
	fs.StringVar(&o.endpoint, "endpoint-url", "", "")
	fs.StringVar(&o.region, "region", "", "")
	fs.StringVar(&o.profile, "profile", "", "")
	fs.StringVar(&o.format, "format", "text", "")
	fs.BoolVar(&o.consistent, "consistent", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return ExitOK
		}
		return fail(stderr, errs.New(errs.Invalid, "%v", err).WithHint("dynosql check --help lists the flags"))
	}
	if err := o.check(fs); err != nil {
		return fail(stderr, err)
	}
	ctx := context.Background()
	db, err := o.open(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	defer func() { _ = db.Close() }()
	var reports []*Report
	for _, name := range fs.Args() {
		text, err := read(name, stdin)
		if err != nil {
			return fail(stderr, err)
		}
		rs, err := File(db, name, text)
		if err != nil {
			return fail(stderr, err)
		}
		reports = append(reports, rs...)
	}
	if o.format == "json" {
		err = writeJSON(stdout, reports)
	} else {
		err = writeText(stdout, reports)
	}
	if err != nil {
		return fail(stderr, err)
	}
	for _, r := range reports {
		if r.Status != Served {
			return ExitRefused
		}
	}
	return ExitOK
}

func (o *options) check(fs *pflag.FlagSet) error {
	if fs.NArg() == 0 {
		return errs.New(errs.Invalid, "no SQL file to check").WithHint("dynosql check --mapping mapping.yaml FILE.sql...")
	}
	if o.mapping == "" {
		return errs.New(errs.Invalid, "no mapping file").WithHint("give --mapping FILE or set DYNOSQL_MAPPING")
	}
	if o.format != "text" && o.format != "json" {
		return errs.New(errs.Invalid, "--format %s: dynosql check writes text or json", o.format)
	}
	return nil
}

// open opens a DB that plans against the mapping: over DynamoDB when a
// flag names where (to read the table's description), else over no
// client at all, which nothing is sent to.
func (o *options) open(ctx context.Context) (*dynosql.DB, error) {
	m, err := mapping.Load(o.mapping)
	if err != nil {
		return nil, err
	}
	opts := []dynosql.Option{dynosql.WithConsistentReads(o.consistent), dynosql.WithReadOnly()}
	if o.endpoint == "" && o.region == "" && o.profile == "" {
		return dynosql.Open(ctx, m, nil, append(opts, dynosql.WithoutTableCheck())...)
	}
	client, err := backend.NewClient(ctx, backend.Options{Endpoint: o.endpoint, Region: o.region, Profile: o.profile})
	if err != nil {
		return nil, err
	}
	return dynosql.Open(ctx, m, client, opts...)
}

func read(name string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return "", errs.New(errs.Invalid, "cannot read statements: %v", err)
	}
	return string(b), nil
}

// File checks every statement of text, read from the file name. Text
// that cannot be cut into statements (an unclosed quote or comment) is
// one failed statement from the last ';' before the fault, after those
// before it are checked.
func File(db *dynosql.DB, name, text string) ([]*Report, error) {
	stmts, err := parser.Split(text)
	var broken *Report
	if err != nil {
		stmts, broken = untilFault(name, text, errs.As(err))
	}
	out, err := statements(db, name, text, stmts)
	if broken != nil {
		out = append(out, broken)
	}
	return out, err
}

// untilFault returns the statements of text before the one holding the
// fault e (which Split found), and a failed report of that one.
func untilFault(name, text string, e *errs.Error) ([]string, *Report) {
	pos := min(max(e.Pos, 0), len(text))
	stmts, _ := parser.Split(text[:pos])
	start := 0 // where the broken statement starts: past the last ';' before the fault
	cursor := 0
	for i, sql := range stmts {
		at := cursor + strings.Index(text[cursor:], sql)
		cursor = at + len(sql)
		if semi := strings.IndexByte(text[cursor:pos], ';'); semi < 0 {
			stmts = stmts[:i] // it runs on to the fault: it is the broken one
			break
		} else {
			start = cursor + semi + 1
		}
	}
	r := &Report{File: name, SQL: strings.TrimSpace(text[start:]), pos: -1}
	r.fail(e)
	r.Line, r.Column = position(text, pos)
	return stmts, r
}

// statements checks stmts, found in that order in text.
func statements(db *dynosql.DB, name, text string, stmts []string) ([]*Report, error) {
	var out []*Report
	var tx *planner.Transaction // between BEGIN and COMMIT or ROLLBACK
	cursor := 0
	for _, sql := range stmts {
		start := cursor + strings.Index(text[cursor:], sql)
		cursor = start + len(sql)
		r, plan, explain := statement(db, sql)
		if plan != nil {
			tx = transaction(r, plan, explain, tx)
		}
		r.File = name
		r.Line, r.Column = position(text, start+codeStart(sql))
		if r.Error != nil && r.pos >= 0 {
			r.Line, r.Column = position(text, start+r.pos)
		}
		out = append(out, r)
	}
	return out, nil
}

// transaction follows BEGIN ... COMMIT as the shell runs them: a write
// between them joins the one TransactWriteItems COMMIT sends (or is
// refused as the shell refuses it), and sends nothing itself. It
// returns the transaction open after the statement of r and plan.
func transaction(r *Report, plan *planner.Plan, explain *parser.Explain, tx *planner.Transaction) *planner.Transaction {
	none := &Cost{Requests: []Request{}}
	switch {
	case explain != nil && tx != nil && explain.Analyze:
		r.fail(errs.New(errs.Invalid, "EXPLAIN ANALYZE runs the statement, and a transaction sends nothing before COMMIT").
			WithHint("EXPLAIN it instead, or run it after COMMIT or ROLLBACK"))
		return tx
	case explain != nil:
		return tx // the shell prints the plan, and adds nothing to the transaction
	case plan.Control == planner.Begin && tx != nil:
		r.fail(errs.New(errs.Invalid, "a transaction is already open").WithHint("COMMIT or ROLLBACK it first"))
		return tx
	case plan.Control == planner.Begin:
		r.serve(none)
		return &planner.Transaction{}
	case plan.Control != planner.NoControl && tx == nil:
		r.fail(errs.New(errs.Invalid, "no transaction is open").WithHint("BEGIN one first"))
		return nil
	case plan.Control == planner.Rollback:
		r.serve(none)
		return nil
	case plan.Control == planner.Commit:
		r.serve(commitCost(tx))
		return nil
	case tx == nil:
		return nil
	}
	next, err := tx.With(plan)
	if err != nil {
		r.fail(err)
		return tx
	}
	r.serve(none)
	return next
}

// commitCost counts what COMMIT sends: the one TransactWriteItems, then
// the fan-outs that fill the copies written before the rows it inserts.
func commitCost(tx *planner.Transaction) *Cost {
	c := &coster{cost: &Cost{Requests: []Request{}}}
	if in, _, err := tx.Build(); err == nil && in != nil && len(in.TransactItems) > 0 {
		c.add(Request{Op: "TransactWriteItems", Table: actionTable(in.TransactItems[0]), Count: "1"})
	}
	for _, st := range tx.Statements {
		if ins, ok := st.Root.(*planner.InsertRows); ok {
			for _, f := range ins.Earlier {
				c.fanOut(f, fmt.Sprint(len(ins.Rows)))
			}
		}
	}
	return c.cost
}

func actionTable(a types.TransactWriteItem) string {
	switch {
	case a.Put != nil:
		return aws.ToString(a.Put.TableName)
	case a.Update != nil:
		return aws.ToString(a.Update.TableName)
	case a.Delete != nil:
		return aws.ToString(a.Delete.TableName)
	case a.ConditionCheck != nil:
		return aws.ToString(a.ConditionCheck.TableName)
	}
	return ""
}

// codeStart is the offset of the first SQL code in sql, past white space
// and comments.
func codeStart(sql string) int {
	var sc parser.Scanner
	for i := 0; i < len(sql); {
		switch sql[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		end, kind := sc.Next(sql, i)
		if kind != parser.SpanComment {
			return i
		}
		i = end
	}
	return len(sql)
}

// position returns the line and column (in runes, from 1) of offset off.
func position(text string, off int) (int, int) {
	off = min(off, len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	return line, len([]rune(before[strings.LastIndexByte(before, '\n')+1:])) + 1
}

func fail(w io.Writer, err error) int {
	e := errs.As(err)
	fmt.Fprintf(w, "ERROR: %s\n%s", strings.Join(strings.Fields(e.Error()), " "), e.Detail())
	return ExitUsage
}
