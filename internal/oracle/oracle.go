// Package oracle answers SQL with SQLite over the same rows a test loads
// into DynamoDB, so that end-to-end tests compare dynosql's results with
// those of an ordinary SQL engine instead of with values copied from code.
//
// Each entity becomes one table named after it, with one column per
// declared column. Results come back in dynosql's value model (see
// package value), so they compare directly with what dynosql returns.
//
// Two SQLite habits that differ from DynamoDB are changed: LIKE is
// case-sensitive (DynamoDB's begins_with is), and strings compare by their
// UTF-8 bytes in both already. AVG returns a float in SQLite; SameRows
// compares numbers to 9 significant digits for that reason.
package oracle

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"github.com/dynosql/dynosql/internal/backend"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// sqlTypes gives each DynamoDB column type its SQLite declared type. The
// affinity (TEXT, NUMERIC, INTEGER) is what SQLite stores; the leading
// word tells Query how to turn a column's values back into BOOL, L, M, SS
// and NS values.
var sqlTypes = map[string]string{
	"S":    "TEXT",
	"N":    "NUMERIC",
	"BOOL": "BOOL INTEGER",
	"L":    "JSONL TEXT",
	"M":    "JSONM TEXT",
	"SS":   "JSONSS TEXT",
	"NS":   "JSONNS TEXT",
}

// KeyFold is the SQL function key_fold(x): x lower-cased as a
// case-folded key holds it (mapping's key_casing), for tests that hold
// SQLite's rows to DynamoDB's one item per key.
const KeyFold = "key_fold"

func init() {
	sqlite.MustRegisterDeterministicScalarFunction(KeyFold, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		if s, ok := args[0].(string); ok {
			return strings.ToLower(s), nil
		}
		return args[0], nil
	})
}

// DB is an in-memory SQLite database holding one table per entity.
type DB struct {
	db *sql.DB
}

// Open creates the tables of m's entities and inserts rows into them.
func Open(m *mapping.Mapping, rows []backend.DatasetRow) (*DB, error) {
	// One connection: every connection to :memory: is a separate, empty
	// database. The pragma makes LIKE 'p%' mean begins_with, which is
	// case-sensitive.
	sdb, err := sql.Open("sqlite", "file::memory:?_pragma=case_sensitive_like(1)")
	if err != nil {
		return nil, err
	}
	sdb.SetMaxOpenConns(1)
	sdb.SetConnMaxLifetime(0)
	db := &DB{db: sdb}
	if err := db.load(m, rows); err != nil {
		_ = sdb.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) load(m *mapping.Mapping, rows []backend.DatasetRow) error {
	inserts := map[string]*sql.Stmt{}
	columns := map[string][]string{}
	defer func() {
		for _, stmt := range inserts {
			_ = stmt.Close()
		}
	}()
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		cols := e.ColumnNames()
		defs := make([]string, len(cols))
		for i, c := range cols {
			defs[i] = quote(c) + " " + sqlTypes[e.Columns[c]]
		}
		if _, err := db.db.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", quote(name), strings.Join(defs, ", "))); err != nil {
			return fmt.Errorf("oracle: create table %s: %w", name, err)
		}
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = quote(c)
		}
		stmt, err := db.db.Prepare(fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)",
			quote(name), strings.Join(quoted, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")))
		if err != nil {
			return fmt.Errorf("oracle: prepare insert into %s: %w", name, err)
		}
		inserts[name], columns[name] = stmt, cols
	}
	tx, err := db.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	for _, r := range rows {
		stmt, ok := inserts[r.Entity]
		if !ok {
			return fmt.Errorf("oracle: line %d: unknown entity %s", r.Line, r.Entity)
		}
		args := make([]any, len(columns[r.Entity]))
		for i, c := range columns[r.Entity] {
			args[i] = arg(r.Row[c])
		}
		if _, err := tx.Stmt(stmt).Exec(args...); err != nil {
			return fmt.Errorf("oracle: line %d: insert into %s: %w", r.Line, r.Entity, err)
		}
	}
	return tx.Commit()
}

// quote makes a column or table name an SQLite identifier, keeping its case.
func quote(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// arg turns a value into an SQLite parameter: numbers as integers when
// they fit, else floats; lists, maps and sets as JSON text.
func arg(v value.Value) any {
	switch x := v.(type) {
	case nil, string, bool:
		return x
	case value.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		return x.Float()
	}
	b, err := json.Marshal(value.JSON(v))
	if err != nil {
		return value.Text(v)
	}
	return string(b)
}

// Close releases the database.
func (db *DB) Close() error { return db.db.Close() }

// Exec runs a statement that returns no rows and reports how many rows it
// changed. Arguments may be dynosql values.
func (db *DB) Exec(query string, args ...any) (int64, error) {
	res, err := db.db.Exec(query, convertArgs(args)...)
	if err != nil {
		return 0, fmt.Errorf("oracle: %w", err)
	}
	return res.RowsAffected()
}

// Query runs a statement and returns its rows in dynosql's value model:
// TEXT as string, INTEGER and REAL as canonical value.Number (3.0 is "3"),
// NULL as nil; a column read straight from a BOOL, L, M, SS or NS column
// comes back as that type.
func (db *DB) Query(query string, args ...any) ([][]value.Value, error) {
	return db.QueryContext(context.Background(), query, args...)
}

// QueryContext is Query, given up when ctx is done.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) ([][]value.Value, error) {
	rows, err := db.db.QueryContext(ctx, query, convertArgs(args)...)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	defer func() { _ = rows.Close() }() // a read: Err below reports what matters
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	var out [][]value.Value
	for rows.Next() {
		raw := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		row := make([]value.Value, len(raw))
		for i, x := range raw {
			if row[i], err = normalize(x, types[i].DatabaseTypeName()); err != nil {
				return nil, fmt.Errorf("oracle: column %s: %w", types[i].Name(), err)
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	return out, nil
}

func convertArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = arg(a)
	}
	return out
}

// normalize turns what the driver scanned into a dynosql value, using the
// declared type of the column it came from, if any.
func normalize(x any, decl string) (value.Value, error) {
	switch v := x.(type) {
	case nil:
		return nil, nil
	case int64:
		if decl == sqlTypes["BOOL"] {
			return v != 0, nil
		}
		return value.Number(strconv.FormatInt(v, 10)), nil
	case float64:
		return floatNumber(v)
	case bool:
		return v, nil
	case []byte:
		return string(v), nil
	case string:
		switch decl {
		case sqlTypes["L"], sqlTypes["M"], sqlTypes["SS"], sqlTypes["NS"]:
			return fromJSON(v, strings.TrimPrefix(strings.Fields(decl)[0], "JSON"))
		}
		return v, nil
	}
	return nil, fmt.Errorf("unexpected %T from SQLite", x)
}

// floatNumber writes f as the shortest decimal that reads back as f, so
// that 3.0 is "3" and 0.1 is "0.1", not its binary expansion.
func floatNumber(f float64) (value.Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v is not a DynamoDB number", f)
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok {
		return nil, fmt.Errorf("cannot read %v back", f)
	}
	return value.NumberFromRat(r), nil
}

// fromJSON reads the JSON text of an L, M, SS or NS column.
func fromJSON(text, typ string) (value.Value, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var j any
	if err := dec.Decode(&j); err != nil {
		return nil, err
	}
	v := fromAny(j)
	switch typ {
	case "SS":
		l, _ := v.([]value.Value)
		s := make(value.StringSet, len(l))
		for i, e := range l {
			s[i], _ = e.(string)
		}
		return s, nil
	case "NS":
		l, _ := v.([]value.Value)
		s := make(value.NumberSet, len(l))
		for i, e := range l {
			s[i], _ = e.(value.Number)
		}
		return s, nil
	}
	return v, nil
}

func fromAny(j any) value.Value {
	switch x := j.(type) {
	case json.Number:
		if n, ok := value.ParseNumber(string(x)); ok {
			return n
		}
		return value.Number(x)
	case []any:
		l := make([]value.Value, len(x))
		for i, e := range x {
			l[i] = fromAny(e)
		}
		return l
	case map[string]any:
		m := make(map[string]value.Value, len(x))
		for k, e := range x {
			m[k] = fromAny(e)
		}
		return m
	}
	return j
}
