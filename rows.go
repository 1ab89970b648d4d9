package dynosql

import (
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
)

// Rows is the result of a query, read as Next asks for it, like
// database/sql's Rows. Close it when done early: that stops the requests
// still in flight. A Rows belongs to one goroutine.
type Rows struct {
	src     *executor.Rows
	columns []string
	types   []string        // DynamoDB type names, "" where unknown
	fixed   [][]value.Value // rows known in advance (EXPLAIN)
	row     []value.Value
	err     error
}

// textRows are the lines of text (EXPLAIN's plan or analysis), one a row
// in a column named plan.
func textRows(text string) *Rows {
	r := &Rows{columns: []string{"plan"}, types: []string{"S"}}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		r.fixed = append(r.fixed, []value.Value{line})
	}
	return r
}

// Columns returns the names of the output columns.
func (r *Rows) Columns() []string { return r.columns }

// ColumnTypes returns the DynamoDB type of each output column, as the
// mapping declares it: S, N, B, BOOL, L, M, SS or NS. COUNT, SUM, AVG and
// arithmetic are N, comparisons BOOL, MIN and MAX the type of their
// argument. A column whose type the statement does not fix (a NULL
// literal) is "". A value may still be NULL whatever the type says.
func (r *Rows) ColumnTypes() []string { return r.types }

// Next prepares the next row for Scan, returning false at the end or on
// an error (see Err).
func (r *Rows) Next() bool {
	// Past the last row there is no row to Scan.
	r.row = nil
	if r.src == nil {
		if len(r.fixed) == 0 {
			return false
		}
		r.row, r.fixed = r.fixed[0], r.fixed[1:]
		return true
	}
	if !r.src.Next() {
		r.err = r.src.Err()
		return false
	}
	r.row = r.src.Row()
	return true
}

// Warnings returns what the query found wrong without failing: reads
// whose items no entity of the mapping claimed (a sign that the mapping
// does not describe the table's items). They are known once Next has
// returned false or Close was called.
func (r *Rows) Warnings() []string {
	if r.src == nil {
		return nil
	}
	return r.src.Warnings()
}

// Err returns the error that stopped Next, if any.
func (r *Rows) Err() error { return r.err }

// Close stops the query. It is safe to call more than once.
func (r *Rows) Close() error {
	r.row, r.fixed = nil, nil
	if r.src != nil {
		return r.src.Close()
	}
	return nil
}

// Values returns the current row as plain Go values: string, []byte for
// binaries, bool, nil for NULL, []any for lists and number sets,
// map[string]any for maps, []string for string sets, and for numbers int64 (whole, fits), float64 (when it holds the
// number exactly) or else the number's digits as a string, never a
// float64 that has lost digits.
func (r *Rows) Values() []any {
	out := make([]any, len(r.row))
	for i, v := range r.row {
		out[i] = value.ToGo(v)
	}
	return out
}

// RawValues returns the current row in dynosql's own value model, for the
// packages of this module that print values exactly (numbers keep their
// decimal text). Programs outside the module use Scan or Values. The
// values are read, never changed: a binary may be a cached plan's.
func (r *Rows) RawValues() []value.Value { return r.row }

// Scan copies the current row into dest, one pointer per column:
// *string, *int64, *int, *float64, *bool, *[]byte (JSON of lists and
// maps), *any, or any sql.Scanner such as *sql.NullString.
func (r *Rows) Scan(dest ...any) error {
	if r.row == nil {
		return errs.New(errs.Invalid, "Scan called without a row").WithHint("call Next first, and Scan only while it returns true")
	}
	if len(dest) != len(r.row) {
		return errs.New(errs.Invalid, "Scan got %d destinations for %d columns", len(dest), len(r.row))
	}
	for i, d := range dest {
		if err := scanOne(d, r.row[i]); err != nil {
			return errs.New(errs.Invalid, "column %d (%s): %v", i+1, r.columns[i], err)
		}
	}
	return nil
}

func scanOne(dest any, v value.Value) error {
	if s, ok := dest.(sql.Scanner); ok {
		return s.Scan(DriverValue(v))
	}
	if v == nil {
		switch d := dest.(type) {
		case *any:
			*d = nil
			return nil
		case *[]byte:
			*d = nil
			return nil
		}
		return fmt.Errorf("NULL cannot be stored in %T; use *any or a sql.Null type", dest)
	}
	switch d := dest.(type) {
	case *any:
		*d = value.ToGo(v)
	case *string:
		if b, ok := v.(value.Binary); ok {
			*d = string(b) // its bytes, as database/sql's Scan gives them
		} else {
			*d = value.Text(v)
		}
	case *[]byte:
		switch x := v.(type) {
		case string:
			*d = []byte(x)
		case value.Binary:
			*d = slices.Clone([]byte(x))
		default:
			// value.Text, as a *string gets and the shell prints: JSON
			// with <, > and & as they are (json.Marshal wrote \u003c).
			*d = []byte(value.Text(v))
		}
	case *bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("%s is not a boolean", value.Literal(v))
		}
		*d = b
	case *int64, *int, *float64:
		n, ok := v.(value.Number)
		if !ok {
			return fmt.Errorf("%s is not a number", value.Literal(v))
		}
		switch d := d.(type) {
		case *float64:
			*d = n.Float()
		case *int64:
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				return fmt.Errorf("%s is not a whole number that fits in int64", n)
			}
			*d = i
		case *int:
			i, err := strconv.Atoi(string(n))
			if err != nil {
				return fmt.Errorf("%s is not a whole number that fits in int", n)
			}
			*d = i
		}
	default:
		return fmt.Errorf("cannot scan into %T", dest)
	}
	return nil
}

// DriverValue converts a value of RawValues to what database/sql drivers
// return: string, bool, nil, []byte for binaries, JSON text for lists,
// maps and sets, and for numbers int64 when whole and in range, else the
// digits as a string, as drivers return DECIMAL: database/sql converts
// that to the destination, *float64 included, and a *string, a
// sql.NullString or a decimal type gets the digits DynamoDB holds
// (1234567.5, not the float64 text 1.2345675e+06).
func DriverValue(v any) any {
	switch x := v.(type) {
	case nil, string, bool:
		return x
	case value.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		return string(x)
	case value.Binary:
		return slices.Clone([]byte(x)) // a sql.Scanner may keep it; the row's may be a cached plan's
	}
	return value.Text(v) // JSON with <, > and & as they are, as Rows.Scan into a *string gives
}
