package dynosql_test

// writeShapes are designs whose writes move keys of unusual shapes:
// number sort keys moved by arithmetic, local INCLUDE and sparse global
// indexes keyed in place, hash-only tables, composite sort keys, OR of
// two indexes, typed entities sharing key shapes, and copies (a self
// copy, copies keyed by an index key set in place, a hash-only source
// with a number key). State is read back after each write.
var writeShapes = []keyShape{
	{
		// A started game keeps its map but not open_timestamp, so it is
		// out of the sparse OpenGamesIndex while its item still holds
		// the map attribute (an index key held in place is written as
		// the column). A WHERE DynamoDB cannot check (<>, LIKE, NOT)
		// guards each write with the attributes as read; that guard
		// said map was absent, so the write of every started game
		// failed its own guard and was skipped: 0 rows affected where
		// SQLite updates and deletes them.
		name: "a write guarded by an index key held in place, on a row out of its sparse index",
		mapping: `
table: Games
partition_key: PK
sort_key: SK
indexes:
  OpenGamesIndex: {partition_key: map, sort_key: open_timestamp}
entities:
  games:
    keys: {PK: "GAME#{game_id}", SK: "#METADATA#{game_id}", map: "{map}", open_timestamp: "{open_timestamp}"}
    columns: {game_id: S, map: S, open_timestamp: S, people: N}
    optional: [OpenGamesIndex]
`,
		rows: `{"entity":"games","row":{"game_id":"g1","map":"Juicy Jungle","people":50}}
{"entity":"games","row":{"game_id":"g2","map":"Juicy Jungle","open_timestamp":"2019-04-10","people":3}}
{"entity":"games","row":{"game_id":"g3","map":"Open Ocean","people":9}}
`,
		stmts: []string{
			"UPDATE games SET people = 7 WHERE game_id = 'g1' AND map <> 'Nowhere'",
			"SELECT game_id, map, open_timestamp, people FROM games WHERE game_id IN ('g1', 'g2', 'g3')",
			"UPDATE games SET people = people + 1 WHERE game_id IN ('g1', 'g2', 'g3') AND map LIKE 'Juicy%'",
			"SELECT game_id, map, open_timestamp, people FROM games WHERE game_id IN ('g1', 'g2', 'g3')",
			"UPDATE games SET game_id = 'g4' WHERE game_id = 'g3' AND map <> 'Nowhere'",
			"SELECT game_id, map, open_timestamp, people FROM games WHERE game_id IN ('g1', 'g2', 'g3', 'g4')",
			"DELETE FROM games WHERE game_id = 'g1' AND NOT (map = 'Nowhere')",
			"SELECT game_id, map, open_timestamp, people FROM games WHERE game_id IN ('g1', 'g2', 'g3', 'g4')",
		},
	},
	{
		name: "copies keyed by an index key column set in place",
		mapping: `
table: Blog2
partition_key: PK
sort_key: SK
indexes:
  ByAuthor: {partition_key: authorId}
entities:
  users:
    keys: {PK: "U#{id}", SK: "U"}
    columns: {id: S, name: S}
  posts:
    keys: {PK: "P#{pid}", SK: "P", authorId: "{authorId}"}
    columns: {pid: S, authorId: S, authorName: S, title: S}
    copies:
      authorName: {from: users.name, key: authorId}
`,
		rows: `{"entity":"users","row":{"id":"u1","name":"Ann"}}
{"entity":"users","row":{"id":"u2","name":"Bob"}}
{"entity":"posts","row":{"pid":"p1","authorId":"u1","authorName":"Ann","title":"a"}}
{"entity":"posts","row":{"pid":"p2","authorId":"u1","authorName":"Ann","title":"b"}}
{"entity":"posts","row":{"pid":"p3","authorId":"u2","authorName":"Bob","title":"c"}}
`,
		stmts: []string{
			"UPDATE posts SET authorId = 'u2' WHERE pid = 'p1'",
			"SELECT pid, authorId, authorName FROM posts WHERE pid IN ('p1', 'p2', 'p3')" + sqliteSpelling + "SELECT p.pid, p.authorId, u.name FROM posts p LEFT JOIN users u ON u.id = p.authorId WHERE p.pid IN ('p1', 'p2', 'p3')",
			"SELECT pid, authorName FROM posts WHERE authorId = 'u2'" + sqliteSpelling + "SELECT p.pid, u.name FROM posts p LEFT JOIN users u ON u.id = p.authorId WHERE p.authorId = 'u2'",
			"UPDATE posts SET authorId = 'u1', title = 'z' WHERE authorId = 'u2' AND title = 'c'",
			"SELECT pid, authorId, authorName, title FROM posts WHERE pid IN ('p1', 'p2', 'p3')" + sqliteSpelling + "SELECT p.pid, p.authorId, u.name, p.title FROM posts p LEFT JOIN users u ON u.id = p.authorId WHERE p.pid IN ('p1', 'p2', 'p3')",
			"UPDATE users SET name = 'Bo' WHERE id = 'u2'",
			"SELECT pid, authorId, authorName, title FROM posts WHERE pid IN ('p1', 'p2', 'p3')" + sqliteSpelling + "SELECT p.pid, p.authorId, u.name, p.title FROM posts p LEFT JOIN users u ON u.id = p.authorId WHERE p.pid IN ('p1', 'p2', 'p3')",
		},
	},
	{
		name: "a number sort key, a local include index, a sparse global index in place, types",
		mapping: `
table: NumSK
partition_key: PK
sort_key: SK
type_attribute: _et
indexes:
  LSI1: {local: true, sort_key: LSI1SK, projection: INCLUDE, include: [title]}
  ByStatus: {partition_key: status, sort_key: due}
entities:
  items:
    type: Item
    keys: {PK: "A#{acct}", SK: "{n}", LSI1SK: "D#{due}#{prio}", status: "{status}", due: "{due}"}
    columns: {acct: S, n: N, due: S, prio: N, status: S, title: S, cnt: N}
    optional: [LSI1, ByStatus]
`,
		rows: `{"entity":"items","row":{"acct":"a","n":1,"due":"2024-01","prio":1,"status":"open","title":"t1","cnt":1}}
{"entity":"items","row":{"acct":"a","n":2,"due":"2024-02","prio":10,"status":"open","title":"t2","cnt":5}}
{"entity":"items","row":{"acct":"a","n":10,"due":"2024-03","prio":2,"status":"done","title":"t10"}}
{"entity":"items","row":{"acct":"a","n":20,"due":"2024-04","title":"t20","cnt":0}}
{"entity":"items","row":{"acct":"a","n":-3,"prio":5,"status":"open","title":"tm3","cnt":2}}
{"entity":"items","row":{"acct":"b","n":1,"due":"2024-01","prio":3,"status":"open","title":"b1","cnt":7}}
`,
		stmts: []string{
			"SELECT n, due, prio FROM items WHERE acct = 'a' AND due = '2024-02' AND prio IS NOT NULL",
			"UPDATE items SET n = n + 100 WHERE acct = 'a' AND n = 1",
			"SELECT n, due, prio, status, title, cnt FROM items WHERE acct = 'a'",
			"SELECT acct, n FROM items WHERE status = 'open' AND due IS NOT NULL",
			"UPDATE items SET prio = NULL WHERE acct = 'a' AND n = 2",
			"SELECT n FROM items WHERE acct = 'a' AND due > '2024' AND prio IS NOT NULL",
			"SELECT n, prio FROM items WHERE acct = 'a' AND due > '2024' AND prio IS NOT NULL ORDER BY due",
			"UPDATE items SET status = NULL WHERE status = 'open' AND due = '2024-01' AND acct = 'a'",
			"SELECT acct, n FROM items WHERE status = 'open' AND due > '2000'",
			"SELECT acct, n, status FROM items WHERE acct = 'a'",
			"UPDATE items SET cnt = cnt + 1 WHERE acct = 'a' AND n > 1",
			"SELECT n, cnt FROM items WHERE acct = 'a'",
			"UPDATE items SET due = '2025-01' WHERE acct = 'a' AND due = '2024-03' AND prio = 2",
			"SELECT n, due FROM items WHERE acct = 'a' AND due >= '2025' AND prio IS NOT NULL",
			"SELECT acct, n, due FROM items WHERE status = 'done' AND due >= '2025'",
			"UPDATE items SET acct = 'c' WHERE status = 'open' AND due >= '2024-01'",
			"SELECT acct, n, due, prio, status, title, cnt FROM items WHERE acct IN ('a', 'b', 'c')",
			"SELECT acct, n FROM items WHERE status = 'open' AND due > '2000'",
			"DELETE FROM items WHERE acct = 'a' AND (n = 101 OR n > 15)",
			"SELECT n FROM items WHERE acct = 'a'",
			"DELETE FROM items WHERE acct IN ('c', 'a') AND n IN (1, 2, 10)",
			"SELECT acct, n FROM items WHERE acct IN ('a', 'b', 'c')",
			"INSERT INTO items (acct, n, due, prio, status, title) VALUES ('a', 5, '2024-05', 1, 'open', 'n5'), ('a', 6, NULL, 2, 'open', 'n6')",
			"SELECT acct, n FROM items WHERE status = 'open' AND due > '2000'",
			"SELECT n, due, prio, status, title FROM items WHERE acct = 'a'",
			"INSERT INTO items (acct, n, title) VALUES ('a', 5, 'x') ON DUPLICATE KEY UPDATE title = 'dup', cnt = cnt + 1" + sqliteSpelling + "UPDATE items SET title = 'dup', cnt = cnt + 1 WHERE acct = 'a' AND n = 5",
			"SELECT n, due, prio, status, title, cnt FROM items WHERE acct = 'a'",
		},
	},
	{
		name: "a hash-only table with a number key and a sparse index",
		mapping: `
table: HashOnly
partition_key: id
indexes:
  ByEmail: {partition_key: email}
  ByOrg: {partition_key: GSI2PK, sort_key: GSI2SK}
entities:
  users:
    keys: {id: "{id}", email: "{email}", GSI2PK: "ORG#{org}", GSI2SK: "N#{name}"}
    columns: {id: N, email: S, org: S, name: S, n: N}
    optional: [ByEmail, ByOrg]
`,
		rows: `{"entity":"users","row":{"id":1,"email":"a@x","org":"o","name":"ann","n":1}}
{"entity":"users","row":{"id":2,"email":"b@x","org":"o","name":"bob","n":2}}
{"entity":"users","row":{"id":3,"org":"p","name":"cy","n":3}}
{"entity":"users","row":{"id":10,"email":"d@x","name":"dee"}}
`,
		stmts: []string{
			"UPDATE users SET id = 20 WHERE email = 'd@x'",
			"SELECT id, email, org, name, n FROM users WHERE id IN (1, 2, 3, 10, 20)",
			"SELECT id FROM users WHERE email = 'd@x'",
			"UPDATE users SET email = NULL WHERE id = 1",
			"SELECT id FROM users WHERE email = 'a@x'",
			"UPDATE users SET org = 'p' WHERE org = 'o' AND name > 'b'",
			"SELECT id, name FROM users WHERE org = 'p' AND name IS NOT NULL",
			"SELECT id, name FROM users WHERE org = 'o' AND name IS NOT NULL",
			"UPDATE users SET name = NULL WHERE org = 'p' AND name = 'cy'",
			"SELECT id, name FROM users WHERE org = 'p' AND name IS NOT NULL",
			"SELECT id, email, org, name, n FROM users WHERE id IN (1, 2, 3, 10, 20)",
			"UPDATE users SET id = id + 1 WHERE id = 20",
			"SELECT id, email, org, name, n FROM users WHERE id IN (1, 2, 3, 10, 20, 21)",
			"DELETE FROM users WHERE id IN (1, 21, 99) AND n IS NULL",
			"SELECT id FROM users WHERE id IN (1, 2, 3, 10, 20, 21)",
			"DELETE FROM users WHERE email = 'b@x' OR id = 1",
			"SELECT id FROM users WHERE id IN (1, 2, 3, 10, 20, 21)",
			"INSERT INTO users (id, email, org, name) VALUES (5, 'e@x', 'o', 'eve') ON DUPLICATE KEY UPDATE n = 1" + sqliteSpelling + "INSERT INTO users (id, email, org, name) VALUES (5, 'e@x', 'o', 'eve')",
			"INSERT INTO users (id, email) VALUES (5, 'zz') ON DUPLICATE KEY UPDATE n = 7" + sqliteSpelling + "UPDATE users SET n = 7 WHERE id = 5",
			"SELECT id, email, org, name, n FROM users WHERE id IN (1, 2, 3, 5)",
			"SELECT id, n FROM users WHERE org = 'o' AND name = 'eve'",
		},
	},
	{
		name: "a composite sort key Q#{b}#{d} and a composite global index",
		mapping: `
table: Comp
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  rows:
    keys: {PK: "A#{a}", SK: "Q#{b}#{d}", GSI1PK: "B#{b}", GSI1SK: "{d}#{a}"}
    columns: {a: S, b: S, d: N, v: S}
`,
		rows: `{"entity":"rows","row":{"a":"x","b":"k","d":1,"v":"1"}}
{"entity":"rows","row":{"a":"x","b":"k","d":2,"v":"2"}}
{"entity":"rows","row":{"a":"x","b":"k","d":10,"v":"3"}}
{"entity":"rows","row":{"a":"x","b":"l","d":1,"v":"4"}}
{"entity":"rows","row":{"a":"y","b":"k","d":1,"v":"5"}}
`,
		stmts: []string{
			"UPDATE rows SET b = 'm' WHERE a = 'x' AND b = 'k' AND d > 1",
			"SELECT a, b, d, v FROM rows WHERE a IN ('x', 'y')",
			"SELECT a, d, v FROM rows WHERE b = 'm'",
			"SELECT a, d, v FROM rows WHERE b = 'k'",
			"UPDATE rows SET d = d + 5 WHERE b = 'k' AND a = 'y'",
			"SELECT a, b, d, v FROM rows WHERE a IN ('x', 'y')",
			"SELECT a, d FROM rows WHERE b = 'k'",
			"UPDATE rows SET v = 'w' WHERE a = 'x' AND (b = 'l' OR d = 10)",
			"SELECT a, b, d, v FROM rows WHERE a IN ('x', 'y')",
			"DELETE FROM rows WHERE b = 'm' AND d BETWEEN 2 AND 10 AND v <> 'w'",
			"SELECT a, b, d, v FROM rows WHERE a IN ('x', 'y')",
			"UPDATE rows SET a = 'z', v = 'moved' WHERE b = 'k'",
			"SELECT a, b, d, v FROM rows WHERE a IN ('x', 'y', 'z')",
			"SELECT a, d FROM rows WHERE b = 'k'",
		},
	},
	{
		name:    "a self copy: employees copy their manager's name",
		mapping: empMapping, // copyshapes_e2e_test.go
		rows: `{"entity":"emps","row":{"id":1,"name":"boss","mgr":1,"mgrName":"boss","dept":"x"}}
{"entity":"emps","row":{"id":2,"name":"mid","mgr":1,"mgrName":"boss","dept":"x"}}
{"entity":"emps","row":{"id":3,"name":"low","mgr":2,"mgrName":"mid","dept":"y"}}
`,
		stmts: []string{
			"UPDATE emps SET name = 'chief' WHERE id = 1",
			"SELECT id, mgr, mgrName FROM emps WHERE id IN (1, 2, 3)" + sqliteSpelling + "SELECT e.id, e.mgr, m.name FROM emps e LEFT JOIN emps m ON m.id = e.mgr WHERE e.id IN (1, 2, 3)",
			"UPDATE emps SET mgr = 1 WHERE id = 3",
			"SELECT id, mgr, mgrName FROM emps WHERE id IN (1, 2, 3)" + sqliteSpelling + "SELECT e.id, e.mgr, m.name FROM emps e LEFT JOIN emps m ON m.id = e.mgr WHERE e.id IN (1, 2, 3)",
			"UPDATE emps SET mgr = 2, dept = 'z' WHERE id = 3",
			"SELECT id, mgr, mgrName, dept FROM emps WHERE id IN (1, 2, 3)" + sqliteSpelling + "SELECT e.id, e.mgr, m.name, e.dept FROM emps e LEFT JOIN emps m ON m.id = e.mgr WHERE e.id IN (1, 2, 3)",
			"UPDATE emps SET name = 'mm' WHERE dept = 'x' AND id = 2",
			"SELECT id, mgr, mgrName, dept FROM emps WHERE id IN (1, 2, 3)" + sqliteSpelling + "SELECT e.id, e.mgr, m.name, e.dept FROM emps e LEFT JOIN emps m ON m.id = e.mgr WHERE e.id IN (1, 2, 3)",
		},
	},
	{
		name: "writes through an OR of two indexes, a number sort key of a global index in place",
		mapping: `
table: Ors
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: game, sort_key: score}
  ByOwner: {partition_key: owner, sort_key: SK}
entities:
  players:
    keys: {PK: "P#{id}", SK: "P", game: "{game}", score: "{score}", owner: "{owner}"}
    columns: {id: S, game: S, score: N, owner: S, n: N}
    optional: [GSI1, ByOwner]
`,
		rows: `{"entity":"players","row":{"id":"1","game":"g","score":5,"owner":"x","n":1}}
{"entity":"players","row":{"id":"2","game":"g","score":10,"n":2}}
{"entity":"players","row":{"id":"3","game":"h","score":1,"owner":"x","n":3}}
{"entity":"players","row":{"id":"4","owner":"y","n":4}}
{"entity":"players","row":{"id":"5","game":"g","score":-1,"owner":"x"}}
`,
		stmts: []string{
			"UPDATE players SET n = n + 10 WHERE (game = 'g' AND score > 0) OR owner = 'x'",
			"SELECT id, game, score, owner, n FROM players WHERE id IN ('1', '2', '3', '4', '5')",
			"UPDATE players SET score = score + 1 WHERE game = 'g' AND score >= 5",
			"SELECT id, score FROM players WHERE game = 'g' AND score > -10",
			"UPDATE players SET owner = NULL WHERE owner = 'x' AND n > 12",
			"SELECT id FROM players WHERE owner = 'x'",
			"SELECT id, game, score, owner, n FROM players WHERE id IN ('1', '2', '3', '4', '5')",
			"DELETE FROM players WHERE id IN ('1', '2', '3') AND id NOT IN ('2')",
			"SELECT id, game, score, owner, n FROM players WHERE id IN ('1', '2', '3', '4', '5')",
			"DELETE FROM players WHERE (game = 'g' AND score < 100) OR id = '4'",
			"SELECT id FROM players WHERE id IN ('1', '2', '3', '4', '5')",
		},
	},
	{
		name: "two typed entities under the same key shapes",
		mapping: `
table: Typed
partition_key: PK
sort_key: SK
type_attribute: et
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  books:
    type: Book
    keys: {PK: "S#{shop}", SK: "{id}", GSI1PK: "T#{tag}", GSI1SK: "{id}"}
    columns: {shop: S, id: S, tag: S, title: S, n: N}
    optional: [GSI1]
  bikes:
    type: Bike
    keys: {PK: "S#{shop}", SK: "{id}", GSI1PK: "T#{tag}", GSI1SK: "{id}"}
    columns: {shop: S, id: S, tag: S, color: S, n: N}
    optional: [GSI1]
`,
		rows: `{"entity":"books","row":{"shop":"s","id":"1","tag":"x","title":"b1","n":1}}
{"entity":"bikes","row":{"shop":"s","id":"2","tag":"x","color":"red","n":2}}
{"entity":"books","row":{"shop":"s","id":"3","title":"b3","n":3}}
{"entity":"bikes","row":{"shop":"t","id":"1","tag":"x","color":"blue","n":4}}
`,
		stmts: []string{
			"UPDATE books SET title = 'q' WHERE shop = 's' AND id = '2'",
			"UPDATE books SET n = n + 1 WHERE tag = 'x'",
			"SELECT shop, id, n FROM books WHERE shop IN ('s', 't')",
			"SELECT shop, id, n FROM bikes WHERE shop IN ('s', 't')",
			"UPDATE bikes SET tag = 'y' WHERE tag = 'x' AND id > '0'",
			"SELECT shop, id FROM bikes WHERE tag = 'y'",
			"SELECT shop, id FROM books WHERE tag = 'x'",
			"UPDATE books SET shop = 't' WHERE shop = 's' AND id = '3'",
			"SELECT shop, id, title FROM books WHERE shop IN ('s', 't')",
			"SELECT shop, id, color FROM bikes WHERE shop IN ('s', 't')",
			"DELETE FROM books WHERE shop = 't' AND id < '9'",
			"DELETE FROM bikes WHERE shop = 's' AND id = '1'",
			"SELECT shop, id FROM books WHERE shop IN ('s', 't')",
			"SELECT shop, id FROM bikes WHERE shop IN ('s', 't')",
			"INSERT INTO books (shop, id, title) VALUES ('s', '9', 'new'), ('t', '9', 'new2')",
			"UPDATE books SET tag = 'z' WHERE shop IN ('s', 't') AND id = '9'",
			"SELECT shop, id, tag, title FROM books WHERE tag = 'z'",
		},
	},
	{
		name: "copies from a hash-only source with a number key, copier keyed by it in its base key",
		mapping: `
table: HashCopies
partition_key: PK
sort_key: SK
indexes:
  ByOrg: {partition_key: org}
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  users:
    keys: {PK: "U#{uid}", SK: "U", org: "{org}"}
    columns: {uid: N, name: S, org: S}
    optional: [ByOrg]
  cmts:
    keys: {PK: "U#{uid}", SK: "C#{cid}", GSI1PK: "P#{post}", GSI1SK: "C#{cid}"}
    columns: {uid: N, cid: S, post: S, uname: S, body: S}
    copies:
      uname: {from: users.name, key: uid}
`,
		rows: `{"entity":"users","row":{"uid":1,"name":"Ann","org":"o"}}
{"entity":"users","row":{"uid":2,"name":"Bob","org":"o"}}
{"entity":"users","row":{"uid":3,"name":"Cy"}}
{"entity":"cmts","row":{"uid":1,"cid":"c1","post":"p","uname":"Ann","body":"x"}}
{"entity":"cmts","row":{"uid":2,"cid":"c2","post":"p","uname":"Bob","body":"y"}}
{"entity":"cmts","row":{"uid":2,"cid":"c3","post":"q","uname":"Bob","body":"z"}}
`,
		stmts: []string{
			"INSERT INTO cmts (uid, cid, post, body) VALUES (1, 'c4', 'p', 'n'), (3, 'c5', 'q', 'm'), (9, 'c6', 'q', 'g')",
			"SELECT cid, uname FROM cmts WHERE post IN ('p', 'q')" + sqliteSpelling + "SELECT c.cid, u.name FROM cmts c LEFT JOIN users u ON u.uid = c.uid WHERE c.post IN ('p', 'q')",
			"UPDATE users SET name = 'O' WHERE org = 'o'",
			"SELECT cid, uname FROM cmts WHERE post IN ('p', 'q')" + sqliteSpelling + "SELECT c.cid, u.name FROM cmts c LEFT JOIN users u ON u.uid = c.uid WHERE c.post IN ('p', 'q')",
			"UPDATE cmts SET uid = 3 WHERE post = 'p' AND cid = 'c2'",
			"SELECT cid, uname FROM cmts WHERE post IN ('p', 'q')" + sqliteSpelling + "SELECT c.cid, u.name FROM cmts c LEFT JOIN users u ON u.uid = c.uid WHERE c.post IN ('p', 'q')",
			"INSERT INTO users (uid, name, org) VALUES (3, 'x', 'o') ON DUPLICATE KEY UPDATE name = 'Cyd'" + sqliteSpelling + "UPDATE users SET name = 'Cyd' WHERE uid = 3",
			"SELECT cid, uname FROM cmts WHERE post IN ('p', 'q')" + sqliteSpelling + "SELECT c.cid, u.name FROM cmts c LEFT JOIN users u ON u.uid = c.uid WHERE c.post IN ('p', 'q')",
			"DELETE FROM users WHERE org = 'o' AND name = 'O'",
			"SELECT cid, uname FROM cmts WHERE post IN ('p', 'q')" + sqliteSpelling + "SELECT c.cid, u.name FROM cmts c LEFT JOIN users u ON u.uid = c.uid WHERE c.post IN ('p', 'q')",
			"INSERT INTO users (uid, name) VALUES (9, 'Nine')",
			"UPDATE users SET name = NULL WHERE uid IN (3, 9)",
			"SELECT cid, uname FROM cmts WHERE post IN ('p', 'q')" + sqliteSpelling + "SELECT c.cid, u.name FROM cmts c LEFT JOIN users u ON u.uid = c.uid WHERE c.post IN ('p', 'q')",
		},
	},
	// Conditions of UPDATE and DELETE (OR, NOT, NULLs, ranges), numbers
	// spelled several ways, sparse index keys set NULL: a hunt through
	// write semantics, all in agreement with SQLite when found.
	{
		name: "write conditions through local and keys-only indexes",
		mapping: `
table: WriteConds
partition_key: PK
sort_key: SK
indexes:
  LSI1: {local: true, sort_key: LSI1SK, projection: KEYS_ONLY}
  ByTag: {partition_key: tag, sort_key: GSK, projection: KEYS_ONLY}
entities:
  rows:
    keys: {PK: "A#{a}", SK: "R#{d}#{id}", LSI1SK: "P#{prio}", tag: "{tag}", GSK: "{a}#{d}"}
    columns: {a: S, d: S, id: S, prio: N, tag: S, v: N, w: S}
    optional: [LSI1, ByTag]
`,
		rows: `{"entity":"rows","row":{"a":"x","d":"2024-01","id":"1","prio":1,"tag":"t","v":1,"w":"p"}}
{"entity":"rows","row":{"a":"x","d":"2024-01","id":"2","prio":2,"tag":"t","v":2}}
{"entity":"rows","row":{"a":"x","d":"2024-02","id":"3","tag":"u","w":"q"}}
{"entity":"rows","row":{"a":"x","d":"2024-03","id":"4","prio":4,"v":4,"w":"p"}}
{"entity":"rows","row":{"a":"x","d":"2024-03","id":"5","prio":5,"tag":"t","v":5,"w":"r"}}
{"entity":"rows","row":{"a":"y","d":"2024-01","id":"1","prio":1,"tag":"t","v":6,"w":"p"}}
`,
		stmts: []string{
			"UPDATE rows SET v = 10 WHERE a = 'x' AND d = '2024-01' AND id = '2' AND (w IS NULL OR v > 100)",
			"SELECT a, d, id, v, w FROM rows WHERE a IN ('x', 'y')",
			"UPDATE rows SET v = 11 WHERE a = 'x' AND d = '2024-01' AND id = '1' AND NOT (w = 'q' OR v IS NULL)",
			"SELECT a, d, id, v, w FROM rows WHERE a IN ('x', 'y')",
			"UPDATE rows SET w = 'z' WHERE a = 'x' AND d BETWEEN '2024-01' AND '2024-02' AND (v IS NULL OR v < 5)",
			"SELECT a, d, id, v, w FROM rows WHERE a IN ('x', 'y')",
			"UPDATE rows SET v = v - 1 WHERE a = 'x' AND prio >= 2 AND prio IS NOT NULL",
			"SELECT a, d, id, v, w, prio FROM rows WHERE a IN ('x', 'y')",
			"UPDATE rows SET prio = NULL WHERE a = 'x' AND prio = 4",
			"SELECT a, d, id FROM rows WHERE a = 'x' AND prio > 0",
			"UPDATE rows SET prio = 7 WHERE a = 'x' AND id = '3'",
			"SELECT a, d, id, prio FROM rows WHERE a = 'x' AND prio > 0",
			"UPDATE rows SET d = '2025-01' WHERE tag = 't' AND a = 'x' AND d < '2024-03'",
			"SELECT a, d, id, v, w, prio, tag FROM rows WHERE a IN ('x', 'y')",
			"SELECT a, d, id FROM rows WHERE tag = 't' AND a = 'x'",
			"UPDATE rows SET tag = NULL WHERE a = 'x' AND d = '2025-01' AND id IN ('1', '9')",
			"SELECT a, d, id FROM rows WHERE tag = 't' AND d IS NOT NULL",
			"UPDATE rows SET tag = 'n' WHERE a = 'x' AND (id = '4' OR w = 'q')",
			"SELECT a, d, id, tag FROM rows WHERE tag = 'n' AND d IS NOT NULL",
			"SELECT a, d, id, v, w, prio, tag FROM rows WHERE a IN ('x', 'y')",
			"DELETE FROM rows WHERE a IN ('x', 'y') AND id = '1' AND NOT (v = 6)",
			"SELECT a, d, id FROM rows WHERE a IN ('x', 'y')",
			"DELETE FROM rows WHERE tag IN ('t', 'n') AND a = 'x' AND w <> 'r'",
			"SELECT a, d, id FROM rows WHERE a IN ('x', 'y')",
			"UPDATE rows SET w = NULL, v = NULL WHERE a = 'x' AND d = '2024-03' AND id = '5'",
			"UPDATE rows SET v = v + 1 WHERE a = 'x' AND d = '2024-03' AND id = '5'",
			"SELECT a, d, id, v, w FROM rows WHERE a IN ('x', 'y')",
			"INSERT INTO rows (a, d, id, v) VALUES ('x', '2024-03', '5', 3) ON DUPLICATE KEY UPDATE v = v + 1" + sqliteSpelling + "UPDATE rows SET v = v + 1 WHERE a = 'x' AND d = '2024-03' AND id = '5'",
			"SELECT a, d, id, v, w, prio, tag FROM rows WHERE a IN ('x', 'y')",
		},
	},
	{
		name: "number keys spelled several ways in writes",
		mapping: `
table: WriteNumbers
partition_key: PK
sort_key: SK
indexes:
  ByOrg: {partition_key: org, sort_key: rank}
entities:
  users:
    keys: {PK: "U#{id}", SK: "{k}", org: "{org}", rank: "{rank}"}
    columns: {id: N, k: N, org: S, rank: N, n: N, s: S}
    optional: [ByOrg]
`,
		rows: `{"entity":"users","row":{"id":1,"k":1,"org":"o","rank":1,"n":1,"s":"a"}}
{"entity":"users","row":{"id":1,"k":2,"org":"o","rank":2,"s":"b"}}
{"entity":"users","row":{"id":1,"k":3,"n":3}}
{"entity":"users","row":{"id":2,"k":1,"org":"p","rank":1,"n":5}}
`,
		stmts: []string{
			"UPDATE users SET n = n + 1 WHERE id IN (1, 1.0) AND k IN (1, 1.00)",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
			"UPDATE users SET n = n + 1 WHERE id = 1 AND (k = 1 OR k = 1.0 OR k >= 1)",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
			"UPDATE users SET n = n + 1 WHERE (id = 1 AND k = 1) OR (id = 1.0 AND k = 1)",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
			"UPDATE users SET n = n + 1 WHERE (org = 'o' AND rank IS NOT NULL) OR (id = 1 AND k = 1)",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
			"UPDATE users SET n = n + 1 WHERE org IN ('o', 'o', 'p') AND rank IN (1, 1.0)",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
			"DELETE FROM users WHERE id IN (2, 2.0) AND k = 1",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
			"UPDATE users SET rank = rank + 1 WHERE org = 'o' AND rank > 0",
			"SELECT id, k, rank FROM users WHERE org = 'o' AND rank >= 0",
			"UPDATE users SET rank = rank + 1 WHERE id = 1 AND k = 3",
			"SELECT id, k, org, rank FROM users WHERE id IN (1, 2)",
			"SELECT id, k, n FROM users WHERE id IN (1, 2)",
		},
	},
	{
		name: "writes through sparse global indexes",
		mapping: `
table: WriteSparse
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
  ByStatus: {partition_key: status}
entities:
  items:
    keys: {PK: "A#{acct}", SK: "N#{n}", GSI1PK: "G#{grp}", GSI1SK: "S#{score}", status: "{status}"}
    columns: {acct: S, n: S, grp: S, score: N, status: S, cnt: N, title: S}
    optional: [GSI1, ByStatus]
`,
		rows: `{"entity":"items","row":{"acct":"a","n":"1","grp":"g","score":1,"status":"open","cnt":1,"title":"t1"}}
{"entity":"items","row":{"acct":"a","n":"2","grp":"g","score":2,"status":"open","title":"t2"}}
{"entity":"items","row":{"acct":"a","n":"3","grp":"h","score":3,"cnt":3,"title":"t3"}}
{"entity":"items","row":{"acct":"a","n":"4","cnt":4}}
{"entity":"items","row":{"acct":"b","n":"1","grp":"g","score":5,"status":"done","cnt":5,"title":"b1"}}
`,
		stmts: []string{
			"UPDATE items SET cnt = cnt + 1 WHERE acct = 'a' AND n = '2'",
			"SELECT acct, n, cnt FROM items WHERE acct IN ('a','b')",
			"UPDATE items SET cnt = cnt + 1 WHERE acct = 'a'",
			"SELECT acct, n, cnt FROM items WHERE acct IN ('a','b')",
			"UPDATE items SET title = 't1' WHERE acct = 'a' AND n = '1'",
			"UPDATE items SET title = 't1' WHERE acct = 'a'",
			"UPDATE items SET cnt = 9 WHERE acct = 'a' AND NOT (title = 't1')",
			"SELECT acct, n, cnt FROM items WHERE acct IN ('a','b')",
			"UPDATE items SET cnt = 10 WHERE acct = 'a' AND n = '4' AND NOT (title = 'zz')",
			"UPDATE items SET cnt = 11 WHERE acct = 'a' AND n = '4' AND title <> 'zz'",
			"UPDATE items SET cnt = 12 WHERE acct = 'a' AND n = '4' AND (title = 'zz' OR cnt > 0)",
			"SELECT acct, n, cnt FROM items WHERE acct IN ('a','b')",
			"DELETE FROM items WHERE acct = 'a' AND n = '4' AND NOT (cnt IN (1, 2))",
			"SELECT acct, n, cnt FROM items WHERE acct IN ('a','b')",
			"UPDATE items SET score = NULL WHERE acct = 'a' AND n = '1'",
			"SELECT acct, n FROM items WHERE grp = 'g' AND score IS NOT NULL",
			"UPDATE items SET status = NULL WHERE status = 'open' AND cnt > 1",
			"SELECT acct, n FROM items WHERE status = 'open'",
			"SELECT acct, n, status FROM items WHERE acct IN ('a','b')",
			"UPDATE items SET score = score + 10 WHERE grp = 'g' AND score > 0",
			"SELECT acct, n, score FROM items WHERE acct IN ('a','b')",
			"SELECT acct, n, score FROM items WHERE grp = 'g' AND score >= 0",
		},
	},
}
