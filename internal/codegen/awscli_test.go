package codegen_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/codegen"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// TestCLICommandsRunAsPrinted runs the commands EXPLAIN (FORMAT cli)
// writes, through a shell and the AWS CLI, against DynamoDB Local, and
// compares the items they return with dynosql's rows. It needs the aws
// command, and skips without it.
func TestCLICommandsRunAsPrinted(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("no aws command on PATH")
	}
	endpoint := ddblocal.Endpoint(t)
	fx := testkit.Load(t, testkit.Backends()[0], "school")
	for _, sql := range []string{
		"SELECT name, email, year FROM students WHERE id = 'a91'",
		"SELECT grade, enrolledOn FROM enrollments WHERE student_id = 'a91' AND grade IN ('A', 'B', 'D')",
	} {
		t.Run(sql, func(t *testing.T) {
			plan, err := fx.DB.Explain(sql)
			if err != nil {
				t.Fatal(err)
			}
			script, err := codegen.CLI(plan)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("sh", "-e", "-c", script)
			cmd.Env = awsEnv(endpoint)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s\n%s", err, stderrOf(err), script)
			}
			var resp struct {
				Item  map[string]any
				Items []map[string]any
			}
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if resp.Item != nil {
				resp.Items = append(resp.Items, resp.Item)
			}
			rows, err := fx.DB.Query(t.Context(), sql)
			if err != nil {
				t.Fatal(err)
			}
			cols := rows.Columns()
			var want, got []string
			for rows.Next() {
				want = append(want, rowText(cols, rows.RawValues()))
			}
			for _, it := range resp.Items {
				item := decodeItem(t, it)
				vals := make([]value.Value, len(cols))
				for i, c := range cols {
					if av, ok := item[c]; ok {
						vals[i] = value.FromAttr(av)
					}
				}
				got = append(got, rowText(cols, vals))
			}
			slices.Sort(got)
			slices.Sort(want)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("aws printed rows %q; dynosql returns %q", got, want)
			}
		})
	}
}

// decodeItem reads an item in the API's JSON ({"name": {"S": "..."}}).
func decodeItem(t *testing.T, it map[string]any) map[string]types.AttributeValue {
	t.Helper()
	out := map[string]types.AttributeValue{}
	for k, v := range it {
		typed, ok := v.(map[string]any)
		if !ok || len(typed) != 1 {
			t.Fatalf("attribute %s: %v", k, v)
		}
		for typ, x := range typed {
			switch typ {
			case "S":
				out[k] = &types.AttributeValueMemberS{Value: x.(string)}
			case "N":
				out[k] = &types.AttributeValueMemberN{Value: x.(string)}
			default:
				t.Fatalf("attribute %s of type %s", k, typ)
			}
		}
	}
	return out
}

// awsEnv is this process's environment with the AWS settings replaced
// by DynamoDB Local's endpoint and dummy credentials.
func awsEnv(endpoint string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			env = append(env, kv)
		}
	}
	return append(env, "AWS_ENDPOINT_URL_DYNAMODB="+endpoint, "AWS_REGION=us-east-1", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=codegen", "AWS_SECRET_ACCESS_KEY=codegen", "AWS_PAGER=",
		"AWS_CONFIG_FILE="+os.DevNull, "AWS_SHARED_CREDENTIALS_FILE="+os.DevNull)
}
