package mapping_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

func TestLoadAcceptsTheShippedMappings(t *testing.T) {
	cases := []struct {
		dir      string
		entities []string
		copies   map[string]string // entity.column → index the copy is found through
	}{
		{"school", []string{"courses", "enrollments", "students"}, nil},
		{"blog", []string{"posts", "users"}, map[string]string{"posts.authorName": "GSI1"}},
	}
	for _, tc := range cases {
		t.Run("the "+tc.dir+" mapping loads", func(t *testing.T) {
			m, err := mapping.Load(filepath.Join("..", "testdata", tc.dir, "mapping.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(m.EntityNames(), ","); got != strings.Join(tc.entities, ",") {
				t.Errorf("entities = %s, want %s", got, strings.Join(tc.entities, ","))
			}
			for where, index := range tc.copies {
				ent, col, _ := strings.Cut(where, ".")
				c := m.Entities[ent].Copies[col]
				if c == nil || c.Path == nil || c.Path.Index != index {
					t.Errorf("copy %s = %+v, want it found through %s", where, c, index)
				}
			}
		})
	}
}

// school is the school mapping, to be broken one field at a time.
const school = `
table: School
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  students:
    keys: {PK: "STU#{id}", SK: "PROFILE"}
    columns: {id: S, name: S}
  enrollments:
    keys: {PK: "STU#{student_id}", SK: "ENROLL#CRS#{course_id}", GSI1PK: "CRS#{course_id}", GSI1SK: "STU#{student_id}"}
    columns: {student_id: S, course_id: S}
`

func TestLoadRefusesABrokenMappingNamingTheFileEntityAndField(t *testing.T) {
	cases := []struct {
		name     string
		old, new string // the edit that breaks the school mapping
		want     []string
	}{
		{
			name: "a template that names an undeclared column",
			old:  `PK: "STU#{id}"`, new: `PK: "STU#{idd}"`,
			want: []string{"broken.yaml", "entities.students.keys.PK", "unknown column idd"},
		},
		{
			name: "two entities whose keys cannot be told apart",
			old:  `SK: "ENROLL#CRS#{course_id}"`, new: `SK: "PROFILE"`,
			want: []string{"broken.yaml", "entities.enrollments", "enrollments and students cannot be told apart"},
		},
		{
			name: "an index no entity has keys for",
			old:  "  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}\n",
			new:  "  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}\n  GSI2: {partition_key: GSI2PK}\n",
			want: []string{"broken.yaml", "indexes.GSI2", "no entity defines keys"},
		},
		{
			name: "a copy whose holders could only be found with a Scan",
			old:  "    columns: {student_id: S, course_id: S}\n",
			new:  "    columns: {student_id: S, course_id: S, advisor: S, advisorName: S}\n    copies:\n      advisorName: {from: students.name, key: advisor}\n",
			want: []string{"broken.yaml", "entities.enrollments.copies.advisorName", "only be found with a Scan"},
		},
		{
			name: "a column of an unknown type",
			old:  "name: S}", new: "name: STRING}",
			want: []string{"broken.yaml", "entities.students.columns.name", `"STRING"`},
		},
		{
			// DynamoDB would refuse it with an error that blames no file.
			name: "a table name DynamoDB does not take",
			old:  "table: School", new: "table: Gu",
			want: []string{"broken.yaml", "table", `"Gu" is not a name DynamoDB takes`},
		},
		{
			name: "an index name DynamoDB does not take",
			old:  "  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}\n",
			new:  "  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}\n  by name: {partition_key: GSI1PK}\n",
			want: []string{"broken.yaml", "indexes.by name", `"by name" is not a name DynamoDB takes`},
		},
		{
			// SQL reads * as every column (SELECT *), never as one.
			name: "a column named *",
			old:  "name: S}", new: `name: S, "*": S}`,
			want: []string{"broken.yaml", "entities.students.columns.*", "cannot be named *"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			if !strings.Contains(school, tc.old) {
				t.Fatalf("the base mapping has no %q to replace", tc.old)
			}
			_, err := mapping.Parse("broken.yaml", []byte(strings.Replace(school, tc.old, tc.new, 1)))
			if err == nil {
				t.Fatal("Parse accepted the broken mapping")
			}
			if !errors.Is(err, errs.Mapping) {
				t.Errorf("error kind = %v, want mapping", errs.As(err).Kind)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestTheBaseOfTheBrokenMappingsIsValid(t *testing.T) {
	if _, err := mapping.Parse("school.yaml", []byte(school)); err != nil {
		t.Fatal(err)
	}
}
