package dynosql_test

import (
	"testing"

	"github.com/dynosql/dynosql/internal/ddblocal"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/mapping"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

func TestSelectsAgreeWithSQLite(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			for _, q := range testkit.SchoolSelects {
				t.Run(q.SQL, func(t *testing.T) { fx.AgreeWithSQLite(t, q) })
			}
		})
	}
}

// With a KEYS_ONLY or INCLUDE GSI1, reads through the index that need
// other attributes fetch the base items: the same statements must give
// the same rows. DynamoDB Local rejects a request for attributes the index
// does not project, so this also proves none is asked for.
func TestSelectsAgreeWithSQLiteThroughNarrowIndexes(t *testing.T) {
	for _, projection := range []string{"KEYS_ONLY", "INCLUDE"} {
		for _, b := range testkit.Backends() {
			t.Run(projection+"/"+b.Name, func(t *testing.T) {
				t.Parallel()
				fx := testkit.LoadWith(t, b, "school", func(m *mapping.Mapping) {
					m.Indexes["GSI1"].Projection = projection
					if projection == "INCLUDE" {
						m.Indexes["GSI1"].Include = []string{"grade"}
					}
				})
				if got := fx.Mapping.Indexes["GSI1"].Projection; got != projection {
					t.Fatalf("the table's GSI1 projects %s, want %s", got, projection)
				}
				for _, q := range testkit.SchoolSelects {
					t.Run(q.SQL, func(t *testing.T) { fx.AgreeWithSQLite(t, q) })
				}
			})
		}
	}
}

// x NOT IN (SELECT c ...) is true only when every c differs from x: a
// NULL c, or a NULL x with any row, makes it unknown; no rows at all make
// it true, NULL x included. (Not among SchoolSelects: through a KEYS_ONLY
// GSI1 an anti join that needs grade is refused, not answered.)
func TestNotInFollowsSQLsNulls(t *testing.T) {
	cases := []testkit.Select{
		{SQL: "SELECT s.id FROM students s WHERE s.id IN ('a91', 'w33') AND s.name NOT IN (SELECT e.grade FROM enrollments e WHERE e.course_id = 'lit220')"},
		{SQL: "SELECT s.id FROM students s WHERE s.id IN ('a91', 'w33') AND s.name NOT IN (SELECT e.grade FROM enrollments e WHERE e.course_id = 'lit220' AND e.grade IS NOT NULL)"},
		{SQL: "SELECT e.course_id, e.grade FROM enrollments e WHERE e.student_id = 'a91' AND e.grade NOT IN (SELECT c.title FROM courses c WHERE c.id = 'nosuch')"},
		{SQL: "SELECT e.course_id, e.grade FROM enrollments e WHERE e.student_id = 'a91' AND e.grade NOT IN (SELECT c.title FROM courses c WHERE c.id = 'cs101')"},
		// A column a LEFT JOIN left NULL: out when the subquery has rows,
		// in when it has none.
		{SQL: "SELECT s.id, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.course_id = 'nosuch' WHERE s.id IN ('a91', 'w33') AND e.course_id NOT IN (SELECT c.id FROM courses c WHERE c.id = 'cs101')"},
		{SQL: "SELECT s.id, e.course_id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.course_id = 'nosuch' WHERE s.id IN ('a91', 'w33') AND e.course_id NOT IN (SELECT c.id FROM courses c WHERE c.id = 'nosuch')"},
	}
	agreeOnEachBackend(t, "school", cases)
}

// agreeOnEachBackend loads the dataset on each backend and checks every
// case against SQLite.
func agreeOnEachBackend(t *testing.T, dataset string, cases []testkit.Select) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, dataset)
			for _, q := range cases {
				t.Run(q.SQL, func(t *testing.T) { fx.AgreeWithSQLite(t, q) })
			}
		})
	}
}

// Rows told apart by several values (DISTINCT, GROUP BY, a subquery's
// rows kept once per value) stay apart whatever bytes the values hold:
// ("p\x01Sq", "r") and ("p", "q\x01Sr") ran together when each value's
// key was followed by \x01.
func TestValuesHoldingControlBytesStayApart(t *testing.T) {
	const design = `
table: School
partition_key: PK
sort_key: SK
entities:
  students:
    keys: {PK: "STU#{id}", SK: "PROFILE"}
    columns: {id: S, name: S, email: S}
  enrollments:
    keys: {PK: "STU#{student_id}", SK: "ENROLL#CRS#{course_id}"}
    columns: {student_id: S, course_id: S, grade: S, enrolledOn: S}
`
	const rows = `{"entity":"students","row":{"id":"q01","name":"p","email":"q\u0001Sr"}}
{"entity":"students","row":{"id":"a91","name":"x","email":"y"}}
{"entity":"enrollments","row":{"student_id":"a91","course_id":"zz1","grade":"p\u0001Sq","enrolledOn":"r"}}
{"entity":"enrollments","row":{"student_id":"a91","course_id":"zz2","grade":"p","enrolledOn":"q\u0001Sr"}}
`
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, design, rows)
			for _, sql := range []string{
				"SELECT DISTINCT grade, enrolledOn FROM enrollments WHERE student_id = 'a91'",
				"SELECT grade, enrolledOn, COUNT(*) FROM enrollments WHERE student_id = 'a91' GROUP BY grade, enrolledOn",
				"SELECT s.id FROM students s WHERE s.id IN ('q01', 'a91') AND EXISTS (SELECT 1 FROM enrollments x WHERE x.student_id = 'a91' AND x.grade = s.name AND x.enrolledOn = s.email)",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
		})
	}
}
