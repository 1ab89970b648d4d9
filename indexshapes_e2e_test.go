package dynosql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

// indexShapes are mapped designs of the shapes people bring: numbers in
// sort keys (alone, inside a string, two in one key), local indexes
// (composite, keys-only), sparse global indexes keyed by a column in
// place, keys-only and INCLUDE global indexes, typed entities. Each has
// rows, and statements, reads and writes in order, whose answers and
// counts must be SQLite's (TestKeyShapesAgreeWithSQLite).
var indexShapes = []keyShape{
	{
		name: "a number inside a string sort key",
		mapping: `
table: Versions
partition_key: PK
sort_key: SK
entities:
  docs:
    keys: {PK: "D#{id}", SK: "V#{version}"}
    columns: {id: S, version: N, body: S}
`,
		rows: `{"entity":"docs","row":{"id":"a","version":-5,"body":"m5"}}
{"entity":"docs","row":{"id":"a","version":0,"body":"z"}}
{"entity":"docs","row":{"id":"a","version":1.5,"body":"h"}}
{"entity":"docs","row":{"id":"a","version":2,"body":"two"}}
{"entity":"docs","row":{"id":"a","version":9,"body":"nine"}}
{"entity":"docs","row":{"id":"a","version":10,"body":"ten"}}
{"entity":"docs","row":{"id":"a","version":100,"body":"hundred"}}
{"entity":"docs","row":{"id":"b","version":3,"body":"b3"}}
`,
		stmts: []string{
			"SELECT version, body FROM docs WHERE id = 'a' AND version > 9",
			"SELECT version FROM docs WHERE id = 'a' AND version BETWEEN 2 AND 10",
			"SELECT version FROM docs WHERE id = 'a' AND version < 2",
			"SELECT version FROM docs WHERE id = 'a' AND version <= 0",
			"SELECT version FROM docs WHERE id = 'a' ORDER BY version",
			"SELECT version FROM docs WHERE id = 'a' ORDER BY version DESC LIMIT 2",
			"SELECT version FROM docs WHERE id = 'a' ORDER BY version LIMIT 3",
			"SELECT version FROM docs WHERE id = 'a' AND version >= 1.5 ORDER BY version LIMIT 3",
			"SELECT version FROM docs WHERE id = 'a' AND version IN (10, 100, 1.50)",
			"SELECT version FROM docs WHERE id = 'a' AND version = 1.50",
			"SELECT COUNT(*) FROM docs WHERE id = 'a' AND version > 1",
			"SELECT MAX(version), MIN(version) FROM docs WHERE id = 'a'",
			"SELECT version FROM docs WHERE id IN ('a', 'b') AND version > 2 ORDER BY version DESC LIMIT 3",
			"UPDATE docs SET body = 'up' WHERE id = 'a' AND version > 9",
			"DELETE FROM docs WHERE id = 'a' AND version < 1",
			"SELECT version, body FROM docs WHERE id = 'a'",
		},
	},
	{
		name: "two numbers in a composite sort key",
		mapping: `
table: Seqs
partition_key: PK
sort_key: SK
entities:
  users:
    keys: {PK: "{uid}", SK: "PROFILE"}
    columns: {uid: S, name: S}
  orders:
    keys: {PK: "{uid}", SK: "O#{year}#{seq}"}
    columns: {uid: S, year: N, seq: N, amount: N}
`,
		rows: `{"entity":"users","row":{"uid":"u1","name":"Ann"}}
{"entity":"orders","row":{"uid":"u1","year":999,"seq":1,"amount":1}}
{"entity":"orders","row":{"uid":"u1","year":1000,"seq":1,"amount":2}}
{"entity":"orders","row":{"uid":"u1","year":2024,"seq":9,"amount":3}}
{"entity":"orders","row":{"uid":"u1","year":2024,"seq":10,"amount":4}}
{"entity":"orders","row":{"uid":"u1","year":2024,"seq":2,"amount":5}}
{"entity":"orders","row":{"uid":"u1","year":2025,"seq":1,"amount":6}}
`,
		stmts: []string{
			"SELECT year, seq FROM orders WHERE uid = 'u1' AND year > 999",
			"SELECT year, seq FROM orders WHERE uid = 'u1' AND year < 2024",
			"SELECT year, seq FROM orders WHERE uid = 'u1' AND year = 2024 AND seq > 2",
			"SELECT year, seq FROM orders WHERE uid = 'u1' AND year = 2024 ORDER BY seq DESC LIMIT 2",
			"SELECT year, seq FROM orders WHERE uid = 'u1' AND year = 2024 ORDER BY seq LIMIT 2",
			"SELECT year, seq FROM orders WHERE uid = 'u1' ORDER BY year DESC, seq DESC LIMIT 3",
			"SELECT year, seq FROM orders WHERE uid = 'u1' ORDER BY year, seq LIMIT 4",
			"SELECT COUNT(*) FROM orders WHERE uid = 'u1' AND year >= 1000",
			"SELECT u.name, o.year, o.seq FROM users u JOIN orders o ON o.uid = u.uid WHERE u.uid = 'u1' AND o.year = 2024 AND o.seq >= 9",
			"SELECT year, seq FROM orders WHERE uid = 'u1' AND year = 2024 AND seq BETWEEN 2 AND 9",
		},
	},
	{
		name: "a number sort key of a sparse global index",
		mapping: `
table: Scores
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: score}
entities:
  players:
    keys: {PK: "P#{id}", SK: "P#{id}", GSI1PK: "G#{game}", score: "{score}"}
    columns: {id: S, game: S, score: N, name: S}
    optional: [GSI1]
`,
		rows: `{"entity":"players","row":{"id":"1","game":"g","score":-5,"name":"a"}}
{"entity":"players","row":{"id":"2","game":"g","score":10,"name":"b"}}
{"entity":"players","row":{"id":"3","game":"g","score":9,"name":"c"}}
{"entity":"players","row":{"id":"4","game":"g","name":"d"}}
{"entity":"players","row":{"id":"5","game":"g","score":0.5,"name":"e"}}
{"entity":"players","row":{"id":"6","score":100,"name":"f"}}
{"entity":"players","row":{"id":"7","game":"h","score":1,"name":"g"}}
`,
		stmts: []string{
			"SELECT id, score FROM players WHERE game = 'g' AND score > 0",
			"SELECT id, score FROM players WHERE game = 'g' AND score IS NOT NULL ORDER BY score DESC LIMIT 2",
			"SELECT id, score FROM players WHERE game = 'g' AND score IS NOT NULL ORDER BY score LIMIT 2",
			"SELECT id FROM players WHERE game = 'g' AND score BETWEEN -10 AND 9",
			"SELECT COUNT(*) FROM players WHERE game = 'g' AND score < 10",
			"SELECT id, name, game, score FROM players WHERE id IN ('4', '6')",
			"UPDATE players SET score = 11 WHERE id = '4'",
			"SELECT id, score FROM players WHERE game = 'g' AND score > 9",
			"UPDATE players SET score = NULL WHERE game = 'g' AND score > 10",
			"SELECT id, score FROM players WHERE game = 'g' AND score > -100",
			"UPDATE players SET game = 'h' WHERE id = '6'",
			"SELECT id, score FROM players WHERE game = 'h' AND score >= 1",
			"SELECT p.id, q.id FROM players p JOIN players q ON q.game = p.game AND q.score > p.score WHERE p.id = '7'",
		},
	},
	{
		name: "a local index keyed by a composite template",
		mapping: `
table: Tickets
partition_key: PK
sort_key: SK
indexes:
  LSI1: {local: true, sort_key: LSI1SK}
entities:
  tickets:
    keys: {PK: "Q#{queue}", SK: "T#{id}", LSI1SK: "S#{status}#{opened}"}
    columns: {queue: S, id: S, status: S, opened: S, title: S}
    optional: [LSI1]
`,
		rows: `{"entity":"tickets","row":{"queue":"q","id":"1","status":"open","opened":"2024-01-05","title":"a"}}
{"entity":"tickets","row":{"queue":"q","id":"2","status":"open","opened":"2024-02-01","title":"b"}}
{"entity":"tickets","row":{"queue":"q","id":"3","status":"closed","opened":"2024-01-01","title":"c"}}
{"entity":"tickets","row":{"queue":"q","id":"4","status":"open","title":"d"}}
{"entity":"tickets","row":{"queue":"q","id":"5","opened":"2024-03-01","title":"e"}}
{"entity":"tickets","row":{"queue":"q","id":"7","status":"ope","opened":"2024-01-01","title":"g"}}
`,
		stmts: []string{
			"SELECT id FROM tickets WHERE queue = 'q' AND status = 'open'",
			"SELECT id FROM tickets WHERE queue = 'q' AND status = 'open' AND opened > '2024-01-10'",
			"SELECT id FROM tickets WHERE queue = 'q' AND status = 'open' ORDER BY opened DESC LIMIT 1",
			"SELECT id FROM tickets WHERE queue = 'q' AND status LIKE 'op%'",
			"SELECT id FROM tickets WHERE queue = 'q' AND status > 'closed'",
			"SELECT id FROM tickets WHERE queue = 'q' AND opened IS NULL",
			"SELECT id FROM tickets WHERE queue = 'q' AND status IS NOT NULL AND opened IS NOT NULL",
			"SELECT COUNT(*) FROM tickets WHERE queue = 'q' AND status = 'open' AND opened >= '2024'",
			"UPDATE tickets SET opened = NULL WHERE queue = 'q' AND status = 'open' AND opened < '2024-02'",
			"SELECT id, status, opened FROM tickets WHERE queue = 'q' AND status = 'open' AND opened IS NOT NULL",
			"SELECT id, status, opened FROM tickets WHERE queue = 'q'",
		},
	},
	{
		name: "a keys-only local index and a filter on what it does not project",
		mapping: `
table: KeysOnly
partition_key: PK
sort_key: SK
indexes:
  LSI1: {local: true, sort_key: day, projection: KEYS_ONLY}
entities:
  events:
    keys: {PK: "E#{src}", SK: "{id}", day: "{day}"}
    columns: {src: S, id: S, day: S, kind: S, n: N}
    optional: [LSI1]
`,
		rows: `{"entity":"events","row":{"src":"s","id":"1","day":"2024-01-01","kind":"a","n":1}}
{"entity":"events","row":{"src":"s","id":"2","day":"2024-01-02","kind":"b","n":2}}
{"entity":"events","row":{"src":"s","id":"3","day":"2024-01-03","kind":"a","n":3}}
{"entity":"events","row":{"src":"s","id":"4","kind":"a","n":4}}
`,
		stmts: []string{
			"SELECT id, kind FROM events WHERE src = 's' AND day > '2024-01-01'",
			"SELECT id FROM events WHERE src = 's' AND day > '2024-01-01' AND kind = 'a'",
			"SELECT id FROM events WHERE src = 's' AND day >= '2024' AND n > 1",
			"SELECT COUNT(*) FROM events WHERE src = 's' AND day >= '2024' AND kind = 'a'",
			"SELECT * FROM events WHERE src = 's' AND day = '2024-01-02'",
			"UPDATE events SET n = 9 WHERE src = 's' AND day > '2024-01-01' AND kind = 'a'",
			"SELECT id, n FROM events WHERE src = 's'",
		},
	},
	{
		name: "typed entities with a number inside sparse local and global index keys",
		mapping: `
table: Tasks2
partition_key: PK
sort_key: SK
type_attribute: _et
indexes:
  LSI1: {local: true, sort_key: LSI1SK}
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  projects:
    type: Project
    keys: {PK: "P#{pid}", SK: "P#{pid}"}
    columns: {pid: S, name: S}
  tasks:
    type: Task
    keys: {PK: "P#{pid}", SK: "T#{tid}", LSI1SK: "PRI#{priority}", GSI1PK: "U#{owner}", GSI1SK: "P#{priority}#T#{tid}"}
    columns: {pid: S, tid: S, priority: N, owner: S, title: S}
    optional: [LSI1, GSI1]
`,
		rows: `{"entity":"projects","row":{"pid":"p","name":"Proj"}}
{"entity":"tasks","row":{"pid":"p","tid":"1","priority":2,"owner":"u","title":"a"}}
{"entity":"tasks","row":{"pid":"p","tid":"2","priority":10,"owner":"u","title":"b"}}
{"entity":"tasks","row":{"pid":"p","tid":"3","priority":9,"title":"c"}}
{"entity":"tasks","row":{"pid":"p","tid":"4","priority":-1,"owner":"u","title":"d"}}
{"entity":"tasks","row":{"pid":"p","tid":"5","priority":1.5,"owner":"v","title":"e"}}
{"entity":"tasks","row":{"pid":"p","tid":"6","owner":"u","title":"f"}}
{"entity":"tasks","row":{"pid":"q","tid":"7","priority":3,"owner":"u","title":"g"}}
`,
		stmts: []string{
			"SELECT tid, priority FROM tasks WHERE pid = 'p' ORDER BY priority LIMIT 3",
			"SELECT tid, priority FROM tasks WHERE pid = 'p' ORDER BY priority DESC LIMIT 2",
			"SELECT tid FROM tasks WHERE pid = 'p' AND priority > 5",
			"SELECT tid FROM tasks WHERE pid = 'p' AND priority < 2",
			"SELECT tid FROM tasks WHERE pid = 'p' AND priority BETWEEN 1 AND 9",
			"SELECT tid FROM tasks WHERE pid = 'p' AND priority = 10",
			"SELECT tid, priority FROM tasks WHERE owner = 'u' AND priority > 2",
			"SELECT tid, priority FROM tasks WHERE owner = 'u' AND priority IS NOT NULL ORDER BY priority DESC LIMIT 2",
			"SELECT tid, priority FROM tasks WHERE owner = 'u' AND priority = 10 AND tid > '1'",
			"SELECT COUNT(*) FROM tasks WHERE owner = 'u' AND priority < 100",
			"SELECT COUNT(*) FROM tasks WHERE pid = 'p' AND priority >= 2",
			"SELECT p.name, t.tid FROM projects p JOIN tasks t ON t.pid = p.pid WHERE p.pid = 'p' AND t.priority > 1",
			"SELECT p.name, t.tid FROM projects p LEFT JOIN tasks t ON t.pid = p.pid AND t.priority > 100 WHERE p.pid = 'p'",
			"SELECT name FROM projects WHERE pid = 'p'",
			"UPDATE tasks SET priority = 20 WHERE pid = 'p' AND tid = '6'",
			"UPDATE tasks SET owner = 'u' WHERE pid = 'p' AND tid = '3'",
			"SELECT tid, priority FROM tasks WHERE owner = 'u' AND priority > 2",
			"UPDATE tasks SET priority = NULL WHERE owner = 'u' AND priority > 9",
			"SELECT tid, priority FROM tasks WHERE owner = 'u' AND priority IS NOT NULL",
			"SELECT tid, priority, owner FROM tasks WHERE pid = 'p'",
			"DELETE FROM tasks WHERE pid = 'p' AND priority IS NULL",
			"SELECT tid FROM tasks WHERE pid = 'p'",
			"SELECT pid FROM projects WHERE pid = 'p'",
		},
	},
	{
		name: "keys-only and include global indexes",
		mapping: `
table: Proj
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK, projection: KEYS_ONLY}
  GSI2: {partition_key: GSI2PK, sort_key: GSI2SK, projection: INCLUDE, include: [title]}
entities:
  users:
    keys: {PK: "U#{uid}", SK: "U#{uid}"}
    columns: {uid: S, name: S}
  posts:
    keys: {PK: "P#{pid}", SK: "P#{pid}", GSI1PK: "U#{author}", GSI1SK: "T#{created}", GSI2PK: "C#{cat}", GSI2SK: "{score}"}
    columns: {pid: S, author: S, created: S, cat: S, score: N, title: S, body: S, likes: N}
    optional: [GSI2]
`,
		rows: `{"entity":"users","row":{"uid":"u1","name":"Ann"}}
{"entity":"users","row":{"uid":"u2","name":"Bob"}}
{"entity":"posts","row":{"pid":"1","author":"u1","created":"2024-01","cat":"a","score":5,"title":"t1","body":"b1","likes":1}}
{"entity":"posts","row":{"pid":"2","author":"u1","created":"2024-02","cat":"a","score":10,"title":"t2","body":"x","likes":5}}
{"entity":"posts","row":{"pid":"3","author":"u1","created":"2024-03","title":"t3","body":"x","likes":9}}
{"entity":"posts","row":{"pid":"4","author":"u2","created":"2024-01","cat":"a","score":1,"title":"t4","body":"b4"}}
{"entity":"posts","row":{"pid":"5","author":"u1","created":"2024-04","cat":"b","score":7,"title":"t5","body":"x","likes":2}}
`,
		stmts: []string{
			"SELECT pid, title, body FROM posts WHERE author = 'u1'",
			"SELECT pid FROM posts WHERE author = 'u1' AND body = 'x' ORDER BY created LIMIT 1",
			"SELECT pid FROM posts WHERE author = 'u1' AND body = 'x' ORDER BY created DESC LIMIT 2",
			"SELECT pid FROM posts WHERE author = 'u1' AND likes > 1 ORDER BY created LIMIT 2 OFFSET 1",
			"SELECT COUNT(*) FROM posts WHERE author = 'u1' AND body = 'x'",
			"SELECT COUNT(*) FROM posts WHERE author = 'u1'",
			"SELECT author, COUNT(*), SUM(likes) FROM posts WHERE author IN ('u1', 'u2') GROUP BY author",
			"SELECT u.name, p.pid, p.body FROM users u JOIN posts p ON p.author = u.uid WHERE u.uid IN ('u1', 'u2') AND p.likes IS NULL",
			"SELECT pid, title FROM posts WHERE cat = 'a' AND score > 1",
			"SELECT pid, body FROM posts WHERE cat = 'a' AND score > 1 AND body LIKE 'b%'",
			"SELECT pid FROM posts WHERE cat = 'a' AND score IS NOT NULL AND likes >= 1 ORDER BY score DESC LIMIT 1",
			"SELECT * FROM posts WHERE cat = 'b' AND score = 7",
			"SELECT pid FROM posts WHERE author = 'u1' AND created > '2024-01' AND title IN ('t2', 't5')",
			"SELECT DISTINCT body FROM posts WHERE author = 'u1'",
			"SELECT pid FROM posts WHERE pid IN (SELECT q.pid FROM posts q WHERE q.author = 'u1' AND q.body = 'x') AND likes > 2",
			"UPDATE posts SET likes = 0 WHERE author = 'u1' AND body = 'x' AND likes > 4",
			"DELETE FROM posts WHERE cat = 'a' AND score > 0 AND body = 'b4'",
			"UPDATE posts SET score = 8 WHERE pid = '3'",
			"SELECT pid, cat, score FROM posts WHERE author = 'u1'",
			"SELECT pid, likes, score FROM posts WHERE author IN ('u1', 'u2')",
		},
	},
	{
		name: "a global index sharing the table's sort key, sparse by its partition key",
		mapping: `
table: Shared
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: SK}
  ByStatus: {partition_key: status, sort_key: PK}
entities:
  items:
    keys: {PK: "L#{list}", SK: "I#{n}", GSI1PK: "O#{owner}", status: "{status}"}
    columns: {list: S, n: N, owner: S, status: S, note: S}
    optional: [GSI1, ByStatus]
`,
		rows: `{"entity":"items","row":{"list":"a","n":1,"owner":"x","status":"open","note":"1"}}
{"entity":"items","row":{"list":"a","n":2,"owner":"x","note":"2"}}
{"entity":"items","row":{"list":"a","n":10,"status":"open","note":"3"}}
{"entity":"items","row":{"list":"b","n":3,"owner":"x","status":"done","note":"4"}}
{"entity":"items","row":{"list":"b","n":20,"owner":"y","status":"open","note":"5"}}
`,
		stmts: []string{
			"SELECT list, n FROM items WHERE owner = 'x'",
			"SELECT list, n FROM items WHERE owner = 'x' AND n > 1",
			"SELECT list, n FROM items WHERE owner = 'x' AND n >= 2 ORDER BY n DESC",
			"SELECT list, n FROM items WHERE owner = 'x' ORDER BY n LIMIT 2",
			"SELECT list, n FROM items WHERE status = 'open'",
			"SELECT list, n FROM items WHERE status = 'open' AND list = 'a'",
			"SELECT list, n FROM items WHERE status = 'open' AND list > 'a'",
			"SELECT COUNT(*) FROM items WHERE status = 'open' AND n > 1",
			"UPDATE items SET owner = 'z' WHERE list = 'a' AND n = 10",
			"UPDATE items SET status = 'open' WHERE list = 'a' AND n = 2",
			"SELECT list, n FROM items WHERE owner = 'z'",
			"SELECT list, n FROM items WHERE status = 'open' AND list = 'a'",
			"UPDATE items SET note = 'c' WHERE status = 'open' AND list = 'a' AND n < 5",
			"SELECT list, n, note, owner, status FROM items WHERE list IN ('a', 'b')",
		},
	},
	{
		name: "a sparse global index keyed by a column in place and a composite sort key",
		mapping: `
table: Todo
partition_key: PK
sort_key: SK
indexes:
  ByStatus: {partition_key: status, sort_key: GSI1SK}
entities:
  todos:
    keys: {PK: "T#{id}", SK: "T", status: "{status}", GSI1SK: "D#{due}"}
    columns: {id: S, status: S, due: S}
    optional: [ByStatus]
`,
		rows: `{"entity":"todos","row":{"id":"1","status":"open","due":"2024-01-01"}}
{"entity":"todos","row":{"id":"2","due":"2024-02-01"}}
`,
		stmts: []string{
			"SELECT id FROM todos WHERE status = 'open' AND due IS NOT NULL",
			"UPDATE todos SET status = 'open' WHERE id = '2'",
			"SELECT id FROM todos WHERE status = 'open' AND due IS NOT NULL",
			"SELECT id FROM todos WHERE status = 'open' AND due > '2024-01-15'",
		},
	},
}

// A Scan of a KEYS_ONLY local index marked scan: true reads every
// column: DynamoDB fetches what the index does not project from the table
// (asked for by the projection, or by Select ALL_ATTRIBUTES for SELECT *).
// The embedded server does not, and returned NULLs: there the index is
// not scanned, and the statement is refused.
func TestAScanOfAPartialLocalIndexReadsEveryColumn(t *testing.T) {
	const design = `
table: ScanLocal
partition_key: PK
sort_key: SK
indexes:
  LSI1: {local: true, sort_key: day, projection: KEYS_ONLY, scan: true}
entities:
  events:
    keys: {PK: "E#{src}", SK: "{id}", day: "{day}"}
    columns: {src: S, id: S, day: S, kind: S, n: N}
    optional: [LSI1]
`
	const rows = `{"entity":"events","row":{"src":"s","id":"1","day":"2024-01-01","kind":"a","n":1}}
{"entity":"events","row":{"src":"s","id":"2","day":"2024-01-02","kind":"b","n":2}}
{"entity":"events","row":{"src":"t","id":"3","kind":"a","n":3}}
`
	stmts := []string{
		"SELECT * FROM events WHERE day IS NOT NULL",
		"SELECT id, kind FROM events WHERE day IS NOT NULL",
		"SELECT id FROM events WHERE day IS NOT NULL AND kind = 'a'",
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, design, rows)
			for _, sql := range stmts {
				if b.Name != "embedded" {
					fx.AgreeWithSQLite(t, testkit.Select{SQL: sql})
					continue
				}
				if _, err := fx.Query(context.Background(), sql); !errors.Is(err, dynosql.ErrRefused) {
					t.Errorf("%s on the embedded backend: %v, want it refused", sql, err)
				}
			}
		})
	}
}
