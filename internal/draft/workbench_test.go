package draft_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/internal/cli"
	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/draft"
	"github.com/dynosql/dynosql/internal/errs"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden mappings of testdata/draft from the imports")

func TestMain(m *testing.M) { ddblocal.Main(m) }

// The public Workbench models of testdata/workbench import into the
// mappings of testdata/draft, byte for byte (go test ./internal/draft
// -rewrite regenerates them; review the diff).
func TestWorkbenchModelsImportIntoTheirGoldenMappings(t *testing.T) {
	for model, golden := range map[string]string{"anonlineshop.json": "anonlineshop.yaml", "complaints.json": "complaints.yaml"} {
		t.Run(model, func(t *testing.T) {
			got := importModel(t, model, "")
			path := filepath.Join("..", "..", "testdata", "draft", golden)
			if *rewrite {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("import of %s differs from %s:\n%s", model, path, got)
			}
		})
	}
}

func importModel(t *testing.T, model, table string) []byte {
	t.Helper()
	file := filepath.Join("..", "..", "testdata", "workbench", model)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in, err := draft.FromWorkbench(file, data, table)
	if err != nil {
		t.Fatal(err)
	}
	out, err := draft.Draft(in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The imported online shop creates its table with --create-table (on
// DynamoDB Local and embedded), opens against it, and reads the model's
// own sample items, written as they are, through its entities.
func TestTheImportedOnlineShopCreatesItsTableAndReadsTheModelsItems(t *testing.T) {
	yaml := importModel(t, "anonlineshop.json", "")
	table := ddblocal.UniqueTable(t, "OnlineShop")
	yaml = bytes.Replace(yaml, []byte("\ntable: OnlineShop\n"), []byte("\ntable: "+table+"\n"), 1)
	file := filepath.Join(t.TempDir(), "shop.yaml")
	if err := os.WriteFile(file, yaml, 0o600); err != nil {
		t.Fatal(err)
	}
	created := "created table " + table + " (billed on demand): partition key PK (S), sort key SK (S)\n" +
		"  global index GSI1: partition key GSI1-PK (S), sort key GSI1-SK (S); projects ALL\n" +
		"  global index GSI2: partition key GSI2-PK (S), sort key GSI2-SK (S); projects ALL\n"

	t.Run("embedded", func(t *testing.T) {
		out, stderr := run(t, "--mapping", file, "--embedded", "--create-table", "-e", "SELECT * FROM customers WHERE customer_id = '12345'")
		if out != " customer_id | Email | Name\n-------------+-------+------\n(0 rows)\n" || stderr != created {
			t.Errorf("stdout:\n%s\nstderr:\n%s\nwant no rows and\n%s", out, stderr, created)
		}
	})

	endpoint := ddblocal.Endpoint(t)
	if _, stderr := run(t, "--mapping", file, "--endpoint-url", endpoint, "--create-table", "-e", "SELECT 1 FROM customers WHERE customer_id = 'x'"); stderr != created {
		t.Fatalf("stderr:\n%s\nwant\n%s", stderr, created)
	}
	client := ddblocal.Client(t)
	for _, it := range modelItems(t) {
		if _, err := client.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(errs.FromAWS("PutItem", table, err))
		}
	}
	out, stderr := run(t, "--mapping", file, "--endpoint-url", endpoint, "--create-table", "--format", "csv",
		"-e", "SELECT customer_id, Name FROM customers WHERE customer_id = '12345'",
		"-e", "SELECT product_id, Quantity FROM warehouse_items WHERE warehouse_id = '12345' ORDER BY product_id",
		"-e", "SELECT shipment_item_id, product_id FROM shipment_items WHERE shipment_id = '98765' ORDER BY shipment_item_id",
		"-e", "SELECT payment_id, Type, Amount FROM payments WHERE invoice_id = '55443' ORDER BY payment_id",
		"-e", "SELECT o.o_id, i.invoice_id FROM order_items o JOIN invoices i ON i.o_id = o.o_id WHERE o.o_id = '12345' AND o.product_id = '99887'")
	want := "customer_id,Name\n12345,Samaneh\n" +
		"product_id,Quantity\n12345,50\n99887,4\n" +
		"shipment_item_id,product_id\n12345,99887\n55555,12345\n" +
		"payment_id,Type,Amount\n33224,MasterCard,300\n33442,GiftCard,100\n" +
		"o_id,invoice_id\n12345,55443\n"
	if out != want || stderr != "" {
		t.Errorf("stdout:\n%s\nstderr:\n%s\nwant\n%s", out, stderr, want)
	}
}

// run runs the dynosql command and returns its stdout and stderr; it
// must succeed.
func run(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Main(append([]string{"-X"}, args...), os.Stdin, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("dynosql %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// modelItems returns the sample items of every facet of the online shop
// model, as DynamoDB JSON reads them.
func modelItems(t *testing.T) []draft.Item {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "workbench", "anonlineshop.json"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := draft.FromWorkbench("anonlineshop.json", data, "")
	if err != nil {
		t.Fatal(err)
	}
	var items []draft.Item
	for _, g := range in.Groups {
		items = append(items, g.Items...)
	}
	if len(items) != 20 {
		t.Fatalf("%d items, want the model's 20", len(items))
	}
	return items
}

func TestAWorkbenchModelThatCannotBeImportedSaysWhy(t *testing.T) {
	two := `{"ModelName": "Two", "DataModel": [
		{"TableName": "Users", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}},
		{"TableName": "Orders", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}}]}`
	tests := []struct {
		name, data, table, msg, hint string
	}{
		{"not JSON", "{\n  \"ModelName\": \"x\",\n  oops\n}", "", `invalid: m.json is not a NoSQL Workbench model: line 3, column 3: invalid character 'o' looking for beginning of object key string`, "Export data model"},
		{"no table", `{"ModelName": "x"}`, "", "invalid: m.json holds no table (DataModel is empty or missing)", "DataModel[].TableName"},
		{"two tables, none picked", two, "", "invalid: model m.json holds 2 tables: Users, Orders", "pick one with --table Users"},
		{"a table it does not hold", two, "Order", "invalid: model m.json holds no table Order; did you mean Orders?", "its tables: Users, Orders"},
		{"a value that is not DynamoDB JSON", `{"DataModel": [{"TableName": "Tab", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
			"TableData": [{"PK": {"S": "a"}, "n": 12}]}]}`, "", "invalid: m.json, table Tab: item 1, attribute n: not a DynamoDB JSON value: 12", `{"S": "text"}`},
		// The drafted mapping would not load: said as the model's fault,
		// not as a bug of dynosql's.
		{"an index name DynamoDB refuses", `{"DataModel": [{"TableName": "Tab", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
			"GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "g", "AttributeType": "S"}}}]}]}`, "",
			`invalid: m.json, table Tab: "G" is not a name DynamoDB takes for an index`, "3 to 255"},
		{"an index without a partition key", `{"DataModel": [{"TableName": "Tab", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
			"GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {}}]}]}`, "",
			"invalid: m.json, table Tab: index GSI1 has no partition key (KeyAttributes.PartitionKey)", "Export data model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := draft.FromWorkbench("m.json", []byte(tt.data), tt.table)
			e := errs.As(err)
			if err == nil || e.Error() != tt.msg || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("error %v (hint %q), want %q with a hint holding %q", err, e.Hint, tt.msg, tt.hint)
			}
		})
	}
	// The table picked is the one drafted.
	in, err := draft.FromWorkbench("m.json", []byte(two), "Orders")
	if err != nil || in.Table.Name != "Orders" {
		t.Errorf("--table Orders drafts %q, %v", in.Table.Name, err)
	}
}

// A facet without sample items gets keys guessed bare, named after its
// key aliases; where those cannot be told apart from another facet's,
// it is left out, and the draft says so.
func TestAFacetWithoutSampleItems(t *testing.T) {
	model := `{"ModelName": "M", "DataModel": [{"TableName": "Shop",
		"KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
		"NonKeyAttributes": [{"AttributeName": "name", "AttributeType": "S"}, {"AttributeName": "total", "AttributeType": "N"}],
		"TableFacets": [
			{"FacetName": "User", "KeyAttributeAlias": {"PartitionKeyAlias": "UserId", "SortKeyAlias": "Kind"}, "NonKeyAttributes": ["name"],
			 "TableData": [{"PK": {"S": "USER#u1"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ann"}}]},
			{"FacetName": "Order", "KeyAttributeAlias": {"PartitionKeyAlias": "UserId", "SortKeyAlias": "OrderId"}, "NonKeyAttributes": ["total"]}]}]}`
	in, err := draft.FromWorkbench("m.json", []byte(model), "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := draft.Draft(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Facet Order is left out: it has no sample item, and keys guessed bare cannot be told apart from those of the item PK = \"USER#u1\", SK = \"PROFILE\".\n"
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), "  users:\n") {
		t.Errorf("the draft does not say\n%s\n%s", want, out)
	}
}

// NoSQL Workbench 3 writes what a map holds as plain JSON ({"M":
// {"is_enabled": true}}), as AWS's ConnectedVehicles model does
// (aws-samples/aws-dynamodb-examples, schema_design/SchemaExamples):
// such a model imports, the map's contents read as JSON.
func TestAWorkbench3MapOfPlainJSONImports(t *testing.T) {
	model := `{"ModelName": "Vehicles", "DataModel": [{"TableName": "Vehicles",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	  "NonKeyAttributes": [{"AttributeName": "autodrive", "AttributeType": "M"}, {"AttributeName": "stops", "AttributeType": "L"}],
	  "TableFacets": [{"FacetName": "Vehicle", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
	    "NonKeyAttributes": ["autodrive", "stops"],
	    "TableData": [
	      {"PK": {"S": "VIN#v1"}, "SK": {"S": "#META#"}, "autodrive": {"M": {"is_enabled": true, "version": "v1", "left": {"x": 59}}}},
	      {"PK": {"S": "VIN#v2"}, "SK": {"S": "#META#"}, "stops": {"L": [1, "two", null]}}
	    ]}]}]}`
	in, err := draft.FromWorkbench("vehicles.json", []byte(model), "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := draft.Draft(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"autodrive: M", "stops: L", `PK: "VIN#{`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the import does not hold %q:\n%s", want, out)
		}
	}
}
