package codegen

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
)

// Go writes the plan's requests as a Go program that sends them with the
// AWS SDK for Go v2, each expression made with the expression builder,
// and prints what comes back: items as JSON lines, a write's outcome. A
// request whose values the statement alone fixes is code, runnable as
// printed; one formed from rows read at run time (a join's lookups, the
// writes of a partition-wide UPDATE) is a comment saying how.
func Go(plan *planner.Plan) (string, error) {
	var body strings.Builder
	step := 0
	for _, s := range plan.Sends() {
		if s.Inputs == nil {
			step++
			comment(&body, "// ", step, s.Request, true)
			continue
		}
		for _, in := range s.Inputs {
			step++
			comment(&body, "// ", step, each(s, in), false)
			code, err := goRequest(in)
			if err != nil {
				return "", err
			}
			body.WriteString(code)
		}
	}
	if step == 0 {
		body.WriteString("// The statement sends no request.\n")
	}
	code := goMain + body.String() + "}\n" + goHelpers(body.String())
	imports, err := goImports("package main\n\n" + code)
	if err != nil {
		return "", errs.New(errs.Internal, "the Go code written does not parse: %v\n%s", err, code).Wrap(err)
	}
	src := goHeader(plan.SQL) + imports + code
	out, err := format.Source([]byte(src))
	if err != nil {
		return "", errs.New(errs.Internal, "the Go code written does not parse: %v\n%s", err, src).Wrap(err)
	}
	return string(out), nil
}

// each describes one of the inputs of s: a Query with several partition
// values describes them all, one input each.
func each(s planner.Sent, in any) *planner.Request {
	if len(s.Inputs) == 1 {
		return s.Request
	}
	r := *s.Request
	r.Key = s.Describe(in).Key
	return &r
}

// comment writes the request's EXPLAIN lines as a comment; later says
// that its values come from rows read at run time.
func comment(b *strings.Builder, prefix string, step int, r *planner.Request, later bool) {
	b.WriteString("\n")
	for i, l := range strings.Split(strings.TrimRight(r.String(), "\n"), "\n") {
		if i == 0 {
			l = fmt.Sprintf("Request %d: %s", step, l)
		}
		b.WriteString(strings.TrimRight(prefix+l, " ") + "\n")
	}
	if later {
		b.WriteString(prefix + "Not written as code: its values come from the rows the requests above\n" +
			prefix + "return ({alias.column} is that column of each row); dynosql sends it as\n" +
			prefix + "the \"one request per\" line says.\n")
	}
}

func goHeader(sql string) string {
	var b strings.Builder
	b.WriteString("// The DynamoDB requests dynosql sends for:\n//\n")
	for _, l := range strings.Split(strings.TrimSpace(sql), "\n") {
		b.WriteString(strings.TrimRight("//\t"+l, " \t") + "\n")
	}
	b.WriteString("//\n// written with the AWS SDK for Go v2 and its expression builder. dynosql\n" +
		"// also checks every row again on the client, backs off before resending\n" +
		"// unprocessed keys, and stops paging once a LIMIT is met.\n")
	b.WriteString("package main\n\n")
	return b.String()
}

const goMain = `func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	client := dynamodb.NewFromConfig(cfg)
`

// goImports writes the import block of src (a program without one):
// the packages its code refers to.
func goImports(src string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var std, sdk []string
	for _, p := range knownImports {
		if !used[path.Base(p)] {
			continue
		}
		if strings.Contains(p, ".") {
			sdk = append(sdk, strconv.Quote(p))
		} else {
			std = append(std, strconv.Quote(p))
		}
	}
	return "import (\n" + strings.Join(std, "\n") + "\n\n" + strings.Join(sdk, "\n") + "\n)\n\n", nil
}

// knownImports are the packages the code written may use, in order.
var knownImports = []string{
	"context", "encoding/json", "errors", "fmt", "log", "strings",
	"github.com/aws/aws-sdk-go-v2/aws",
	"github.com/aws/aws-sdk-go-v2/config",
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue",
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression",
	"github.com/aws/aws-sdk-go-v2/service/dynamodb",
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types",
}

// goHelpers are the functions that print what comes back, when body
// calls them.
func goHelpers(body string) string {
	var helpers string
	if strings.Contains(body, "realNames(") {
		helpers += realNamesHelper
	}
	if !strings.Contains(body, "printItem") {
		return helpers
	}
	return helpers + `
// printItems prints items as JSON lines, numbers exactly as stored.
func printItems(items []map[string]types.AttributeValue) {
	for _, item := range items {
		printItem(item)
	}
}

func printItem(item map[string]types.AttributeValue) {
	var m map[string]any
	err := attributevalue.UnmarshalMapWithOptions(item, &m, func(o *attributevalue.DecoderOptions) { o.UseNumber = true })
	if err != nil {
		log.Fatal(err)
	}
	line, err := json.Marshal(jsonNumbers(m))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(line))
}

// jsonNumbers makes the numbers decoded as attributevalue.Number print
// as JSON numbers.
func jsonNumbers(v any) any {
	switch x := v.(type) {
	case attributevalue.Number:
		return json.Number(x)
	case map[string]any:
		for k, e := range x {
			x[k] = jsonNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsonNumbers(e)
		}
	}
	return v
}
`
}

// realNamesHelper puts back, in an expression's #names, the attribute
// names whose brackets the code spells as stand-ins (see planner.StandIn).
const realNamesHelper = `
// realNames puts back the attribute names the expression builder was
// given as stand-ins: it reads x[0] as element 0 of list x and refuses
// other brackets, so a name that holds one is written with %5B for [,
// %5D for ] and %25 for %.
func realNames(names map[string]string) map[string]string {
	r := strings.NewReplacer("%25", "%", "%5B", "[", "%5D", "]")
	for p, n := range names {
		names[p] = r.Replace(n)
	}
	return names
}
`

// goRequest writes one request: its expressions built, its input, the
// call and what it prints.
func goRequest(in any) (string, error) {
	lw := &literalWriter{}
	lit, err := lw.value(reflect.ValueOf(in))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("{\n")
	for _, e := range lw.exprs {
		b.WriteString(e)
	}
	b.WriteString("input := " + lit + "\n")
	call, err := goCall(in)
	if err != nil {
		return "", err
	}
	b.WriteString(call)
	b.WriteString("}\n")
	return b.String(), nil
}

// goCall sends the input and prints the answer.
func goCall(in any) (string, error) {
	const fatal = "if err != nil {\nlog.Fatal(err)\n}\n"
	const conditional = "var failed *types.ConditionalCheckFailedException\nif errors.As(err, &failed) {\n" +
		"fmt.Println(\"condition failed: nothing written\")\nreturn\n}\n" + fatal
	switch x := in.(type) {
	case *dynamodb.GetItemInput:
		return "out, err := client.GetItem(ctx, input)\n" + fatal + "if out.Item != nil {\nprintItem(out.Item)\n}\n", nil
	case *dynamodb.QueryInput:
		pages := "pages := dynamodb.NewQueryPaginator(client, input)\nfor pages.HasMorePages() {\nout, err := pages.NextPage(ctx)\n" + fatal
		if x.Select == types.SelectCount {
			return "var count int32\n" + pages + "count += out.Count\n}\nfmt.Println(count)\n", nil
		}
		if x.Limit != nil {
			// Limit is a page size (items read, before the filter): the
			// statement wants that many items in all, as dynosql stops.
			return "left := int(*input.Limit)\n" + strings.Replace(pages, "pages.HasMorePages()", "left > 0 && pages.HasMorePages()", 1) +
				"items := out.Items[:min(left, len(out.Items))]\nprintItems(items)\nleft -= len(items)\n}\n", nil
		}
		return pages + "printItems(out.Items)\n}\n", nil
	case *dynamodb.BatchGetItemInput:
		return "for len(input.RequestItems) > 0 {\nout, err := client.BatchGetItem(ctx, input)\n" + fatal +
			"for _, items := range out.Responses {\nprintItems(items)\n}\ninput.RequestItems = out.UnprocessedKeys\n}\n", nil
	case *dynamodb.PutItemInput:
		return "_, err = client.PutItem(ctx, input)\n" + conditional + "fmt.Println(\"written\")\n", nil
	case *dynamodb.UpdateItemInput:
		return "out, err := client.UpdateItem(ctx, input)\n" + conditional + "if out.Attributes != nil {\nprintItem(out.Attributes)\n}\n", nil
	case *dynamodb.DeleteItemInput:
		return "out, err := client.DeleteItem(ctx, input)\n" + conditional +
			"if out.Attributes == nil {\nfmt.Println(\"no item\")\nreturn\n}\nprintItem(out.Attributes)\n", nil
	case *dynamodb.TransactWriteItemsInput:
		return "_, err = client.TransactWriteItems(ctx, input)\nvar canceled *types.TransactionCanceledException\nif errors.As(err, &canceled) {\n" +
			"for i, r := range canceled.CancellationReasons {\nfmt.Println(\"action\", i+1, aws.ToString(r.Code))\n}\nreturn\n}\n" + fatal + "fmt.Println(\"written\")\n", nil
	}
	return "", errs.New(errs.Internal, "no Go code for %T", in)
}

// pascal turns an enum value (ALL_NEW) into its Go constant's suffix (AllNew).
func pascal(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' }) {
		rs := []rune(strings.ToLower(part))
		rs[0] = unicode.ToUpper(rs[0])
		b.WriteString(string(rs))
	}
	return b.String()
}
