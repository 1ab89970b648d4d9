// Package value is dynosql's in-memory form of a DynamoDB attribute value,
// with the SQL semantics the executor needs: three-valued comparison,
// exact decimal numbers, and conversion to and from the SDK's types. It is
// part of the public API: Rows.RawValues and mapping rows hold these
// values, and programs name them (value.Number, value.Binary) to read
// numbers exactly.
package value

import (
	"bytes"
	"database/sql/driver"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Value is one of: nil (SQL NULL, a missing attribute), string, Number,
// Binary, bool, []Value (L), map[string]Value (M), StringSet, NumberSet.
type Value = any

// Binary is a DynamoDB B value.
type Binary []byte

// Number is a DynamoDB number kept as its decimal text, so that 38-digit
// values survive a round trip; arithmetic goes through big.Rat.
type Number string

// StringSet is a DynamoDB SS.
type StringSet []string

// List returns the set's strings as a list, in their order: a Go
// []string is a string set for a set column and a list for a list one.
func (s StringSet) List() []Value {
	l := make([]Value, len(s))
	for i, v := range s {
		l[i] = v
	}
	return l
}

// NumberSet is a DynamoDB NS.
type NumberSet []Number

// Rat returns n as an exact rational, or false if n is not a number.
func (n Number) Rat() (*big.Rat, bool) {
	return new(big.Rat).SetString(string(n))
}

// NumberFromRat formats r as the shortest exact decimal when it has one,
// else with 38 significant digits (DynamoDB's precision).
func NumberFromRat(r *big.Rat) Number {
	if r.IsInt() {
		return Number(r.Num().String())
	}
	if prec, exact := r.FloatPrec(); exact {
		return Number(trimZeros(r.FloatString(prec)))
	}
	// Rounded to 38 significant digits, that is an exact decimal, written
	// out without an exponent as every other number is (keys hold text).
	text := new(big.Float).SetPrec(256).SetRat(r).Text('g', 38)
	rounded, ok := new(big.Rat).SetString(text)
	if !ok {
		return Number(text) // past any range DynamoDB holds: it refuses it
	}
	prec, _ := rounded.FloatPrec()
	return Number(trimZeros(rounded.FloatString(prec)))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// ParseNumber checks that s is a decimal number and returns it canonical
// (no leading '+', no trailing zeros after the point).
func ParseNumber(s string) (Number, bool) {
	if !decimal(s) {
		return "", false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return "", false
	}
	return NumberFromRat(r), true
}

// decimal reports whether s is written as a decimal number: a sign,
// digits with at most one point among or around them, and an exponent.
// big.Rat reads more (0x10, 0b101, 1_000, 3/4), which DynamoDB does not.
func decimal(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if exp == "" || strings.Trim(exp, "0123456789") != "" {
			return false
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// Float returns n as a float64 (for display and AVG).
func (n Number) Float() float64 {
	f, _ := strconv.ParseFloat(string(n), 64)
	return f
}

// ExactFloat returns n as a float64 and whether that float64 is n: its
// shortest decimal form is the same number, so no Go program can tell
// them apart (0.1 is; 9007199254740993, past about 15 significant
// digits, is not, nor is a number outside float64's range). n may be
// any decimal text DynamoDB takes, canonical or not.
func (n Number) ExactFloat() (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return f, false
	}
	want, ok1 := new(big.Rat).SetString(string(n))
	got, ok2 := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return f, ok1 && ok2 && want.Cmp(got) == 0
}

// TypeName returns the DynamoDB type name of v: S, N, BOOL, L, M, SS, NS,
// or NULL.
func TypeName(v Value) string {
	switch v.(type) {
	case nil:
		return "NULL"
	case string:
		return "S"
	case Number:
		return "N"
	case Binary:
		return "B"
	case bool:
		return "BOOL"
	case []Value:
		return "L"
	case map[string]Value:
		return "M"
	case StringSet:
		return "SS"
	case NumberSet:
		return "NS"
	}
	return fmt.Sprintf("%T", v)
}

// Compare orders a and b when both are non-NULL scalars of one type:
// strings by UTF-8 bytes (as DynamoDB and SQLite's BINARY collation do),
// numbers numerically, binaries by unsigned bytes, false before true. ok is false otherwise, which SQL
// treats as unknown.
func Compare(a, b Value) (c int, ok bool) {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, false
		}
		return strings.Compare(x, y), true
	case Number:
		y, ok := b.(Number)
		if !ok {
			return 0, false
		}
		rx, okx := x.Rat()
		ry, oky := y.Rat()
		if !okx || !oky {
			return 0, false
		}
		return rx.Cmp(ry), true
	case Binary:
		y, ok := b.(Binary)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x, y), true
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		default:
			return 1, true
		}
	}
	return 0, false
}

// Equal reports whether a and b are the same value; NULL equals nothing.
// Unlike Compare it also compares lists, maps and sets.
func Equal(a, b Value) bool {
	if a == nil || b == nil {
		return false
	}
	if c, ok := Compare(a, b); ok {
		return c == 0
	}
	return TypeName(a) == TypeName(b) && Key(a) == Key(b)
}

// Key returns a string that is equal for equal values and differs between
// values of different types; it serves as a map key for joins, DISTINCT
// and GROUP BY. NULL has its own key.
func Key(v Value) string {
	switch x := v.(type) {
	case nil:
		return "\x00"
	case string:
		return "S" + x
	case Number:
		return "N" + string(x)
	case Binary:
		return "X" + string(x)
	case bool:
		return "B" + strconv.FormatBool(x)
	}
	b, _ := json.Marshal(typed(v))
	return TypeName(v) + string(b)
}

// typed is JSON(v) with every element of a list or map behind its type
// name, so that a binary is not the string of its base64 text, nor a
// string set the list of its strings.
func typed(v Value) any {
	switch x := v.(type) {
	case []Value:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = []any{TypeName(e), typed(e)}
		}
		return l
	case map[string]Value:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = []any{TypeName(e), typed(e)}
		}
		return m
	}
	return JSON(v)
}

// orderText is the text documents of one type are ordered by: their JSON.
func orderText(v Value) string {
	b, _ := json.Marshal(JSON(v))
	return string(b)
}

// AppendKey appends Key(v) to b behind its length, so that the keys of
// several values laid end to end are equal only for equal lists of
// values, whatever bytes the values hold (a separator between keys would
// not do: "p\x01" then "q" against "p" then "\x01q").
func AppendKey(b []byte, v Value) []byte {
	return AppendLengthPrefixed(b, Key(v))
}

// AppendLengthPrefixed appends s behind its length, so that texts laid
// end to end this way are equal only for equal lists of texts.
func AppendLengthPrefixed(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// Order is a total order for ORDER BY, three-way: NULL first, then
// numbers, text and binaries, as SQLite orders its storage classes (an
// attribute may hold several types in a table other programs write),
// booleans after numbers and the document types last; within a type by
// Compare.
func Order(a, b Value) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	if c, ok := Compare(a, b); ok {
		return c
	}
	if ra, rb := typeRank(a), typeRank(b); ra != rb {
		return ra - rb
	}
	if c := strings.Compare(TypeName(a)+orderText(a), TypeName(b)+orderText(b)); c != 0 {
		return c
	}
	return strings.Compare(Key(a), Key(b))
}

// typeRank places a non-NULL value's type in Order.
func typeRank(v Value) int {
	switch v.(type) {
	case Number:
		return 0
	case bool:
		return 1
	case string:
		return 2
	case Binary:
		return 3
	case []Value:
		return 4
	case map[string]Value:
		return 5
	case NumberSet:
		return 6
	}
	return 7 // StringSet
}

// FromAttr converts an SDK attribute value. A binary set (BS), which
// mappings cannot declare, comes back as a list of binaries.
func FromAttr(av types.AttributeValue) Value {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		if n, ok := ParseNumber(x.Value); ok {
			return n
		}
		return Number(x.Value)
	case *types.AttributeValueMemberBOOL:
		return x.Value
	case *types.AttributeValueMemberNULL:
		return nil
	case *types.AttributeValueMemberL:
		l := make([]Value, len(x.Value))
		for i, e := range x.Value {
			l[i] = FromAttr(e)
		}
		return l
	case *types.AttributeValueMemberM:
		m := make(map[string]Value, len(x.Value))
		for k, e := range x.Value {
			m[k] = FromAttr(e)
		}
		return m
	case *types.AttributeValueMemberSS:
		return StringSet(slices.Clone(x.Value))
	case *types.AttributeValueMemberNS:
		s := make(NumberSet, len(x.Value))
		for i, e := range x.Value {
			s[i] = FromAttr(&types.AttributeValueMemberN{Value: e}).(Number)
		}
		return s
	case *types.AttributeValueMemberB:
		return Binary(slices.Clone(x.Value))
	case *types.AttributeValueMemberBS:
		l := make([]Value, len(x.Value))
		for i, e := range x.Value {
			l[i] = Binary(slices.Clone(e))
		}
		return l
	}
	return nil
}

// ToAttr converts v for a request. NULL becomes a DynamoDB NULL, which
// callers writing items avoid by removing the attribute instead.
func ToAttr(v Value) types.AttributeValue {
	switch x := v.(type) {
	case nil:
		return &types.AttributeValueMemberNULL{Value: true}
	case string:
		return &types.AttributeValueMemberS{Value: x}
	case Number:
		return &types.AttributeValueMemberN{Value: string(x)}
	case Binary:
		return &types.AttributeValueMemberB{Value: slices.Clone([]byte(x))}
	case bool:
		return &types.AttributeValueMemberBOOL{Value: x}
	case []Value:
		l := make([]types.AttributeValue, len(x))
		for i, e := range x {
			l[i] = ToAttr(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case map[string]Value:
		m := make(map[string]types.AttributeValue, len(x))
		for k, e := range x {
			m[k] = ToAttr(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	case StringSet:
		return &types.AttributeValueMemberSS{Value: []string(x)}
	case NumberSet:
		s := make([]string, len(x))
		for i, e := range x {
			s[i] = string(e)
		}
		return &types.AttributeValueMemberNS{Value: s}
	}
	return &types.AttributeValueMemberS{Value: fmt.Sprint(v)}
}

// JSON returns v in the shape encoding/json should print: numbers as
// json.Number, binaries as base64 text (as DynamoDB's JSON does), sets as
// sorted arrays, NULL as nil.
func JSON(v Value) any {
	switch x := v.(type) {
	case Number:
		return json.Number(x)
	case Binary:
		return base64.StdEncoding.EncodeToString(x)
	case []Value:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = JSON(e)
		}
		return l
	case map[string]Value:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = JSON(e)
		}
		return m
	case StringSet:
		s := slices.Clone([]string(x))
		sort.Strings(s)
		return s
	case NumberSet:
		sorted := slices.SortedFunc(slices.Values(x), func(a, b Number) int { return Order(a, b) })
		l := make([]any, len(sorted))
		for i, e := range sorted {
			l[i] = json.Number(e)
		}
		return l
	}
	return v
}

// Text returns v as a person reads it in a table cell: strings bare,
// NULL as "NULL", binaries as base64, lists and maps as JSON.
func Text(v Value) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return x
	case Number:
		return string(x)
	case Binary:
		return base64.StdEncoding.EncodeToString(x)
	case bool:
		return strconv.FormatBool(x)
	}
	// <, > and & are data, not HTML: no \u003c.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(JSON(v))
	return strings.TrimSuffix(b.String(), "\n")
}

// Literal returns v as it would be written in SQL or EXPLAIN: strings
// double-quoted, numbers bare, binaries as X'hex', NULL as NULL.
func Literal(v Value) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case Binary:
		return "X'" + hex.EncodeToString(x) + "'"
	}
	return Text(v)
}

// FromGo converts a Go value passed as a statement argument: strings,
// integers, floats, bools, nil, json.Number, []byte (a binary; a nil one
// is NULL), []string (a string set),
// []any and map[string]any (lists and maps), or a Value itself; and, as
// database/sql takes them, a pointer to one of those (nil is NULL), a
// named type of their kind (type ratio float32) and a driver.Valuer
// (sql.NullString), as the value they hold or give.
func FromGo(a any) (Value, error) {
	return fromGo(a, 0)
}

func fromGo(a any, depth int) (Value, error) {
	switch x := a.(type) {
	case nil, string, bool:
		return x, nil
	case Binary: // copied, as []byte is: a cached plan outlives the call
		return slices.Clone(x), nil
	case StringSet:
		return slices.Clone(x), nil
	case Number:
		return goNumber(string(x))
	case NumberSet:
		set := make(NumberSet, len(x))
		for i, n := range x {
			v, err := goNumber(string(n))
			if err != nil {
				return nil, err
			}
			set[i] = v.(Number)
		}
		return set, nil
	case []byte:
		if x == nil {
			return nil, nil // NULL, as database/sql drivers take a nil []byte
		}
		return Binary(slices.Clone(x)), nil
	case int:
		return Number(strconv.FormatInt(int64(x), 10)), nil
	case int8, int16, int32, int64:
		return Number(fmt.Sprint(x)), nil
	case uint, uint8, uint16, uint32, uint64:
		return Number(fmt.Sprint(x)), nil
	case float32:
		return goNumber(strconv.FormatFloat(float64(x), 'g', -1, 32))
	case float64:
		return goNumber(strconv.FormatFloat(x, 'g', -1, 64))
	case json.Number:
		return goNumber(string(x))
	case []string:
		return StringSet(slices.Clone(x)), nil
	case []any:
		l := make([]Value, len(x))
		for i, e := range x {
			v, err := FromGo(e)
			if err != nil {
				return nil, err
			}
			l[i] = v
		}
		return l, nil
	case map[string]any:
		m := make(map[string]Value, len(x))
		for k, e := range x {
			v, err := FromGo(e)
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return m, nil
	}
	return unwrapGo(a, depth)
}

var valuerType = reflect.TypeFor[driver.Valuer]()

// sqlNull returns what a database/sql Null[T], or a pointer to one,
// holds (nil when not Valid), read before its Value method, which gives a
// float32 as a float64 (0.10000000149011612 for 0.1) and refuses a
// []string.
func sqlNull(rv reflect.Value) (any, bool) {
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem() // its Value method is a pointer's too
	}
	t := rv.Type()
	if t.Kind() != reflect.Struct || t.PkgPath() != "database/sql" || !strings.HasPrefix(t.Name(), "Null[") {
		return nil, false
	}
	if !rv.FieldByName("Valid").Bool() {
		return nil, true
	}
	return rv.FieldByName("V").Interface(), true
}

// unwrapGo converts what a holds or gives when a is a driver.Valuer, a
// pointer or a named type, as driver.DefaultParameterConverter does, but
// keeping what FromGo takes and database/sql does not: a float32 stays
// float32 (0.1, not 0.10000000149011612), a json.Number a number, a
// []string a set.
func unwrapGo(a any, depth int) (Value, error) {
	// A Valuer giving itself, or a pointer to itself, would recurse for
	// ever; past a few steps the value is refused as one FromGo cannot take.
	const maxDepth = 8
	refused := fmt.Errorf("cannot use a %T as a DynamoDB value", a)
	if depth >= maxDepth {
		return nil, refused
	}
	rv := reflect.ValueOf(a)
	if v, ok := sqlNull(rv); ok {
		return fromGo(v, depth+1)
	}
	if vr, ok := a.(driver.Valuer); ok {
		if rv.Kind() == reflect.Pointer && rv.IsNil() && rv.Type().Elem().Implements(valuerType) {
			return nil, nil // NULL, as database/sql makes it
		}
		v, err := vr.Value()
		var out Value
		if err == nil {
			out, err = fromGo(v, depth+1)
		}
		if err != nil {
			// The Valuer's own error, which the caller may test for
			// with errors.Is.
			return nil, fmt.Errorf("the Value of a %T: %w", a, err)
		}
		return out, nil
	}
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return nil, nil
		}
		return fromGo(rv.Elem().Interface(), depth+1)
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fromGo(rv.Int(), depth+1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fromGo(rv.Uint(), depth+1)
	case reflect.Float32:
		return fromGo(float32(rv.Float()), depth+1)
	case reflect.Float64:
		return fromGo(rv.Float(), depth+1)
	case reflect.String:
		return rv.String(), nil
	case reflect.Slice:
		switch rv.Type().Elem().Kind() {
		case reflect.Uint8:
			return fromGo(rv.Bytes(), depth+1) // a binary, as database/sql takes a named []byte
		case reflect.String:
			if rv.IsNil() {
				return nil, nil
			}
			return fromGo(rv.Convert(reflect.TypeFor[[]string]()).Interface(), depth+1)
		}
	}
	return nil, refused
}

// goNumber makes an argument's number canonical, as a literal's is (a
// float prints as 1e-06, which a key would hold as other text than
// 0.000001), and refuses what is no number: NaN, infinities.
func goNumber(s string) (Value, error) {
	if n, ok := ParseNumber(s); ok {
		return n, nil
	}
	return nil, fmt.Errorf("%s is not a number DynamoDB can hold", s)
}

// ToGo converts v to plain Go: string, []byte, bool, nil, []any,
// map[string]any, []string, and for a number int64 when it is whole and
// fits, float64 when float64 holds it exactly (ExactFloat), and else its
// decimal text as a string, so that no digit is lost on the way: a
// 20-digit id or a 38-digit decimal scans into a string or a decimal
// type unchanged.
func ToGo(v Value) any {
	switch x := v.(type) {
	case Binary: // the caller's own: a row's value may be a cached plan's
		return []byte(slices.Clone(x))
	case Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		if f, exact := x.ExactFloat(); exact {
			return f
		}
		return string(x)
	case []Value:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = ToGo(e)
		}
		return l
	case map[string]Value:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = ToGo(e)
		}
		return m
	case StringSet:
		return []string(slices.Clone(x))
	case NumberSet:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = ToGo(e)
		}
		return l
	}
	return v
}
