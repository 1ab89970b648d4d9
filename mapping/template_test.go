package mapping

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// parts prints a template's parts as `"lit" {col} "lit"`, to compare with
// what was worked out by hand.
func parts(t *Template) string {
	var out []string
	for _, p := range t.Parts {
		if p.Column != "" {
			out = append(out, "{"+p.Column+"}")
		} else {
			out = append(out, fmt.Sprintf("%q", p.Literal))
		}
	}
	return strings.Join(out, " ")
}

// A template parses into its literal and column parts, renders each row
// as the key written by hand below, and the key matches back into the
// same values: with literals before, between and after columns, several
// columns, separators inside values and values that look like another
// template. A template that lost its last literal (ORDER#{id}#ITEM read
// as ORDER#{id}) fails the parts, the key and the match back.
func TestTemplatesRoundTripThroughRenderAndMatch(t *testing.T) {
	cases := []struct {
		raw   string
		parts string
		vals  map[string]string
		key   string
	}{
		{"PROFILE", `"PROFILE"`, map[string]string{}, "PROFILE"},
		{"{id}", `{id}`, map[string]string{"id": "a91"}, "a91"},
		{"{id}", `{id}`, map[string]string{"id": "STU#a91#META"}, "STU#a91#META"},
		{"STU#{id}", `"STU#" {id}`, map[string]string{"id": "a91"}, "STU#a91"},
		{"STU#{id}", `"STU#" {id}`, map[string]string{"id": "#"}, "STU##"},
		{"{id}#META", `{id} "#META"`, map[string]string{"id": "7"}, "7#META"},
		{"{id}#META", `{id} "#META"`, map[string]string{"id": "7#META"}, "7#META#META"},
		{"POST#{id}#META", `"POST#" {id} "#META"`, map[string]string{"id": "7"}, "POST#7#META"},
		{"POST#{id}#META", `"POST#" {id} "#META"`, map[string]string{"id": "p#1"}, "POST#p#1#META"},
		{"POST#{id}#META", `"POST#" {id} "#META"`, map[string]string{"id": "#META"}, "POST##META#META"},
		{"POST#{id}#META", `"POST#" {id} "#META"`, map[string]string{"id": "ORDER#7#ITEM"}, "POST#ORDER#7#ITEM#META"},
		{"ORDER#{id}#ITEM", `"ORDER#" {id} "#ITEM"`, map[string]string{"id": "7"}, "ORDER#7#ITEM"},
		{"ORDER#{date}#{id}#ITEM", `"ORDER#" {date} "#" {id} "#ITEM"`,
			map[string]string{"date": "2024-05-01", "id": "o7"}, "ORDER#2024-05-01#o7#ITEM"},
		// The last column runs to the last literal: it may hold the separators.
		{"ORDER#{date}#{id}#ITEM", `"ORDER#" {date} "#" {id} "#ITEM"`,
			map[string]string{"date": "2024-05-01", "id": "x#ITEM#y"}, "ORDER#2024-05-01#x#ITEM#y#ITEM"},
		{"ORDER#{date}#{id}#ITEM", `"ORDER#" {date} "#" {id} "#ITEM"`,
			map[string]string{"date": "ORDER", "id": "POST#7#META"}, "ORDER#ORDER#POST#7#META#ITEM"},
		{"A#{x}#B#{y}#C#{z}", `"A#" {x} "#B#" {y} "#C#" {z}`,
			map[string]string{"x": "1", "y": "#", "z": "3#C#4"}, "A#1#B###C#3#C#4"},
		{"{a}|{b}", `{a} "|" {b}`, map[string]string{"a": "x", "b": "y|z"}, "x|y|z"},
		{"T#{a}::{b}::END", `"T#" {a} "::" {b} "::END"`, map[string]string{"a": "Zoë", "b": "日本"}, "T#Zoë::日本::END"},
		{"{a}-{b}-", `{a} "-" {b} "-"`, map[string]string{"a": "1", "b": "-"}, "1---"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s with %v is %s", tc.raw, tc.vals, tc.key), func(t *testing.T) {
			tmpl, err := ParseTemplate(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			if got := parts(tmpl); got != tc.parts {
				t.Fatalf("parts %s, want %s", got, tc.parts)
			}
			if got := slices.Sorted(slices.Values(tmpl.Columns())); !slices.Equal(got, slices.Sorted(maps.Keys(tc.vals))) {
				t.Errorf("columns %v, want those of %v", got, tc.vals)
			}
			key, err := tmpl.render(func(col string) (string, error) {
				v, ok := tc.vals[col]
				if !ok {
					return "", fmt.Errorf("no value")
				}
				return v, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if key != tc.key {
				t.Fatalf("rendered %q, want %q", key, tc.key)
			}
			back, ok := match(tmpl, key)
			if !ok {
				t.Fatalf("%q does not match back", key)
			}
			if !maps.Equal(back, tc.vals) {
				t.Fatalf("matched back as %v, want %v", back, tc.vals)
			}
			// The full prefix is the key itself.
			if p, complete := tmpl.prefix(func(col string) (string, bool) { v, ok := tc.vals[col]; return v, ok }); p != key || !complete {
				t.Errorf("prefix %q (complete %v), want the key, complete", p, complete)
			}
		})
	}
}

// split takes only keys of the template's shape: the literal before, the
// separators between and the literal after the columns must all be there,
// and no column may be empty.
func TestTemplatesMatchOnlyTheirOwnShape(t *testing.T) {
	cases := []struct {
		raw, key string
	}{
		{"POST#{id}#META", "POST#7"},
		{"POST#{id}#META", "POST#7#METAX"},
		{"POST#{id}#META", "POST##META"},
		{"POST#{id}#META", "POSTS#7#META"},
		{"POST#{id}#META", "#7#META"},
		{"ORDER#{id}#ITEM", "ORDER#7"},
		{"ORDER#{date}#{id}#ITEM", "ORDER#2024-05-01#o7"},
		{"ORDER#{date}#{id}#ITEM", "ORDER#2024-05-01#ITEM"},
		{"ORDER#{date}#{id}#ITEM", "ORDER##o7#ITEM"},
		{"ORDER#{date}#{id}#ITEM", "ORDER#2024-05-01o7#ITEM"},
		{"STU#{id}", "STU#"},
		{"STU#{id}", "CRS#a91"},
		{"{id}#META", "#META"},
		{"PROFILE", "PROFILEX"},
		{"PROFILE", "PROFIL"},
		{"A#{x}#B#{y}", "A#1#C#2"},
	}
	for _, tc := range cases {
		t.Run(tc.raw+" does not match "+tc.key, func(t *testing.T) {
			tmpl, err := ParseTemplate(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := match(tmpl, tc.key); ok {
				t.Fatalf("matched as %v", got)
			}
		})
	}
}

// The pieces the planner builds key conditions from, read off templates
// by hand.
func TestTemplatesTellTheirPrefixSeparatorsAndPartialKeys(t *testing.T) {
	tmpl, err := ParseTemplate("ORDER#{date}#{id}#ITEM")
	if err != nil {
		t.Fatal(err)
	}
	if got := tmpl.LiteralPrefix(); got != "ORDER#" {
		t.Errorf("LiteralPrefix = %q", got)
	}
	if got := tmpl.After("date"); got != "#" {
		t.Errorf(`After("date") = %q, want "#"`, got)
	}
	if got := tmpl.After("id"); got != "#ITEM" {
		t.Errorf(`After("id") = %q, want "#ITEM"`, got)
	}
	if got := tmpl.literalSuffix(); got != "#ITEM" {
		t.Errorf("literalSuffix = %q, want #ITEM", got)
	}
	if tmpl.IsLiteral() {
		t.Error("IsLiteral = true for a template with columns")
	}
	for _, tc := range []struct {
		given    map[string]string
		prefix   string
		complete bool
	}{
		{map[string]string{}, "ORDER#", false},
		{map[string]string{"date": "2024-05-01"}, "ORDER#2024-05-01#", false},
		{map[string]string{"id": "o7"}, "ORDER#", false}, // a later column alone fixes nothing
		{map[string]string{"date": "2024-05-01", "id": "o7"}, "ORDER#2024-05-01#o7#ITEM", true},
	} {
		p, complete := tmpl.prefix(func(col string) (string, bool) { v, ok := tc.given[col]; return v, ok })
		if p != tc.prefix || complete != tc.complete {
			t.Errorf("prefix of %v = %q %v, want %q %v", tc.given, p, complete, tc.prefix, tc.complete)
		}
	}
	lit, err := ParseTemplate("PROFILE")
	if err != nil {
		t.Fatal(err)
	}
	if !lit.IsLiteral() || lit.LiteralPrefix() != "PROFILE" || lit.literalSuffix() != "PROFILE" {
		t.Errorf("PROFILE: literal %v, prefix %q, suffix %q", lit.IsLiteral(), lit.LiteralPrefix(), lit.literalSuffix())
	}
}

// Templates that could not be parsed back, or are not templates, are
// refused with a message naming the problem.
func TestTemplatesRefuseWhatCouldNotBeParsedBack(t *testing.T) {
	cases := []struct{ raw, why string }{
		{"", "empty template"},
		{"{a}{b}", "must be separated by literal text"},
		{"X#{a}{b}#Y", "must be separated by literal text"},
		{"{a", "unclosed '{'"},
		{"A#{a}#{", "unclosed '{'"},
		{"a}", "unmatched '}'"},
		{"A}#{a}", "unmatched '}'"},
		{"{a}#B}", "unmatched '}'"},
		{"{}", "bad column name"},
		{"{a#b}", "bad column name"},
		{"{a{b}", "bad column name"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q: %s", tc.raw, tc.why), func(t *testing.T) {
			_, err := ParseTemplate(tc.raw)
			if err == nil || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("error = %v, want one saying %q", err, tc.why)
			}
		})
	}
}

// Two entities' templates overlap when one key could be of either: the
// literal text at both ends is what tells them apart.
func TestTemplatesOverlapOnlyWhenTheirLiteralEndsAgree(t *testing.T) {
	cases := []struct {
		a, b    string
		overlap bool
	}{
		{"PROFILE", "PROFILE", true},
		{"PROFILE", "META", false},
		{"PROFILE", "ENROLL#CRS#{course_id}", false},
		{"STU#{id}", "STU#{student_id}", true},
		{"STU#{id}", "CRS#{id}", false},
		{"POST#{id}#META", "POST#{id}#LIKES", false},
		{"POST#{id}#META", "POST#{id}", true},
		{"ORDER#{date}#{id}#ITEM", "ORDER#{id}#ITEM", true},
		{"{id}", "STU#{id}", true},
		{"{id}#META", "{id}#ITEM", false},
	}
	for _, tc := range cases {
		a, err := ParseTemplate(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseTemplate(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if a.mayOverlap(b) != tc.overlap || b.mayOverlap(a) != tc.overlap {
			t.Errorf("%s and %s: overlap %v/%v, want %v", tc.a, tc.b, a.mayOverlap(b), b.mayOverlap(a), tc.overlap)
		}
	}
}

// match is split's texts by column.
func match(t *Template, s string) (map[string]string, bool) {
	texts, ok := t.split(s, nil)
	if !ok {
		return nil, false
	}
	vals := map[string]string{}
	for i, col := range t.Columns() {
		vals[col] = texts[i]
	}
	return vals, true
}
