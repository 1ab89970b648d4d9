package backend_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dynosql/dynosql/internal/backend"
)

// The facts that testdata/README.md promises and other tests rely on.
func TestTheShippedDatasetsHoldWhatTheReadmeSays(t *testing.T) {
	read := func(name string) []backend.DatasetRow {
		f, err := os.Open(filepath.Join("..", "..", "testdata", name, "data.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = f.Close() }()
		rows, err := backend.ReadDataset(f, loadMapping(t, name))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	count := map[string]int{}
	perCourse := map[string]int{}
	enrolled := map[string]bool{}
	var a91 []string
	for _, r := range read("school") {
		count[r.Entity]++
		if r.Entity == "enrollments" {
			perCourse[r.Row["course_id"].(string)]++
			enrolled[r.Row["student_id"].(string)] = true
			if r.Row["student_id"] == "a91" {
				a91 = append(a91, r.Row["course_id"].(string))
			}
		}
	}
	var idle []string
	for _, r := range read("school") {
		if r.Entity == "students" && !enrolled[r.Row["id"].(string)] {
			idle = append(idle, r.Row["id"].(string))
		}
	}
	if count["courses"] != 12 || perCourse["cs101"] <= 250 || len(a91) < 4 || len(idle) != 1 || idle[0] != "k42" {
		t.Errorf("school: %v rows, cs101 has %d enrollments, a91 takes %v, students without courses %v",
			count, perCourse["cs101"], a91, idle)
	}

	names := map[string]string{}
	posts := map[string]int{}
	for _, r := range read("blog") {
		switch r.Entity {
		case "users":
			names[r.Row["id"].(string)] = r.Row["name"].(string)
		case "posts":
			author := r.Row["authorId"].(string)
			posts[author]++
			if r.Row["authorName"] != names[author] {
				t.Errorf("post %v: authorName %v, but user %s is %s", r.Row["id"], r.Row["authorName"], author, names[author])
			}
		}
	}
	if names["12"] != "Mara Vance" || posts["12"] <= 100 {
		t.Errorf("blog: user 12 is %q with %d posts, want Mara Vance with more than 100", names["12"], posts["12"])
	}
}
