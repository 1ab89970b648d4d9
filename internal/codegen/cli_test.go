package codegen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/codegen"
	"github.com/dynosql/dynosql/internal/ddblocal"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

// statements cover every operation and expression the builders make
// with constant keys, on the demo's school mapping.
var statements = []string{
	"SELECT name, email FROM students WHERE id = 'a91'",
	"SELECT grade, enrolledOn FROM enrollments WHERE student_id = 'a91' AND grade IN ('A', 'B', 'D') AND enrolledOn >= '2020-01-01'",
	"SELECT student_id FROM enrollments WHERE course_id = 'math204' AND grade <> 'F' ORDER BY student_id DESC LIMIT 3",
	"SELECT COUNT(*) FROM enrollments WHERE student_id = 'a91'",
	"SELECT name FROM students WHERE id IN ('a91', 'b07', 'c12')",
	"SELECT s.name, c.title FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = 'a91'",
	"INSERT INTO students (id, name, year) VALUES ('z01', 'Zed O''Neil', 3)",
	"INSERT INTO students (id, name, year) VALUES ('z02', 'Zoë', 2.5), ('z03', 'Zia', NULL)",
	"UPDATE enrollments SET grade = 'A' WHERE student_id = 'a91' AND course_id = 'math204'",
	"UPDATE students SET year = year + 1, email = NULL WHERE id = 'a91' AND name = 'Ann Lee'",
	"UPDATE enrollments SET course_id = 'cs101' WHERE student_id = 'a91' AND course_id = 'art150'",
	"DELETE FROM students WHERE id = 'k42' AND year BETWEEN 1 AND 4",
}

func demo(t *testing.T) *dynosql.DB {
	t.Helper()
	db, err := dynosql.OpenDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestCLIInputIsWhatTheSDKSends checks that the JSON of every command
// EXPLAIN (FORMAT cli) writes is, member for member, the body the SDK
// itself sends for the builder's input: the API's JSON, which is what
// --cli-input-json takes.
func TestCLIInputIsWhatTheSDKSends(t *testing.T) {
	db := demo(t)
	client, sent := recordingClient()
	for _, sql := range statements {
		t.Run(sql, func(t *testing.T) {
			plan, err := db.Explain(sql)
			if err != nil {
				t.Fatal(err)
			}
			text, err := codegen.CLI(plan)
			if err != nil {
				t.Fatal(err)
			}
			cmds := commands(text)
			var inputs []any
			for _, s := range plan.Sends() {
				inputs = append(inputs, s.Inputs...)
			}
			if len(inputs) == 0 || len(cmds) != len(inputs) {
				t.Fatalf("%d commands for %d inputs:\n%s", len(cmds), len(inputs), text)
			}
			for i, in := range inputs {
				op, printed := cmds[i][0], cmds[i][1]
				want := sendOne(t, client, sent, in)
				if op != want.op {
					t.Errorf("command %d is aws dynamodb %s, the input is a %s", i+1, op, want.op)
				}
				var got map[string]any
				if err := json.Unmarshal([]byte(printed), &got); err != nil {
					t.Fatalf("command %d: %v\n%s", i+1, err, printed)
				}
				if _, ok := got["ClientRequestToken"]; !ok {
					delete(want.body, "ClientRequestToken") // the SDK adds one
				}
				if !reflect.DeepEqual(got, want.body) {
					t.Errorf("command %d:\n got %s\nwant %s", i+1, printed, mustJSON(want.body))
				}
			}
		})
	}
}

// commands returns the operation and the JSON of each aws command in
// text, the JSON unquoted as a POSIX shell would.
func commands(text string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "aws dynamodb ")
		if !ok {
			continue
		}
		op, quoted, _ := strings.Cut(rest, " --cli-input-json ")
		quoted = strings.TrimSuffix(strings.TrimPrefix(quoted, "'"), "'")
		out = append(out, [2]string{op, strings.ReplaceAll(quoted, `'\''`, "'")})
	}
	return out
}

type wire struct {
	op   string
	body map[string]any
}

var errSent = errors.New("recorded, not sent")

// recordingClient is an SDK client whose HTTP client keeps each request
// (its X-Amz-Target and body) and answers none.
func recordingClient() (*dynamodb.Client, *[]wire) {
	var sent []wire
	client := dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String("http://127.0.0.1:9"),
		Credentials:      credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
		RetryMaxAttempts: 1,
		HTTPClient: doer(func(r *http.Request) (*http.Response, error) {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				return nil, err
			}
			var body map[string]any
			if err := json.Unmarshal(b, &body); err != nil {
				return nil, err
			}
			_, op, _ := strings.Cut(r.Header.Get("X-Amz-Target"), ".")
			sent = append(sent, wire{op: cliName(op), body: body})
			return nil, errSent
		}),
	})
	return client, &sent
}

type doer func(*http.Request) (*http.Response, error)

func (d doer) Do(r *http.Request) (*http.Response, error) { return d(r) }

// cliName turns an API operation name (BatchGetItem) into the CLI's
// (batch-get-item).
func cliName(op string) string {
	var b strings.Builder
	for i, r := range op {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sendOne has the SDK serialize in and returns what it would have sent.
func sendOne(t *testing.T, client *dynamodb.Client, sent *[]wire, in any) wire {
	t.Helper()
	ctx := context.Background()
	var err error
	switch x := in.(type) {
	case *dynamodb.GetItemInput:
		_, err = client.GetItem(ctx, x)
	case *dynamodb.QueryInput:
		_, err = client.Query(ctx, x)
	case *dynamodb.BatchGetItemInput:
		_, err = client.BatchGetItem(ctx, x)
	case *dynamodb.PutItemInput:
		_, err = client.PutItem(ctx, x)
	case *dynamodb.UpdateItemInput:
		_, err = client.UpdateItem(ctx, x)
	case *dynamodb.DeleteItemInput:
		_, err = client.DeleteItem(ctx, x)
	case *dynamodb.TransactWriteItemsInput:
		_, err = client.TransactWriteItems(ctx, x)
	default:
		t.Fatalf("no SDK call for %T", in)
	}
	if !errors.Is(err, errSent) {
		t.Fatalf("the recording client returned %v", err)
	}
	w := (*sent)[len(*sent)-1]
	return w
}

func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// The AWS CLI pages a query to the end, Limit being only the page size:
// a statement with a LIMIT must stop it at that many items.
func TestCLIQueryStopsAtTheLimit(t *testing.T) {
	out, err := demo(t).ExplainAs("EXPLAIN (FORMAT cli) SELECT grade FROM enrollments WHERE student_id = 'a91' ORDER BY course_id DESC LIMIT 3", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"Limit":3`) || !strings.Contains(out, "--max-items 3") {
		t.Errorf("no Limit 3 and --max-items 3 in\n%s", out)
	}
}
