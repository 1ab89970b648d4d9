package mapping_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// condText prints a sort-key condition as op and values, for comparing.
func condText(c *mapping.SortCondition) string {
	switch {
	case c == nil:
		return "none"
	case c.Empty:
		return "empty"
	}
	parts := []string{c.Op}
	for _, v := range c.Values {
		parts = append(parts, value.Literal(value.FromAttr(v)))
	}
	return strings.Join(parts, " ")
}

// Ranges on a sort key's columns become the tightest condition DynamoDB
// takes; the expected bounds were worked out by hand from the key's byte
// order ('#' sorts below digits, so a date's upper bound is the end of
// the keys that start "...2024-05-31#", "...2024-05-31$", and admits no
// "2024-05-31X"; the end of the keys that start with a text is that text
// with its last character's successor).
func TestSortKeyConditionsAreTheTightestDynamoDBTakes(t *testing.T) {
	m := loadKeys(t)
	orders := m.Entities["orders"].Key("SK")
	ver := m.Entities["posts"].Key("ver")
	seq := m.Entities["events"].Key("SK")
	place := m.Entities["events"].Key("PK")
	blob := m.Entities["blobs"].Key("blob")
	b := func(op string, v value.Value) mapping.Bound { return mapping.Bound{Op: op, Value: v} }
	cases := []struct {
		name   string
		key    *mapping.Key
		fixed  mapping.Row
		bounds []mapping.Bound
		want   string
	}{
		{"no condition keeps to the template's prefix", orders, nil, nil, `begins_with "ORDER#"`},
		{"date >= lower bound, up to the prefix's end", orders, nil, []mapping.Bound{b(">=", "2024-05-01")},
			`BETWEEN "ORDER#2024-05-01" "ORDER$"`},
		{"date <= upper bound, through the separator", orders, nil, []mapping.Bound{b("<=", "2024-05-31")},
			`BETWEEN "ORDER#" "ORDER#2024-05-31$"`},
		{"date BETWEEN", orders, nil, []mapping.Bound{b(">=", "2024-05-01"), b("<=", "2024-05-31")},
			`BETWEEN "ORDER#2024-05-01" "ORDER#2024-05-31$"`},
		{"ranges fold into the tightest", orders, nil, []mapping.Bound{b(">", "2024-01"), b(">=", "2024-05-01"), b("<", "2025"), b("<=", "2024-05-31")},
			`BETWEEN "ORDER#2024-05-01" "ORDER#2024-05-31$"`},
		{"LIKE prefix", orders, nil, []mapping.Bound{b("prefix", "2024-05")}, `begins_with "ORDER#2024-05"`},
		{"LIKE prefix and a range", orders, nil, []mapping.Bound{b("prefix", "2024-05"), b(">=", "2024-05-10")},
			`BETWEEN "ORDER#2024-05-10" "ORDER#2024-06"`},
		{"a reversed range is empty", orders, nil, []mapping.Bound{b(">", "b"), b("<", "a")}, "empty"},
		{"a prefix outside the range is empty", orders, nil, []mapping.Bound{b("prefix", "2023"), b(">=", "2024")}, "empty"},
		{"date fixed: the prefix takes its separator", orders, mapping.Row{"date": "2024-05-01"}, nil, `begins_with "ORDER#2024-05-01#"`},
		{"date fixed, range on id", orders, mapping.Row{"date": "2024-05-01"}, []mapping.Bound{b(">", "o5")},
			`BETWEEN "ORDER#2024-05-01#o5" "ORDER#2024-05-01$"`},
		{"a bound after the last character there is", orders, nil, []mapping.Bound{b("prefix", "\U0010FFFF"), b(">=", "\U0010FFFFz")},
			`BETWEEN "ORDER#\U0010ffffz" "ORDER$"`},
		{"every column fixed", orders, mapping.Row{"date": "2024-05-01", "id": "o7"}, nil, `= "ORDER#2024-05-01#o7#ITEM"`},
		{"a number key compares numbers", ver, nil, []mapping.Bound{b(">", value.Number("5"))}, `> 5`},
		{"a number key folds bounds", ver, nil, []mapping.Bound{b(">=", value.Number("1")), b("<=", value.Number("3")), b("<", value.Number("10"))}, `BETWEEN 1 3`},
		{"a strict bound beats an equal inclusive one", ver, nil, []mapping.Bound{b(">=", value.Number("2")), b(">", value.Number("2"))}, `> 2`},
		{"a number key's empty range", ver, nil, []mapping.Bound{b(">", value.Number("5")), b("<", value.Number("5"))}, "empty"},
		{"a number key ignores LIKE", ver, nil, []mapping.Bound{b("prefix", "1")}, "none"},
		{"a number inside a string key sorts as text: no range", seq, nil, []mapping.Bound{b(">", value.Number("9"))}, `begins_with "EV#"`},
		// DynamoDB refuses an empty bound; no key is empty.
		{">= '' on a whole string key admits every key", place, nil, []mapping.Bound{b(">=", "")}, "none"},
		{"> '' admits every key", place, nil, []mapping.Bound{b(">", "")}, "none"},
		{"<= '' admits none", place, nil, []mapping.Bound{b("<=", "")}, "empty"},
		{"BETWEEN '' AND 'm' is <= 'm'", place, nil, []mapping.Bound{b(">=", ""), b("<=", "m")}, `<= "m"`},
		{">= x'' on a binary key admits every key", blob, nil, []mapping.Bound{b(">=", value.Binary{})}, "none"},
		{"< x'' admits none", blob, nil, []mapping.Bound{b("<", value.Binary{})}, "empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := condText(tc.key.Condition(tc.fixed, tc.bounds)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// Whatever the values, a range condition never leaves out an item whose
// columns meet the bounds: keys are built from random dates over an
// alphabet that holds characters below the separator '#', around it and
// above it.
func TestSortKeyRangesNeverExcludeAMatchingItem(t *testing.T) {
	m := loadKeys(t)
	k := m.Entities["orders"].Key("SK")
	alphabet := []string{" ", "!", "#", "$", "0", "1", "2", "-", "a", "é", "\U0010FFFF"}
	r := rand.New(rand.NewSource(1))
	word := func() string {
		var sb strings.Builder
		for n := 1 + r.Intn(4); n > 0; n-- {
			sb.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		return sb.String()
	}
	ops := []string{"<", "<=", ">", ">=", "prefix"}
	for range 3000 {
		var bounds []mapping.Bound
		for n := 1 + r.Intn(2); n > 0; n-- {
			bounds = append(bounds, mapping.Bound{Op: ops[r.Intn(len(ops))], Value: word()})
		}
		c := k.Condition(nil, bounds)
		for range 20 {
			date, id := word(), word()
			key, err := k.Value(mapping.Row{"date": date, "id": id})
			if err != nil || !meets(date, bounds) {
				continue // a date holding '#' cannot be written
			}
			if !admits(c, key.(*types.AttributeValueMemberS).Value) {
				t.Fatalf("date %q meets %v, but its key %q is outside %s", date, bounds, key.(*types.AttributeValueMemberS).Value, condText(c))
			}
		}
	}
}

func meets(v string, bounds []mapping.Bound) bool {
	for _, b := range bounds {
		x := b.Value.(string)
		ok := map[string]bool{"<": v < x, "<=": v <= x, ">": v > x, ">=": v >= x, "prefix": strings.HasPrefix(v, x)}[b.Op]
		if !ok {
			return false
		}
	}
	return true
}

func admits(c *mapping.SortCondition, key string) bool {
	if c == nil {
		return true
	}
	if c.Empty {
		return false
	}
	v := func(i int) string { return c.Values[i].(*types.AttributeValueMemberS).Value }
	switch c.Op {
	case "begins_with":
		return strings.HasPrefix(key, v(0))
	case "BETWEEN":
		return key >= v(0) && key <= v(1)
	case ">=":
		return key >= v(0)
	case "<=":
		return key <= v(0)
	case "=":
		return key == v(0)
	}
	return false
}

// The key order gives ORDER BY the columns after the fixed ones, in
// template order; a string column followed by literal text only while no
// value holds a character below it (a guard the executor checks); a
// number inside a string key never.
func TestSortKeyOrdersOnlyWhatItsBytesOrder(t *testing.T) {
	m := loadKeys(t)
	none := func(string) bool { return false }
	dateFixed := func(c string) bool { return c == "date" }
	cases := []struct {
		name   string
		key    *mapping.Key
		fixed  func(string) bool
		by     []string
		ok     bool
		guards string
	}{
		{"the leading column", m.Entities["orders"].Key("SK"), none, []string{"date"}, true, "date<#"},
		{"both columns in template order", m.Entities["orders"].Key("SK"), none, []string{"date", "id"}, true, "date<# id<#ITEM"},
		{"not a later column alone", m.Entities["orders"].Key("SK"), none, []string{"id"}, false, ""},
		{"the next column after a fixed one", m.Entities["orders"].Key("SK"), dateFixed, []string{"id"}, true, "id<#ITEM"},
		{"the last column, exactly", m.Entities["blobs"].Key("PK"), none, []string{"k"}, true, ""},
		{"a number key, exactly", m.Entities["posts"].Key("ver"), none, []string{"n"}, true, ""},
		{"not a number inside a string key", m.Entities["events"].Key("SK"), none, []string{"seq"}, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, guards := tc.key.Orders(tc.fixed, tc.by)
			var g []string
			for _, x := range guards {
				g = append(g, x.Column+"<"+x.Sep)
			}
			if ok != tc.ok || strings.Join(g, " ") != tc.guards {
				t.Errorf("Orders = %v %q, want %v %q", ok, strings.Join(g, " "), tc.ok, tc.guards)
			}
		})
	}
}
