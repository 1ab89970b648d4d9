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
	// Embedded, when not 0, is the share of each seed's statements (the
	// first ones) that run on the embedded backend; DynamoDB Local runs
	// them all. minidyn evaluates every Query over the whole table: on a
	// design of a thousand items and more, under the race detector, a
	// statement costs it several times what it costs DynamoDB Local, and
	// all of them would take minutes.
	Embedded float64
}

// Statements returns how many of a seed's n statements run on the
// backend named b.
func (d RandomDataset) Statements(b string, n int) int {
	if b != "embedded" || d.Embedded == 0 {
		return n
	}
	return max(1, int(float64(n)*d.Embedded))
}

// RandomDatasets are the datasets of the random differential test: every
// design of testdata/. school (an adjacency list read both ways through
// GSI1, with rows whose text holds LIKE's special characters) and
// storefront (composite sort keys with literal text after the last
// column, a number sort key, and a number inside a string key) are our
// own; the published designs follow (testdata/README.md describes them
// and the values their Extra name).
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
	{
		// A sparse index (OpenGamesIndex: only open games) and an inverted
		// one (a user's games).
		Name:     "battleroyale",
		Embedded: 0.25, // 1904 items
		Edges: []Edge{
			{"game_players.game_id", "games.game_id"},
			{"game_players.username", "users.username"},
			{"game_players.game_id", "game_players.game_id"},   // a game's other players
			{"game_players.username", "game_players.username"}, // a player's other games, through InvertedIndex
			{"games.creator", "users.username"},
			{"games.gold", "users.username"},
		},
		// The busiest player, one in no game, a non-ASCII name; a game
		// open, one started, one finished; every map, Open Ocean's index
		// partition empty.
		Extra: map[string][]string{
			"users.username":        {"carrpatrick", "quietquinn", "zoë", "gstanley", "vlopez"},
			"game_players.username": {"carrpatrick", "quietquinn", "vlopez", "pboyd"},
			"game_players.game_id":  {"3d4285f0-e52b-401a-a59b-112b38c4a26b", "c9c3917e-30f3-4ba4-82c4-2e9a0e4d1cfd"},
			"games.game_id":         {"c6f38a6a-d1c5-4bdf-8468-24692ccc4646", "25cec5bf-e498-483e-9a00-a5f93b9ea7c7"},
			"games.map":             {"Green Grasslands", "Urban Underground", "Dirty Desert", "Juicy Jungle", "Open Ocean"},
			"games.open_timestamp":  {"2019-04-16T10:12:54", "2019-04-1"},
		},
	},
	{
		// Sparse GSIs on plain attributes (an escalated complaint, an
		// agent's communication) and a composite sort key read by a range
		// on its leading date.
		Name:     "complaints",
		Embedded: 0.25, // 1126 items
		Edges: []Edge{
			{"communications.complaint_id", "complaints.complaint_id"},
			{"communications.complaint_id", "communications.complaint_id"}, // a complaint's other messages
			{"complaints.customer_id", "complaints.customer_id"},           // a customer's other complaints
			{"complaints.escalated_to", "communications.agentID"},          // both ways through a sparse index
		},
		// The 120-message complaint, one without messages, the sample's;
		// the busiest agent, the one who never writes, the escalations'
		// agent; the busy customer and a non-ASCII one; a month.
		Extra: map[string][]string{
			"complaints.complaint_id":     {"Complaint2024", "Complaint0987", "Complaint123", "Complaint1444"},
			"communications.complaint_id": {"Complaint2024", "Complaint0987", "Complaint123"},
			"communications.agentID":      {"AgentA", "AgentB", "AgentH"},
			"communications.comm_date":    {"2024-05", "2025-06-24T09:33:58"},
			"complaints.customer_id":      {"custXYZ", "custÖZL"},
			"complaints.escalated_to":     {"AgentB", "AgentH"},
			"complaints.escalation_time":  {"2023-06-01"},
		},
	},
	{
		// One entity: a number sort key, two local indexes, one sparse
		// (IsOpen only on open orders).
		Name:     "customerorders",
		Embedded: 0.25, // 386 items, but three self-joins of 72 and 130 orders
		Edges: []Edge{
			{"orders.CustomerId", "orders.CustomerId"}, // a customer's other orders
		},
		// The example's customers, the monthly one, the one with the
		// partition over 100 items, one without open orders, a non-ASCII
		// key; dates in 2024-05 and the latest.
		Extra: map[string][]string{
			"orders.CustomerId":        {"alice@example.com", "bob@example.com", "carol@example.com", "dave@example.com", "erin0@example.com", "jürgen@example.com"},
			"orders.OrderId":           {"4", "31", "72", "130"},
			"orders.OrderCreationDate": {"20150131", "20240501", "20240531", "20250621"},
			"orders.IsOpen":            {"1", "0"},
		},
	},
	{
		// Overloaded GSIs, an order's partition holding five entities,
		// date ranges inside prefixed index sort keys, an entity-type
		// attribute.
		Name:     "onlineshop",
		Embedded: 0.25, // 1929 items
		Edges: []Edge{
			{"order_items.product_id", "products.product_id"},
			{"order_items.customer_id", "customers.customer_id"},
			{"order_items.order_id", "invoices.order_id"},
			{"order_items.order_id", "order_items.order_id"}, // an order's other items
			{"invoices.invoice_id", "payments.invoice_id"},
			{"invoices.customer_id", "customers.customer_id"},
			{"warehouse_items.product_id", "products.product_id"},
			{"warehouse_items.warehouse_id", "warehouses.warehouse_id"},
			{"shipments.warehouse_id", "warehouses.warehouse_id"},
			{"shipments.shipment_id", "shipment_items.shipment_id"},
			{"shipment_items.product_id", "products.product_id"},
		},
		// The monthly customer and the one who never ordered; The Book
		// and the products never ordered; the empty warehouse and the
		// full ones; the model's order, invoice, shipments; a refunded
		// invoice; dates of 2020-06.
		Extra: map[string][]string{
			"customers.customer_id":        {"12345", "54321", "16180"},
			"order_items.customer_id":      {"12345", "54321"},
			"invoices.customer_id":         {"12345", "54321"},
			"order_items.product_id":       {"99887", "56325"},
			"products.product_id":          {"99887", "56325", "43606"},
			"order_items.order_id":         {"12345", "32166"},
			"invoices.order_id":            {"12345"},
			"invoices.invoice_id":          {"55443", "66596"},
			"payments.invoice_id":          {"55443", "66596"},
			"order_items.order_date":       {"2020-06", "2020-06-01", "2020-06-15", "2020-06-21"},
			"invoices.invoice_date":        {"2020-06", "2021-06-24T16:29:00"},
			"warehouses.warehouse_id":      {"99999", "12345", "23001"},
			"warehouse_items.warehouse_id": {"99999", "12345", "23001"},
			"shipments.warehouse_id":       {"99999", "23001"},
			"shipments.shipment_id":        {"88899", "98765"},
			"shipment_items.shipment_id":   {"88899", "98765"},
		},
	},
	{
		// No sort key, a number partition key, entities told apart by
		// ProductCategory, a column whose name holds a dot. The design
		// has no foreign keys: its edges read an Id as another entity
		// (which finds nothing, the item being of one category), a book
		// again by its own Id, and a price with cents as a key.
		Name: "productcatalog",
		Edges: []Edge{
			{"books.Id", "bicycles.Id"},
			{"books.Id", "books.Id"},
			{"books.Price", "sporting_goods.Id"},
			{"bicycles.Id", "home_improvement.Id"},
		},
		// The guide's items, each asked for as every entity; the first of
		// the generated ones, a book and a bicycle.
		Extra: map[string][]string{
			"books.Id":            {"101", "103", "1000", "1006", "123"},
			"bicycles.Id":         {"123", "201", "205", "1001", "1000"},
			"sporting_goods.Id":   {"456", "789", "101"},
			"home_improvement.Id": {"789", "456"},
			"books.Title":         {"C# in Depth"},
		},
	},
	{
		// No index: partitions named by a user or post with literal text
		// after the id, columns named follower#, like#.
		Name:     "social",
		Embedded: 0.5, // 1619 items, but small partitions and no index
		Edges: []Edge{
			{"followers.user_id", "users.user_id"},
			{"followers.follower_id", "users.user_id"},
			{"followers.follower_id", "following.user_id"}, // whom a follower follows
			{"following.following_id", "users.user_id"},
			{"following.user_id", "user_counts.user_id"},
			{"posts.user_id", "users.user_id"},
			{"posts.post_id", "like_counts.post_id"},
			{"likes.post_id", "like_counts.post_id"},
			{"likes.user_id", "users.user_id"},
			{"timeline.author_id", "users.user_id"},
			{"timeline.post_id", "likes.post_id"},
		},
		// The user with 120 followers, the one with nothing, one whose
		// timeline holds another's posts; a liked post and an unliked one.
		Extra: map[string][]string{
			"users.user_id":       {"12345", "99999", "33034", "92359"},
			"user_counts.user_id": {"12345", "99999"},
			"followers.user_id":   {"12345", "99999"},
			"following.user_id":   {"12345", "99999"},
			"posts.user_id":       {"12345", "99999"},
			"timeline.user_id":    {"12345", "33034"},
			"likes.post_id":       {"12345", "33042"},
			"like_counts.post_id": {"12345", "33042"},
		},
	},
	{
		// Keys lower-cased whole (key_casing: lower, as ElectroDB writes
		// them) over values in mixed case, collections sharing index
		// partitions, a sparse index (directReports).
		Name:     "taskmanager",
		Embedded: 0.25, // 220 items; a quarter keeps the suite within its time
		Edges: []Edge{
			{"tasks.employee", "employees.employee"},
			{"employees.officeName", "offices.officeName"},
			{"employees.manager", "employees.employee"},
			{"tasks.employee", "tasks.employee"},             // an employee's other tasks, through gsi3
			{"employees.officeName", "employees.officeName"}, // coworkers, through gsi1
			{"tasks.project", "tasks.project"},               // a project's other tasks, through gsi1
		},
		// The docs' employee and other spellings of the same key, the
		// office without staff, office and project names in other cases.
		Extra: map[string][]string{
			"employees.employee":   {"JLowe", "jlowe", "JLOWE", "nobody"},
			"tasks.employee":       {"JLowe", "jlowe"},
			"employees.manager":    {"JLowe", "jlowe"},
			"offices.officeName":   {"Portland", "portland", "GDAŃSK", "Gdańsk", "Lisbon"},
			"employees.officeName": {"Portland", "PORTLAND", "Gdańsk"},
			"tasks.project":        {"ABC-12", "abc-12", "Alpha", "alpha", "Q3 Launch"},
			"tasks.status":         {"open", "Open", "closed"},
			"employees.title":      {"Junior Software Engineer", "junior software engineer"},
			"employees.team":       {"marketing", "Marketing", "cool cats and kittens"},
		},
	},
	{
		// Posts by author through GSI1.
		Name: "blog",
		Edges: []Edge{
			{"posts.authorId", "users.id"},
			{"posts.authorId", "posts.authorId"}, // an author's other posts
		},
		// The author of 120 posts, the user without posts.
		Extra: map[string][]string{
			"users.id":       {"12", "20", "1"},
			"posts.authorId": {"12", "20"},
			"posts.id":       {"p001", "p120", "p200"},
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
