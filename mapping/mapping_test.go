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

// A table named by its ARN, as DynamoDB takes a table shared across
// accounts, loads.
func TestATableARNLoads(t *testing.T) {
	arn := strings.Replace(school, "table: School", "table: arn:aws:dynamodb:eu-west-1:123456789012:table/School", 1)
	if _, err := mapping.Parse("arn.yaml", []byte(arn)); err != nil {
		t.Error(err)
	}
}

func TestTheBaseOfTheBrokenMappingsIsValid(t *testing.T) {
	if _, err := mapping.Parse("school.yaml", []byte(school)); err != nil {
		t.Fatal(err)
	}
}

// openOrders is Alex DeBrie's sparse index of open orders: only the open
// ones carry GSI1PK and GSI1SK.
const openOrders = `
table: Shop
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  orders:
    keys: {PK: "CUSTOMER#{Username}", SK: "ORDER#{date}#{OrderId}", GSI1PK: "OPEN", GSI1SK: "{date}#{OrderId}"}
    columns: {Username: S, date: S, OrderId: S, Status: S}
    optional: [GSI1]
`

// dynosql takes a row to be in a sparse index when it has the columns of
// the index's keys. An index whose templates hold only literal text and
// the base key's columns, which every row has, would look complete: a
// read through it would miss the rows it does not hold (COUNT(*) gave
// 2 orders of 4), and every INSERT would put the row in it.
func TestAnOptionalIndexMustHoldAColumnOfItsOwn(t *testing.T) {
	refused := []struct{ name, mapping string }{
		{"a literal and the base key's columns", openOrders},
		{"the base key's columns only", strings.Replace(school, "    columns: {student_id: S, course_id: S}\n",
			"    columns: {student_id: S, course_id: S}\n    optional: [GSI1]\n", 1)},
	}
	for _, tc := range refused {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			_, err := mapping.Parse("shop.yaml", []byte(tc.mapping))
			if err == nil {
				t.Fatal("Parse accepted an optional index no row can tell it is in")
			}
			if !errors.Is(err, errs.Mapping) {
				t.Errorf("error kind = %v, want mapping", errs.As(err).Kind)
			}
			for _, w := range []string{"shop.yaml", ".optional", "GSI1 cannot be optional for", "hold no column but the table key's"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if h := errs.As(err).Hint; !strings.Contains(h, "a column only the rows in GSI1 hold") || !strings.Contains(h, "leave GSI1's keys out of") {
				t.Errorf("hint %q does not say what to do", h)
			}
		})
	}
	accepted := []struct{ name, old, new string }{
		{"a column of its own", `GSI1PK: "OPEN"`, `GSI1PK: "OPEN#{open_since}"`},
		{"a column of its own in the sort key", `GSI1SK: "{date}#{OrderId}"`, `GSI1SK: "{opened}#{OrderId}"`},
		{"a non-optional index", "    optional: [GSI1]\n", ""},
	}
	for _, tc := range accepted {
		t.Run(tc.name+" is accepted", func(t *testing.T) {
			src := strings.Replace(openOrders, tc.old, tc.new, 1)
			src = strings.Replace(src, "Status: S}", "Status: S, open_since: S, opened: S}", 1)
			if _, err := mapping.Parse("shop.yaml", []byte(src)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A copied column inside a key template is refused: a fan-out sets the
// copy attribute alone, so the key (and the item's place in the index)
// would keep the old value, and reads parse the column back from the key.
func TestACopyInsideAKeyTemplateIsRefused(t *testing.T) {
	const blog = `
table: Blog
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
  ByName: {partition_key: GSI2PK, sort_key: GSI2SK}
entities:
  users:
    keys: {PK: "U#{id}", SK: "U"}
    columns: {id: S, name: S}
  posts:
    keys: {PK: "P#{pid}", SK: "P", GSI1PK: "U#{authorId}", GSI1SK: "P#{pid}", GSI2PK: "N#{authorName}", GSI2SK: "P#{pid}"}
    columns: {pid: S, authorId: S, authorName: S, title: S}
    optional: [ByName]
    copies:
      authorName: {from: users.name, key: authorId}
`
	_, err := mapping.Parse("blog.yaml", []byte(blog))
	for _, w := range []string{"blog.yaml", "entities.posts.copies.authorName", `part of the key GSI2PK = "N#{authorName}"`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Parse: %v; want a refusal mentioning %q", err, w)
		}
	}
	if _, err := mapping.Parse("blog.yaml", []byte(strings.Replace(blog, `GSI2PK: "N#{authorName}"`, `GSI2PK: "N#{title}"`, 1))); err != nil {
		t.Errorf("the same mapping with the index keyed by title: %v", err)
	}
}

// A copy of a copy is refused (a fan-out writes the copy attribute and
// does not fan out again from it, so the last copy would keep the old
// value), and so is a copy keyed by a column of another type than the
// source's key (copies are found by the key's text: 8 never finds '08').
func TestCopiesThatWouldGoStaleAreRefused(t *testing.T) {
	const chain = `
table: Chain
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  users:
    keys: {PK: "U#{id}", SK: "U"}
    columns: {id: S, name: S}
  posts:
    keys: {PK: "P#{pid}", SK: "P", GSI1PK: "U#{authorId}", GSI1SK: "P#{pid}"}
    columns: {pid: S, authorId: S, authorName: S}
    copies:
      authorName: {from: users.name, key: authorId}
  cmts:
    keys: {PK: "C#{cid}", SK: "C", GSI1PK: "P#{postId}", GSI1SK: "C#{cid}"}
    columns: {cid: S, postId: S, postAuthor: S}
    copies:
      postAuthor: {from: posts.authorName, key: postId}
`
	legal := strings.Replace(chain, "{from: posts.authorName, key: postId}", "{from: posts.pid, key: postId}", 1)
	if _, err := mapping.Parse("chain.yaml", []byte(legal)); err != nil {
		t.Fatalf("the same mapping copying the post's own column: %v", err)
	}
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a copy of a copy", chain, []string{"entities.cmts.copies.postAuthor.from", "posts.authorName is itself a copy (of users.name)"}},
		{"a copy keyed by a number, its source by a string", strings.Replace(legal, "columns: {pid: S, authorId: S,", "columns: {pid: S, authorId: N,", 1),
			[]string{"entities.posts.copies.authorName.key", "authorId is N, and the key id of users is S"}},
	} {
		_, err := mapping.Parse("chain.yaml", []byte(tc.src))
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want a refusal mentioning %q", tc.name, err, w)
			}
		}
	}
}

// A number holds no '#': ISSUE#{n} with n a number and ISSUE#{n}#C#{cid}
// never match one key, so the mapping loads; with n a string they can
// ("ISSUE#1#C#c1" is an issue numbered "1#C#c1"), and it is refused, as
// is ISSUE#{n}.{minor} next to ISSUE#{n} (a number holds '.').
func TestANumberColumnTellsAChildsKeysApart(t *testing.T) {
	tree := func(numberType, child string) string {
		return `
table: Tree
partition_key: PK
sort_key: SK
entities:
  issues:
    keys: {PK: "R#{repo}", SK: "ISSUE#{number}"}
    columns: {repo: S, number: ` + numberType + `, title: S}
  children:
    keys: {PK: "R#{repo}", SK: "` + child + `"}
    columns: {repo: S, number: ` + numberType + `, cid: N}
`
	}
	for _, c := range []struct {
		numberType, child string
		apart             bool
	}{
		{"N", "ISSUE#{number}#C#{cid}", true},
		{"S", "ISSUE#{number}#C#{cid}", false},
		{"N", "ISSUE#{number}.{cid}", false},
	} {
		_, err := mapping.Parse("tree.yaml", []byte(tree(c.numberType, c.child)))
		switch {
		case c.apart && err != nil:
			t.Errorf("number %s, child %s: %v", c.numberType, c.child, err)
		case !c.apart && (err == nil || !strings.Contains(err.Error(), "cannot be told apart")):
			t.Errorf("number %s, child %s: err = %v, want refused", c.numberType, c.child, err)
		}
	}
}
