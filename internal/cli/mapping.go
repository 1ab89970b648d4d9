package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/spf13/pflag"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/internal/draft"
	"github.com/dynosql/dynosql/internal/errs"
)

// mappingUsage is the help of `dynosql mapping`.
const mappingUsage = `Usage: dynosql mapping draft --table NAME [--sample N] [--endpoint-url URL] [--region R] [--profile P]
       dynosql mapping import FILE [--table NAME]

Write a first mapping to stdout, with comments on what was guessed, to
review and then give to --mapping.

  draft    from a live table: DescribeTable, then a Scan of at most --sample
           items (default 1000), whose cost is printed on stderr
  import   from a NoSQL Workbench data model export (JSON); --table picks
           one of its tables when it holds several

  --table NAME           the DynamoDB table (draft), or the model's table (import)
  --sample N             how many items to read (draft; default 1000)
  --endpoint-url URL, --region R, --profile P, --debug
                         reach the table as dynosql does (draft)
`

// defaultSample is how many items a draft reads unless --sample says.
const defaultSample = 1000

// mappingMain runs `dynosql mapping ...` with the arguments after
// "mapping".
func mappingMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, mappingUsage)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var out []byte
	var err error
	switch args[0] {
	case "draft":
		out, err = mappingDraft(ctx, args[1:], stderr)
	case "import":
		out, err = mappingImport(args[1:], stderr)
	default:
		e := errs.New(errs.Invalid, "unknown command mapping %s", args[0])
		if near := errs.Nearest(args[0], []string{"draft", "import"}); near != "" {
			e.Message += "; did you mean " + near + "?"
		}
		err = e.WithHint("dynosql mapping --help lists the commands")
	}
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(stdout, mappingUsage)
		return ExitOK
	}
	if err != nil {
		return usageError(stderr, err)
	}
	if _, err := stdout.Write(out); err != nil {
		return usageError(stderr, errs.New(errs.Invalid, "cannot write the mapping: %v", err))
	}
	return ExitOK
}

// mappingFlags parses a mapping command's flags; positional arguments
// are left in the set.
func mappingFlags(name string, args []string, stderr io.Writer, define func(*pflag.FlagSet)) (*pflag.FlagSet, error) {
	fs := pflag.NewFlagSet("dynosql mapping "+name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	define(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, err
		}
		return nil, errs.New(errs.Invalid, "%v", err).WithHint("dynosql mapping --help lists the flags")
	}
	return fs, nil
}

// mappingDraft drafts a mapping from a live table.
func mappingDraft(ctx context.Context, args []string, stderr io.Writer) ([]byte, error) {
	var table, sample string
	var o backend.Options
	fs, err := mappingFlags("draft", args, stderr, func(fs *pflag.FlagSet) {
		fs.StringVar(&table, "table", "", "")
		fs.StringVar(&sample, "sample", strconv.Itoa(defaultSample), "")
		fs.StringVar(&o.Endpoint, "endpoint-url", "", "")
		fs.StringVar(&o.Region, "region", "", "")
		fs.StringVar(&o.Profile, "profile", "", "")
		fs.BoolVar(&o.Debug, "debug", false, "")
	})
	if err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, errs.New(errs.Invalid, "unexpected argument %q", fs.Arg(0)).WithHint("name the table with --table NAME")
	}
	if table == "" {
		return nil, errs.New(errs.Invalid, "mapping draft needs a table").WithHint("name it with --table NAME")
	}
	n, err := strconv.Atoi(sample)
	if err != nil || n < 1 {
		return nil, errs.New(errs.Invalid, "--sample %s: give a number of items, 1 or more", sample)
	}
	client, err := backend.NewClient(ctx, o)
	if err != nil {
		return nil, err
	}
	desc, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, backend.ExplainMissingTable(ctx, client, table, errs.FromAWS("DescribeTable", table, err), "")
	}
	items, cost, err := draft.Sample(ctx, client, table, n)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "sampled %d items of %s: %s, %s read capacity units\n",
		len(items), table, things(cost.Requests, "Scan request"), strconv.FormatFloat(cost.Capacity, 'f', -1, 64))
	return draft.Draft(draft.FromSample(desc.Table, items, cost))
}

// mappingImport turns a NoSQL Workbench model into a mapping.
func mappingImport(args []string, stderr io.Writer) ([]byte, error) {
	var table string
	fs, err := mappingFlags("import", args, stderr, func(fs *pflag.FlagSet) {
		fs.StringVar(&table, "table", "", "")
	})
	if err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, errs.New(errs.Invalid, "mapping import takes one file, the model, not %d", fs.NArg()).
			WithHint("dynosql mapping import model.json > mapping.yaml")
	}
	file := fs.Arg(0)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, errs.New(errs.Invalid, "cannot read the model: %v", err).WithHint("give the JSON file NoSQL Workbench exported")
	}
	in, err := draft.FromWorkbench(file, data, table)
	if err != nil {
		return nil, err
	}
	return draft.Draft(in)
}

// things writes n things: "1 Scan request", "2 Scan requests".
func things(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
