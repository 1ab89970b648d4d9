package testkit

import (
	"os"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/mapping"
)

// RandomDataset is a dataset of testdata/ the random statements run on,
// with what its mapping does not say: which columns join, and values the
// statements should ask for besides those drawn from its rows.
type RandomDataset struct {
	Name  string
	Edges []Edge
	// Extra are values per entity.column, present in the rows or not.
	Extra map[string][]string
	// Rows are dataset lines added to data.jsonl.
	Rows  string
	Likes map[string][]string
}

// RandomDatasets are the datasets of the random differential test:
// school (an adjacency list read both ways through GSI1, with rows whose
// text holds LIKE's special characters) and storefront (composite sort
// keys with literal text after the last column, a number sort key, and a
// number inside a string key).
var RandomDatasets = []RandomDataset{
	{
		Name: "school",
		Edges: []Edge{
			{"enrollments.student_id", "students.id"},
			{"enrollments.course_id", "courses.id"},
			{"enrollments.course_id", "enrollments.course_id"},   // classmates, through GSI1
			{"enrollments.student_id", "enrollments.student_id"}, // a student's other courses
		},
		// Ann (a91), the student without enrollments (k42), the big course
		// (cs101), and keys of likeRows (a00, zz9, cs1, nope, a_1).
		Extra: map[string][]string{
			"students.id":            {"a91", "a91", "c12", "k42", "a00", "zz9", "nobody"},
			"courses.id":             {"cs101", "math204", "sem100", "cs1", "nope"},
			"enrollments.student_id": {"a91", "k42", "c12", "a_1", "a%1", "zz9"},
			"enrollments.course_id":  {"cs101", "math204", "phys110", "ma_th1", "cs%1", "nope"},
		},
		Rows:  likeRows,
		Likes: schoolLikes,
	},
	{
		Name: "storefront",
		Edges: []Edge{
			{"orders.customer", "customers.id"},
			{"posts.author", "customers.id"},
			{"orders.customer", "orders.customer"}, // a customer's other orders
		},
		// The busy customer, one without orders, ids holding separators.
		Extra: map[string][]string{
			"customers.id":    {"c07", "c13", "c21", "c99"},
			"orders.customer": {"c07", "c07", "c13", "c21"},
			"orders.id":       {"o#1", "x#ITEM", "ORDER#9#ITEM", "o0042"},
			"orders.status":   {"open", "paid", "shipped", "cancelled", "lost"},
			"orders.date":     {"2024-05-20", "2023-08-06", "2025"},
			"posts.id":        {"7", "1000", "404"},
			"posts.author":    {"c07", "c34", "c13"},
		},
	},
}

// rows reads the dataset's mapping and rows.
func (d RandomDataset) rows() (*mapping.Mapping, []backend.DatasetRow, error) {
	m, err := mapping.Load(Testdata(d.Name, "mapping.yaml"))
	if err != nil {
		return nil, nil, err
	}
	data, err := os.ReadFile(Testdata(d.Name, "data.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	rows, err := backend.ReadDataset(strings.NewReader(string(data)+d.Rows), m)
	return m, rows, err
}

// Schema returns the generator's schema of the dataset.
func (d RandomDataset) Schema() (*Schema, error) {
	m, rows, err := d.rows()
	if err != nil {
		return nil, err
	}
	return NewSchema(m, rows, d.Edges, d.Extra, d.Likes)
}

// Load loads the dataset, with its added rows, into a fresh table on b
// and into SQLite.
func (d RandomDataset) Load(t testing.TB, b Backend, opts ...dynosql.Option) *Fixture {
	t.Helper()
	m, rows, err := d.rows()
	if err != nil {
		t.Fatal(err)
	}
	return LoadRows(t, b, m, rows, opts...)
}
