package dynosql_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
)

// logicMapping and logicRows: two entities sharing partitions, a sparse
// index, and NULLs in every combination of a, b and c, for the tests of
// SQL's semantics below.
const logicMapping = `
table: Logic
partition_key: PK
sort_key: SK
indexes:
  GSI1: {partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  items:
    keys: {PK: "P#{p}", SK: "I#{id}", GSI1PK: "G#{g}", GSI1SK: "{id}"}
    columns: {p: S, id: S, g: S, a: N, b: S, c: N, f: BOOL}
    optional: [GSI1]
  others:
    keys: {PK: "P#{p}", SK: "O#{oid}"}
    columns: {p: S, oid: S, x: N, ref: S}
`

const logicRows = `{"entity":"items","row":{"p":"1","id":"a","g":"x","a":1,"b":"x","c":10,"f":true}}
{"entity":"items","row":{"p":"1","id":"b","g":"x","a":2,"b":"y"}}
{"entity":"items","row":{"p":"1","id":"c","g":"y","b":"x","c":5,"f":false}}
{"entity":"items","row":{"p":"1","id":"d","a":1}}
{"entity":"items","row":{"p":"1","id":"e","g":"x"}}
{"entity":"items","row":{"p":"1","id":"f","g":"y","a":3,"b":"","c":-1}}
{"entity":"items","row":{"p":"1","id":"g","a":2,"b":"z","c":5}}
{"entity":"items","row":{"p":"2","id":"a","g":"x","a":7,"b":"x"}}
{"entity":"items","row":{"p":"2","id":"h","a":2}}
{"entity":"others","row":{"p":"1","oid":"o1","x":1,"ref":"a"}}
{"entity":"others","row":{"p":"1","oid":"o2","ref":"d"}}
{"entity":"others","row":{"p":"1","oid":"o3","x":2,"ref":"zz"}}
{"entity":"others","row":{"p":"1","oid":"o4","x":3}}
`

// GROUP BY a name that is both a column of the tables and an alias of
// the select list groups on the column, as SQLite, MySQL ("For GROUP BY
// or HAVING clauses, it searches the FROM clause before searching in the
// select_expr values") and PostgreSQL do; ORDER BY takes the alias.
func TestGroupByNamesTheColumnBeforeTheAlias(t *testing.T) {
	agreeOnEveryBackend(t, logicMapping, logicRows,
		"SELECT COUNT(*) AS a FROM items WHERE p = '1' GROUP BY a",
		"SELECT COUNT(*) AS b, MAX(id) FROM items WHERE p = '1' GROUP BY b",
		"SELECT a + 1 AS a, COUNT(*) FROM items WHERE p = '1' GROUP BY a",
		"SELECT SUM(c) AS a, COUNT(*) FROM items WHERE p = '1' GROUP BY a",
		"SELECT i.a AS x, COUNT(*) AS a FROM items i WHERE i.p = '1' GROUP BY x, a",
	)
}

// On an open entity any name is an attribute, which must not hide a
// select-list alias: GROUP BY k groups on n + 1, not on a missing k.
func TestGroupByAnAliasOnAnOpenEntity(t *testing.T) {
	const open = `
table: Things
partition_key: PK
sort_key: SK
entities:
  things:
    keys: {PK: "T#{p}", SK: "I#{id}"}
    columns: {p: S, id: S, n: N}
    open: true
`
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, open, `{"entity":"things","row":{"p":"1","id":"a","n":1}}
{"entity":"things","row":{"p":"1","id":"b","n":1}}
{"entity":"things","row":{"p":"1","id":"c","n":2}}
`)
			rows, err := fx.Query(context.Background(), "SELECT n + 1 AS k, COUNT(*) AS c FROM things WHERE p = '1' GROUP BY k ORDER BY k")
			if got := fmt.Sprint(rows); err != nil || got != "[[2 2] [3 1]]" {
				t.Errorf("got %s, %v; want [[2 2] [3 1]]", got, err)
			}
		})
	}
}

// GROUP BY an aggregate (through its alias or position) is an error in
// SQLite and MySQL; dynosql put every row in one group.
func TestGroupByAnAggregateIsRefused(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[1], logicMapping, logicRows)
	for _, q := range []string{
		"SELECT COUNT(*) AS n FROM items WHERE p = '1' GROUP BY n",
		"SELECT COUNT(*) FROM items WHERE p = '1' GROUP BY 1",
		"SELECT b, MAX(a) FROM items WHERE p = '1' GROUP BY b, 2",
	} {
		if _, err := fx.Oracle.Query(q); err == nil {
			t.Errorf("SQLite answers %s", q)
		}
		if rows, err := fx.Query(context.Background(), q); err == nil {
			t.Errorf("%s: %v, want an error", q, rows)
		}
	}
}

// A subquery whose select list is an aggregate is one row whatever it
// reads: x IN (SELECT MAX(a) ...) compares x with that maximum, and
// EXISTS (SELECT COUNT(*) ...) is always true. dynosql read such a
// subquery as a semi-join of its rows, comparing with NULL (an aggregate
// evaluated on one row), and answered with rows missing or extra.
func TestASubqueryOfAnAggregateIsNotASemiJoin(t *testing.T) {
	refusedOrAgree(t, dynosql.ErrUnsupported,
		// SQLite: o4 (x = 3 = MAX(a)); dynosql gave no row.
		"SELECT oid FROM others WHERE p = '1' AND x IN (SELECT MAX(a) FROM items WHERE p = '1')",
		// SQLite: o3 (two items have a = 1); dynosql gave no row.
		"SELECT oid FROM others WHERE p = '1' AND x IN (SELECT COUNT(*) FROM items WHERE p = '1' AND a = 1)",
		// SQLite: o3 and o4; dynosql gave no row.
		"SELECT oid FROM others WHERE p = '1' AND x NOT IN (SELECT MIN(a) FROM items WHERE p = '1')",
		// SQLite: all four (COUNT(*) of no rows is a row); dynosql none.
		"SELECT oid FROM others WHERE p = '1' AND EXISTS (SELECT COUNT(*) FROM items WHERE p = '1' AND a = 99)",
		// SQLite: none; dynosql all four.
		"SELECT oid FROM others WHERE p = '1' AND NOT EXISTS (SELECT COUNT(*) FROM items WHERE p = '1' AND a = 99)",
		// SQLite: all four; dynosql missed o2, whose x is NULL.
		"SELECT oid FROM others WHERE p = '1' AND EXISTS (SELECT MAX(a) FROM items i WHERE i.p = '1' AND i.a = others.x)",
	)
}

const ordsMapping = `
table: Ords
partition_key: PK
sort_key: SK
entities:
  ords:
    keys: {PK: "C#{c}", SK: "ORDER#{n}"}
    columns: {c: S, n: N, amt: N}
`

// Items another program wrote with a number spelled otherwise than
// dynosql spells it in the sort key (ORDER#01, ORDER#1e2, ORDER#-0) are
// ords items no lookup by their number finds: every read of the
// partition stops at them, whatever its select list (one without the
// sort key, COUNT(*) and SUM included), rather than answer without them
// or with them by turns.
func TestForeignNumberSpellingsStopTheRead(t *testing.T) {
	b := testkit.Backends()[0]
	fx := testkit.LoadText(t, b, ordsMapping, `{"entity":"ords","row":{"c":"x","n":1,"amt":10}}
{"entity":"ords","row":{"c":"x","n":2,"amt":20}}
`)
	ctx := context.Background()
	for _, sk := range []string{"ORDER#01", "ORDER#1e2", "ORDER#-0"} {
		if _, err := fx.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(fx.Mapping.Table), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "C#x"}, "SK": &types.AttributeValueMemberS{Value: sk}, "amt": &types.AttributeValueMemberN{Value: "5"},
		}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		"SELECT n, amt FROM ords WHERE c = 'x'",
		"SELECT amt FROM ords WHERE c = 'x'",
		"SELECT c, amt FROM ords WHERE c = 'x'",
		"SELECT COUNT(*) FROM ords WHERE c = 'x'",
		"SELECT SUM(amt) FROM ords WHERE c = 'x'",
	} {
		rows, err := fx.Query(ctx, q)
		if !errors.Is(err, dynosql.ErrMapping) || !strings.Contains(err.Error(), "but SK holds its number column n as ") {
			t.Errorf("%s: %v, %v; want the read stopped at an item spelling n otherwise", q, rows, err)
		}
	}
}

// AND, OR and NOT of values that are not conditions: MySQL and SQLite
// take a string as false and a non-zero number as true; dynosql's
// three-valued logic made every such operand unknown, so NOT b and
// a OR c were NULL in the select list, and a WHERE holding them inside a
// comparison or IS NULL kept the wrong rows. A WHERE that is such an
// operator itself is refused ("WHERE needs a condition"); these must be
// too, or agree with SQLite.
func TestLogicOfNonConditionsIsRefused(t *testing.T) {
	refusedOrAgree(t, dynosql.ErrInvalid,
		// SQLite: c, e. dynosql: b, c, e, f, g.
		"SELECT id FROM items WHERE p = '1' AND (b OR a = 1) IS NULL",
		// SQLite: a. dynosql: none.
		"SELECT id FROM items WHERE p = '1' AND (NOT b) = (a = 1)",
		// SQLite: a, b, f, g. dynosql: b, f, g.
		"SELECT id FROM items WHERE p = '1' AND (c AND a = 1) IS NOT NULL",
		// SQLite: none. dynosql: every group.
		"SELECT b, COUNT(*) FROM items WHERE p = '1' GROUP BY b HAVING (MAX(a) OR 0) IS NULL",
		// SQLite: d, e. dynosql: all seven (NOT b was NULL).
		"SELECT id FROM items WHERE p = '1' AND (NOT b) IS NULL",
		// SQLite: e. dynosql: all seven.
		"SELECT id FROM items WHERE p = '1' AND (a OR c) IS NULL",
	)
}

// refusedOrAgree runs each query on the logic design on every backend:
// dynosql may refuse it with an error of kind, and must otherwise answer
// with SQLite's rows.
func refusedOrAgree(t *testing.T, kind error, queries ...string) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, logicMapping, logicRows)
			for _, q := range queries {
				t.Run(q, func(t *testing.T) {
					want, err := fx.Oracle.Query(q)
					if err != nil {
						t.Fatal(err)
					}
					got, err := fx.Query(context.Background(), q)
					if err != nil {
						if !errors.Is(err, kind) {
							t.Fatalf("%v, want a refusal (%v)", err, kind)
						}
						return
					}
					if diff := oracle.SameRows(got, want, false); diff != "" {
						t.Errorf("rows differ from SQLite:\n%s", diff)
					}
				})
			}
		})
	}
}

// Arithmetic with NULL is NULL: SET year = year + NULL (or + ? given
// nil) sets the column NULL, as SQLite does, where it was refused as
// something DynamoDB cannot compute.
func TestSetToArithmeticWithNullSetsNull(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.Load(t, b, "school")
			execAgree(t, fx, testkit.Select{SQL: "UPDATE students SET year = year + NULL WHERE id = 'a91'"})
			execAgree(t, fx, testkit.Select{SQL: "UPDATE students SET year = 1 - (year + ?) WHERE id = 'b07'", Args: []any{nil},
				SQLite: "UPDATE students SET year = 1 - (year + NULL) WHERE id = 'b07'"})
			fx.AgreeWithSQLite(t, testkit.Select{SQL: "SELECT id, year FROM students WHERE id IN ('a91', 'b07', 'c12')"})
		})
	}
}

// LIMIT n OFFSET m where n + m passes the largest int64 (LIMIT
// 9223372036854775807 OFFSET 1 is the usual "every row after the first"):
// a descending ORDER BY on a composite sort key reads backward and stops
// after LIMIT + OFFSET rows (TopRead), and that sum wrapped negative, so
// dynosql returned no row at all.
func TestLimitPlusOffsetPastInt64KeepsEveryRow(t *testing.T) {
	const design = `
table: Events
partition_key: PK
sort_key: SK
entities:
  events:
    keys: {PK: "U#{u}", SK: "E#{date}#{id}"}
    columns: {u: S, date: S, id: S}
`
	const rows = `{"entity":"events","row":{"u":"1","date":"2024-01-01","id":"a"}}
{"entity":"events","row":{"u":"1","date":"2024-01-02","id":"b"}}
{"entity":"events","row":{"u":"1","date":"2024-01-03","id":"c"}}
{"entity":"events","row":{"u":"1","date":"2024-01-04","id":"d"}}
`
	agreeOnEveryBackend(t, design, rows,
		// SQLite: c, b, a. dynosql: no row.
		"SELECT id FROM events WHERE u = '1' ORDER BY date DESC LIMIT 9223372036854775807 OFFSET 1",
		// SQLite: b, a. dynosql: no row.
		"SELECT id FROM events WHERE u = '1' ORDER BY date DESC, id DESC LIMIT 9223372036854775807 OFFSET 2",
		"SELECT id FROM events WHERE u = '1' ORDER BY date LIMIT 9223372036854775807 OFFSET 1",
	)
}

// A select-list alias is named in any case, as MySQL says ("nor are
// column aliases" case-sensitive) and SQLite does. On an open entity (and
// a raw table) any other name is an attribute, so ORDER BY total after
// AS Total sorted by a missing attribute, every row NULL: the rows came
// in key order, not by n.
func TestOrderByAnAliasInAnotherCase(t *testing.T) {
	const open = `
table: Things
partition_key: PK
sort_key: SK
entities:
  things:
    keys: {PK: "T#{p}", SK: "I#{id}"}
    columns: {p: S, id: S, n: N}
    open: true
`
	const rows = `{"entity":"things","row":{"p":"1","id":"a","n":3}}
{"entity":"things","row":{"p":"1","id":"b","n":1}}
{"entity":"things","row":{"p":"1","id":"c","n":2}}
{"entity":"things","row":{"p":"1","id":"d"}}
`
	agreeOnEveryBackend(t, open, rows,
		// SQLite: d, b, c, a. dynosql: a, b, c, d.
		"SELECT id, n AS Total FROM things WHERE p = '1' ORDER BY total",
		// SQLite: a, c, b, d. dynosql: a, b, c, d.
		"SELECT id, n AS total FROM things WHERE p = '1' ORDER BY TOTAL DESC",
		"SELECT id, n AS Total FROM things WHERE p = '1' ORDER BY Total",
	)
}

// ORDER BY a position past int64 is no column: a plain SELECT says so,
// and a UNION, which took the position's low 64 bits, sorted by column
// 1 for ORDER BY 18446744073709551617 (2^64 + 1).
func TestUnionOrderByAPositionPastInt64IsRefused(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[1], logicMapping, logicRows)
	for _, q := range []string{
		"SELECT id, a FROM items WHERE p = '1' ORDER BY 18446744073709551617",
		"SELECT id, a FROM items WHERE p = '1' UNION SELECT oid, x FROM others WHERE p = '1' ORDER BY 18446744073709551617",
		"SELECT id, a FROM items WHERE p = '1' UNION SELECT oid, x FROM others WHERE p = '1' ORDER BY 18446744073709551618 DESC",
	} {
		if rows, err := fx.Query(context.Background(), q); !errors.Is(err, dynosql.ErrInvalid) {
			t.Errorf("%s: %v, %v; want an error (%v)", q, rows, err, dynosql.ErrInvalid)
		}
	}
}

// agreeOnEveryBackend loads the design with its rows on each backend and
// checks that every query returns SQLite's rows.
func agreeOnEveryBackend(t *testing.T, design, rows string, queries ...string) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			fx := testkit.LoadText(t, b, design, rows)
			for _, q := range queries {
				t.Run(q, func(t *testing.T) { fx.AgreeWithSQLite(t, testkit.Select{SQL: q}) })
			}
		})
	}
}

// Arithmetic, SUM and AVG over a column of another type than N are
// refused when the statement is planned, as comparisons of two types and
// SET n = n + 1 on a string column are. They were planned and failed
// only when a row came (after the header was printed), and over no row
// gave NULL and no error: whether the statement was wrong hung on the
// data.
func TestArithmeticOnTextIsRefusedBeforeAnythingRuns(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[1], logicMapping, logicRows)
	for _, q := range []string{
		"SELECT SUM(b) FROM items WHERE p = 'nobody'",
		"SELECT AVG(b) FROM items WHERE p = '1'",
		"SELECT b + 1 FROM items WHERE p = '1'",
		"SELECT id FROM items WHERE p = 'nobody' AND b + 1 > 0",
		"SELECT id FROM items WHERE p = '1' ORDER BY b * 2",
		"SELECT id, COUNT(*) FROM items WHERE p = '1' GROUP BY id HAVING SUM(b) > 0",
		"SELECT f + 1 FROM items WHERE p = '1'",
		"SELECT id FROM items WHERE p = '1' AND a = 'x' + 1",
	} {
		_, err := fx.DB.Explain(q)
		if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "needs numbers") {
			t.Errorf("%s: planned (%v); want it refused: it needs numbers", q, err)
		}
	}
	for _, q := range []string{
		"SELECT SUM(a), AVG(c), MIN(b), MAX(b), COUNT(b) FROM items WHERE p = '1'",
		"SELECT a * 2, -c FROM items WHERE p = '1' AND a + 1 > 2 ORDER BY c / 2",
	} {
		if _, err := fx.DB.Explain(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}
