// Package dynosql runs SQL against a DynamoDB single-table design.
//
// A mapping file describes the logical tables (entities) stored in one
// DynamoDB table: each entity's key templates (PK "STU#{id}", SK
// "PROFILE"), its columns with their DynamoDB types, and the indexes it
// takes part in (see package mapping). dynosql turns each statement into
// the key-based requests an expert would write — GetItem, Query,
// BatchGetItem, conditional writes, TransactWriteItems — joins on the
// client, and refuses, before sending anything, a statement that only a
// Scan could answer.
//
// # Opening a DB
//
// A DB needs a mapping and a DynamoDB client from aws-sdk-go-v2 (or
// anything with the methods of Client):
//
//	cfg, err := config.LoadDefaultConfig(ctx)
//	...
//	db, err := dynosql.OpenFile(ctx, "mapping.yaml", dynamodb.NewFromConfig(cfg))
//	...
//	defer db.Close()
//
// Open takes a mapping already loaded. OpenEmbedded and OpenDemo start an
// in-memory DynamoDB inside the process, for tests, examples and demos.
// Options set read consistency (WithConsistentReads), the requests a
// statement keeps in flight (WithConcurrency) and middleware for every
// request (WithRequestHook).
//
// # Queries and writes
//
//	rows, err := db.Query(ctx, "SELECT name, year FROM students WHERE id = ?", "a91")
//	...
//	defer rows.Close()
//	for rows.Next() {
//		var name string
//		var year sql.NullInt64
//		if err := rows.Scan(&name, &year); err != nil {
//			...
//		}
//	}
//	if err := rows.Err(); err != nil {
//		...
//	}
//
//	res, err := db.Exec(ctx, "UPDATE students SET year = ? WHERE id = ?", 3, "a91")
//
// Arguments fill the ? placeholders in order and are sent as DynamoDB
// values; they are never spliced into the SQL text. Rows stream: requests
// go out as Next asks for rows, and Close stops those still in flight.
//
// Explain plans a statement without sending anything and returns the
// plan, whose String method draws the requests as a tree:
//
//	project students.name, students.year
//	└── get-item School  key: PK = "STU#a91", SK = "PROFILE"
//	        reads: students
//	        project: PK, name, year
//	        eventually consistent
//
// # Errors
//
// Every error dynosql returns is an *Error: a kind to branch on with
// errors.Is (ErrSyntax, ErrRefused, ErrConflict, ...), a one-line
// message, the position in the statement where there is one, and a hint.
// Some failures carry more, for errors.As: ScanRefusedError names the
// table that had no key condition, ConditionFailedError the item a
// guarded write found in the wrong state, and BackendError the DynamoDB
// request that failed and the service's error code.
//
// # Concurrency
//
// A DB is safe for concurrent use by many goroutines; open one per
// mapping and share it. A Rows belongs to one goroutine, as in
// database/sql.
//
// # database/sql
//
// Package github.com/dynosql/dynosql/driver registers a database/sql
// driver named "dynosql" that runs statements through this package.
package dynosql
