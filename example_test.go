package dynosql_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/dynosql/dynosql"
)

// Ann Lee's courses and grades: one Query for her enrollments, one
// BatchGetItem for the courses, joined in the client. A NULL grade scans
// into *any as nil.
func Example_query() {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()

	rows, err := db.Query(ctx, `
		SELECT c.title, e.grade
		FROM enrollments e JOIN courses c ON c.id = e.course_id
		WHERE e.student_id = ?
		ORDER BY c.title`, "a91")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var title string
		var grade any
		if err := rows.Scan(&title, &grade); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-20s %v\n", title, grade)
	}
	if err := rows.Err(); err != nil {
		fmt.Println(err)
		return
	}
	// Output:
	// Drawing Studio       F
	// Intro to Programming D
	// Linear Algebra       B
	// Mechanics            <nil>
	// Modern History       B
}

// Explain shows the requests a statement would send, without sending any.
func ExampleDB_Explain() {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()

	plan, err := db.Explain("SELECT c.title FROM enrollments e JOIN courses c ON c.id = e.course_id WHERE e.student_id = ?", "a91")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan)
	// Output:
	// project c.title
	// └── lookup-join c.id = e.course_id
	//     ├── query School  key: (PK = "STU#a91") AND (begins_with (SK, "ENROLL#CRS#"))
	//     │       reads: enrollments e
	//     │       project: SK
	//     │       eventually consistent
	//     └── batch-get School  key: PK = "CRS#{e.course_id}", SK = "META"
	//             reads: courses c
	//             project: PK, title
	//             eventually consistent
	//             one request per 100 distinct keys of outer rows
}

// A statement that only a Scan could answer is refused before anything is
// sent; errors.As tells which table lacked a key.
func ExampleScanRefusedError() {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()

	_, err = db.Query(ctx, "SELECT id FROM students WHERE name = ?", "Ann Lee")
	var refused *dynosql.ScanRefusedError
	if errors.As(err, &refused) {
		fmt.Println("no key for", refused.Entity, "in table", refused.Table)
	}
	fmt.Println(err) // the message, then the hint on a line of its own
	// Output:
	// no key for students in table School
	// refused: reading students by name would need a Scan of School
	// hint: add WHERE students.id = ... (the key PK = STU#{id}), or add an index keyed on name; to read the whole table anyway, allow a Scan (--allow-scan; WithScans() in Go; allow_scan=1 in a DSN)
}

// A parse error points into the statement; Detail draws the caret.
func ExampleError() {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()

	_, err = db.Query(ctx, "SELECT name FROM students wher id = 'a91'")
	var e *dynosql.Error
	if errors.As(err, &e) {
		fmt.Println(e)
		fmt.Printf("kind %s, at byte %d: %s\n", e.Kind, e.Pos, e.SQL[e.Pos:])
		fmt.Print(e.Detail())
	}
	// Output:
	// syntax error at position 32 near 'id'
	// kind syntax, at byte 31: id = 'a91'
	//   SELECT name FROM students wher id = 'a91'
	//                                  ^
	// hint: did you mean WHERE?
}

// A multi-row INSERT is one TransactWriteItems: when one row already
// exists, none is written. k42 is the one student with no enrollment.
func ExampleDB_Exec() {
	ctx := context.Background()
	db, err := dynosql.OpenDemo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()

	const insert = "INSERT INTO enrollments (student_id, course_id, enrolledOn) VALUES (?, ?, ?), (?, ?, ?)"
	res, err := db.Exec(ctx, insert, "k42", "math204", "2026-01-05", "k42", "cs101", "2026-01-05")
	fmt.Println(res.RowsAffected, err)

	_, err = db.Exec(ctx, insert, "k42", "art150", "2026-01-06", "k42", "cs101", "2026-01-06")
	var cf *dynosql.ConditionFailedError
	if errors.As(err, &cf) {
		fmt.Println(cf.Entity, cf.Key["SK"])
	}
	fmt.Println(err)

	rows, err := db.Query(ctx, "SELECT course_id FROM enrollments WHERE student_id = 'k42'")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		fmt.Println(rows.Values()...)
	}
	// Output:
	// 2 <nil>
	// enrollments ENROLL#CRS#cs101
	// conflict: enrollments (student_id='k42', course_id='cs101') already exists; row 2 of 2; none of the rows was inserted
	// cs101
	// math204
}
