package dynosql_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
)

// "Join a game" of the battle royale design (join_game.py): in one
// transaction, the player's mapping item and people = people + 1 guarded
// by people < 50. The 50th player gets in; the 51st is refused, and
// neither of its two writes lands. The table ends as SQLite does after
// the statements that succeeded.
func TestJoinGameIsOneTransactionAllOrNothing(t *testing.T) {
	const game = "c6f38a6a-d1c5-4bdf-8468-24692ccc4646" // 49 players
	join := func(user string) []string {
		return []string{
			"INSERT INTO game_players (game_id, username) VALUES ('" + game + "', '" + user + "')",
			"UPDATE games SET people = people + 1 WHERE game_id = '" + game + "' AND people < 50",
		}
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "battleroyale")
			ctx := context.Background()
			commit := func(stmts []string) error {
				tx := fx.DB.Begin()
				for _, s := range stmts {
					if _, err := tx.Exec(ctx, s); err != nil {
						t.Fatal(err)
					}
				}
				_, err := tx.Commit(ctx)
				return err
			}
			if err := commit(join("vlopez")); err != nil {
				t.Fatalf("the 50th player: %v", err)
			}
			oracleExec(t, fx, join("vlopez")...)
			err := commit(join("quietquinn"))
			var cf *dynosql.ConditionFailedError
			if !errors.As(err, &cf) || !strings.Contains(err.Error(), "statement 2") || !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("the 51st player: got %v, want a conflict naming the UPDATE", err)
			}
			// A player joining twice: the INSERT's row is there, which is
			// all an INSERT's condition can find.
			err = commit(join("vlopez"))
			if !errors.As(err, &cf) || !strings.Contains(err.Error(), "statement 1") || !strings.Contains(err.Error(), "a row with its key is already there") {
				t.Errorf("a player joining twice: got %v, want a conflict saying the INSERT's row is already there", err)
			}
			for _, q := range []string{
				"SELECT people FROM games WHERE game_id = '" + game + "'",
				"SELECT username FROM game_players WHERE game_id = '" + game + "' ORDER BY username",
				"SELECT game_id FROM game_players WHERE username = 'quietquinn'",
			} {
				want, err := fx.Oracle.Query(q)
				if err != nil {
					t.Fatal(err)
				}
				got, err := fx.Query(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if diff := oracle.SameRows(got, want, strings.Contains(q, "ORDER BY")); diff != "" {
					t.Errorf("%s\n%s", q, diff)
				}
			}
		})
	}
}

// What cannot join one TransactWriteItems is refused at the statement,
// before anything is sent, and the transaction goes on without it.
func TestTransactionsRefuseWhatOneRequestCannotHold(t *testing.T) {
	fx := testkit.Load(t, testkit.Backends()[1], "school")
	ctx := context.Background()
	tx := fx.DB.Begin()
	cases := []struct{ sql, want string }{
		{"SELECT name FROM students WHERE id = 'a91'", "reads inside a transaction"},
		{"UPDATE enrollments SET grade = 'A' WHERE course_id = 'cs101'", "full key"},
		{"UPDATE enrollments SET course_id = 'x' WHERE student_id = 'a91' AND course_id = 'cs101'", "sets a key column"},
	}
	for _, c := range cases {
		if _, err := tx.Exec(ctx, c.sql); !errors.Is(err, dynosql.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\ngot %v, want an unsupported error saying %q", c.sql, err, c.want)
		}
	}
	if _, err := tx.Exec(ctx, "UPDATE students SET year = 3 WHERE id = 'a91'"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM students WHERE id = 'a91'"); !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "same item (PK=STU#a91, SK=PROFILE)") {
		t.Errorf("a second write of one item: %v", err)
	}
	if tx.Statements() != 1 {
		t.Errorf("the transaction holds %d statements, want the one that could join", tx.Statements())
	}
}

// A transaction cannot say which rows it found, so a DELETE whose row is
// not there fails it, as an UPDATE's does, rather than count a row it did
// not delete; with every row there, COMMIT counts them.
func TestTransactionDeleteOfAMissingRowFailsIt(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			ctx := context.Background()
			commit := func(stmts ...string) (dynosql.Result, error) {
				tx := fx.DB.Begin()
				for _, s := range stmts {
					if _, err := tx.Exec(ctx, s); err != nil {
						t.Fatal(err)
					}
				}
				return tx.Commit(ctx)
			}
			_, err := commit("INSERT INTO students (id, name) VALUES ('tx1', 'New')", "DELETE FROM students WHERE id = 'nobody'")
			var cf *dynosql.ConditionFailedError
			if !errors.As(err, &cf) || !strings.Contains(err.Error(), "statement 2") {
				t.Fatalf("got %v, want a conflict naming the DELETE", err)
			}
			res, err := commit("INSERT INTO students (id, name) VALUES ('tx1', 'New')", "DELETE FROM students WHERE id = 'k42'")
			if err != nil || res.RowsAffected != 2 {
				t.Fatalf("got %+v, %v; want 2 rows affected", res, err)
			}
			oracleExec(t, fx, "INSERT INTO students (id, name) VALUES ('tx1', 'New')", "DELETE FROM students WHERE id = 'k42'")
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT id, name FROM students WHERE id IN ('tx1', 'k42', 'nobody')"})
		})
	}
}

// EXPLAIN sends nothing, in a transaction too: it is refused there, not
// carried out at COMMIT.
func TestExplainDoesNotJoinATransaction(t *testing.T) {
	fx := testkit.Load(t, testkit.Backends()[1], "school")
	ctx := context.Background()
	tx := fx.DB.Begin()
	for _, sql := range []string{
		"EXPLAIN UPDATE students SET name = 'EXPLAINED' WHERE id = 'a91'",
		"EXPLAIN ANALYZE DELETE FROM students WHERE id = 'a91'",
	} {
		if _, err := tx.Exec(ctx, sql); !errors.Is(err, dynosql.ErrUnsupported) {
			t.Errorf("%s in a transaction: got %v, want it refused", sql, err)
		}
	}
	if res, err := tx.Commit(ctx); err != nil || res.RowsAffected != 0 {
		t.Errorf("COMMIT: %+v, %v; want nothing written", res, err)
	}
	fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT id, name FROM students WHERE id = 'a91'"})
}

const numberKeysTxDesign = `
table: TxNum
partition_key: PK
sort_key: SK
type_attribute: _et
indexes:
  ByStatus: {partition_key: status, sort_key: due}
entities:
  items:
    type: Item
    keys: {PK: "A#{acct}", SK: "{n}", status: "{status}", due: "{due}"}
    columns: {acct: S, n: N, due: S, status: S, title: S, cnt: N}
    optional: [ByStatus]
`

const numberKeysTxRows = `{"entity":"items","row":{"acct":"a","n":1,"due":"2024-01","status":"open","title":"t1","cnt":1}}
{"entity":"items","row":{"acct":"a","n":2,"due":"2024-02","status":"open","title":"t2"}}
{"entity":"items","row":{"acct":"a","n":3,"title":"t3","cnt":3}}
`

// Transactions over a number sort key and a sparse index keyed in place
// (arithmetic, SET NULL of an index key, INSERT, a guarded DELETE) change
// what SQLite changes running the same statements one by one; one adding
// to a NULL column, which SQLite leaves NULL, is refused at COMMIT with
// the column named (a transaction reads nothing first).
func TestTransactionsOfNumberKeysAndSparseIndexes(t *testing.T) {
	txs := [][]string{
		{"UPDATE items SET cnt = cnt + 1 WHERE acct = 'a' AND n = 1", "UPDATE items SET status = NULL WHERE acct = 'a' AND n = 2"},
		{"UPDATE items SET cnt = cnt + 1 WHERE acct = 'a' AND n = 2", "INSERT INTO items (acct, n, title) VALUES ('a', 4, 't4')"},
		{"UPDATE items SET status = 'open', due = '2025' WHERE acct = 'a' AND n = 3", "DELETE FROM items WHERE acct = 'a' AND n = 1 AND cnt = 2"},
	}
	checks := []string{
		"SELECT n, due, status, title, cnt FROM items WHERE acct = 'a'",
		"SELECT acct, n FROM items WHERE status = 'open' AND due > '2000'",
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, numberKeysTxDesign, numberKeysTxRows)
			ctx := context.Background()
			for i, stmts := range txs {
				tx := fx.DB.Begin()
				var err error
				for _, s := range stmts {
					if _, err = tx.Exec(ctx, s); err != nil {
						break
					}
				}
				var res dynosql.Result
				if err != nil {
					_ = tx.Rollback()
					if b.Name != "embedded" || !errors.Is(err, dynosql.ErrUnsupported) {
						t.Errorf("tx %d: %v", i, err)
						continue
					}
					// README: the embedded backend rewrites an item to set
					// an index key, which no transaction can hold; run the
					// statements one by one to keep in step.
					for _, s := range stmts {
						r, err := fx.DB.Exec(ctx, s)
						if err != nil {
							t.Fatalf("%s: %v", s, err)
						}
						res.RowsAffected += r.RowsAffected
					}
				} else if res, err = tx.Commit(ctx); err != nil {
					// SQL leaves cnt + 1 NULL when cnt is NULL (1 row
					// affected); a transaction that cannot must say so.
					if i != 1 || !strings.Contains(err.Error(), "cnt is NULL") { // tx 1 adds to a NULL
						t.Errorf("tx %d %q: COMMIT: %v", i, stmts, err)
					}
					continue
				}
				if want := oracleExec(t, fx, stmts...); res.RowsAffected != want {
					t.Errorf("tx %d: %d rows affected, SQLite %d", i, res.RowsAffected, want)
				}
				for _, c := range checks {
					fx.AgreeWithSQLite(t, testkit.Select{SQL: c})
				}
			}
		})
	}
}

// A post written before its author holds NULL for the author's name; the
// transaction that inserts the author fills it once it is written (README,
// "Denormalized copies"), as a join to the author would then give it.
func TestATransactionInsertOfASourceFillsEarlierCopies(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "blog")
			ctx := context.Background()
			if _, err := fx.DB.Exec(ctx, "INSERT INTO posts (id, authorId, title) VALUES ('p900', '900', 'Early')"); err != nil {
				t.Fatal(err)
			}
			tx := fx.DB.Begin()
			for _, s := range []string{
				"INSERT INTO users (id, name) VALUES ('900', 'Zed')",
				"UPDATE posts SET title = 'Early, edited' WHERE id = 'p900'",
			} {
				if _, err := tx.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			if res, err := tx.Commit(ctx); err != nil || res.RowsAffected != 2 {
				t.Fatalf("COMMIT: %d rows affected, %v; want 2", res.RowsAffected, err)
			}
			got := query(t, fx.DB, "SELECT title, authorName FROM posts WHERE id = 'p900'")
			if len(got) != 1 || got[0][0] != "Early, edited" || got[0][1] != "Zed" {
				t.Errorf("post p900 reads %v, want [[Early, edited Zed]]", got)
			}
		})
	}
}

// A transaction the embedded backend refuses before sending it (a
// number its 64-bit floats would change) wrote nothing, and COMMIT must
// say so: it said "DynamoDB gave no answer: the transaction may or may
// not have been written", sending the user to look for rows that cannot
// be there. Its count is 0 and the table is as it was.
func TestATransactionRefusedBeforeSendingSaysNothingWasWritten(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, numberKeysTxDesign, numberKeysTxRows)
			ctx := context.Background()
			stmts := []string{
				"INSERT INTO items (acct, n, title) VALUES ('a', 1234567890123456789, 'big')",
				"UPDATE items SET title = 'x' WHERE acct = 'a' AND n = 3",
			}
			tx := fx.DB.Begin()
			for _, s := range stmts {
				if _, err := tx.Exec(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			res, err := tx.Commit(ctx)
			if err == nil {
				// DynamoDB Local holds 38 digits: the transaction lands.
				oracleExec(t, fx, stmts...)
			} else {
				if strings.Contains(err.Error(), "may or may not have been written") {
					t.Errorf("COMMIT refused before sending says it may have landed: %v", err)
				}
				if !errors.Is(err, dynosql.ErrInvalid) {
					t.Errorf("COMMIT: %v, want an invalid (refused before sending)", err)
				}
				if res.RowsAffected != 0 {
					t.Errorf("COMMIT: %d rows affected, want 0", res.RowsAffected)
				}
			}
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT n, title FROM items WHERE acct = 'a'"})
		})
	}
}

// SET NULL joins a transaction on DynamoDB; the embedded backend, whose
// REMOVE is a whole-item rewrite, refuses it, saying so: "it sets a key
// column" sent the user looking for a key the statement does not set
// (seen by the random write differential).
func TestATransactionsSetNullSaysWhyTheEmbeddedBackendRefusesIt(t *testing.T) {
	ctx := context.Background()
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, numberKeysTxDesign, numberKeysTxRows)
			tx := fx.DB.Begin()
			_, err := tx.Exec(ctx, "UPDATE items SET title = NULL WHERE acct = 'a' AND n = 3")
			if b.Name == "embedded" {
				if !errors.Is(err, dynosql.ErrUnsupported) || strings.Contains(err.Error(), "key column") || !strings.Contains(err.Error(), "embedded backend") {
					t.Errorf("SET NULL in a transaction: %v, want it refused as the embedded backend's rewrite", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Oracle.Exec("UPDATE items SET title = NULL WHERE acct = 'a' AND n = 3"); err != nil {
				t.Fatal(err)
			}
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT n, title FROM items WHERE acct = 'a'"})
		})
	}
}
