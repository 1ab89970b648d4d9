package dynosql_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// postJoined compares posts.authorName with a join to the author.
func postJoined(ids string) check {
	return check{
		sql:    "SELECT id, authorName FROM posts WHERE id IN (" + ids + ")",
		sqlite: "SELECT p.id, u.name FROM posts p LEFT JOIN users u ON u.id = p.authorId WHERE p.id IN (" + ids + ")",
	}
}

// checkKey returns the source key of a fan-out transaction's check, or "".
func checkKey(in any) string {
	tx, ok := in.(*dynamodb.TransactWriteItemsInput)
	if !ok || len(tx.TransactItems) == 0 || tx.TransactItems[0].ConditionCheck == nil {
		return ""
	}
	s, _ := tx.TransactItems[0].ConditionCheck.Key["PK"].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// An upsert inserts one author (with a post written before it) and
// renames another. A later rename of the inserted author overtakes the
// fill of its post (that rename fans out itself): the upsert still
// rewrites the renamed author's posts.
func TestAnOvertakenFillLeavesTheUpsertsUpdatedRowsInStep(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			var fx *testkit.Fixture
			var errB error
			fx = testkit.Load(t, b, "blog", beforeRequest(func(_ string, in any) {
				if checkKey(in) == "USER#957" && armed.CompareAndSwap(true, false) {
					_, errB = fx.DB.Exec(context.Background(), "UPDATE users SET name = 'Later' WHERE id = '957'")
				}
			}))
			early := "INSERT INTO posts (id, authorId, title) VALUES ('p957', '957', 'Early')"
			exec(t, fx, early, early)
			armed.Store(true)
			sql := "INSERT INTO users (id, name) VALUES ('957', 'New'), ('12', 'Renamed') ON DUPLICATE KEY UPDATE name = 'Renamed'"
			_, err := fx.DB.Exec(context.Background(), sql)
			t.Logf("upsert: %v", err)
			if errB != nil || armed.Load() {
				t.Fatalf("later rename: %v (ran: %v)", errB, !armed.Load())
			}
			oracleExec(t, fx, "INSERT INTO users (id, name) VALUES ('957', 'Later')", "UPDATE users SET name = 'Renamed' WHERE id = '12'")
			agree(t, fx, postJoined("'p957', 'p001', 'p002', 'p003'"))
		})
	}
}

// An upsert inserts one row and updates another; the fill of the
// inserted row's earlier copies fails. The REPAIR COPIES the error names
// covers the updated row too, whose copies were not rewritten.
func TestAnUpsertWhoseFillFailsNamesTheUpdatedRowsToo(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			fx := testkit.Load(t, b, "blog", refuseTransactions(&armed, "USER#951"))
			early := "INSERT INTO posts (id, authorId, title) VALUES ('p951', '951', 'Early')"
			exec(t, fx, early, early)
			armed.Store(true)
			sql := "INSERT INTO users (id, name) VALUES ('951', 'New'), ('12', 'Renamed') ON DUPLICATE KEY UPDATE name = 'Renamed'"
			_, err := fx.DB.Exec(context.Background(), sql)
			armed.Store(false)
			if err == nil {
				t.Fatal("no error")
			}
			t.Logf("error: %v", err)
			oracleExec(t, fx, "INSERT INTO users (id, name) VALUES ('951', 'New')", "UPDATE users SET name = 'Renamed' WHERE id = '12'")
			repair := repairIn(t, err)
			exec(t, fx, repair, "")
			agree(t, fx, postJoined("'p951', 'p001', 'p002', 'p003'"))
		})
	}
}

// A transaction inserts two authors, each with a post written before
// it. The first author's fill is overtaken by a rename (which fans out
// itself): the second author's post is filled all the same.
func TestATransactionFillsEveryStatementsCopies(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			var fx *testkit.Fixture
			var errB error
			fx = testkit.Load(t, b, "blog", beforeRequest(func(_ string, in any) {
				if checkKey(in) == "USER#952" && armed.CompareAndSwap(true, false) {
					_, errB = fx.DB.Exec(context.Background(), "UPDATE users SET name = 'Renamed' WHERE id = '952'")
				}
			}))
			ctx := context.Background()
			for _, s := range []string{
				"INSERT INTO posts (id, authorId, title) VALUES ('p952', '952', 'Early')",
				"INSERT INTO posts (id, authorId, title) VALUES ('p953', '953', 'Early')",
			} {
				exec(t, fx, s, s)
			}
			tx := fx.DB.Begin()
			for _, s := range []string{
				"INSERT INTO users (id, name) VALUES ('952', 'First')",
				"INSERT INTO users (id, name) VALUES ('953', 'Second')",
			} {
				if _, err := tx.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			armed.Store(true)
			_, err := tx.Commit(ctx)
			t.Logf("COMMIT: %v", err)
			if errB != nil || armed.Load() {
				t.Fatalf("rename: %v (ran: %v)", errB, !armed.Load())
			}
			oracleExec(t, fx, "INSERT INTO users (id, name) VALUES ('952', 'Renamed')", "INSERT INTO users (id, name) VALUES ('953', 'Second')")
			agree(t, fx, postJoined("'p952', 'p953'"))
		})
	}
}

// As above, the first statement's fill failing: the REPAIR COPIES the
// error names must cover the second statement's rows, never filled.
func TestATransactionFillFailureNamesEveryStatementsRows(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			fx := testkit.Load(t, b, "blog", refuseTransactions(&armed, "USER#954"))
			ctx := context.Background()
			for _, s := range []string{
				"INSERT INTO posts (id, authorId, title) VALUES ('p954', '954', 'Early')",
				"INSERT INTO posts (id, authorId, title) VALUES ('p955', '955', 'Early')",
			} {
				exec(t, fx, s, s)
			}
			tx := fx.DB.Begin()
			for _, s := range []string{
				"INSERT INTO users (id, name) VALUES ('954', 'First')",
				"INSERT INTO users (id, name) VALUES ('955', 'Second')",
			} {
				if _, err := tx.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				oracleExec(t, fx, s)
			}
			armed.Store(true)
			_, err := tx.Commit(ctx)
			armed.Store(false)
			if err == nil {
				t.Fatal("no error")
			}
			t.Logf("COMMIT: %v", err)
			exec(t, fx, repairIn(t, err), "")
			agree(t, fx, postJoined("'p954', 'p955'"))
		})
	}
}

// A statement canceled in the middle of its parallel fan-outs names
// a REPAIR COPIES that brings every copy in step.
func TestCanceledFanOutsNameTheirRepair(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var n atomic.Int32
			fx := testkit.Load(t, b, "blog", dynosql.WithConcurrency(3), beforeRequest(func(_ string, in any) {
				if checkKey(in) != "" && n.Add(1) == 2 {
					cancel()
				}
			}))
			ids := "'1', '2', '3', '5', '7', '8', '9', '12', '15', '20'"
			sql := "UPDATE users SET name = 'X' WHERE id IN (" + ids + ")"
			res, err := fx.DB.Exec(ctx, sql)
			t.Logf("result %+v, error: %v", res, err)
			if _, err := fx.Oracle.Exec(sql); err != nil {
				t.Fatal(err)
			}
			if err == nil {
				t.Fatal("no error")
			}
			repair := repairIn(t, err)
			t.Logf("repair: %s", repair)
			exec(t, fx, repair, "")
			if drift := query(t, fx.DB, "CHECK COPIES FOR users WHERE id IN ("+ids+")"); len(drift) != 0 {
				t.Errorf("%d copies differ after the REPAIR the error named, e.g. %v", len(drift), drift[0])
			}
		})
	}
}

// refuseTransactions makes DynamoDB refuse, once armed, every
// TransactWriteItems whose first action checks the item of partition key
// pk (a fan-out's check of its source), or every one when pk is "".
func refuseTransactions(armed *atomic.Bool, pk string) dynosql.Option {
	return testkit.Hook("refuse", func(ctx context.Context, op string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if op == "TransactWriteItems" && armed.Load() && (pk == "" || checkKey(in.Parameters) == pk) {
			return middleware.InitializeOutput{}, middleware.Metadata{}, &smithy.GenericAPIError{Code: "ValidationException", Message: "injected", Fault: smithy.FaultClient}
		}
		return next.HandleInitialize(ctx, in)
	})
}

// oracleExec runs statements on SQLite, as dynosql ran them, and
// returns the rows they affected.
func oracleExec(t *testing.T, fx *testkit.Fixture, stmts ...string) (affected int64) {
	t.Helper()
	for _, s := range stmts {
		n, err := fx.Oracle.Exec(s)
		if err != nil {
			t.Fatalf("sqlite %s: %v", s, err)
		}
		affected += n
	}
	return affected
}
