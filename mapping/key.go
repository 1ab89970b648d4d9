package mapping

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/value"
)

// KeyType is a key attribute's DynamoDB type: S, N or B.
type KeyType string

// The key types DynamoDB allows.
const (
	KeyS KeyType = "S"
	KeyN KeyType = "N"
	KeyB KeyType = "B"
)

var typeName = map[KeyType]string{KeyS: "string (S)", KeyN: "number (N)", KeyB: "binary (B)"}

// Placeholder stands for a value known only when the statement runs (a
// column of a row read earlier, "{e.course_id}"). Keys render it as its
// text, so that EXPLAIN shows a request built by the same code that
// builds the one sent.
type Placeholder string

// Key is the key codec of one key attribute of an entity: its name, its
// DynamoDB type and its template. Every key value dynosql sends is
// rendered by Value or Condition, and every key read is parsed by Parse.
type Key struct {
	Attr string
	Type KeyType
	*Template
	// Case is "lower" or "upper" for a string key its writer case-folds
	// whole (key_casing), "" otherwise.
	Case    string
	columns map[string]string // the entity's column types
	// maxBytes is the longest string or binary DynamoDB stores in the
	// attribute: a sort key's limit where it sorts the table or an index.
	maxBytes int
}

// Value renders the key attribute from row. Every column of the template
// must hold a value that fits: a non-empty string or a number inside a
// string key, a number for an N key, a binary for a B key.
func (k *Key) Value(row Row) (types.AttributeValue, error) {
	switch k.Type {
	case KeyN, KeyB:
		col := k.Parts[0].Column
		v := row[col]
		if p, ok := v.(Placeholder); ok {
			if k.Type == KeyN {
				return &types.AttributeValueMemberN{Value: string(p)}, nil
			}
			return &types.AttributeValueMemberB{Value: []byte(p)}, nil
		}
		switch x := v.(type) {
		case value.Number:
			if k.Type == KeyN {
				return &types.AttributeValueMemberN{Value: string(x)}, nil
			}
		case value.Binary:
			if k.Type == KeyB {
				if len(x) == 0 {
					return nil, fmt.Errorf("column %s: key values may not be empty", col)
				}
				return k.fitting(&types.AttributeValueMemberB{Value: []byte(x)})
			}
		case nil:
			return nil, fmt.Errorf("column %s: key values may not be NULL", col)
		}
		return nil, fmt.Errorf("column %s: %s is a %s key, not %s %s", col, k.Attr, typeName[k.Type], value.TypeName(v), value.Literal(v))
	}
	s, err := k.render(func(col string) (string, error) { return k.text(row[col]) })
	if err != nil {
		return nil, err
	}
	return k.fitting(&types.AttributeValueMemberS{Value: s})
}

// fitting returns av, or the error of a value longer than the attribute
// can hold.
func (k *Key) fitting(av types.AttributeValue) (types.AttributeValue, error) {
	if err := k.Fits(av); err != nil {
		return nil, err
	}
	return av, nil
}

// Fits returns an error when av, a string or binary, is longer than
// DynamoDB stores in the key attribute (2048 bytes for a partition key,
// 1024 for a sort key, DYNAMODB.md 7.4): no item holds such a value, and
// DynamoDB refuses a request naming it. Numbers have no such limit.
func (k *Key) Fits(av types.AttributeValue) error { return fitsKey(k.Attr, k.maxBytes, av) }

// fitsKey is Fits for key attribute attr holding at most maxBytes.
func fitsKey(attr string, maxBytes int, av types.AttributeValue) error {
	n := 0
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		n = len(x.Value)
	case *types.AttributeValueMemberB:
		n = len(x.Value)
	}
	if n > maxBytes {
		return &KeyTooLongError{Attr: attr, Bytes: n, Max: maxBytes}
	}
	return nil
}

// KeyTooLongError is Fits' error: no item has such a key.
type KeyTooLongError struct {
	Attr       string
	Bytes, Max int
}

func (e *KeyTooLongError) Error() string {
	return fmt.Sprintf("the value of %s would be %d bytes, over the %d bytes DynamoDB stores in it", e.Attr, e.Bytes, e.Max)
}

// keyText is how a value is written inside a string key: strings as they
// are, numbers as their canonical decimal text.
func keyText(v value.Value) (string, error) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return "", fmt.Errorf("key values may not be empty")
		}
		return x, nil
	case value.Number:
		return string(x), nil
	case Placeholder:
		return string(x), nil
	case nil:
		return "", fmt.Errorf("key values may not be NULL")
	}
	return "", fmt.Errorf("a %s value cannot be part of a string key", value.TypeName(v))
}

// text is how v is written into this key: keyText, case-folded where
// the key is (a placeholder stays as written, for EXPLAIN).
func (k *Key) text(v value.Value) (string, error) {
	s, err := keyText(v)
	if _, ok := v.(Placeholder); err != nil || ok || k.Case == "" {
		return s, err
	}
	if r, ok := unsureCase(s, k.Case); ok {
		return "", &CaseError{Attr: k.Attr, Case: k.Case, Value: s, Char: r}
	}
	return k.fold(s), nil
}

// CaseError is the error of a value whose case-folded text programs
// spell apart (unsureCase): an item may be held under a key dynosql
// cannot render, so a read by it must fail rather than find nothing.
type CaseError struct {
	Attr, Case, Value string
	Char              rune
}

func (e *CaseError) Error() string {
	return fmt.Sprintf("%q holds %q, which programs %s-case in different ways; %s is %s-cased, so dynosql cannot tell which key holds it",
		e.Value, e.Char, e.Case, e.Attr, e.Case)
}

// fold case-folds s as the key's writer does.
func (k *Key) fold(s string) string { return FoldCase(s, k.Case) }

// FoldCase writes s in a key_casing ("lower" or "upper"; any other
// leaves s as it is), as a table's writer folds a key.
func FoldCase(s, casing string) string {
	switch casing {
	case "lower":
		return strings.ToLower(s)
	case "upper":
		return strings.ToUpper(s)
	}
	return s
}

// unsureCase returns the first character of s whose lower (or upper)
// case Go and JavaScript, whose ElectroDB writes such keys, spell apart:
// a dotted capital I (İ, "i̇" to JavaScript), a capital sigma (σ or, at
// a word's end, ς), and a lower-case letter without a single upper-case
// one (ß is "SS" to JavaScript) or with a iota below (ᾳ).
func unsureCase(s, casing string) (rune, bool) {
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		switch {
		case casing == "lower" && (r == 'İ' || r == 'Σ'),
			casing == "upper" && (r >= 0x1F80 && r <= 0x1FFF || unicode.IsLower(r) && unicode.ToUpper(r) == r):
			return r, true
		}
	}
	return 0, false
}

// Parse returns the template's columns held by a key attribute value, or
// false when av does not have the template's shape and type (an item of
// another entity). Columns get their declared types: "7" in a string key
// is the number 7 for an N column.
func (k *Key) Parse(av types.AttributeValue) (Row, bool) {
	row := Row{}
	if !k.parseInto(av, row) {
		return nil, false
	}
	return row, true
}

// parseInto is Parse adding the columns to row, where row does not have
// them yet; it adds nothing when av is not a value of this key, and with
// a nil row only reports whether av is one. Reads call it for every key
// of every item, so it allocates nothing but the values it adds.
func (k *Key) parseInto(av types.AttributeValue, row Row) bool {
	switch x := av.(type) {
	case *types.AttributeValueMemberN:
		n, ok := value.ParseNumber(x.Value)
		if k.Type != KeyN || !ok {
			return false
		}
		if takes(row, k.Parts[0].Column) {
			row[k.Parts[0].Column] = n
		}
	case *types.AttributeValueMemberB:
		if k.Type != KeyB {
			return false
		}
		if takes(row, k.Parts[0].Column) {
			row[k.Parts[0].Column] = value.Binary(x.Value)
		}
	case *types.AttributeValueMemberS:
		if k.Type != KeyS {
			return false
		}
		var buf [8]string
		texts, ok := k.split(x.Value, buf[:0])
		if !ok {
			return false
		}
		// Every text is checked before any goes into row; texts holds
		// one per column part. A string column of a case-folded key is
		// left to its own attribute (Entity.CaseMisfit).
		i := 0
		for _, p := range k.Parts {
			if p.Column == "" {
				continue
			}
			if k.columns[p.Column] == "N" {
				if n, ok := value.ParseNumber(texts[i]); !ok || string(n) != texts[i] {
					return false // not the key this number renders: no lookup would find it
				}
			}
			i++
		}
		i = 0
		for _, p := range k.Parts {
			if p.Column == "" {
				continue
			}
			switch {
			case !takes(row, p.Column):
			case k.columns[p.Column] == "N":
				row[p.Column] = value.Number(texts[i])
			case k.Case == "":
				row[p.Column] = texts[i]
			}
			i++
		}
	default:
		return false
	}
	return true
}

// numberInText reports whether a number column is written into this
// string key as text.
func (k *Key) numberInText() bool {
	return k.Type == KeyS && slices.ContainsFunc(k.Parts, func(p Part) bool { return k.columns[p.Column] == "N" })
}

// offNumber reports a string key value of the template's shape whose
// number column holds its number in other text than dynosql writes
// (00000010, 1.50 or +3 for 10, 1.5 or 3): parseInto refuses it, since no
// lookup by that number renders this key. It returns the column and the
// text it holds.
func (k *Key) offNumber(av types.AttributeValue) (col, text string, ok bool) {
	s, isS := av.(*types.AttributeValueMemberS)
	if !isS || k.Type != KeyS {
		return "", "", false
	}
	var buf [8]string
	texts, fits := k.split(s.Value, buf[:0])
	if !fits {
		return "", "", false
	}
	i := 0
	for _, p := range k.Parts {
		if p.Column == "" {
			continue
		}
		if k.columns[p.Column] == "N" {
			n, isNumber := value.ParseNumber(texts[i])
			if !isNumber {
				return "", "", false // not a number at all: another entity's key
			}
			if string(n) != texts[i] && col == "" {
				col, text = p.Column, texts[i]
			}
		}
		i++
	}
	return col, text, col != ""
}

// takes reports whether parseInto adds col to row: a row to fill that
// does not hold col yet.
func takes(row Row, col string) bool {
	_, have := row[col]
	return row != nil && !have
}

// ReadsBack reports whether v, as column col's value, is read back as
// itself from every key that holds it, whatever follows: its text does
// not run into the literal after col ("a#" before "#" reads back as
// "a"). No key holding such a value is ever written (render refuses
// it), so a key prefix made from it meets only items with other values.
func (k *Key) ReadsBack(col string, v value.Value) bool {
	if k.Type != KeyS {
		return true
	}
	text, err := k.text(v)
	if err != nil {
		return false
	}
	after := k.After(col)
	return after == "" || strings.Index(text+after, after) == len(text)
}

// Prefix renders a string key's literal text and columns up to the first
// column row holds no value for, and reports whether every column was
// rendered (begins_with and range bounds start from it).
func (k *Key) Prefix(row Row) (prefix string, complete bool) {
	return k.prefix(func(col string) (string, bool) {
		v, ok := row[col]
		if !ok {
			return "", false
		}
		s, err := k.text(v)
		return s, err == nil
	})
}

// Text returns a key attribute value as text, for messages and as a
// part of an item's identity: strings as they are, numbers as digits,
// binaries in hex.
func Text(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	case *types.AttributeValueMemberB:
		return "0x" + hex.EncodeToString(x.Value)
	}
	return ""
}

// RangeColumn returns the first template column that fixed does not
// hold (the one a range can narrow after the fixed ones), and whether a
// range or LIKE prefix on it narrows the key: it does on a string column
// of a string key and on the one column of a number or binary key, not
// on a number inside a string key, whose text sorts as text, nor on a
// case-folded key, whose text keeps no order of the values.
func (k *Key) RangeColumn(fixed func(col string) bool) (col string, narrows bool) {
	for _, c := range k.Columns() {
		if !fixed(c) {
			return c, k.Type != KeyS || k.columns[c] == "S" && k.Case == ""
		}
	}
	return "", false
}

// FoldedPrefix reports whether col, the column RangeColumn names, is a
// string in a case-folded key, which a LIKE prefix narrows though no
// range does: a value that starts with p is held under a key that
// starts with p folded (folding goes character by character).
func (k *Key) FoldedPrefix(col string) bool {
	return k.Case != "" && col != "" && k.columns[col] == "S"
}

// MatchesAllUnder reports whether every key that starts with the
// prefix fixed renders (Prefix) and goes on has this template's shape:
// the first column fixed leaves free is the template's last part and a
// string, whose value is whatever text follows. Otherwise a key
// condition built from that prefix also admits keys the template does
// not match (a literal after the column, "ORDER#{id}#META" against
// "ORDER#o1#ITEM#1"; a number column, "ISSUE#{n}" against
// "ISSUE#1#COMMENT#c1"), which only a read of the items tells apart.
func (k *Key) MatchesAllUnder(fixed func(col string) bool) bool {
	if k.Type != KeyS {
		return true
	}
	for i, p := range k.Parts {
		if p.Column == "" || fixed(p.Column) {
			continue
		}
		return i == len(k.Parts)-1 && k.columns[p.Column] == "S"
	}
	return true
}

// OrderGuard names a column whose values the key order only sorts right
// while none holds a character at or below Sep's first byte: the key is
// "...{col}<Sep>...", so "a b" (a space) would sort before "a", and
// "a#1" might, depending on what follows Sep's first byte.
type OrderGuard struct {
	Column string
	Sep    string
}

// Orders reports whether reading by this sort key, with the fixed
// columns given, returns rows ordered by the columns of by (in that
// order): by must name, in template order, the columns after the fixed
// ones, each a string (or the one column of an N or B key), in a key
// that is not case-folded. Guards lists
// the columns whose order holds only as OrderGuard says; for the others
// it is exact.
func (k *Key) Orders(fixed func(col string) bool, by []string) (ok bool, guards []OrderGuard) {
	if k.Type != KeyS {
		return len(by) == 1 && !fixed(by[0]) && by[0] == k.Parts[0].Column, nil
	}
	var free []string
	for _, c := range k.Columns() {
		if !fixed(c) {
			free = append(free, c)
		} else if len(free) > 0 {
			return false, nil // a fixed column after a free one: the key varies before it
		}
	}
	if len(by) == 0 || len(by) > len(free) {
		return false, nil
	}
	for i, c := range by {
		if free[i] != c || k.columns[c] != "S" || k.Case != "" {
			return false, nil
		}
		if sep := k.After(c); sep != "" {
			guards = append(guards, OrderGuard{Column: c, Sep: sep})
		}
	}
	return true, guards
}

// Bound is one condition on the column a range narrows (RangeColumn):
// Op is <, <=, >, >= or prefix (LIKE 'p%'), Value a constant.
type Bound struct {
	Op    string
	Value value.Value
}

// SortCondition is the sort-key part of a key condition: Op with one
// value, or two for BETWEEN. Empty means no item can meet the conditions
// it was made from, so no request need be sent.
type SortCondition struct {
	Op     string // =, <, <=, >, >=, BETWEEN, begins_with
	Values []types.AttributeValue
	Empty  bool
}

// Condition returns the tightest sort-key condition DynamoDB accepts for
// items whose leading template columns hold fixed's values and whose
// next column meets bounds, or nil when nothing narrows the read. It
// never excludes an item that meets them; it may admit others, which
// the client's check of the whole WHERE removes. A range on a column
// followed by literal text ("ORDER#{date}#{id}") becomes a BETWEEN whose
// bounds admit no neighbour such as "2024-05-01X" for date <= '2024-05-01'.
func (k *Key) Condition(fixed Row, bounds []Bound) *SortCondition {
	return k.withinSize(withoutEmptyBound(k.condition(fixed, bounds)))
}

// withinSize makes a condition whose keys all start with text longer
// than any the attribute holds (= or begins_with such a value, or a
// BETWEEN whose bounds share it: a range under an equality that fixes a
// long prefix) admit none: DynamoDB would refuse the request where SQL
// finds no row. A longer range bound is left for the request builder to
// refuse (Fits), as no shorter bound is exact.
func (k *Key) withinSize(c *SortCondition) *SortCondition {
	if c == nil || c.Empty {
		return c
	}
	var shared types.AttributeValue
	switch c.Op {
	case "=", "begins_with":
		shared = c.Values[0]
	case "BETWEEN":
		shared = commonPrefix(c.Values[0], c.Values[1])
	}
	if shared == nil || k.Fits(shared) == nil {
		return c
	}
	return &SortCondition{Empty: true}
}

// commonPrefix is the longest prefix two string or binary bounds share:
// every key between them starts with it. Nil for other types.
func commonPrefix(lo, hi types.AttributeValue) types.AttributeValue {
	common := func(a, b []byte) int {
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return n
	}
	switch x := lo.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := hi.(*types.AttributeValueMemberS); ok {
			return sAttr(x.Value[:common([]byte(x.Value), []byte(y.Value))])
		}
	case *types.AttributeValueMemberB:
		if y, ok := hi.(*types.AttributeValueMemberB); ok {
			return &types.AttributeValueMemberB{Value: x.Value[:common(x.Value, y.Value)]}
		}
	}
	return nil
}

// withoutEmptyBound rewrites a condition with an empty string or binary
// bound, which DynamoDB refuses in a key condition: no key is empty, so
// such a bound admits every key (>= ”) or none (= ”, <= ”).
func withoutEmptyBound(c *SortCondition) *SortCondition {
	if c == nil || c.Empty || !slices.ContainsFunc(c.Values, emptyAttr) {
		return c
	}
	switch {
	case c.Op == ">" || c.Op == ">=" || c.Op == "begins_with":
		return nil
	case c.Op == "BETWEEN" && !emptyAttr(c.Values[1]):
		return &SortCondition{Op: "<=", Values: c.Values[1:]}
	}
	return &SortCondition{Empty: true}
}

func emptyAttr(av types.AttributeValue) bool {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value == ""
	case *types.AttributeValueMemberB:
		return len(x.Value) == 0
	}
	return false
}

func (k *Key) condition(fixed Row, bounds []Bound) *SortCondition {
	if k.Type != KeyS {
		col := k.Parts[0].Column
		if _, ok := fixed[col]; ok {
			av, err := k.Value(fixed)
			if err != nil {
				return nil
			}
			return &SortCondition{Op: "=", Values: []types.AttributeValue{av}}
		}
		return k.scalarCondition(bounds)
	}
	prefix, complete := k.Prefix(fixed)
	if complete {
		return &SortCondition{Op: "=", Values: []types.AttributeValue{sAttr(prefix)}}
	}
	col, narrows := k.RangeColumn(func(c string) bool { _, ok := fixed[c]; return ok })
	r := foldStrings(bounds)
	if k.FoldedPrefix(col) && r.prefix != nil && !r.empty {
		// Only LIKE prefixes come here (see FoldedPrefix); one that
		// cannot be folded for sure narrows nothing.
		if p, err := k.text(*r.prefix); err == nil {
			return &SortCondition{Op: "begins_with", Values: []types.AttributeValue{sAttr(prefix + p)}}
		}
	}
	if !narrows || (r.lo == nil && r.hi == nil && r.prefix == nil) {
		if prefix == "" {
			return nil
		}
		return &SortCondition{Op: "begins_with", Values: []types.AttributeValue{sAttr(prefix)}}
	}
	if r.empty {
		return &SortCondition{Empty: true}
	}
	if r.lo == nil && r.hi == nil {
		return &SortCondition{Op: "begins_with", Values: []types.AttributeValue{sAttr(prefix + *r.prefix)}}
	}
	lower := prefix
	if r.lo != nil {
		lower = prefix + *r.lo
	}
	sep := k.After(col)
	var upper *string
	if r.hi != nil {
		if u, ok := upperBound(prefix, *r.hi, sep); ok {
			upper = &u
		}
	}
	if r.prefix != nil {
		if u, ok := prefixEnd(prefix + *r.prefix); ok && (upper == nil || u < *upper) {
			upper = &u
		}
	}
	if upper == nil {
		if u, ok := prefixEnd(prefix); ok {
			upper = &u
		}
	}
	switch {
	case upper == nil:
		return &SortCondition{Op: ">=", Values: []types.AttributeValue{sAttr(lower)}}
	case lower > *upper:
		return &SortCondition{Empty: true}
	}
	if lower == "" {
		return &SortCondition{Op: "<=", Values: []types.AttributeValue{sAttr(*upper)}}
	}
	return &SortCondition{Op: "BETWEEN", Values: []types.AttributeValue{sAttr(lower), sAttr(*upper)}}
}

// upperBound is the smallest key bound that every key prefix + v + sep +
// rest with v <= hi stays under: for a column followed by sep, a shorter
// v ("2024-05-3") makes "prefix + v + sep" larger than "prefix + hi"
// when sep sorts above the next character of hi, so each cut of hi is
// tried. It reports false when no string bounds them (see prefixEnd).
func upperBound(prefix, hi, sep string) (string, bool) {
	if sep == "" {
		return prefix + hi, true
	}
	best := ""
	for i := range hi { // i is where a character starts: values are UTF-8
		if i == 0 {
			continue
		}
		c, ok := prefixEnd(prefix + hi[:i] + sep)
		if !ok {
			return "", false
		}
		best = max(best, c)
	}
	c, ok := prefixEnd(prefix + hi + sep)
	return max(best, c), ok
}

// prefixEnd returns the least string above every string that starts with
// s, in UTF-8 byte order (DynamoDB's for string keys): s with its last
// character replaced by the next one, after dropping the trailing
// U+10FFFF, which has none. It reports false when there is no such
// string (s is empty or all U+10FFFF): then nothing bounds them above.
// The bound itself does not start with s; a read up to it admits that
// one key more, which the client's check removes.
func prefixEnd(s string) (string, bool) {
	for s != "" {
		r, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
		if r == utf8.MaxRune {
			continue
		}
		next := r + 1
		if next == 0xD800 {
			next = 0xE000 // surrogates are not characters
		}
		return s + string(next), true
	}
	return "", false
}

func sAttr(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// stringRange is the interval of string values bounds allow: lo and hi
// inclusive (the client re-checks strict bounds), prefix from LIKE.
type stringRange struct {
	lo, hi, prefix *string
	empty          bool
}

func foldStrings(bounds []Bound) stringRange {
	var r stringRange
	for _, b := range bounds {
		s, ok := b.Value.(string)
		if !ok {
			continue
		}
		switch b.Op {
		case ">", ">=":
			if r.lo == nil || s > *r.lo {
				r.lo = &s
			}
		case "<", "<=":
			if r.hi == nil || s < *r.hi {
				r.hi = &s
			}
		case "prefix":
			switch {
			case r.prefix == nil || len(s) > len(*r.prefix) && hasPrefix(s, *r.prefix):
				r.prefix = &s
			case !hasPrefix(*r.prefix, s):
				r.empty = true // two prefixes no string has both of
			}
		}
	}
	if r.lo != nil && r.hi != nil && *r.lo > *r.hi {
		r.empty = true
	}
	if p := r.prefix; p != nil {
		if r.hi != nil && *r.hi < *p {
			r.empty = true
		}
		if r.lo != nil && *r.lo > *p && !hasPrefix(*r.lo, *p) {
			r.empty = true
		}
		if r.lo != nil && *p > *r.lo {
			r.lo = p
		}
	}
	return r
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// scalarCondition folds bounds on the one column of an N or B key into
// one condition, compared as DynamoDB compares them.
func (k *Key) scalarCondition(bounds []Bound) *SortCondition {
	var lo, hi *Bound
	for _, b := range bounds {
		if b.Op == "prefix" || value.TypeName(b.Value) != string(k.Type) {
			continue
		}
		switch b.Op {
		case ">", ">=":
			if lo == nil || tighter(b, *lo, 1) {
				lo = &b
			}
		case "<", "<=":
			if hi == nil || tighter(b, *hi, -1) {
				hi = &b
			}
		}
	}
	attr := value.ToAttr
	switch {
	case lo != nil && hi != nil:
		c, _ := value.Compare(lo.Value, hi.Value)
		if c > 0 || (c == 0 && (lo.Op == ">" || hi.Op == "<")) {
			return &SortCondition{Empty: true}
		}
		return &SortCondition{Op: "BETWEEN", Values: []types.AttributeValue{attr(lo.Value), attr(hi.Value)}}
	case lo != nil:
		return &SortCondition{Op: lo.Op, Values: []types.AttributeValue{attr(lo.Value)}}
	case hi != nil:
		return &SortCondition{Op: hi.Op, Values: []types.AttributeValue{attr(hi.Value)}}
	}
	return nil
}

// tighter reports whether bound a narrows more than b; dir is 1 for lower
// bounds, -1 for upper ones.
func tighter(a, b Bound, dir int) bool {
	c, _ := value.Compare(a.Value, b.Value)
	if c == 0 {
		return len(a.Op) == 1 // strict beats inclusive
	}
	return c*dir > 0
}

// KeyCondition builds a Query's key condition: the partition key equal to
// pk, and the sort-key condition sk on skAttr if sk is not nil.
func KeyCondition(pkAttr string, pk types.AttributeValue, skAttr string, sk *SortCondition) expression.KeyConditionBuilder {
	kc := expression.Key(pkAttr).Equal(expression.Value(pk))
	if sk == nil {
		return kc
	}
	name := expression.Key(skAttr)
	v := func(i int) expression.ValueBuilder { return expression.Value(sk.Values[i]) }
	var c expression.KeyConditionBuilder
	switch sk.Op {
	case "=":
		c = name.Equal(v(0))
	case "<":
		c = name.LessThan(v(0))
	case "<=":
		c = name.LessThanEqual(v(0))
	case ">":
		c = name.GreaterThan(v(0))
	case ">=":
		c = name.GreaterThanEqual(v(0))
	case "BETWEEN":
		c = name.Between(v(0), v(1))
	case "begins_with":
		c = name.BeginsWith(Text(sk.Values[0]))
	}
	return kc.And(c)
}
