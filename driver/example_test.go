package driver_test

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/driver"
)

// sql.Open with demo=1 serves the built-in school dataset from an
// in-memory DynamoDB; db.Close stops it. Point a real program at a
// mapping file and an endpoint instead:
//
//	sql.Open("dynosql", "mapping=mapping.yaml&endpoint=http://127.0.0.1:8000&region=us-east-1")
func Example() {
	db, err := sql.Open("dynosql", "demo=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()

	rows, err := db.Query(`
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
		var grade sql.NullString
		if err := rows.Scan(&title, &grade); err != nil {
			fmt.Println(err)
			return
		}
		if !grade.Valid {
			grade.String = "(no grade yet)"
		}
		fmt.Printf("%-20s %s\n", title, grade.String)
	}
	if err := rows.Err(); err != nil {
		fmt.Println(err)
		return
	}
	// Output:
	// Drawing Studio       F
	// Intro to Programming D
	// Linear Algebra       B
	// Mechanics            (no grade yet)
	// Modern History       B
}

// NewConnector puts database/sql in front of a *dynosql.DB the program
// opened itself. Column types are the DynamoDB types of the mapping.
func ExampleNewConnector() {
	ctx := context.Background()
	ddb, err := dynosql.OpenDemo(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = ddb.Close() }()
	db := sql.OpenDB(driver.NewConnector(ddb))
	defer func() { _ = db.Close() }()

	rows, err := db.QueryContext(ctx, "SELECT * FROM courses WHERE id = ?", "sem100")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = rows.Close() }()
	types, err := rows.ColumnTypes()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range types {
		fmt.Printf("%s %s\n", t.Name(), t.DatabaseTypeName())
	}
	for rows.Next() {
		var id, title string
		var credits sql.NullInt64
		if err := rows.Scan(&id, &credits, &title); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(id, credits, title)
	}
	if err := rows.Err(); err != nil {
		fmt.Println(err)
		return
	}
	// Output:
	// id S
	// credits N
	// title S
	// sem100 {0 false} Freshman Seminar
}
