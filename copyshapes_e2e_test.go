package dynosql_test

import (
	"fmt"
	"strings"
)

// copyShapes are designs with copies (README, "Denormalized copies"):
// several copies in one entity from several sources, one copied column
// in two entities, a copy of the source's key, copies keyed by two
// columns, a self copy filled by the INSERT that writes its source, and
// more copies of one source than one transaction holds. After each
// write the copies read as SQLite's LEFT JOIN to the source gives them,
// and a write reports the copies it updated (copiesUpdated).
var copyShapes = []keyShape{
	{
		name:    "several copies from several sources",
		mapping: multiMapping,
		rows:    multiRows,
		stmts: []string{
			"INSERT INTO posts (pid, uid, oid, body) VALUES ('p3', 1, 'o1', 'b3'), ('p4', 9, 'o9', 'b4')",
			postsJoined,
			"UPDATE users SET name = 'X' WHERE uid = 1" + copiesUpdated + "3",
			postsJoined, notesJoined,
			"UPDATE users SET name = 'Y', email = 'e@x' WHERE uid IN (1, 2)" + copiesUpdated + "8",
			postsJoined, notesJoined,
			"UPDATE posts SET uid = 3 WHERE pid IN ('p1', 'p3')",
			postsJoined,
			"UPDATE posts SET uid = uid + 1 WHERE pid = 'p2'",
			postsJoined,
			"UPDATE posts SET oid = 'o2' WHERE uid = 3 AND body = 'b3'",
			postsJoined,
			"DELETE FROM users WHERE uid = 3" + copiesUpdated + "9",
			postsJoined, notesJoined,
			// p4 was written before user 9: the INSERT fills its copies of the
			// name and the key (its email stays NULL).
			"INSERT INTO users (uid, name) VALUES (9, 'Nine')" + copiesUpdated + "2",
			postsJoined, notesJoined,
			"REPAIR COPIES FOR users WHERE uid = 9" + sqliteSpelling + "-" + copiesUpdated + "0",
			"INSERT INTO users (uid, name) VALUES (9, 'Nah') ON DUPLICATE KEY UPDATE name = 'Niner'" + sqliteSpelling + "UPDATE users SET name = 'Niner' WHERE uid = 9",
			postsJoined,
			"UPDATE posts SET uid = 9 WHERE pid = 'p2'",
			"INSERT INTO users (uid, name) VALUES (9, 'Nah') ON DUPLICATE KEY UPDATE name = 'Nino'" + sqliteSpelling + "UPDATE users SET name = 'Nino' WHERE uid = 9" + copiesUpdated + "2",
			postsJoined,
			"UPDATE orgs SET title = NULL WHERE oid IN ('o1', 'o2')" + copiesUpdated + "3",
			postsJoined,
			"INSERT INTO notes (nid, uid) VALUES ('n3', 9)",
			notesJoined,
			"UPDATE users SET name = 'Z' WHERE uid > 0 AND uid = 2" + copiesUpdated + "1",
			notesJoined, postsJoined,
		},
	},
	{
		name:    "a self copy filled by the same INSERT",
		mapping: empMapping,
		rows: `{"entity":"emps","row":{"id":1,"name":"boss","mgr":1,"mgrName":"boss","dept":"x"}}
`,
		stmts: []string{
			"INSERT INTO emps (id, name, mgr, dept) VALUES (20, 'solo', 20, 'x')",
			empJoined,
			"INSERT INTO emps (id, name, mgr, dept) VALUES (10, 'a', 11, 'x'), (11, 'b', 1, 'x')",
			empJoined,
			// A report written before its manager: the manager's INSERT fills it.
			"INSERT INTO emps (id, name, mgr, dept) VALUES (30, 'r', 31, 'x')",
			empJoined,
			"INSERT INTO emps (id, name, mgr, dept) VALUES (31, 'm', 1, 'x')" + copiesUpdated + "1",
			empJoined,
		},
	},
	{
		name:    "an upsert that inserts a source written after its copies",
		mapping: multiMapping,
		rows:    multiRows,
		stmts: []string{
			"INSERT INTO posts (pid, uid, oid, body) VALUES ('p5', 7, 'o1', 'b5')",
			postsJoined,
			"INSERT INTO users (uid, name, email) VALUES (7, 'Sev', 's@x') ON DUPLICATE KEY UPDATE name = 'No'" +
				sqliteSpelling + "INSERT INTO users (uid, name, email) VALUES (7, 'Sev', 's@x')" + copiesUpdated + "3",
			postsJoined,
		},
	},
	{
		name:    "many copies",
		mapping: multiMapping,
		rows:    manyPosts(),
		stmts: []string{
			manyJoined,
			// uid 1: 55 posts x 3 copies + 30 notes; uid 2: 55 posts x 3.
			"DELETE FROM users WHERE uid IN (1, 2)" + copiesUpdated + "360",
			manyJoined, manyNotes,
			"UPDATE posts SET uid = 3 WHERE uid IN (1, 2) AND pid < 'q010'",
			manyJoined,
			"UPDATE posts SET uid = 1 WHERE uid = 3 AND pid BETWEEN 'q005' AND 'q115'",
			manyJoined,
			"UPDATE users SET name = 'Cyd', email = 'c@x' WHERE uid = 3",
			manyJoined,
			"UPDATE orgs SET title = 'Uno' WHERE oid = 'o1'" + copiesUpdated + "130",
			manyJoined,
		},
	},
	{
		name: "two copies of one source column keyed by two columns",
		mapping: `
table: Two
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
  GSI2: {partition_key: GSI2PK, sort_key: GSI2SK}
entities:
  users:
    keys: {PK: "U#{id}", SK: "U"}
    columns: {id: S, name: S}
  posts:
    keys: {PK: "P#{pid}", SK: "P", GSI1PK: "U#{authorId}", GSI1SK: "P#{pid}", GSI2PK: "U#{editorId}", GSI2SK: "P#{pid}"}
    columns: {pid: S, authorId: S, authorName: S, editorId: S, editorName: S}
    copies:
      authorName: {from: users.name, key: authorId}
      editorName: {from: users.name, key: editorId}
`,
		rows: `{"entity":"users","row":{"id":"u1","name":"Ann"}}
{"entity":"users","row":{"id":"u2","name":"Bob"}}
{"entity":"posts","row":{"pid":"p1","authorId":"u1","authorName":"Ann","editorId":"u1","editorName":"Ann"}}
{"entity":"posts","row":{"pid":"p2","authorId":"u1","authorName":"Ann","editorId":"u2","editorName":"Bob"}}
`,
		stmts: []string{
			"UPDATE users SET name = 'A2' WHERE id = 'u1'" + copiesUpdated + "3",
			"SELECT pid, authorName, editorName FROM posts WHERE pid IN ('p1', 'p2', 'p3')" + sqliteSpelling + "SELECT p.pid, a.name, e.name FROM posts p LEFT JOIN users a ON a.id = p.authorId LEFT JOIN users e ON e.id = p.editorId WHERE p.pid IN ('p1', 'p2', 'p3')",
			"INSERT INTO posts (pid, authorId, editorId) VALUES ('p3', 'u2', 'u1')",
			"UPDATE posts SET editorId = 'u2', authorId = 'u2' WHERE pid = 'p1'",
			"SELECT pid, authorName, editorName FROM posts WHERE pid IN ('p1', 'p2', 'p3')" + sqliteSpelling + "SELECT p.pid, a.name, e.name FROM posts p LEFT JOIN users a ON a.id = p.authorId LEFT JOIN users e ON e.id = p.editorId WHERE p.pid IN ('p1', 'p2', 'p3')",
			"DELETE FROM users WHERE id = 'u2'" + copiesUpdated + "4",
			"SELECT pid, authorName, editorName FROM posts WHERE pid IN ('p1', 'p2', 'p3')" + sqliteSpelling + "SELECT p.pid, a.name, e.name FROM posts p LEFT JOIN users a ON a.id = p.authorId LEFT JOIN users e ON e.id = p.editorId WHERE p.pid IN ('p1', 'p2', 'p3')",
		},
	},
	{
		name:    "self copies written in parallel",
		mapping: empMapping,
		rows:    `{"entity":"emps","row":{"id":1,"name":"boss","mgr":1,"mgrName":"boss","dept":"x"}}` + "\n",
		stmts: []string{
			// reports first, each of managers 200..239
			empValues(100, 140, func(i int) int { return i + 100 }, "r"),
			empsOfDepts,
			// the managers, each managed by the next (a ring), and the last by itself
			empValues(200, 240, func(i int) int {
				if i == 239 {
					return 239
				}
				return i + 1
			}, "m") + copiesUpdated + "40",
			empsOfDepts,
			"UPDATE emps SET name = 'X' WHERE dept = 'm'" + copiesUpdated + "80",
			empsOfDepts,
			"UPDATE emps SET name = 'Y' WHERE dept IN ('m', 'r')" + copiesUpdated + "80",
			empsOfDepts,
			"DELETE FROM emps WHERE dept = 'm' AND id < 220" + copiesUpdated + "20",
			empsOfDepts,
			empValues(200, 220, func(i int) int { return 439 - i }, "y") + copiesUpdated + "20",
			empsOfDepts,
		},
	},
	{
		name:    "re-inserting sources of many copies",
		mapping: multiMapping,
		rows:    manyPosts(),
		stmts: []string{
			"DELETE FROM users WHERE uid IN (1, 2)" + copiesUpdated + "360",
			manyJoined, manyNotes,
			// uid 1: 55 posts x 3 (uname, uemail, uidc) + 30 notes; uid 2: 55 x 2 (no email)
			"INSERT INTO users (uid, name, email) VALUES (1, 'A2', 'a2@x'), (2, 'B2', NULL)" + copiesUpdated + "305",
			manyJoined, manyNotes,
		},
	},
}

const multiMapping = `
table: Multi
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
  GSI2: {partition_key: GSI2PK, sort_key: GSI2SK}
entities:
  users:
    keys: {PK: "U#{uid}", SK: "U"}
    columns: {uid: N, name: S, email: S}
  orgs:
    keys: {PK: "O#{oid}", SK: "O"}
    columns: {oid: S, title: S}
  posts:
    keys: {PK: "P#{pid}", SK: "P", GSI1PK: "U#{uid}", GSI1SK: "P#{pid}", GSI2PK: "O#{oid}", GSI2SK: "P#{pid}"}
    columns: {pid: S, uid: N, oid: S, uname: S, uemail: S, otitle: S, uidc: N, body: S}
    copies:
      uname: {from: users.name, key: uid}
      uemail: {from: users.email, key: uid}
      otitle: {from: orgs.title, key: oid}
      uidc: {from: users.uid, key: uid}
  notes:
    keys: {PK: "N#{nid}", SK: "N", GSI1PK: "U#{uid}", GSI1SK: "N#{nid}"}
    columns: {nid: S, uid: N, uname: S}
    copies:
      uname: {from: users.name, key: uid}
`

const multiRows = `{"entity":"users","row":{"uid":1,"name":"Ann","email":"a@x"}}
{"entity":"users","row":{"uid":2,"name":"Bob"}}
{"entity":"users","row":{"uid":3,"name":"Cy","email":"c@x"}}
{"entity":"orgs","row":{"oid":"o1","title":"One"}}
{"entity":"orgs","row":{"oid":"o2","title":"Two"}}
{"entity":"posts","row":{"pid":"p1","uid":1,"oid":"o1","uname":"Ann","uemail":"a@x","otitle":"One","uidc":1,"body":"b1"}}
{"entity":"posts","row":{"pid":"p2","uid":2,"oid":"o2","uname":"Bob","otitle":"Two","uidc":2,"body":"b2"}}
{"entity":"notes","row":{"nid":"n1","uid":1,"uname":"Ann"}}
{"entity":"notes","row":{"nid":"n2","uid":2,"uname":"Bob"}}
`

const postsJoined = "SELECT pid, uid, oid, uname, uemail, otitle, uidc, body FROM posts WHERE pid IN ('p1', 'p2', 'p3', 'p4', 'p5')" + sqliteSpelling +
	"SELECT p.pid, p.uid, p.oid, u.name, u.email, o.title, u.uid, p.body FROM posts p LEFT JOIN users u ON u.uid = p.uid LEFT JOIN orgs o ON o.oid = p.oid WHERE p.pid IN ('p1', 'p2', 'p3', 'p4', 'p5')"
const notesJoined = "SELECT nid, uid, uname FROM notes WHERE nid IN ('n1', 'n2', 'n3')" + sqliteSpelling +
	"SELECT n.nid, n.uid, u.name FROM notes n LEFT JOIN users u ON u.uid = n.uid WHERE n.nid IN ('n1', 'n2', 'n3')"

const empMapping = `
table: Emp
partition_key: PK
sort_key: SK
indexes:
  ByMgr: {partition_key: mgr}
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  emps:
    keys: {PK: "E#{id}", SK: "E", mgr: "{mgr}", GSI1PK: "D#{dept}", GSI1SK: "E#{id}"}
    columns: {id: N, name: S, mgr: N, mgrName: S, dept: S}
    copies:
      mgrName: {from: emps.name, key: mgr}
`

const empJoined = "SELECT id, mgr, mgrName FROM emps WHERE id IN (1, 2, 3, 10, 11, 20, 30, 31)" + sqliteSpelling +
	"SELECT e.id, e.mgr, m.name FROM emps e LEFT JOIN emps m ON m.id = e.mgr WHERE e.id IN (1, 2, 3, 10, 11, 20, 30, 31)"

func manyPosts() string {
	s := `{"entity":"users","row":{"uid":1,"name":"Ann","email":"a@x"}}
{"entity":"users","row":{"uid":2,"name":"Bob","email":"b@x"}}
{"entity":"users","row":{"uid":3,"name":"Cy"}}
{"entity":"orgs","row":{"oid":"o1","title":"One"}}
`
	for i := range 130 {
		u := 1 + i%2
		if i >= 110 {
			u = 3
		}
		s += fmt.Sprintf(`{"entity":"posts","row":{"pid":"q%03d","uid":%d,"oid":"o1","uname":%q,"uemail":%s,"otitle":"One","uidc":%d,"body":"b"}}`+"\n",
			i, u, map[int]string{1: "Ann", 2: "Bob", 3: "Cy"}[u], map[int]string{1: `"a@x"`, 2: `"b@x"`, 3: "null"}[u], u)
	}
	for i := range 30 {
		s += fmt.Sprintf(`{"entity":"notes","row":{"nid":"m%02d","uid":1,"uname":"Ann"}}`+"\n", i)
	}
	return s
}

const manyJoined = "SELECT pid, uid, uname, uemail, otitle, uidc FROM posts WHERE oid = 'o1'" + sqliteSpelling +
	"SELECT p.pid, p.uid, u.name, u.email, o.title, u.uid FROM posts p LEFT JOIN users u ON u.uid = p.uid LEFT JOIN orgs o ON o.oid = p.oid WHERE p.oid = 'o1'"
const manyNotes = "SELECT nid, uid, uname FROM notes WHERE uid IN (1, 2, 3)" + sqliteSpelling +
	"SELECT n.nid, n.uid, u.name FROM notes n LEFT JOIN users u ON u.uid = n.uid WHERE n.uid IN (1, 2, 3)"

// empValues inserts emps from..to-1 of dept, each managed by mgr(i).
func empValues(from, to int, mgr func(int) int, dept string) string {
	var vs []string
	for i := from; i < to; i++ {
		vs = append(vs, fmt.Sprintf("(%d, 'n%d', %d, '%s')", i, i, mgr(i), dept))
	}
	return "INSERT INTO emps (id, name, mgr, dept) VALUES " + strings.Join(vs, ", ")
}

// empsOfDepts reads the self copies of the emps of the depts the
// parallel shape writes.
const empsOfDepts = "SELECT id, mgr, mgrName FROM emps WHERE dept IN ('r', 'm', 'y')" + sqliteSpelling +
	"SELECT e.id, e.mgr, m.name FROM emps e LEFT JOIN emps m ON m.id = e.mgr WHERE e.dept IN ('r', 'm', 'y')"
