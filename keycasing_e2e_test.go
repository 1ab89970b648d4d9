package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/draft"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

// Items as ElectroDB writes them for its task manager example (keys
// lower-cased whole, the attributes as given), put with the SDK rather
// than through dynosql's key codec, are read and written through
// testdata/taskmanager's key_casing mapping as ElectroDB reads and writes
// them. Every expected value below is the item's own, written by hand.
func TestElectroDBItemsAreReadAndWrittenAsElectroDBDoes(t *testing.T) {
	yaml, err := os.ReadFile(testkit.Testdata("taskmanager", "mapping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	lowe := map[string]types.AttributeValue{
		"pk": s("$task-manager#employee_jlowe"), "sk": s("$employee_1"),
		"gsi1pk": s("$task-manager#officename_portland"), "gsi1sk": s("$workplaces#employee_1#team_development#title_senior software engineer#employee_jlowe"),
		"gsi2pk": s("$task-manager#team_development"), "gsi2sk": s("$employee_1#datehired_2019-03-14#title_senior software engineer"),
		"gsi3pk": s("$task-manager#employee_jlowe"), "gsi3sk": s("$assignments#employee_1"),
		"gsi4pk": s("$task-manager#title_senior software engineer"), "gsi4sk": s("$employee_1#salary_150000"),
		"employee": s("JLowe"), "firstName": s("Jim"), "lastName": s("Lowe"), "officeName": s("Portland"),
		"title": s("Senior Software Engineer"), "team": s("development"), "salary": s("150000"), "dateHired": s("2019-03-14"),
		"__edb_e__": s("employee"), "__edb_v__": s("1"),
	}
	task := map[string]types.AttributeValue{
		"pk": s("$task-manager#taskname_task-0001"), "sk": s("$task_1#project_abc-12#employee_jlowe"),
		"gsi1pk": s("$task-manager#project_abc-12"), "gsi1sk": s("$task_1#employee_jlowe#status_open"),
		"gsi3pk": s("$task-manager#employee_jlowe"), "gsi3sk": s("$assignments#task_1#project_abc-12#status_open"),
		"gsi4pk": s("$task-manager#status_open"), "gsi4sk": s("$task_1#project_abc-12#employee_jlowe"),
		"taskName": s("Task-0001"), "project": s("ABC-12"), "employee": s("JLowe"), "status": s("open"),
		"points": &types.AttributeValueMemberN{Value: "3"}, "__edb_e__": s("task"), "__edb_v__": s("1"),
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, string(yaml), "")
			ctx := context.Background()
			put := func(item map[string]types.AttributeValue) {
				t.Helper()
				if _, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table), Item: item}); err != nil {
					t.Fatal(err)
				}
			}
			put(lowe)
			put(task)
			// expect runs each statement through fx and compares its rows
			// with want, written by hand from the items.
			type rows struct{ sql, want string }
			expect := func(fx *testkit.Fixture, what string, cases []rows) {
				t.Helper()
				for _, c := range cases {
					got, err := fx.Query(ctx, c.sql)
					if err != nil || fmt.Sprint(got) != c.want {
						t.Errorf("%s, %s: got %v, %v; want %s", what, c.sql, got, err, c.want)
					}
				}
			}
			expect(fx, "testdata's mapping", []rows{
				{"SELECT employee, firstName FROM employees WHERE employee = 'JLowe'", "[[JLowe Jim]]"},
				{"SELECT employee, firstName FROM employees WHERE employee = 'jlowe'", "[]"},
				{"SELECT employee FROM employees WHERE employee IN ('JLowe', 'jlowe', 'JLOWE')", "[[JLowe]]"},
				{"SELECT e.firstName, t.taskName, t.project FROM employees e JOIN tasks t ON t.employee = e.employee WHERE e.employee = 'JLowe'", "[[Jim Task-0001 ABC-12]]"},
				{"SELECT employee, title FROM employees WHERE officeName = 'Portland'", "[[JLowe Senior Software Engineer]]"},
				{"SELECT employee FROM employees WHERE officeName = 'PORTLAND'", "[]"},
				{"SELECT taskName, status FROM tasks WHERE project = 'ABC-12' AND employee = 'JLowe'", "[[Task-0001 open]]"},
				{"SELECT employee FROM employees WHERE title = 'Senior Software Engineer' AND salary > '100000'", "[[JLowe]]"},
				{"SELECT employee FROM employees WHERE officeName = 'Portland' AND team = 'development' AND title LIKE 'Senior%'", "[[JLowe]]"},
				{"SELECT employee FROM employees WHERE officeName = 'Portland' AND team = 'development' AND title LIKE 'senior%'", "[]"},
			})

			// Drafted from these two items, with no mapping at hand, the
			// mapping reads them as the hand-written one does.
			desc, err := fx.Client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(fx.Mapping.Table)})
			if err != nil {
				t.Fatal(err)
			}
			items, cost, err := draft.Sample(ctx, fx.Client, fx.Mapping.Table, 100)
			if err != nil {
				t.Fatal(err)
			}
			text, err := draft.Draft(draft.FromSample(desc.Table, items, cost))
			if err != nil {
				t.Fatal(err)
			}
			dm, err := mapping.Parse("draft", text)
			if err != nil {
				t.Fatalf("the draft does not load: %v\n%s", err, text)
			}
			db, err := dynosql.Open(ctx, dm, fx.Client)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = db.Close() }()
			expect(&testkit.Fixture{DB: db, Client: fx.Client, Mapping: dm}, "drafted mapping", []rows{
				{"SELECT employee, firstName FROM employees WHERE employee = 'JLowe'", "[[JLowe Jim]]"},
				{"SELECT employee FROM employees WHERE employee = 'jlowe'", "[]"},
				{"SELECT e.firstName, t.taskName, t.points FROM employees e JOIN tasks t ON t.employee = e.employee WHERE e.employee = 'JLowe'", "[[Jim Task-0001 3]]"},
				{"SELECT taskName FROM tasks WHERE status = 'open'", "[[Task-0001]]"},
			})
			if t.Failed() {
				t.Logf("the draft:\n%s", text)
			}

			// Written through dynosql, a task gets the keys ElectroDB
			// would give it, so ElectroDB's own reads find it.
			if _, err := fx.DB.Exec(ctx, "INSERT INTO tasks (taskName, project, employee, status, points) VALUES ('Task-0002', 'ABC-12', 'JLowe', 'in-progress', 5)"); err != nil {
				t.Fatal(err)
			}
			out, err := fx.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(fx.Mapping.Table),
				Key: map[string]types.AttributeValue{"pk": s("$task-manager#taskname_task-0002"), "sk": s("$task_1#project_abc-12#employee_jlowe")}})
			if err != nil {
				t.Fatal(err)
			}
			for attr, want := range map[string]string{"taskName": "Task-0002", "gsi1pk": "$task-manager#project_abc-12",
				"gsi3sk": "$assignments#task_1#project_abc-12#status_in-progress", "gsi4pk": "$task-manager#status_in-progress",
				"__edb_e__": "task", "__edb_v__": "1"} {
				if got, _ := out.Item[attr].(*types.AttributeValueMemberS); got == nil || got.Value != want {
					t.Errorf("the inserted task's %s: got %v, want %s", attr, out.Item[attr], want)
				}
			}
			// A task without the model version (written by other code),
			// moved to new keys, is rewritten with it, as the mapping's
			// fixed: says every task holds it.
			bare := map[string]types.AttributeValue{}
			for k, v := range task {
				bare[k] = v
			}
			delete(bare, "__edb_v__")
			bare["pk"], bare["taskName"] = s("$task-manager#taskname_task-0003"), s("Task-0003")
			put(bare)
			if _, err := fx.DB.Exec(ctx, "UPDATE tasks SET project = 'XYZ-9' WHERE taskName = 'Task-0003' AND project = 'ABC-12' AND employee = 'JLowe'"); err != nil {
				t.Fatal(err)
			}
			out, err = fx.Client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(fx.Mapping.Table),
				Key: map[string]types.AttributeValue{"pk": s("$task-manager#taskname_task-0003"), "sk": s("$task_1#project_xyz-9#employee_jlowe")}})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := out.Item["__edb_v__"].(*types.AttributeValueMemberS); got == nil || got.Value != "1" {
				t.Errorf("the moved task's __edb_v__: got %v, want 1", out.Item["__edb_v__"])
			}
			// Its key in another case is the same item. DynamoDB Local
			// returns the item holding it, which the conflict names;
			// minidyn does not, and the message says what may hold it.
			_, err = fx.DB.Exec(ctx, "INSERT INTO tasks (taskName, project, employee, status, points) VALUES ('TASK-0002', 'abc-12', 'jlowe', 'open', 1)")
			want := "already holds a row of tasks (taskName='Task-0002', project='ABC-12', employee='JLowe')"
			if b.Name == "embedded" {
				want = "or a row whose taskName, project, employee differ from it in case only"
			}
			if !errors.Is(err, dynosql.ErrConflict) || !strings.Contains(err.Error(), want) {
				t.Errorf("an insert onto the same key in other case: %v; want a conflict: %s", err, want)
			}

			// A value whose lower case JavaScript spells otherwise.
			if _, err := fx.Query(ctx, "SELECT employee FROM employees WHERE employee = 'İpek'"); !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), `holds 'İ'`) {
				t.Errorf("a key value holding İ: %v; want it refused", err)
			}

			// Items that the key and the attributes describe apart stop
			// the read rather than show NULL or the key's lower case.
			put(map[string]types.AttributeValue{"pk": s("$task-manager#employee_anon"), "sk": s("$employee_1"), "firstName": s("Ann"), "__edb_e__": s("employee")})
			put(map[string]types.AttributeValue{"pk": s("$task-manager#employee_bob"), "sk": s("$employee_1"), "employee": s("Rob"), "__edb_e__": s("employee")})
			for sql, want := range map[string]string{
				"SELECT firstName FROM employees WHERE employee = 'anon'": "holds employee only lower-cased in pk (\"anon\"), and no employee attribute",
				"SELECT firstName FROM employees WHERE employee = 'Bob'":  `has employee = "Rob", but its key pk holds "bob", not "rob"`,
			} {
				if _, err := fx.Query(ctx, sql); !errors.Is(err, dynosql.ErrMapping) || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %v; want a mapping error: %s", sql, err, want)
				}
			}
		})
	}
}
