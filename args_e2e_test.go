package dynosql_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/oracle"
	"github.com/dynosql/dynosql/internal/testkit"
	"github.com/dynosql/dynosql/value"
)

// Go arguments are values as literals are: a float64 is the decimal it
// prints as, written in keys as a literal would be (0.00005, never
// 5e-05, which reads would not find); NaN and infinities are refused,
// not computed; a binary scans back into []byte as its bytes.
func TestGoArgumentsAreValuesAsLiteralsAre(t *testing.T) {
	const design = `
table: Args
partition_key: PK
sort_key: SK
entities:
  nums:
    keys: {PK: "N#{g}", SK: "K#{k}"}
    columns: {g: S, k: N, v: N}
`
	const blobs = `
table: Blobs
partition_key: PK
sort_key: SK
entities:
  blobs:
    keys: {PK: "B#{g}", SK: "{b}"}
    columns: {g: S, b: B, v: N}
`
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.LoadText(t, b, design, "")
			ctx := context.Background()
			for _, k := range []any{0.00005, 1e21, float32(0.5)} {
				if _, err := fx.DB.Exec(ctx, "INSERT INTO nums (g, k, v) VALUES ('x', ?, 1)", k); err != nil {
					t.Fatalf("INSERT k = %v: %v", k, err)
				}
			}
			// The same numbers as literals are the same keys.
			for _, k := range []string{"0.00005", "1000000000000000000000", "0.5"} {
				if _, err := fx.DB.Exec(ctx, "INSERT INTO nums (g, k, v) VALUES ('x', "+k+", 2)"); !errors.Is(err, dynosql.ErrConflict) {
					t.Errorf("INSERT of k = %s again: got %v, want a duplicate key", k, err)
				}
			}
			got, err := fx.Query(ctx, "SELECT k FROM nums WHERE g = 'x' AND k IN (?, ?)", 0.00005, 1e21)
			if err != nil {
				t.Fatal(err)
			}
			want := [][]value.Value{{value.Number("0.00005")}, {value.Number("1000000000000000000000")}}
			if diff := oracle.SameRows(got, want, false); diff != "" {
				t.Errorf("reads by float arguments:\n%s", diff)
			}
			for _, bad := range []float64{math.NaN(), math.Inf(1)} {
				rows, err := fx.DB.Query(ctx, "SELECT k + ? FROM nums WHERE g = 'x'", bad)
				if err == nil {
					for rows.Next() {
					}
					err = rows.Err()
					rows.Close()
				}
				if err == nil {
					t.Errorf("%v as an argument was not refused", bad)
				}
			}
			fx = testkit.LoadText(t, b, blobs, "")
			blob := []byte{1, 2, 3}
			if _, err := fx.DB.Exec(ctx, "INSERT INTO blobs (g, b, v) VALUES ('y', ?, 1)", blob); err != nil {
				t.Fatal(err)
			}
			rows, err := fx.DB.Query(ctx, "SELECT b FROM blobs WHERE g = 'y'")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var back []byte
			for rows.Next() {
				if err := rows.Scan(&back); err != nil {
					t.Fatal(err)
				}
			}
			if err := rows.Err(); err != nil || !slices.Equal(back, blob) {
				t.Errorf("a binary scanned into []byte: %q, %v; want %q", back, err, blob)
			}
		})
	}
}

// A Go slice for one ? is one value, a set or a list, not the list of
// an IN: compared with a string or number column it matched nothing,
// quietly. It is refused, saying to give each value its own ?.
func TestASliceArgumentForAScalarColumnIsRefused(t *testing.T) {
	fx := testkit.Load(t, testkit.Backends()[1], "school")
	for _, c := range []struct {
		sql string
		arg any
	}{
		{"SELECT title FROM courses WHERE id IN (?)", []string{"math204", "cs101"}},
		{"SELECT title FROM courses WHERE id = ?", []string{"math204"}},
		{"SELECT title FROM courses WHERE id IN ('math204', 'cs101') AND credits = ?", []any{4}},
	} {
		_, err := fx.DB.Query(context.Background(), c.sql, c.arg)
		if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(errs.As(err).Hint, "give each value its own placeholder") {
			t.Errorf("%s with %v: %v, want a refusal", c.sql, c.arg, err)
		}
	}
}

// An empty list is a value DynamoDB keeps; the embedded backend (minidyn)
// reads one back as another attribute's value, so there it is refused
// before anything is sent, as is a number it would round, even inside a
// list.
func TestValuesTheEmbeddedBackendCannotHoldAreRefused(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "blog")
			ctx := context.Background()
			_, err := fx.DB.Exec(ctx, "INSERT INTO posts (id, authorId, title, tags) VALUES ('p900', '3', 't', ?)", []any{})
			if b.Name == "embedded" {
				if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "cannot hold an empty list") {
					t.Errorf("INSERT of an empty list: %v; want it refused", err)
				}
				_, err = fx.DB.Exec(ctx, "INSERT INTO posts (id, authorId, title, tags) VALUES ('p901', '3', 't', ?)", []any{value.Number("0.1000000000000000000001")})
				// Refused inside the SDK's stack: the message is dynosql's
				// own, without the SDK's "operation error" wrapper.
				if !errors.Is(err, dynosql.ErrInvalid) || !strings.HasPrefix(err.Error(), "invalid: the embedded backend holds numbers as 64-bit floats: 0.1000000000000000000001 would be stored as 0.1") {
					t.Errorf("INSERT of a number minidyn would round: %v; want it refused", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rows, err := fx.Query(ctx, "SELECT tags FROM posts WHERE id = 'p900'")
			if err != nil || len(rows) != 1 || !slices.Equal(rows[0][0].([]any), []any{}) {
				t.Errorf("read back %#v, %v; want one empty list", rows, err)
			}
		})
	}
}

// An argument DynamoDB would store as something else, or refuse once
// sent, is refused before anything is sent, as the same literal is: text
// that is not UTF-8 (stored with U+FFFD), a number written other than in
// decimal (big.Rat reads 0x10 as 16) or past DynamoDB's range, and, on
// the embedded backend, an empty binary (which breaks its partition).
func TestArgumentsDynamoDBWouldAlterAreRefused(t *testing.T) {
	for _, b := range testkit.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fx := testkit.Load(t, b, "school")
			ctx := context.Background()
			for _, c := range []struct {
				name, year any
				says       string
			}{
				{"bad\xffutf8", 1, "not UTF-8"},
				{"n", json.Number("0x10"), "not a number"},
				{"n", json.Number("1_000"), "not a number"},
				{"n", 1e300, "DynamoDB"},
				{"n", 5e-324, "DynamoDB"},
				{"n", json.Number("1E+126"), "DynamoDB"},
			} {
				_, err := fx.DB.Exec(ctx, "INSERT INTO students (id, name, year) VALUES ('zz1', ?, ?)", c.name, c.year)
				if !errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), c.says) {
					t.Errorf("INSERT of %q, %v: %v; want it refused, saying %q", c.name, c.year, err, c.says)
				}
			}
			if rows, err := fx.Query(ctx, "SELECT id FROM students WHERE id = 'zz1'"); err != nil || len(rows) != 0 {
				t.Errorf("after the refusals: %v, %v; want no row", rows, err)
			}
			blobs := testkit.LoadText(t, b, `
table: Blobs
partition_key: PK
entities:
  blobs:
    keys: {PK: "{k}"}
    columns: {k: S, blob: B}
`, "")
			_, err := blobs.DB.Exec(ctx, "INSERT INTO blobs (k, blob) VALUES ('e', ?)", []byte{})
			switch {
			case b.Name == "embedded" && (!errors.Is(err, dynosql.ErrInvalid) || !strings.Contains(err.Error(), "empty binary")):
				t.Errorf("INSERT of an empty binary on the embedded backend: %v; want it refused", err)
			case b.Name != "embedded" && err != nil:
				t.Errorf("INSERT of an empty binary: %v; DynamoDB keeps one", err)
			}
			// A nil []byte is NULL, as database/sql drivers take it (it
			// reached DynamoDB as an empty binary attribute, and failed).
			if _, err := blobs.DB.Exec(ctx, "INSERT INTO blobs (k, blob) VALUES ('n', ?)", []byte(nil)); err != nil {
				t.Errorf("INSERT of a nil []byte: %v; want NULL", err)
			}
			if rows, err := blobs.Query(ctx, "SELECT k FROM blobs WHERE k = 'n' AND blob IS NULL"); err != nil || len(rows) != 1 {
				t.Errorf("a nil []byte read back: %v, %v; want one row with blob NULL", rows, err)
			}
		})
	}
}
