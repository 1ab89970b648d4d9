package driver_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dynosql/dynosql"
	dd "github.com/dynosql/dynosql/driver"
	"github.com/dynosql/dynosql/internal/testkit"
)

const convertMapping = `
table: Convert
partition_key: PK
sort_key: SK
entities:
  recs:
    keys: {PK: "R#{r}", SK: "{id}"}
    columns: {r: S, id: S, n: N, ss: SS}
`

type ratio float32

// A pointer to a value, a named type of its kind or a sql.Null[T] is
// written as the value itself is: database/sql's default converter (and
// sql.Null's Value) would turn a float32 into float64 (0.1 →
// 0.10000000149011612) and a json.Number into a string, and refuse a
// []string, all of which dynosql takes unwrapped.
func TestPointersAndNamedTypesAreWrittenAsTheirValues(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[1], convertMapping, "")
	db := sql.OpenDB(dd.NewConnector(fx.DB))
	defer func() { _ = db.Close() }()
	ctx := context.Background()
	f := float32(0.1)
	jn := json.Number("5")
	ss := []string{"a", "b"}
	cases := []struct {
		name      string
		col       string
		plain, as any
	}{
		{"*float32", "n", f, &f},
		{"a named float32", "n", f, ratio(0.1)},
		{"*json.Number", "n", jn, &jn},
		{"*[]string", "ss", ss, &ss},
		{"sql.Null[float32]", "n", f, sql.Null[float32]{V: f, Valid: true}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]sql.NullString
			for j, arg := range []any{c.plain, c.as} {
				id := fmt.Sprintf("c%d-%d", i, j)
				if _, err := db.ExecContext(ctx, "INSERT INTO recs (r, id, "+c.col+") VALUES ('a', ?, ?)", id, arg); err != nil {
					t.Fatalf("%T: %v", arg, err)
				}
				if err := db.QueryRowContext(ctx, "SELECT "+c.col+" FROM recs WHERE r = 'a' AND id = ?", id).Scan(&got[j]); err != nil {
					t.Fatal(err)
				}
			}
			if got[0] != got[1] {
				t.Errorf("%T is written as %v, %T as %v", c.plain, got[0], c.as, got[1])
			}
		})
	}
}

type badEnum int

var errBadEnum = errors.New("badEnum 7 has no name")

func (badEnum) Value() (driver.Value, error) { return nil, errBadEnum }

type when time.Time

func (w when) Value() (driver.Value, error) { return time.Time(w), nil }

// A driver.Valuer that fails says why, as database/sql's own converter
// does, and its error can be tested for; one whose value dynosql cannot
// take names that value's type, not only its own.
func TestAFailingValuerSaysWhy(t *testing.T) {
	fx := testkit.LoadText(t, testkit.Backends()[1], convertMapping, "")
	db := sql.OpenDB(dd.NewConnector(fx.DB))
	defer func() { _ = db.Close() }()
	_, err := db.Exec("INSERT INTO recs (r, id, n) VALUES ('a', 'v', ?)", badEnum(7))
	if !errors.Is(err, errBadEnum) || !errors.Is(err, dynosql.ErrInvalid) {
		t.Errorf("a Valuer failing with %q: got %v", errBadEnum, err)
	}
	_, err = db.Exec("INSERT INTO recs (r, id, n) VALUES ('a', 'v', ?)", when(time.Now()))
	if err == nil || !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "time.Time") {
		t.Errorf("a Valuer giving a time.Time: got %v, want an error naming time.Time", err)
	}
}
