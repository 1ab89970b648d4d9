// Command gen writes the datasets testdata/<design>/data.jsonl (see
// datasets below and testdata/README.md). It is deterministic: the same
// source gives the same bytes, so the files are checked in and regenerated
// only when the generator changes. Run it from the module root: go run ./testdata/gen
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// line is one dataset row as ReadDataset expects it.
type line struct {
	Entity string         `json:"entity"`
	Row    map[string]any `json:"row"`
}

// datasets names each dataset's folder under testdata/ and its generator.
// Every generator seeds its own random stream, so adding one leaves the
// bytes of the others unchanged.
var datasets = []struct {
	dir string
	gen func() []line
}{
	{"school", school},
	{"blog", blog},
	{"battleroyale", battleRoyale},
	{"complaints", complaints},
	{"onlineshop", onlineShop},
	{"social", social},
	{"customerorders", customerOrders},
	{"productcatalog", productCatalog},
	{"storefront", storefront},
	{"taskmanager", taskManager},
}

func main() {
	for _, d := range datasets {
		if err := write(filepath.Join("testdata", d.dir, "data.jsonl"), d.gen()); err != nil {
			log.Fatal(err)
		}
	}
}

func write(path string, lines []line) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%v (run from the module root)", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// The school facts tests rely on; README.md lists them.
const (
	students    = 270      // enough for cs101 to have more than 250 enrollments
	bigCourse   = "cs101"  // the course with more than 250 enrollments
	bigCount    = 258      // its enrollments
	enrollments = 455      // all enrollments
	loner       = "k42"    // the student with no enrollment
	ann         = "a91"    // Ann Lee: math204 and four other courses
	annExactly  = "c12"    // the student named exactly 'Ann'
	noCredits   = "sem100" // the course without credits
)

var courses = []struct {
	id, title string
	credits   int
}{
	{"cs101", "Intro to Programming", 4},
	{"math204", "Linear Algebra", 4},
	{"phys110", "Mechanics", 6},
	{"hist120", "Modern History", 3},
	{"art150", "Drawing Studio", 2},
	{"chem130", "General Chemistry", 5},
	{"bio140", "Cell Biology", 4},
	{"econ210", "Microeconomics", 3},
	{"lit220", "World Literature", 3},
	{"stat230", "Probability", 4},
	{"phil160", "Ethics", 2},
	{noCredits, "Freshman Seminar", 0},
}

// Hand-written students: the ones tests name, and non-ASCII names.
var special = []struct{ id, name, email string }{
	{ann, "Ann Lee", "ann.lee@example.edu"},
	{annExactly, "Ann", "ann@example.edu"},
	{"b07", "Bruno Costa", "bruno.costa@example.edu"},
	{loner, "Rosa Quint", "rosa.quint@example.edu"},
	{"d33", "Zoë Kraus", "zoe.kraus@example.edu"},
	{"e18", "José Núñez", "jose.nunez@example.edu"},
	{"f56", "Łukasz Wójcik", "lukasz.wojcik@example.edu"},
	{"g71", "Søren Ågren", ""},
	{"h05", "Chloé Dubois", "chloe.dubois@example.edu"},
	{"j64", "Ngozi Okafor", "ngozi.okafor@example.edu"},
}

var firstNames = []string{"Liam", "Emma", "Noah", "Olivia", "Ava", "Ethan", "Mia", "Lucas", "Sofia", "Mason",
	"Isla", "Leo", "Nora", "Owen", "Ruby", "Eli", "Maya", "Ivan", "Lena", "Omar", "Hana", "Theo", "Iris", "Kai"}

var lastNames = []string{"Smith", "Garcia", "Chen", "Patel", "Kim", "Novak", "Silva", "Murphy", "Rossi", "Haddad",
	"Tanaka", "Meyer", "Okoro", "Larsen", "Dubois", "Moreau", "Ivanova", "Bakker", "Singh", "Walsh"}

var grades = []string{"A", "A", "B", "B", "B", "C", "C", "D", "E", "F"}

func school() []line {
	r := rand.New(rand.NewPCG(2024, 1))
	var out []line

	ids := map[string]bool{}
	var stu []line
	for _, s := range special {
		ids[s.id] = true
		row := map[string]any{"id": s.id, "name": s.name, "year": 1 + r.IntN(4)}
		if s.email != "" {
			row["email"] = s.email
		}
		stu = append(stu, line{"students", row})
	}
	for len(stu) < students {
		id := fmt.Sprintf("%c%02d", 'a'+r.IntN(26), r.IntN(100))
		if ids[id] {
			continue
		}
		ids[id] = true
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		row := map[string]any{"id": id, "name": first + " " + last}
		if r.IntN(10) > 0 {
			row["email"] = strings.ToLower(first+"."+last) + "." + id + "@example.edu"
		}
		if r.IntN(10) > 0 {
			row["year"] = 1 + r.IntN(4)
		}
		stu = append(stu, line{"students", row})
	}
	sortByID(stu, "id")
	out = append(out, stu...)

	var crs []line
	for _, c := range courses {
		row := map[string]any{"id": c.id, "title": c.title}
		if c.credits > 0 {
			row["credits"] = c.credits
		}
		crs = append(crs, line{"courses", row})
	}
	sortByID(crs, "id")
	out = append(out, crs...)

	var studentIDs []string
	for id := range ids {
		if id != loner {
			studentIDs = append(studentIDs, id)
		}
	}
	sort.Strings(studentIDs)
	pairs := map[[2]string]bool{}
	enroll := func(s, c string) {
		pairs[[2]string{s, c}] = true
	}
	for _, c := range []string{"math204", bigCourse, "phys110", "hist120", "art150"} {
		enroll(ann, c)
	}
	// cs101: every student but a few; shuffled so that who is left out
	// does not depend on the id order.
	shuffled := slices.Clone(studentIDs)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, s := range shuffled {
		if len(pairsOf(pairs, bigCourse)) >= bigCount {
			break
		}
		enroll(s, bigCourse)
	}
	// Everyone but the loner takes at least one course.
	for _, s := range studentIDs {
		if !pairs[[2]string{s, bigCourse}] && s != ann {
			enroll(s, courses[1+r.IntN(len(courses)-1)].id)
		}
	}
	for len(pairs) < enrollments {
		s := studentIDs[r.IntN(len(studentIDs))]
		if s != ann { // a91's courses are fixed above
			enroll(s, courses[1+r.IntN(len(courses)-1)].id)
		}
	}
	var enr []line
	for p := range pairs {
		row := map[string]any{"student_id": p[0], "course_id": p[1]}
		enr = append(enr, line{"enrollments", row})
	}
	sort.Slice(enr, func(i, j int) bool {
		a, b := enr[i].Row, enr[j].Row
		if a["student_id"] != b["student_id"] {
			return a["student_id"].(string) < b["student_id"].(string)
		}
		return a["course_id"].(string) < b["course_id"].(string)
	})
	// Grades and dates are drawn after sorting so that map order does
	// not leak into the output.
	for _, l := range enr {
		if r.IntN(100) >= 12 {
			l.Row["grade"] = grades[r.IntN(len(grades))]
		}
		l.Row["enrolledOn"] = fmt.Sprintf("%d-%02d-%02d", 2023+r.IntN(3), 1+r.IntN(12), 1+r.IntN(28))
	}
	return append(out, enr...)
}

func pairsOf(pairs map[[2]string]bool, course string) []string {
	var s []string
	for p := range pairs {
		if p[1] == course {
			s = append(s, p[0])
		}
	}
	return s
}

func sortByID(lines []line, col string) {
	sort.Slice(lines, func(i, j int) bool { return lines[i].Row[col].(string) < lines[j].Row[col].(string) })
}

// The blog facts tests rely on; README.md lists them.
const (
	prolific = "12" // Mara Vance, with more posts than one transaction holds
	manyPost = 120
)

var users = []struct{ id, name string }{
	{"1", "Ada Byrne"}, {"2", "Tomás Ortega"}, {"3", "Lin Wei"}, {"5", "Priya Nair"}, {"7", "Jonas Berg"},
	{"8", "Kemi Adeyemi"}, {"9", "Noor Haddad"}, {prolific, "Mara Vance"}, {"15", "Olek Nowak"}, {"20", "Sam Rivers"},
}

// postCounts gives every author's number of posts; user 20 has none.
var postCounts = map[string]int{"1": 9, "2": 11, "3": 8, "5": 12, "7": 10, "8": 7, "9": 13, "12": manyPost, "15": 10}

var (
	topics = []string{"Single-table design", "Key templates", "GSI overloading", "Sparse indexes", "Batch reads",
		"Conditional writes", "Transactions", "Denormalization", "Pagination", "Access patterns"}
	angles = []string{"in practice", "explained", "pitfalls", "for beginners", "at scale", "revisited", "notes", "a case study"}
	tags   = []string{"dynamodb", "sql", "go", "aws", "design", "nosql", "testing", "performance"}
)

func blog() []line {
	r := rand.New(rand.NewPCG(2024, 2))
	var out []line
	for _, u := range users {
		out = append(out, line{"users", map[string]any{"id": u.id, "name": u.name}})
	}
	var authors []string
	for _, u := range users {
		for range postCounts[u.id] {
			authors = append(authors, u.id)
		}
	}
	r.Shuffle(len(authors), func(i, j int) { authors[i], authors[j] = authors[j], authors[i] })
	names := map[string]string{}
	for _, u := range users {
		names[u.id] = u.name
	}
	for i, a := range authors {
		row := map[string]any{
			"id":         fmt.Sprintf("p%03d", i+1),
			"authorId":   a,
			"authorName": names[a],
			"title":      topics[r.IntN(len(topics))] + " " + angles[r.IntN(len(angles))],
		}
		if r.IntN(5) > 0 {
			perm := r.Perm(len(tags))[:1+r.IntN(3)]
			var t []string
			for _, k := range perm {
				t = append(t, tags[k])
			}
			row["tags"] = t
		}
		out = append(out, line{"posts", row})
	}
	return out
}
