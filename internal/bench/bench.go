// Package bench sets up the figures of BENCHMARKS.md: the school dataset
// grown with what the figures read (a student of 100,000 enrollments, a
// course of 1,200 students), the scripts the command line runs, and, in
// its tests, DynamoDB Local loaded with them behind a delaying proxy
// (TestServe) and the embedded backend against DynamoDB Local
// (BenchmarkEmbedded). The hand-written programs dynosql is compared
// with live in byhand/.
package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// The names the figures read.
const (
	// BigStudent has StreamItems enrollments: one partition of about 15
	// MB, read by StreamSQL.
	BigStudent  = "big"
	StreamItems = 100_000
	// RosterCourse has RosterSize students, for a pipelined join's figure.
	RosterCourse = "r101"
	RosterSize   = 1200
	// Statements is the length of the scripts.
	Statements = 1000
)

// CoursesSQL is a student's courses: one Query of the student's
// partition, one BatchGetItem of the courses.
const CoursesSQL = "SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE s.id = '%s';\n"

// StreamSQL reads BigStudent's partition, page after page.
var StreamSQL = fmt.Sprintf("SELECT course_id, grade FROM enrollments WHERE student_id = '%s'", BigStudent)

// RosterSQL is RosterCourse's roster: its enrollments through GSI1, then
// the students' profiles.
var RosterSQL = fmt.Sprintf("SELECT s.name, e.grade FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = '%s'", RosterCourse)

// Rows returns the school dataset, RosterCourse and its students, and
// extra enrollments of BigStudent (StreamItems for the stream's figure;
// the embedded backend's figures grow the table with them); and the ids
// of the school's own students.
func Rows(m *mapping.Mapping, extra int) ([]backend.DatasetRow, []string, error) {
	f, err := os.Open(filepath.Join(moduleRoot(), "testdata", "school", "data.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }()
	rows, err := backend.ReadDataset(f, m)
	if err != nil {
		return nil, nil, err
	}
	var students []string
	for _, r := range rows {
		if r.Entity == "students" {
			students = append(students, r.Row["id"].(string))
		}
	}
	grades := []string{"A", "B", "C", "D"}
	add := func(entity string, row mapping.Row) {
		rows = append(rows, backend.DatasetRow{Entity: entity, Row: row})
	}
	add("students", mapping.Row{"id": BigStudent, "name": "Big Reader", "year": value.Number("4")})
	for i := range extra {
		add("enrollments", mapping.Row{"student_id": BigStudent, "course_id": fmt.Sprintf("x%06d", i),
			"grade": grades[i%len(grades)], "enrolledOn": "2026-09-01"})
	}
	add("courses", mapping.Row{"id": RosterCourse, "title": "Roster of Twelve Hundred", "credits": value.Number("3")})
	for i := range RosterSize {
		id := fmt.Sprintf("r%04d", i)
		add("students", mapping.Row{"id": id, "name": fmt.Sprintf("Student %04d", i), "year": value.Number("1")})
		add("enrollments", mapping.Row{"student_id": id, "course_id": RosterCourse, "grade": grades[i%len(grades)]})
	}
	return rows, students, nil
}

// Scripts writes the scripts the command line runs into dir:
// courses-same.sql, one student's courses Statements times, and
// courses-mixed.sql, Statements students' courses in turn (the plan
// cache then serves a statement only when its student comes round
// again).
func Scripts(dir string, students []string) error {
	same := strings.Repeat(fmt.Sprintf(CoursesSQL, "a91"), Statements)
	var mixed strings.Builder
	for i := range Statements {
		fmt.Fprintf(&mixed, CoursesSQL, students[i%len(students)])
	}
	if err := os.WriteFile(filepath.Join(dir, "courses-same.sql"), []byte(same), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "courses-mixed.sql"), []byte(mixed.String()), 0o644)
}

// SchoolMapping returns the path of the school mapping.
func SchoolMapping() string {
	return filepath.Join(moduleRoot(), "testdata", "school", "mapping.yaml")
}

// moduleRoot is two folders above this package's.
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return wd
		}
	}
}
