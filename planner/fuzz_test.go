package planner_test

import (
	"errors"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// FuzzPlan plans arbitrary statements against the school mapping: the
// planner must never panic, must return dynosql errors only, and every plan
// must print.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		"SELECT s.name, c.title, e.grade FROM students s JOIN enrollments e ON e.student_id = s.id JOIN courses c ON c.id = e.course_id WHERE c.id = 'math204'",
		"SELECT * FROM students WHERE name = 'Ann'",
		"SELECT grade, COUNT(*) FROM enrollments WHERE course_id IN ('a', 'b') GROUP BY grade HAVING COUNT(*) > 1 ORDER BY 2 DESC LIMIT 3",
		"SELECT s.id FROM students s LEFT JOIN enrollments e ON e.student_id = s.id AND e.course_id > 'h' WHERE s.id = 'k42'",
	} {
		f.Add(s)
	}
	m := loadMapping(f, "school")
	p := planner.New(m, planner.Options{})
	f.Fuzz(func(t *testing.T, sql string) {
		stmt, err := parser.Parse(sql)
		if err != nil {
			return
		}
		plan, err := p.Plan(sql, stmt, nil)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %T is not a dynosql error: %v", sql, err, err)
			}
			return
		}
		_ = plan.String()
		_ = plan.Requests()
	})
}
