package mapping_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

const fixedHead = `
table: Tasks
partition_key: pk
sort_key: sk
type_attribute: __edb_e__
indexes:
  byStatus: {partition_key: gpk, sort_key: gsk}
entities:
  tasks:
    type: task
`

// A fixed attribute is written into every item of the entity and is no
// column: an open entity cannot read or write it by name. Attributes
// whose value comes from elsewhere are refused, naming the field.
func TestFixedAttributesAreWrittenAndChecked(t *testing.T) {
	m, err := mapping.Parse("t.yaml", []byte(fixedHead+`    keys: {pk: "$app#task_{id}", sk: "$task_1", gpk: "$app#status_{status}", gsk: "$task_1#{id}"}
    columns: {id: S, status: S}
    open: true
    fixed: {__edb_v__: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := m.Entity("tasks")
	item, err := e.Item(mapping.Row{"id": "t1", "status": "open", "__edb_v__": "9"})
	if err != nil {
		t.Fatal(err)
	}
	if got := mapping.Text(item["__edb_v__"]); got != "1" {
		t.Errorf("item __edb_v__ = %q, want the fixed 1 (not the row's 9)", got)
	}
	if got := mapping.Text(item["__edb_e__"]); got != "task" {
		t.Errorf("item __edb_e__ = %q, want task", got)
	}
	if row, ok := e.Claim(item); !ok || row["__edb_v__"] != nil || row["status"] != value.Value("open") {
		t.Errorf("Claim = %v, %v; want the columns and no __edb_v__", row, ok)
	}

	if _, err := e.Column("__edb_v__"); err == nil || !strings.Contains(err.Error(), `__edb_v__ is a fixed attribute of tasks, not a column: dynosql writes __edb_v__ = "1"`) {
		t.Errorf("Column(__edb_v__) = %v; want it refused as the fixed attribute it is", err)
	}

	for name, c := range map[string]struct{ entity, field, want string }{
		"a key attribute": {`    keys: {pk: "P#{id}", sk: "S", gpk: "G", gsk: "{id}"}
    columns: {id: S}
    fixed: {gpk: x}`, "entities.tasks.fixed.gpk", "write it as a template under keys:"},
		"the type attribute": {`    keys: {pk: "P#{id}", sk: "S", gpk: "G", gsk: "{id}"}
    columns: {id: S}
    fixed: {__edb_e__: x}`, "entities.tasks.fixed.__edb_e__", "give the entity's value as its type: field"},
		"a column": {`    keys: {pk: "P#{id}", sk: "S", gpk: "G", gsk: "{id}"}
    columns: {id: S, v: S}
    fixed: {v: "1"}`, "entities.tasks.fixed.v", "remove it from columns, or from fixed"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := mapping.Parse("t.yaml", []byte(fixedHead+c.entity+"\n"))
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Mapping || !strings.Contains(err.Error(), c.field) || !strings.Contains(e.Hint, c.want) {
				t.Errorf("got %v; want a mapping error at %s: %s", err, c.field, c.want)
			}
		})
	}
}
