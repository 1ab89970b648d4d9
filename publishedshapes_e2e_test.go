package dynosql_test

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
)

// publishedShape is a keyShape with statements dynosql must refuse (they
// would need a Scan, or read only part of what they ask for).
type publishedShape struct {
	keyShape
	refused []string
}

var publishedShapes = []publishedShape{
	{
		// Hierarchical sort keys: AWS "Best practices for using sort keys
		// to organize data" ([country]#[region]#[state]#[county]#[city]
		// #[neighborhood], read with begins_with at each level),
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-sort-keys.html,
		// and the DynamoDB Book's store locator (a location index keyed
		// by country, sorted by STATE#CITY#ZIP).
		keyShape: keyShape{name: "hierarchical location keys", mapping: `
table: Stores
partition_key: PK
sort_key: SK
indexes:
  LocationIndex: {partition_key: country, sort_key: location}
entities:
  stores:
    keys: {PK: "STORE#{id}", SK: "STORE#{id}", country: "{country}", location: "{state}#{city}#{zip}"}
    columns: {id: S, country: S, state: S, city: S, zip: S, name: S}
`,
			rows: `{"entity":"stores","row":{"id":"s1","country":"USA","state":"NY","city":"NEW YORK","zip":"10001","name":"a"}}
{"entity":"stores","row":{"id":"s2","country":"USA","state":"NY","city":"NEW YORK","zip":"10002","name":"b"}}
{"entity":"stores","row":{"id":"s3","country":"USA","state":"NY","city":"NEW YORK MILLS","zip":"13417","name":"c"}}
{"entity":"stores","row":{"id":"s4","country":"USA","state":"NY","city":"BROOKLYN","zip":"11201","name":"d"}}
{"entity":"stores","row":{"id":"s5","country":"USA","state":"NYC","city":"MANHATTAN","zip":"10003","name":"e"}}
{"entity":"stores","row":{"id":"s6","country":"USA","state":"NJ","city":"NEWARK","zip":"07101","name":"f"}}
{"entity":"stores","row":{"id":"s7","country":"CAN","state":"ON","city":"TORONTO","zip":"M5H","name":"g"}}
{"entity":"stores","row":{"id":"s8","country":"USA","state":"NY","city":"NEW YORK-X","zip":"10009","name":"h"}}
`,
			stmts: []string{
				"SELECT id FROM stores WHERE country = 'USA'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city = 'NEW YORK'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city = 'NEW YORK' AND zip = '10002'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city = 'NEW YORK' AND zip > '10001'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city LIKE 'NEW YORK%'",
				"SELECT id FROM stores WHERE country = 'USA' AND state LIKE 'N%'",
				"SELECT id FROM stores WHERE country = 'USA' AND state LIKE 'NY%'",
				"SELECT id FROM stores WHERE country = 'USA' AND state IN ('NY', 'NJ')",
				"SELECT id FROM stores WHERE country = 'USA' AND state BETWEEN 'NJ' AND 'NY'",
				"SELECT id FROM stores WHERE country = 'USA' AND state >= 'NY'",
				"SELECT id FROM stores WHERE country = 'USA' AND state > 'NY'",
				"SELECT id FROM stores WHERE country = 'USA' AND state < 'NY'",
				"SELECT id FROM stores WHERE country = 'USA' AND state <= 'NY'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city > 'NEW YORK'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city >= 'NEW YORK'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city < 'NEW YORK MILLS'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city <= 'NEW YORK'",
				"SELECT id FROM stores WHERE country = 'USA' AND state = 'NY' AND city BETWEEN 'NEW YORK' AND 'NEW YORK MILLS'",
				"SELECT city, zip FROM stores WHERE country = 'USA' AND state = 'NY' ORDER BY city DESC, zip DESC LIMIT 3",
				"SELECT state, COUNT(*) FROM stores WHERE country IN ('USA', 'CAN') GROUP BY state",
				"UPDATE stores SET city = 'BRONX' WHERE id = 's1'",
				"UPDATE stores SET state = 'NJ' WHERE country = 'USA' AND state = 'NY' AND city = 'BROOKLYN'",
				"DELETE FROM stores WHERE country = 'USA' AND state = 'NYC'",
				"UPDATE stores SET name = 'z' WHERE country = 'USA' AND state = 'NY' AND city > 'NEW YORK'",
				"SELECT id, state, city, zip, name FROM stores WHERE country IN ('USA', 'CAN')",
			},
		},
		refused: []string{
			"SELECT id FROM stores WHERE state = 'NY'",
			"SELECT id FROM stores WHERE state = 'NY' AND city = 'NEW YORK'",
		},
	},
	{
		// Write-sharded global index: AWS "Using Global Secondary Index
		// write sharding for selective table queries",
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-indexes-gsi-sharding.html
		// (GSI partition key STATUS#{status}#{shard}); a hash-only table.
		// A read that names no shard reads one partition of several: it
		// must be refused, never answered from one shard.
		keyShape: keyShape{name: "write-sharded global index on a hash-only table", mapping: `
table: Sharded
partition_key: PK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  orders:
    keys: {PK: "ORDER#{id}", GSI1PK: "STATUS#{status}#{shard}", GSI1SK: "{created}#{id}"}
    columns: {id: S, status: S, shard: N, created: S, total: N}
`,
			rows: `{"entity":"orders","row":{"id":"o1","status":"open","shard":0,"created":"2024-05-01","total":1}}
{"entity":"orders","row":{"id":"o2","status":"open","shard":1,"created":"2024-05-02","total":2}}
{"entity":"orders","row":{"id":"o3","status":"open","shard":2,"created":"2024-05-03","total":3}}
{"entity":"orders","row":{"id":"o4","status":"open","shard":3,"created":"2024-05-04","total":4}}
{"entity":"orders","row":{"id":"o5","status":"open","shard":0,"created":"2024-05-05","total":5}}
{"entity":"orders","row":{"id":"o6","status":"closed","shard":1,"created":"2024-05-01","total":6}}
{"entity":"orders","row":{"id":"o7","status":"closed","shard":2,"created":"2024-05-06","total":7}}
{"entity":"orders","row":{"id":"o8","status":"open","shard":10,"created":"2024-05-07","total":8}}
`,
			stmts: []string{
				"SELECT id FROM orders WHERE status = 'open' AND shard IN (0, 1, 2, 3)",
				"SELECT id FROM orders WHERE status = 'open' AND shard = 1",
				"SELECT id FROM orders WHERE status = 'open' AND shard = 1.0",
				"SELECT id, created FROM orders WHERE status = 'open' AND shard IN (0, 1, 2, 3) ORDER BY created DESC LIMIT 3",
				"SELECT id, created FROM orders WHERE status = 'open' AND shard IN (0, 1, 2, 3) ORDER BY created LIMIT 2",
				"SELECT id FROM orders WHERE status = 'open' AND shard IN (0, 1, 2, 3) AND created >= '2024-05-03'",
				"SELECT shard, COUNT(*) FROM orders WHERE status IN ('open', 'closed') AND shard IN (0, 1, 2, 3) GROUP BY shard",
				"SELECT COUNT(*) FROM orders WHERE status = 'open' AND shard IN (0, 1, 2, 3, 10)",
				"SELECT id, status, shard FROM orders WHERE id = 'o1'",
				"SELECT id FROM orders WHERE id IN ('o1', 'o7')",
				"INSERT INTO orders (id, status, shard, created, total) VALUES ('o9', 'open', 2, '2024-05-08', 9)",
				"UPDATE orders SET status = 'closed' WHERE id = 'o1'",
				"UPDATE orders SET shard = 3 WHERE id = 'o2'",
				"UPDATE orders SET total = total + 1 WHERE status = 'open' AND shard IN (0, 1, 2, 3)",
				"DELETE FROM orders WHERE status = 'closed' AND shard IN (0, 1, 2, 3) AND created < '2024-05-02'",
				"SELECT id, status, shard, created, total FROM orders WHERE status IN ('open', 'closed') AND shard IN (0, 1, 2, 3, 10)",
			},
		},
		refused: []string{
			"SELECT id FROM orders WHERE status = 'open'",
			"SELECT COUNT(*) FROM orders WHERE status = 'open'",
			"SELECT id FROM orders WHERE status = 'open' ORDER BY created DESC LIMIT 2",
			"SELECT id FROM orders WHERE status = 'open' AND shard > 0",
			"SELECT id FROM orders WHERE status = 'open' AND shard BETWEEN 0 AND 3",
			"SELECT id FROM orders WHERE status = 'open' AND shard >= 0 AND shard <= 0",
			"SELECT id FROM orders WHERE status = 'open' AND created > '2024'",
			"SELECT id FROM orders WHERE status = 'open' OR shard = 1",
			"UPDATE orders SET total = 0 WHERE status = 'open'",
			"DELETE FROM orders WHERE status = 'open'",
		},
	},
	{
		// GSI overloading: AWS "Overloading Global Secondary Indexes",
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-gsi-overloading.html:
		// one index keyed on the table's sort key and a Data attribute
		// whose meaning depends on the item (an employee's name, the
		// date an employee joined a warehouse, a quarter's label).
		keyShape: keyShape{name: "overloaded global index on the sort key and Data", mapping: `
table: Overloaded
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: SK, sort_key: Data}
entities:
  employees:
    keys: {PK: "HR-EMP#{emp}", SK: "EMPLOYEE", Data: "{name}"}
    columns: {emp: S, name: S, title: S}
  placements:
    keys: {PK: "HR-EMP#{emp}", SK: "WAREHOUSE#{wh}", Data: "{since}#{emp}"}
    columns: {emp: S, wh: S, since: S}
  quotas:
    keys: {PK: "HR-EMP#{emp}", SK: "QUOTA#{quarter}", Data: "{quarter}"}
    columns: {emp: S, quarter: S, amount: N}
  warehouses:
    keys: {PK: "WH#{wh}", SK: "WAREHOUSE#{wh}"}
    columns: {wh: S, city: S}
`,
			rows: `{"entity":"employees","row":{"emp":"e1","name":"Ann","title":"boss"}}
{"entity":"employees","row":{"emp":"e2","name":"Bob","title":"clerk"}}
{"entity":"employees","row":{"emp":"e3","name":"Annie","title":"clerk"}}
{"entity":"placements","row":{"emp":"e1","wh":"w1","since":"2020-01-01"}}
{"entity":"placements","row":{"emp":"e2","wh":"w1","since":"2021-01-01"}}
{"entity":"placements","row":{"emp":"e3","wh":"w1","since":"2019-06-01"}}
{"entity":"placements","row":{"emp":"e3","wh":"w2","since":"2022-06-01"}}
{"entity":"quotas","row":{"emp":"e1","quarter":"2024-Q1","amount":10}}
{"entity":"quotas","row":{"emp":"e1","quarter":"2024-Q2","amount":20}}
{"entity":"quotas","row":{"emp":"e2","quarter":"2024-Q1","amount":5}}
{"entity":"warehouses","row":{"wh":"w1","city":"Oslo"}}
{"entity":"warehouses","row":{"wh":"w2","city":"Rome"}}
`,
			stmts: []string{
				"SELECT emp, title FROM employees WHERE name = 'Ann'",
				"SELECT emp, name FROM employees WHERE name LIKE 'Ann%'",
				"SELECT emp, name FROM employees WHERE name > 'Ann'",
				"SELECT emp, name FROM employees WHERE name IS NOT NULL ORDER BY name DESC LIMIT 2",
				"SELECT emp, since FROM placements WHERE wh = 'w1' ORDER BY since DESC LIMIT 2",
				"SELECT emp FROM placements WHERE wh = 'w1' AND since < '2021'",
				"SELECT emp, amount FROM quotas WHERE quarter = '2024-Q1'",
				"SELECT wh, since FROM placements WHERE emp = 'e3'",
				"SELECT COUNT(*) FROM employees WHERE emp = 'e1'",
				"SELECT COUNT(*) FROM placements WHERE emp IN ('e1', 'e3')",
				"SELECT e.name, p.since FROM placements p JOIN employees e ON e.emp = p.emp WHERE p.wh = 'w1'",
				"SELECT e.name, q.quarter, q.amount FROM employees e LEFT JOIN quotas q ON q.emp = e.emp WHERE e.name LIKE 'A%'",
				"UPDATE employees SET name = 'Zed' WHERE emp = 'e1'",
				"UPDATE placements SET wh = 'w2' WHERE emp = 'e2' AND wh = 'w1'",
				"UPDATE placements SET since = '2018-01-01' WHERE wh = 'w1' AND since > '2019'",
				"INSERT INTO quotas (emp, quarter, amount) VALUES ('e3', '2024-Q1', 7)",
				"DELETE FROM quotas WHERE quarter = '2024-Q1' AND amount < 6",
				"SELECT emp, name FROM employees WHERE name IS NOT NULL",
				"SELECT emp, wh, since FROM placements WHERE wh IN ('w1', 'w2')",
				"SELECT emp, quarter, amount FROM quotas WHERE quarter IN ('2024-Q1', '2024-Q2')",
				"SELECT city FROM warehouses WHERE wh = 'w1'",
				"SELECT w.city, p.emp FROM warehouses w JOIN placements p ON p.wh = w.wh WHERE w.wh IN ('w1', 'w2')",
				"UPDATE warehouses SET wh = 'w9' WHERE wh = 'w2'",
				"SELECT emp FROM placements WHERE wh = 'w9'",
				"SELECT wh, city FROM warehouses WHERE wh IN ('w1', 'w2', 'w9')",
			},
		},
		refused: []string{
			"SELECT emp FROM placements WHERE since > '2020'",
			"SELECT emp FROM quotas WHERE amount > 1",
		},
	},
	{
		// Adjacency list, many to many, read both ways: AWS "Best
		// practices for managing many-to-many relationships" (invoices
		// and bills, an inverted index swapping PK and SK),
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-adjacency-graphs.html.
		// The bill's own item (PK = SK = BILL#b) sits in the inverted
		// index's partition BILL#b with the edges pointing at it.
		keyShape: keyShape{name: "adjacency list read both ways", mapping: `
table: Adjacency
partition_key: PK
sort_key: SK
indexes:
  Inverted: {partition_key: SK, sort_key: PK}
entities:
  invoices:
    keys: {PK: "INVOICE#{invoice}", SK: "INVOICE#{invoice}"}
    columns: {invoice: S, customer: S, total: N}
  bills:
    keys: {PK: "BILL#{bill}", SK: "BILL#{bill}"}
    columns: {bill: S, amount: N}
  invoice_bills:
    keys: {PK: "INVOICE#{invoice}", SK: "BILL#{bill}"}
    columns: {invoice: S, bill: S, paid: N}
`,
			rows: `{"entity":"invoices","row":{"invoice":"i1","customer":"c1","total":10}}
{"entity":"invoices","row":{"invoice":"i2","customer":"c1","total":20}}
{"entity":"invoices","row":{"invoice":"i3","customer":"c2","total":30}}
{"entity":"bills","row":{"bill":"b1","amount":1}}
{"entity":"bills","row":{"bill":"b2","amount":2}}
{"entity":"bills","row":{"bill":"b3","amount":3}}
{"entity":"invoice_bills","row":{"invoice":"i1","bill":"b1","paid":1}}
{"entity":"invoice_bills","row":{"invoice":"i1","bill":"b2","paid":0}}
{"entity":"invoice_bills","row":{"invoice":"i2","bill":"b1","paid":1}}
{"entity":"invoice_bills","row":{"invoice":"i3","bill":"b1","paid":0}}
{"entity":"invoice_bills","row":{"invoice":"i3","bill":"b3","paid":1}}
`,
			stmts: []string{
				"SELECT bill, paid FROM invoice_bills WHERE invoice = 'i1'",
				"SELECT invoice, paid FROM invoice_bills WHERE bill = 'b1'",
				"SELECT COUNT(*) FROM invoice_bills WHERE bill = 'b1'",
				"SELECT COUNT(*) FROM invoice_bills WHERE invoice = 'i1'",
				"SELECT invoice FROM invoice_bills WHERE bill = 'b1' ORDER BY invoice DESC LIMIT 2",
				"SELECT amount FROM bills WHERE bill = 'b1'",
				"SELECT total FROM invoices WHERE invoice = 'i1'",
				"SELECT i.invoice, i.total FROM invoice_bills e JOIN invoices i ON i.invoice = e.invoice WHERE e.bill = 'b1'",
				"SELECT b.bill, b.amount FROM invoice_bills e JOIN bills b ON b.bill = e.bill WHERE e.invoice = 'i3'",
				"SELECT b.bill, b.amount, e.invoice FROM bills b LEFT JOIN invoice_bills e ON e.bill = b.bill WHERE b.bill IN ('b1', 'b2', 'b3')",
				"SELECT i.invoice, e.bill FROM invoices i LEFT JOIN invoice_bills e ON e.invoice = i.invoice WHERE i.invoice IN ('i1', 'i2', 'i3')",
				"SELECT invoice FROM invoices WHERE invoice IN (SELECT invoice FROM invoice_bills WHERE bill = 'b1' AND paid = 0)",
				"INSERT INTO invoice_bills (invoice, bill, paid) VALUES ('i2', 'b3', 0)",
				"UPDATE invoice_bills SET paid = 1 WHERE bill = 'b1'",
				"UPDATE invoice_bills SET bill = 'b2' WHERE invoice = 'i3' AND bill = 'b1'",
				"DELETE FROM invoice_bills WHERE bill = 'b3' AND paid = 0",
				"DELETE FROM bills WHERE bill = 'b3'",
				"SELECT invoice, bill, paid FROM invoice_bills WHERE bill IN ('b1', 'b2', 'b3')",
				"SELECT invoice, bill, paid FROM invoice_bills WHERE invoice IN ('i1', 'i2', 'i3')",
				"SELECT bill, amount FROM bills WHERE bill IN ('b1', 'b2', 'b3')",
			},
		},
	},
	{
		// A sparse "flag" index: AWS "Take advantage of sparse indexes",
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-indexes-general-sparse-indexes.html
		// (only the items that carry the attribute appear). Here both
		// the award and the score are the index's keys: an item with an
		// award and no score is not in the index, so a read by award
		// alone must not read the index.
		keyShape: keyShape{name: "sparse flag index", mapping: `
table: Awards
partition_key: PK
sort_key: SK
indexes:
  AwardIndex: {partition_key: award, sort_key: score}
  FlagIndex: {partition_key: flagged, sort_key: SK}
entities:
  players:
    keys: {PK: "GAME#{game}", SK: "USER#{user}", award: "{award}", score: "{score}", flagged: "{flagged}"}
    columns: {game: S, user: S, award: S, score: N, flagged: S}
    optional: [AwardIndex, FlagIndex]
`,
			rows: `{"entity":"players","row":{"game":"g1","user":"u1","award":"gold","score":10}}
{"entity":"players","row":{"game":"g1","user":"u2","award":"gold","flagged":"Y"}}
{"entity":"players","row":{"game":"g1","user":"u3","score":7,"flagged":"Y"}}
{"entity":"players","row":{"game":"g2","user":"u1","award":"silver","score":3}}
{"entity":"players","row":{"game":"g2","user":"u4","award":"gold","score":12}}
`,
			stmts: []string{
				"SELECT game, user FROM players WHERE award = 'gold' AND score IS NOT NULL",
				"SELECT game, user FROM players WHERE award = 'gold' AND score > 10",
				"SELECT game, user, score FROM players WHERE award = 'gold' AND score >= 0 ORDER BY score DESC LIMIT 1",
				"SELECT game, user FROM players WHERE flagged = 'Y'",
				"SELECT COUNT(*) FROM players WHERE flagged = 'Y'",
				"SELECT game, user, award FROM players WHERE game = 'g1' AND award = 'gold'",
				"UPDATE players SET flagged = 'Y' WHERE game = 'g2' AND user = 'u4'",
				"UPDATE players SET flagged = NULL WHERE flagged = 'Y' AND game = 'g1'",
				"UPDATE players SET score = 1 WHERE game = 'g1' AND user = 'u2'",
				"UPDATE players SET award = NULL WHERE award = 'gold' AND score < 5",
				"SELECT game, user FROM players WHERE flagged = 'Y'",
				"SELECT game, user, score FROM players WHERE award = 'gold' AND score IS NOT NULL",
				"DELETE FROM players WHERE flagged = 'Y'",
				"SELECT game, user, award, score, flagged FROM players WHERE game IN ('g1', 'g2')",
			},
		},
		refused: []string{
			"SELECT game, user FROM players WHERE award = 'gold'",
			"SELECT COUNT(*) FROM players WHERE award = 'gold'",
		},
	},
	{
		// A keys-only local index read for what it does not project
		// (posts of a user by creation date, titles and likes in the
		// base items only), and a hash-only global index several items
		// share a value of.
		keyShape: keyShape{name: "keys-only local index, hash-only global index", mapping: `
table: LsiPosts
partition_key: PK
sort_key: SK
indexes:
  ByDate: {local: true, sort_key: created, projection: KEYS_ONLY}
  ByTag: {partition_key: tag, projection: KEYS_ONLY}
entities:
  posts:
    keys: {PK: "U#{user}", SK: "P#{id}", created: "{created}", tag: "{tag}"}
    columns: {user: S, id: S, created: S, tag: S, title: S, likes: N, expires: N}
`,
			rows: `{"entity":"posts","row":{"user":"u","id":"1","created":"2024-01-03","tag":"x","title":"c","likes":3,"expires":1700000000}}
{"entity":"posts","row":{"user":"u","id":"2","created":"2024-01-01","tag":"x","title":"a","likes":9,"expires":1800000000}}
{"entity":"posts","row":{"user":"u","id":"3","created":"2024-01-02","tag":"y","title":"b","likes":1}}
{"entity":"posts","row":{"user":"u","id":"4","created":"2024-01-04","tag":"x","title":"d","likes":4,"expires":1600000000}}
{"entity":"posts","row":{"user":"v","id":"1","created":"2024-01-05","tag":"x","title":"e","likes":5}}
`,
			stmts: []string{
				"SELECT id, title, likes FROM posts WHERE user = 'u' ORDER BY created DESC LIMIT 2",
				"SELECT * FROM posts WHERE user = 'u' AND created > '2024-01-01'",
				"SELECT title FROM posts WHERE user = 'u' AND created > '2024-01-01' AND likes > 3",
				"SELECT title FROM posts WHERE user = 'u' AND created >= '2024-01-01' AND likes > 3 ORDER BY created LIMIT 1",
				"SELECT title FROM posts WHERE user = 'u' AND (expires IS NULL OR expires > 1700000000)",
				"SELECT user, id, title FROM posts WHERE tag = 'x'",
				"SELECT * FROM posts WHERE tag = 'x' AND likes >= 4",
				"SELECT COUNT(*) FROM posts WHERE tag = 'x' AND expires > 1650000000",
				"SELECT user, COUNT(*), SUM(likes) FROM posts WHERE tag = 'x' GROUP BY user",
				"UPDATE posts SET likes = likes + 1 WHERE tag = 'x' AND likes > 3",
				"UPDATE posts SET created = '2023-12-31' WHERE user = 'u' AND created > '2024-01-03'",
				"DELETE FROM posts WHERE user = 'u' AND expires < 1700000001",
				"UPDATE posts SET tag = 'y' WHERE user = 'v' AND id = '1'",
				"SELECT user, id, created, tag, title, likes, expires FROM posts WHERE user IN ('u', 'v')",
				"SELECT user, id FROM posts WHERE tag = 'y'",
			},
		},
	},
	{
		// A hierarchy with an entity at each level, in one partition
		// (the DynamoDB Book, "hierarchical data"; AWS bp-sort-keys),
		// told apart by a type attribute since COUNTRY's template would
		// take a state's whole key.
		keyShape: keyShape{name: "typed hierarchy levels in one partition", mapping: `
table: GeoLevels
partition_key: PK
sort_key: SK
type_attribute: kind
entities:
  countries:
    type: country
    keys: {PK: "GEO", SK: "{country}"}
    columns: {country: S, pop: N}
  states:
    type: state
    keys: {PK: "GEO", SK: "{country}#{state}"}
    columns: {country: S, state: S, pop: N}
  cities:
    type: city
    keys: {PK: "GEO", SK: "{country}#{state}#{city}"}
    columns: {country: S, state: S, city: S, pop: N}
`,
			rows: `{"entity":"countries","row":{"country":"US","pop":330}}
{"entity":"countries","row":{"country":"USA","pop":1}}
{"entity":"countries","row":{"country":"CA","pop":38}}
{"entity":"states","row":{"country":"US","state":"NY","pop":19}}
{"entity":"states","row":{"country":"US","state":"NJ","pop":9}}
{"entity":"states","row":{"country":"USA","state":"NY","pop":2}}
{"entity":"states","row":{"country":"CA","state":"ON","pop":14}}
{"entity":"cities","row":{"country":"US","state":"NY","city":"NEW YORK","pop":8}}
{"entity":"cities","row":{"country":"US","state":"NY","city":"ALBANY","pop":1}}
{"entity":"cities","row":{"country":"US","state":"NJ","city":"NEWARK","pop":1}}
{"entity":"cities","row":{"country":"CA","state":"ON","city":"TORONTO","pop":3}}
`,
			stmts: []string{
				"SELECT country, pop FROM countries",
				"SELECT COUNT(*) FROM countries",
				"SELECT country, pop FROM countries WHERE country = 'US'",
				"SELECT country FROM countries WHERE country > 'CA'",
				"SELECT country FROM countries WHERE country LIKE 'US%'",
				"SELECT state, pop FROM states WHERE country = 'US'",
				"SELECT COUNT(*) FROM states WHERE country = 'US'",
				"SELECT COUNT(*) FROM states",
				"SELECT state FROM states WHERE country = 'US' AND state = 'NY'",
				"SELECT city FROM cities WHERE country = 'US'",
				"SELECT COUNT(*) FROM cities WHERE country = 'US'",
				"SELECT city FROM cities WHERE country = 'US' AND state = 'NY'",
				"SELECT city FROM cities WHERE country = 'US' AND state = 'NY' AND city > 'B'",
				"SELECT city FROM cities WHERE country = 'US' AND state = 'NY' ORDER BY city DESC LIMIT 1",
				"SELECT s.state, c.city FROM states s JOIN cities c ON c.country = s.country AND c.state = s.state WHERE s.country = 'US'",
				"SELECT s.state, COUNT(c.city) FROM states s LEFT JOIN cities c ON c.country = s.country AND c.state = s.state WHERE s.country IN ('US', 'USA') GROUP BY s.state",
				"SELECT SUM(pop) FROM cities WHERE country = 'US'",
				"INSERT INTO cities (country, state, city, pop) VALUES ('US', 'NY', 'BUFFALO', 1)",
				"UPDATE states SET pop = pop + 1 WHERE country = 'US'",
				"UPDATE cities SET state = 'NJ' WHERE country = 'US' AND state = 'NY' AND city = 'ALBANY'",
				"DELETE FROM countries WHERE country = 'USA'",
				"DELETE FROM states WHERE country = 'USA'",
				"SELECT country, pop FROM countries",
				"SELECT country, state, pop FROM states",
				"SELECT country, state, city, pop FROM cities",
			},
		},
	},
	{
		// The DynamoDB Book's inverted index: GSI2 swaps GSI1's keys
		// (a user's memberships by org in GSI1, an org's members by
		// user in GSI2), over items some of which are in neither.
		keyShape: keyShape{name: "an index inverting another index", mapping: `
table: InvertedGsi
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
  GSI2: {partition_key: GSI1SK, sort_key: GSI1PK}
entities:
  users:
    keys: {PK: "USER#{user}", SK: "USER#{user}"}
    columns: {user: S, name: S}
  orgs:
    keys: {PK: "ORG#{org}", SK: "ORG#{org}"}
    columns: {org: S, plan: S}
  members:
    keys: {PK: "M#{user}#{org}", SK: "M", GSI1PK: "USER#{user}", GSI1SK: "ORG#{org}"}
    columns: {user: S, org: S, role: S}
`,
			rows: `{"entity":"users","row":{"user":"ann","name":"Ann"}}
{"entity":"users","row":{"user":"bob","name":"Bob"}}
{"entity":"orgs","row":{"org":"acme","plan":"pro"}}
{"entity":"orgs","row":{"org":"beta","plan":"free"}}
{"entity":"members","row":{"user":"ann","org":"acme","role":"admin"}}
{"entity":"members","row":{"user":"ann","org":"beta","role":"member"}}
{"entity":"members","row":{"user":"bob","org":"acme","role":"member"}}
`,
			stmts: []string{
				"SELECT org, role FROM members WHERE user = 'ann'",
				"SELECT user, role FROM members WHERE org = 'acme'",
				"SELECT COUNT(*) FROM members WHERE org = 'acme'",
				"SELECT user FROM members WHERE org = 'acme' ORDER BY user DESC LIMIT 1",
				"SELECT o.plan, m.user FROM members m JOIN orgs o ON o.org = m.org WHERE m.user = 'ann'",
				"SELECT u.name, m.role FROM members m JOIN users u ON u.user = m.user WHERE m.org = 'acme'",
				"SELECT user, org FROM members WHERE user = 'ann' AND org = 'beta'",
				"UPDATE members SET org = 'beta' WHERE user = 'bob' AND org = 'acme'",
				"UPDATE members SET role = 'owner' WHERE org = 'beta'",
				"DELETE FROM members WHERE org = 'acme'",
				"SELECT user, org, role FROM members WHERE user IN ('ann', 'bob')",
			},
		},
	},
	{
		// A leaderboard: scores in a string sort key of a global index
		// (SCORE#{score}#{user}, the number not padded), read top first.
		keyShape: keyShape{name: "leaderboard with a number inside an index sort key", mapping: `
table: Leaderboard
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  scores:
    keys: {PK: "USER#{user}", SK: "GAME#{game}", GSI1PK: "GAME#{game}", GSI1SK: "SCORE#{score}#{user}"}
    columns: {user: S, game: S, score: N}
`,
			rows: `{"entity":"scores","row":{"user":"a","game":"g","score":9}}
{"entity":"scores","row":{"user":"b","game":"g","score":10}}
{"entity":"scores","row":{"user":"c","game":"g","score":100}}
{"entity":"scores","row":{"user":"d","game":"g","score":55.5}}
{"entity":"scores","row":{"user":"e","game":"g","score":-3}}
{"entity":"scores","row":{"user":"f","game":"g","score":10}}
{"entity":"scores","row":{"user":"a","game":"h","score":1}}
`,
			stmts: []string{
				"SELECT user, score FROM scores WHERE game = 'g' ORDER BY score DESC, user LIMIT 3",
				"SELECT user, score FROM scores WHERE game = 'g' ORDER BY score, user LIMIT 2",
				"SELECT user FROM scores WHERE game = 'g' AND score > 9",
				"SELECT user FROM scores WHERE game = 'g' AND score >= 10 AND score < 100",
				"SELECT user FROM scores WHERE game = 'g' AND score = 10",
				"SELECT user FROM scores WHERE game = 'g' AND score = 10 ORDER BY user DESC LIMIT 1",
				"SELECT MAX(score), MIN(score), COUNT(*) FROM scores WHERE game = 'g'",
				"UPDATE scores SET score = score + 100 WHERE game = 'g' AND score < 10",
				"UPDATE scores SET score = 7 WHERE user = 'c' AND game = 'g'",
				"DELETE FROM scores WHERE game = 'g' AND score = 10",
				"SELECT user, score FROM scores WHERE game = 'g' ORDER BY score DESC LIMIT 10",
			},
		},
	},
	{
		// ElectroDB's key format (electrodb.dev, "Modeling" and the
		// TaskManager example): keys "$service#facet_value", sort keys
		// "$entity_version#facet_value...", collections sharing an
		// index partition ("$workplaces#..."), entities told apart by
		// __edb_e__. Offices keyed by a location hierarchy.
		keyShape: keyShape{name: "electrodb task manager", mapping: `
table: TaskApp
partition_key: pk
sort_key: sk
type_attribute: __edb_e__
indexes:
  gsi1: {partition_key: gsi1pk, sort_key: gsi1sk}
  gsi2: {partition_key: gsi2pk, sort_key: gsi2sk}
entities:
  employees:
    type: employee
    keys: {pk: "$taskapp#employee_{employee}", sk: "$employee_1",
           gsi1pk: "$taskapp#office_{office}", gsi1sk: "$workplaces#employee_1#team_{team}#title_{title}#employee_{employee}"}
    columns: {employee: S, office: S, team: S, title: S, salary: N}
  offices:
    type: office
    keys: {pk: "$taskapp#country_{country}#state_{state}", sk: "$office_1#city_{city}#zip_{zip}#office_{office}",
           gsi1pk: "$taskapp#office_{office}", gsi1sk: "$workplaces#office_1"}
    columns: {office: S, country: S, state: S, city: S, zip: S}
  tasks:
    type: task
    keys: {pk: "$taskapp#task_{task}", sk: "$task_1#project_{project}#employee_{employee}",
           gsi2pk: "$taskapp#employee_{employee}", gsi2sk: "$assignments#task_1#status_{status}#project_{project}#task_{task}"}
    columns: {task: S, project: S, employee: S, status: S, points: N}
`,
			rows: `{"entity":"offices","row":{"office":"gw","country":"usa","state":"wa","city":"seattle","zip":"98101"}}
{"entity":"offices","row":{"office":"pdx","country":"usa","state":"or","city":"portland","zip":"97201"}}
{"entity":"offices","row":{"office":"sea2","country":"usa","state":"wa","city":"seattle","zip":"98109"}}
{"entity":"offices","row":{"office":"tac","country":"usa","state":"wa","city":"tacoma","zip":"98402"}}
{"entity":"employees","row":{"employee":"jlowe","office":"gw","team":"dev","title":"senior","salary":10}}
{"entity":"employees","row":{"employee":"ann","office":"gw","team":"dev","title":"junior","salary":5}}
{"entity":"employees","row":{"employee":"bob","office":"gw","team":"devops","title":"senior","salary":8}}
{"entity":"employees","row":{"employee":"cat","office":"pdx","team":"dev","title":"senior","salary":9}}
{"entity":"tasks","row":{"task":"t1","project":"p1","employee":"jlowe","status":"open","points":3}}
{"entity":"tasks","row":{"task":"t2","project":"p1","employee":"ann","status":"done","points":1}}
{"entity":"tasks","row":{"task":"t3","project":"p2","employee":"jlowe","status":"open","points":5}}
{"entity":"tasks","row":{"task":"t4","project":"p2","employee":"jlowe","status":"done","points":2}}
`,
			stmts: []string{
				"SELECT employee, title FROM employees WHERE office = 'gw'",
				"SELECT employee FROM employees WHERE office = 'gw' AND team = 'dev'",
				"SELECT employee FROM employees WHERE office = 'gw' AND team = 'dev' AND title = 'senior'",
				"SELECT employee FROM employees WHERE office = 'gw' AND team LIKE 'dev%'",
				"SELECT employee FROM employees WHERE office = 'gw' AND team > 'dev'",
				"SELECT COUNT(*) FROM employees WHERE office = 'gw'",
				"SELECT o.city, e.employee FROM offices o JOIN employees e ON e.office = o.office WHERE o.country = 'usa' AND o.state = 'wa'",
				"SELECT office, zip FROM offices WHERE country = 'usa' AND state = 'wa' AND city = 'seattle'",
				"SELECT office FROM offices WHERE country = 'usa' AND state = 'wa' AND city = 'seattle' AND zip > '98101'",
				"SELECT city FROM offices WHERE country = 'usa' AND state = 'wa' ORDER BY city DESC LIMIT 1",
				"SELECT COUNT(*) FROM offices WHERE office = 'gw'",
				"SELECT city FROM offices WHERE office = 'gw'",
				"SELECT task, status FROM tasks WHERE employee = 'jlowe'",
				"SELECT task FROM tasks WHERE employee = 'jlowe' AND status = 'open'",
				"SELECT task FROM tasks WHERE employee = 'jlowe' AND status = 'open' AND project = 'p2'",
				"SELECT SUM(points) FROM tasks WHERE employee = 'jlowe' AND status = 'done'",
				"SELECT e.salary, t.task FROM employees e JOIN tasks t ON t.employee = e.employee WHERE e.office = 'gw' AND e.team = 'dev'",
				"SELECT e.employee, COUNT(t.task) FROM employees e LEFT JOIN tasks t ON t.employee = e.employee WHERE e.office = 'gw' GROUP BY e.employee",
				"UPDATE employees SET team = 'dev' WHERE office = 'gw' AND team = 'devops'",
				"UPDATE employees SET office = 'pdx' WHERE employee = 'ann'",
				"UPDATE tasks SET status = 'done' WHERE employee = 'jlowe' AND status = 'open' AND project = 'p1'",
				"DELETE FROM tasks WHERE employee = 'jlowe' AND status = 'done'",
				"UPDATE offices SET office = 'gw2' WHERE country = 'usa' AND state = 'wa' AND city = 'seattle' AND zip = '98101' AND office = 'gw'",
				"SELECT employee, office, team, title FROM employees WHERE office IN ('gw', 'pdx', 'gw2')",
				"SELECT task, employee, status FROM tasks WHERE employee IN ('jlowe', 'ann')",
				"SELECT office, city FROM offices WHERE country = 'usa' AND state IN ('wa', 'or')",
			},
		},
		refused: []string{
			"SELECT employee FROM employees WHERE team = 'dev'",
			"SELECT task FROM tasks WHERE status = 'open'",
		},
	},
	{
		// Every item of an entity listed under one constant index
		// partition (the DynamoDB Book's "all users by signup date"), a
		// global index keyed like a local one (the table's partition key,
		// another sort key: added after creation, when an LSI no longer
		// can be), and two indexes with the same keys and different
		// projections.
		keyShape: keyShape{name: "constant index partition, a global index on the table's partition key", mapping: `
table: ListAll
partition_key: PK
sort_key: SK
indexes:
  AllUsers: {partition_key: GSI1PK, sort_key: GSI1SK}
  ByCreated: {partition_key: PK, sort_key: created}
  ByCreatedKeys: {partition_key: PK, sort_key: created, projection: KEYS_ONLY}
entities:
  users:
    keys: {PK: "U#{user}", SK: "PROFILE", GSI1PK: "USERS", GSI1SK: "{signup}#{user}"}
    columns: {user: S, signup: S, name: S}
  notes:
    keys: {PK: "U#{user}", SK: "NOTE#{id}", created: "{created}"}
    columns: {user: S, id: S, created: S, body: S}
`,
			rows: `{"entity":"users","row":{"user":"a","signup":"2024-01-02","name":"A"}}
{"entity":"users","row":{"user":"b","signup":"2024-01-01","name":"B"}}
{"entity":"users","row":{"user":"c","signup":"2024-01-03","name":"C"}}
{"entity":"notes","row":{"user":"a","id":"1","created":"2024-02-02","body":"x"}}
{"entity":"notes","row":{"user":"a","id":"2","created":"2024-02-01","body":"y"}}
{"entity":"notes","row":{"user":"a","id":"3","created":"2024-02-03","body":"z"}}
{"entity":"notes","row":{"user":"b","id":"1","created":"2024-02-04","body":"w"}}
`,
			stmts: []string{
				"SELECT user, name FROM users",
				"SELECT COUNT(*) FROM users",
				"SELECT user FROM users ORDER BY signup DESC LIMIT 2",
				"SELECT user FROM users WHERE signup > '2024-01-01'",
				"SELECT user FROM users WHERE name = 'C'",
				"SELECT id, body FROM notes WHERE user = 'a' ORDER BY created DESC LIMIT 2",
				"SELECT id FROM notes WHERE user = 'a' AND created > '2024-02-01'",
				"SELECT u.name, n.id FROM users u JOIN notes n ON n.user = u.user WHERE u.signup >= '2024-01-02'",
				"SELECT COUNT(*) FROM notes WHERE user = 'a' AND created >= '2024-02-02'",
				"INSERT INTO users (user, signup, name) VALUES ('d', '2023-12-31', 'D')",
				"UPDATE users SET signup = '2025-01-01' WHERE user = 'b'",
				"UPDATE users SET name = 'Q' WHERE signup < '2024-01-03'",
				"DELETE FROM notes WHERE user = 'a' AND created < '2024-02-03'",
				"SELECT user, signup, name FROM users",
				"SELECT user, id, created, body FROM notes WHERE user IN ('a', 'b')",
			},
		},
	},
	{
		// AWS's device state log (amazon-dynamodb-design-patterns,
		// examples/device-state-log, MIT-0): a device's logs under the
		// composite sort key "State#Date" (an attribute name holding
		// "#"), GSI1 on the plain attributes Operator and Date (Date in
		// place, and inside the table's sort key too), and the sparse
		// GSI2 on EscalatedTo and the table's own sort key. Logs no
		// operator took yet are out of GSI1.
		keyShape: keyShape{name: "device state log", mapping: deviceStateLogMapping,
			rows: deviceStateLogRows,
			stmts: []string{
				"SELECT State, Date, Detail FROM logs WHERE device = '12345' AND State = 'WARNING1' ORDER BY Date DESC",
				"SELECT State, Date FROM logs WHERE device = '12345' ORDER BY State DESC, Date DESC LIMIT 3",
				"SELECT State, Date FROM logs WHERE device = '12345' AND State LIKE 'WARNING1%'",
				"SELECT State, Date FROM logs WHERE device = '12345' AND State BETWEEN 'WARNING1' AND 'WARNING1 '",
				"SELECT State, Date FROM logs WHERE device = '12345' AND State = 'WARNING1' AND Date BETWEEN '2020-04-24' AND '2020-04-24T23'",
				"SELECT device, State, Date FROM logs WHERE Operator = 'Liz' AND Date BETWEEN '2020-04-20' AND '2020-04-25'",
				"SELECT device, State, Date FROM logs WHERE Operator = 'Liz' ORDER BY Date DESC LIMIT 2",
				"SELECT device, State, Date FROM logs WHERE EscalatedTo = 'Sara' AND State = 'WARNING4' AND Date LIKE '2020-04-27%'",
				"SELECT device, State, Date FROM logs WHERE EscalatedTo = 'Sara' AND State LIKE 'WARNING%' ORDER BY State DESC, Date DESC LIMIT 2",
				"SELECT State, COUNT(*), MAX(Date) FROM logs WHERE device IN ('12345', '11223') GROUP BY State",
				"SELECT a.Date, b.device FROM logs a JOIN logs b ON b.Operator = a.Operator AND b.Date > a.Date WHERE a.device = '11223' AND a.State = 'WARNING4'",
				"UPDATE logs SET EscalatedTo = 'Sara' WHERE device = '12345' AND State = 'WARNING1' AND Date = '2020-04-24T14:40:00'",
				"UPDATE logs SET EscalatedTo = NULL WHERE EscalatedTo = 'Sara' AND State = 'WARNING4' AND Date < '2020-04-28'",
				"UPDATE logs SET State = 'NORMAL' WHERE device = '11223' AND State = 'WARNING4' AND Date = '2020-04-28T08:00:00'",
				"UPDATE logs SET Date = '2020-05-01T00:00:00' WHERE Operator = 'Liz' AND Date < '2020-04-22'",
				"UPDATE logs SET Operator = 'Max' WHERE device = '11223' AND Operator IS NULL",
				"INSERT INTO logs (device, State, Date, Detail) VALUES ('99', 'WARNING1', '2020-06-01', 'new')",
				"DELETE FROM logs WHERE EscalatedTo = 'Sara' AND State = 'WARNING2'",
				"SELECT device, State, Date, Operator, EscalatedTo, Detail FROM logs WHERE device IN ('12345', '11223', '22334', '99')",
				"SELECT device, State, Date FROM logs WHERE Operator IN ('Liz', 'Max', 'Tom')",
				"SELECT device, State, Date FROM logs WHERE EscalatedTo IN ('Sara', 'Bob')",
			},
		},
	},
}

// deviceStateLogMapping is AWS's device state log (see publishedShapes).
const deviceStateLogMapping = `
table: DeviceStateLog
partition_key: DeviceID
sort_key: "State#Date"
indexes:
  GSI1: {partition_key: Operator, sort_key: Date}
  GSI2: {partition_key: EscalatedTo, sort_key: "State#Date"}
entities:
  logs:
    keys: {DeviceID: "d#{device}", "State#Date": "{State}#{Date}", Operator: "{Operator}", Date: "{Date}", EscalatedTo: "{EscalatedTo}"}
    columns: {device: S, State: S, Date: S, Operator: S, EscalatedTo: S, Detail: S}
    optional: [GSI1, GSI2]
`

const deviceStateLogRows = `{"entity":"logs","row":{"device":"12345","State":"WARNING1","Date":"2020-04-24T14:40:00","Operator":"Liz","Detail":"a"}}
{"entity":"logs","row":{"device":"12345","State":"WARNING1","Date":"2020-04-24T14:45:00","Operator":"Liz","Detail":"b"}}
{"entity":"logs","row":{"device":"12345","State":"WARNING2","Date":"2020-04-24T14:50:00","Operator":"Liz","Detail":"c","EscalatedTo":"Sara"}}
{"entity":"logs","row":{"device":"12345","State":"WARNING1","Date":"2020-04-25T09:00:00","Operator":"Charlie","Detail":"d"}}
{"entity":"logs","row":{"device":"12345","State":"WARNING10","Date":"2020-04-20T09:00:00","Operator":"Liz","Detail":"x10"}}
{"entity":"logs","row":{"device":"12345","State":"WARNING1 ","Date":"2020-04-21T09:00:00","Operator":"Liz","Detail":"sp"}}
{"entity":"logs","row":{"device":"11223","State":"WARNING3","Date":"2020-04-27T11:20:00","Operator":"Tom","Detail":"e","EscalatedTo":"Sara"}}
{"entity":"logs","row":{"device":"11223","State":"WARNING4","Date":"2020-04-27T11:25:00","Operator":"Tom","Detail":"f","EscalatedTo":"Sara"}}
{"entity":"logs","row":{"device":"11223","State":"WARNING4","Date":"2020-04-28T08:00:00","Operator":"Liz","Detail":"g","EscalatedTo":"Sara"}}
{"entity":"logs","row":{"device":"11223","State":"WARNING4","Date":"2020-04-29T08:00:00","Detail":"h"}}
{"entity":"logs","row":{"device":"22334","State":"NORMAL","Date":"2020-04-26T00:00:00","Operator":"Liz","Detail":"i","EscalatedTo":"Bob"}}
`

// A log written by the device itself, before any operator took it, is
// out of the sparse GSI1 and holds neither of its keys: no Operator and
// no Date attribute (the date is in its sort key, "State#Date"). An
// UPDATE that gives it an operator must put it in GSI1, where its row
// (Operator and Date both set) belongs: SET Operator alone left the
// item without Date, so GSI1 never held it and every read of an
// operator's logs missed it on DynamoDB.
func TestAnItemEnteringASparseIndexGetsEveryKeyOfIt(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, deviceStateLogMapping, deviceStateLogRows)
			ctx := context.Background()
			for _, it := range []map[string]hAV{
				hItem("DeviceID", hS("d#777"), "State#Date", hS("WARNING5#2020-05-01T10:00:00"), "Detail", hS("by the device")),
				hItem("DeviceID", hS("d#777"), "State#Date", hS("WARNING5#2020-05-01T10:05:00"), "Detail", hS("by the device too")),
			} {
				if _, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table), Item: it}); err != nil {
					t.Fatal(err)
				}
			}
			for _, sql := range []string{
				"INSERT INTO logs (device, State, Date, Detail) VALUES ('777', 'WARNING5', '2020-05-01T10:00:00', 'by the device')",
				"INSERT INTO logs (device, State, Date, Detail) VALUES ('777', 'WARNING5', '2020-05-01T10:05:00', 'by the device too')",
			} {
				if _, err := fx.Oracle.Exec(sql); err != nil {
					t.Fatal(err)
				}
			}
			execAgree(t, fx, testkit.Select{SQL: "UPDATE logs SET Operator = 'Ann' WHERE device = '777' AND State = 'WARNING5' AND Date = '2020-05-01T10:00:00'"})
			execAgree(t, fx, testkit.Select{SQL: "UPDATE logs SET Operator = 'Ann' WHERE device = '777' AND Date > '2020-05-01T10:01'"})
			for _, sql := range []string{
				"SELECT device, State, Date, Operator, Detail FROM logs WHERE device = '777'",
				"SELECT device, State, Date, Detail FROM logs WHERE Operator = 'Ann'",
				"SELECT device, Date FROM logs WHERE Operator = 'Ann' AND Date BETWEEN '2020-05-01' AND '2020-05-02' ORDER BY Date DESC LIMIT 1",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
		})
	}
}

// Each statement of publishedShapes runs in order and agrees with SQLite (a
// write's count too); each refused statement is refused.
func TestPublishedShapesAgreeWithSQLite(t *testing.T) {
	for _, shape := range publishedShapes {
		for _, b := range testkit.Backends() {
			t.Run(shape.name+"/"+b.Name, func(t *testing.T) {
				t.Parallel()
				fx := testkit.LoadText(t, b, shape.mapping, shape.rows)
				ctx := context.Background()
				for _, sql := range shape.refused {
					_, err := fx.Query(ctx, sql)
					if !strings.HasPrefix(sql, "SELECT") {
						_, err = fx.DB.Exec(ctx, sql)
					}
					if !errors.Is(err, dynosql.ErrRefused) {
						t.Errorf("%s: want a refusal, got %v", sql, err)
					}
				}
				for _, stmt := range shape.stmts {
					sql, sqlite, _ := strings.Cut(stmt, sqliteSpelling)
					if !strings.HasPrefix(sql, "SELECT") {
						execAgree(t, fx, testkit.Select{SQL: sql, SQLite: sqlite})
						continue
					}
					t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql, SQLite: sqlite}) })
				}
			})
		}
	}
}

// Writes to a column inside a composed index key (the shard of a
// write-sharded key, the score of a leaderboard key) by arithmetic, in
// a transaction, by an upsert, and through an open entity's undeclared
// names: afterwards every read agrees with SQLite, or the write was
// refused.
func TestWritesOfColumnsInComposedIndexKeys(t *testing.T) {
	const m = `
table: Board
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  scores:
    keys: {PK: "USER#{user}", SK: "GAME#{game}", GSI1PK: "GAME#{game}#{shard}", GSI1SK: "SCORE#{score}#{user}"}
    columns: {user: S, game: S, shard: N, score: N}
    open: true
`
	const rows = `{"entity":"scores","row":{"user":"a","game":"g","shard":0,"score":9}}
{"entity":"scores","row":{"user":"b","game":"g","shard":1,"score":10}}
{"entity":"scores","row":{"user":"c","game":"g","shard":0,"score":100}}
`
	reads := []string{
		"SELECT user, shard, score FROM scores WHERE game = 'g' AND shard IN (0, 1, 2)",
		"SELECT user, shard, score FROM scores WHERE user IN ('a', 'b', 'c') AND game = 'g'",
		"SELECT user FROM scores WHERE game = 'g' AND shard IN (0, 1, 2) AND score >= 10",
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, m, rows)
			ctx := context.Background()
			check := func(after string) {
				t.Helper()
				for _, sql := range reads {
					t.Run(after+": "+sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
				}
			}
			exec := func(sql, sqlite string) {
				t.Helper()
				res, err := fx.DB.Exec(ctx, sql)
				if err != nil {
					t.Logf("%s: %v", sql, err)
					return
				}
				want, err := fx.Oracle.Exec(cmp.Or(sqlite, sql))
				if err != nil {
					t.Fatal(err)
				}
				if res.RowsAffected != want {
					t.Errorf("%s: %d rows affected, SQLite %d", sql, res.RowsAffected, want)
				}
			}
			exec("UPDATE scores SET shard = shard + 1 WHERE user = 'a' AND game = 'g'", "")
			check("shard + 1")
			exec("UPDATE scores SET score = score + 1, shard = 2 WHERE game = 'g' AND shard IN (0, 1) AND score > 50", "")
			check("score + 1 through the index")
			exec("INSERT INTO scores (user, game, shard, score) VALUES ('b', 'g', 1, 0) ON DUPLICATE KEY UPDATE score = score + 5",
				"UPDATE scores SET score = score + 5 WHERE user = 'b' AND game = 'g'")
			check("upsert")
			tx := fx.DB.Begin()
			_, err1 := tx.Exec(ctx, "UPDATE scores SET score = score + 1 WHERE user = 'a' AND game = 'g'")
			_, err2 := tx.Exec(ctx, "UPDATE scores SET shard = 0 WHERE user = 'c' AND game = 'g'")
			if err1 == nil && err2 == nil {
				if _, err := tx.Commit(ctx); err != nil {
					t.Logf("commit: %v", err)
				} else {
					_, _ = fx.Oracle.Exec("UPDATE scores SET score = score + 1 WHERE user = 'a' AND game = 'g'")
					_, _ = fx.Oracle.Exec("UPDATE scores SET shard = 0 WHERE user = 'c' AND game = 'g'")
				}
			} else {
				t.Logf("tx: %v / %v", err1, err2)
				_ = tx.Rollback()
			}
			check("transaction")
			// An open entity's undeclared name that is an index key attribute.
			for _, sql := range []string{
				"UPDATE scores SET GSI1SK = 'SCORE#1#a' WHERE user = 'a' AND game = 'g'",
				"UPDATE scores SET GSI1PK = 'GAME#zz#0' WHERE user = 'a' AND game = 'g'",
				"INSERT INTO scores (user, game, shard, score, GSI1SK) VALUES ('d', 'g', 0, 1, 'X')",
			} {
				if _, err := fx.DB.Exec(ctx, sql); err == nil {
					t.Errorf("%s: not refused", sql)
				} else {
					t.Logf("%s: %v", sql, err)
				}
			}
			check("open names")
		})
	}
}

// Values that hold part of the literal after their column: written, they
// must read back as written (or the write is refused), whatever the
// separator (Redis-style "::", "|", DeBrie's "#ITEM#").
func TestValuesHoldingPartOfTheirSeparator(t *testing.T) {
	const m = `
table: Seps
partition_key: PK
sort_key: SK
entities:
  colons:
    keys: {PK: "C", SK: "{a}::{b}"}
    columns: {a: S, b: S, v: N}
  pipes:
    keys: {PK: "P", SK: "X|{a}|{b}"}
    columns: {a: S, b: S, v: N}
  items:
    keys: {PK: "I", SK: "ORDER#{a}#ITEM#{b}"}
    columns: {a: S, b: S, v: N}
`
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, m, "")
			ctx := context.Background()
			n := 0
			for _, tbl := range []string{"colons", "pipes", "items"} {
				for _, a := range []string{"x", "x:", ":x", "x|", "x#", "x#I", "x#ITEM", "x::y", "x:y"} {
					n++
					sql := "INSERT INTO " + tbl + " (a, b, v) VALUES ('" + a + "', 'b', " + strconv.Itoa(n) + ")"
					if _, err := fx.DB.Exec(ctx, sql); err != nil {
						t.Logf("%s: %v", sql, err)
						continue
					}
					if _, err := fx.Oracle.Exec(sql); err != nil {
						t.Fatal(err)
					}
				}
				for _, sql := range []string{
					"SELECT a, b, v FROM " + tbl,
					"SELECT v FROM " + tbl + " WHERE a = 'x'",
					"SELECT v FROM " + tbl + " WHERE a = 'x:'",
					"SELECT v FROM " + tbl + " WHERE a = 'x#'",
					"SELECT v FROM " + tbl + " WHERE a = 'x|'",
					"SELECT v FROM " + tbl + " WHERE a = 'x' AND b = 'b'",
					"SELECT v FROM " + tbl + " WHERE a > 'x'",
					"SELECT v FROM " + tbl + " WHERE a LIKE 'x%'",
					"SELECT a FROM " + tbl + " ORDER BY a DESC LIMIT 3",
				} {
					t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
				}
			}
		})
	}
}

// An ascending ORDER BY with a LIMIT read in key order is checked row by
// row, since a value holding a character below "#" ("WARNING1 ") sorts
// out of place in "State#Date". A row the WHERE drops is never returned,
// so it cannot misorder the answer: the statement must answer, as SQLite
// does, rather than fail for it. A row the WHERE keeps still fails it
// (or it answers right).
func TestAnOrderCheckLooksOnlyAtTheRowsTheWhereKeeps(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, deviceStateLogMapping, deviceStateLogRows)
			for _, sql := range []string{
				"SELECT State, Date FROM logs WHERE device = '12345' AND State IN ('WARNING1', 'WARNING2') ORDER BY State, Date LIMIT 2",
				"SELECT State, Date FROM logs WHERE device = '12345' AND Date > '2020-04-22' ORDER BY State, Date LIMIT 3",
				"SELECT State, Date, Detail FROM logs WHERE device = '12345' AND State LIKE 'WARNING_' ORDER BY State, Date LIMIT 2",
				"SELECT State, Date FROM logs WHERE device = '12345' AND Detail <> 'sp' ORDER BY State, Date LIMIT 4",
			} {
				t.Run(sql, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: sql}) })
			}
			const kept = "SELECT State, Date FROM logs WHERE device = '12345' AND State >= 'WARNING1' ORDER BY State, Date LIMIT 2"
			got, err := fx.Query(context.Background(), kept)
			if err == nil {
				want, werr := fx.Oracle.Query(kept)
				if werr != nil {
					t.Fatal(werr)
				}
				if diff := oracle.SameRows(got, want, true); diff != "" {
					t.Errorf("%s: wrong rows instead of an error:\n%s", kept, diff)
				}
			}
		})
	}
}

// A WHERE that names one log by its full key and also its operator, a
// key of GSI1 held in place (Operator: "{Operator}"), is one conditional
// write: DynamoDB checks the Operator attribute as it checks any other.
// It was read first instead, so it could not join a transaction, whose
// error said the WHERE did not name one row by its full key.
func TestAConditionOnAnIndexKeyHeldInPlaceJoinsATransaction(t *testing.T) {
	stmts := []string{
		"UPDATE logs SET Detail = 'checked' WHERE device = '11223' AND State = 'WARNING4' AND Date = '2020-04-28T08:00:00' AND Operator = 'Liz'",
		"DELETE FROM logs WHERE device = '12345' AND State = 'WARNING1' AND Date = '2020-04-25T09:00:00' AND Operator = 'Charlie'",
	}
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, deviceStateLogMapping, deviceStateLogRows)
			ctx := context.Background()
			tx := fx.DB.Begin()
			for _, s := range stmts {
				if _, err := tx.Exec(ctx, s); err != nil {
					_ = tx.Rollback()
					t.Fatalf("%s: %v", s, err)
				}
			}
			res, err := tx.Commit(ctx)
			if err != nil {
				t.Fatalf("COMMIT: %v", err)
			}
			if want := oracleExec(t, fx, stmts...); res.RowsAffected != want {
				t.Errorf("COMMIT: %d rows affected, SQLite %d", res.RowsAffected, want)
			}
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT device, State, Date, Operator, Detail FROM logs WHERE device IN ('12345', '11223')"})
			// A condition the row does not meet leaves it as it was.
			execAgree(t, fx, testkit.Select{SQL: "UPDATE logs SET Detail = 'not him' WHERE device = '11223' AND State = 'WARNING4' AND Date = '2020-04-28T08:00:00' AND Operator = 'Tom'"})
			execAgree(t, fx, testkit.Select{SQL: "DELETE FROM logs WHERE device = '11223' AND State = 'WARNING4' AND Date = '2020-04-29T08:00:00' AND Operator IS NOT NULL"})
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT device, State, Date, Operator, Detail FROM logs WHERE device IN ('12345', '11223')"})
		})
	}
}
