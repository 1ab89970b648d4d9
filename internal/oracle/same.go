package oracle

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dynosql/dynosql/value"
)

// maxShown bounds how many differing rows a diff prints.
const maxShown = 20

// SameRows compares two results and returns "" when they hold the same
// rows, as multisets, or as lists when ordered is true (ORDER BY). NULL
// equals NULL here, and numbers are equal when they agree to 9 significant
// digits, which absorbs SQLite's floating-point AVG. Otherwise it returns
// a readable diff.
func SameRows(got, want [][]value.Value, ordered bool) (diff string) {
	if ordered {
		return sameList(got, want)
	}
	return sameMultiset(got, want)
}

func sameList(got, want [][]value.Value) string {
	var b strings.Builder
	shown := 0
	for i := range max(len(got), len(want)) {
		var g, w []value.Value
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) && i < len(want) && sameRow(g, w) {
			continue
		}
		if shown++; shown > maxShown {
			b.WriteString("...\n")
			break
		}
		fmt.Fprintf(&b, "row %d:\n  got:  %s\n  want: %s\n", i+1, rowText(g, i < len(got)), rowText(w, i < len(want)))
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("got %d rows, want %d, in order:\n%s", len(got), len(want), b.String())
}

func sameMultiset(got, want [][]value.Value) string {
	// Rows are matched within buckets of a coarse key first, so that tens
	// of thousands of rows compare in linear time; the few rows left then
	// try every unmatched row, for two numbers that agree to 9 digits may
	// still round apart.
	matched := make([]bool, len(want))
	buckets := map[string][]int{}
	for j, w := range want {
		k := coarseKey(w)
		buckets[k] = append(buckets[k], j)
	}
	match := func(g []value.Value, candidates []int) bool {
		for _, j := range candidates {
			if !matched[j] && sameRow(g, want[j]) {
				matched[j] = true
				return true
			}
		}
		return false
	}
	var unmatched [][]value.Value
	for _, g := range got {
		if !match(g, buckets[coarseKey(g)]) {
			unmatched = append(unmatched, g)
		}
	}
	var rest []int
	for j := range want {
		if !matched[j] {
			rest = append(rest, j)
		}
	}
	var extra [][]value.Value
	for _, g := range unmatched {
		if !match(g, rest) {
			extra = append(extra, g)
		}
	}
	var missing [][]value.Value
	for j, w := range want {
		if !matched[j] {
			missing = append(missing, w)
		}
	}
	if len(extra) == 0 && len(missing) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "got %d rows, want %d, in any order:\n", len(got), len(want))
	section := func(title string, rows [][]value.Value) {
		if len(rows) == 0 {
			return
		}
		slices.SortFunc(rows, compareRows)
		fmt.Fprintf(&b, "%s (%d):\n", title, len(rows))
		for i, r := range rows {
			if i == maxShown {
				b.WriteString("  ...\n")
				break
			}
			fmt.Fprintf(&b, "  %s\n", rowText(r, true))
		}
	}
	section("unexpected, got but not wanted", extra)
	section("missing, wanted but not got", missing)
	return b.String()
}

// coarseKey is a row's text with numbers rounded to 6 digits and lists
// and maps reduced to their kind: rows that are the same share it, but
// for numbers at a rounding edge.
func coarseKey(r []value.Value) string {
	var b strings.Builder
	for _, v := range r {
		switch v := v.(type) {
		case value.Number:
			b.WriteString(strconv.FormatFloat(v.Float(), 'g', 6, 64))
		case []value.Value:
			b.WriteString("[list]")
		case map[string]value.Value:
			b.WriteString("{map}")
		default:
			b.WriteString(value.Literal(v))
		}
		b.WriteByte(0)
	}
	return b.String()
}

func compareRows(a, b []value.Value) int {
	for i := range min(len(a), len(b)) {
		if c := value.Order(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func rowText(r []value.Value, present bool) string {
	if !present {
		return "(no row)"
	}
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = value.Literal(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func sameRow(a, b []value.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// same is value equality where NULL equals NULL and numbers need only
// agree to 9 significant digits.
func same(a, b value.Value) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case value.Number:
		y, ok := b.(value.Number)
		return ok && closeNumbers(x, y)
	case []value.Value:
		y, ok := b.([]value.Value)
		return ok && sameRow(x, y)
	case map[string]value.Value:
		y, ok := b.(map[string]value.Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !same(v, w) {
				return false
			}
		}
		return true
	}
	return value.Equal(a, b)
}

func closeNumbers(x, y value.Number) bool {
	if c, ok := value.Compare(x, y); ok && c == 0 {
		return true
	}
	fx, fy := x.Float(), y.Float()
	scale := math.Max(math.Abs(fx), math.Abs(fy))
	return math.Abs(fx-fy) <= 5e-9*scale
}
