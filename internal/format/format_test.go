package format

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/value"
)

// rows holds what the school data cannot: a list, a map, a string set,
// a boolean and characters JSON and CSV must quote.
func rows() *Static {
	return &Static{
		Cols: []string{"id", "tags", "meta", "set", "ok", "note"},
		Data: [][]value.Value{
			{"p1", []value.Value{"go", value.Number("2")}, map[string]value.Value{"b": value.Number("1.50"), "a": nil}, value.StringSet{"y", "x"}, true, `say "hi", <b>`},
			{"p2", nil, nil, nil, false, nil},
		},
	}
}

func TestPrinter(t *testing.T) {
	tests := []struct {
		f    Format
		want string
	}{
		{JSON, `[{"id":"p1","tags":["go",2],"meta":{"a":null,"b":1.50},"set":["x","y"],"ok":true,"note":"say \"hi\", <b>"},` +
			`{"id":"p2","tags":null,"meta":null,"set":null,"ok":false,"note":null}]` + "\n"},
		{JSONL, `{"id":"p1","tags":["go",2],"meta":{"a":null,"b":1.50},"set":["x","y"],"ok":true,"note":"say \"hi\", <b>"}` + "\n" +
			`{"id":"p2","tags":null,"meta":null,"set":null,"ok":false,"note":null}` + "\n"},
		{CSV, "id,tags,meta,set,ok,note\n" +
			`p1,"[""go"",2]","{""a"":null,""b"":1.50}","[""x"",""y""]",true,"say ""hi"", <b>"` + "\n" +
			"p2,,,,false,\n"},
		{TSV, "id\ttags\tmeta\tset\tok\tnote\n" +
			"p1\t[\"go\",2]\t{\"a\":null,\"b\":1.50}\t[\"x\",\"y\"]\ttrue\tsay \"hi\", <b>\n" +
			"p2\t\t\t\tfalse\t\n"},
		{Table, "" +
			" id | tags     | meta                | set       | ok    | note\n" +
			"----+----------+---------------------+-----------+-------+---------------\n" +
			` p1 | ["go",2] | {"a":null,"b":1.50} | ["x","y"] | true  | say "hi", <b>` + "\n" +
			" p2 | NULL     | NULL                | NULL      | false | NULL\n" +
			"(2 rows)\n"},
	}
	for _, tt := range tests {
		t.Run(string(tt.f), func(t *testing.T) {
			var b strings.Builder
			n, err := (&Printer{W: &b, F: tt.f}).Rows(rows())
			if err != nil || n != 2 {
				t.Fatalf("Rows = %d, %v; want 2, nil", n, err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestResult(t *testing.T) {
	tests := []struct {
		f    Format
		r    Result
		want string
	}{
		{JSON, Result{Affected: 3}, `{"affected":3}` + "\n"},
		{JSONL, Result{Affected: 1, CopiesUpdated: 120, CopiesSkipped: 2}, `{"affected":1,"copies_updated":120,"copies_skipped":2}` + "\n"},
		{Table, Result{Affected: 1}, "1 row affected\n"},
		{Table, Result{Affected: 1, CopiesUpdated: 1, CopiesSkipped: 0}, "1 row affected, 1 copy updated, 0 copies skipped\n"},
		{CSV, Result{Affected: 2}, "affected\n2\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := (&Printer{W: &b, F: tt.f}).Result(tt.r); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s %+v: got %q, want %q", tt.f, tt.r, b.String(), tt.want)
		}
	}
}

// TSV escapes what would break a line or a column instead of quoting it:
// a reader splits on tabs and newlines and unescapes four sequences.
func TestTSVEscapes(t *testing.T) {
	src := &Static{
		Cols: []string{"a\tb", "note"},
		Data: [][]value.Value{{"x", "tab\there\nnew line\r\nback\\slash 'q' \"dq\""}},
	}
	var b strings.Builder
	if _, err := (&Printer{W: &b, F: TSV}).Rows(src); err != nil {
		t.Fatal(err)
	}
	want := `a\tb` + "\tnote\n" + "x\t" + `tab\there\nnew line\r\nback\\slash 'q' "dq"` + "\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// With AutoWidth, a table that fits stays a table and one wider than the
// width prints expanded, as psql's \x auto. The table below is 30
// columns wide (its rule line).
func TestAutoWidth(t *testing.T) {
	src := func() *Static {
		return &Static{Cols: []string{"id", "title"}, Data: [][]value.Value{{"cs101", "Intro to Programming"}}}
	}
	tests := []struct {
		width int
		want  string
	}{
		{40, " id    | title\n-------+----------------------\n cs101 | Intro to Programming\n(1 row)\n"},
		{30, " id    | title\n-------+----------------------\n cs101 | Intro to Programming\n(1 row)\n"},
		{29, "-[ RECORD 1 ]\n id    | cs101\n title | Intro to Programming\n(1 row)\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if _, err := (&Printer{W: &b, F: Table, AutoWidth: tt.width}).Rows(src()); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("width %d: got:\n%s\nwant:\n%s", tt.width, b.String(), tt.want)
		}
	}
}

// counting is a Source of n rows (id, name) that fails t when a row is
// asked for while the printer still holds more than hold rows it has not
// written: what keeps memory bounded on a long result.
type counting struct {
	t      *testing.T
	w      *strings.Builder
	n      int
	hold   int
	i      int
	lastID func(out string) int // the highest id written so far
}

func (c *counting) Columns() []string { return []string{"id", "name"} }

func (c *counting) Next() bool {
	if c.i == c.n {
		return false
	}
	if written := c.lastID(c.w.String()); c.i-written > c.hold {
		c.t.Fatalf("row %d read while only rows up to %d were printed: more than %d rows held", c.i+1, written, c.hold)
	}
	c.i++
	return true
}

func (c *counting) RawValues() []value.Value {
	name := "n"
	if c.i == 7 {
		name = "a much longer name"
	}
	return []value.Value{value.Number(strconv.Itoa(c.i)), name}
}

func (c *counting) Err() error { return nil }

// lastNumber returns the last whole number of out that ends a field: an
// id in the table and markdown formats, a record's number in expanded.
func lastNumber(re *regexp.Regexp) func(string) int {
	return func(out string) int {
		m := re.FindAllStringSubmatch(out, -1)
		if len(m) == 0 {
			return 0
		}
		n, _ := strconv.Atoi(m[len(m)-1][1])
		return n
	}
}

// A table longer than Chunk prints Chunk rows at a time: the header once,
// later chunks at least as wide as the first (a wider value widens its
// own chunk), the count last; it never holds more than Chunk rows and the
// one after them.
func TestATableLongerThanAChunkPrintsChunkByChunk(t *testing.T) {
	tests := []struct {
		name string
		p    Printer
		last *regexp.Regexp
		want string
	}{
		{"table", Printer{F: Table}, regexp.MustCompile(`(?m)^ +(\d+) \|`), "" +
			" id | name\n" +
			"----+------\n" +
			"  1 | n\n" +
			"  2 | n\n" +
			"  3 | n\n" +
			"  4 | n\n" +
			"  5 | n\n" +
			"  6 | n\n" +
			"  7 | a much longer name\n" +
			"  8 | n\n" +
			"(8 rows)\n"},
		{"expanded", Printer{F: Table, Expanded: true}, regexp.MustCompile(`(?m)^ id +\| (\d+)$`), "" +
			"-[ RECORD 1 ]\n id   | 1\n name | n\n" +
			"-[ RECORD 2 ]\n id   | 2\n name | n\n" +
			"-[ RECORD 3 ]\n id   | 3\n name | n\n" +
			"-[ RECORD 4 ]\n id   | 4\n name | n\n" +
			"-[ RECORD 5 ]\n id   | 5\n name | n\n" +
			"-[ RECORD 6 ]\n id   | 6\n name | n\n" +
			"-[ RECORD 7 ]\n id   | 7\n name | a much longer name\n" +
			"-[ RECORD 8 ]\n id   | 8\n name | n\n" +
			"(8 rows)\n"},
		{"auto-expanded", Printer{F: Table, AutoWidth: 8}, regexp.MustCompile(`(?m)^ id +\| (\d+)$`), "" +
			"-[ RECORD 1 ]\n id   | 1\n name | n\n" +
			"-[ RECORD 2 ]\n id   | 2\n name | n\n" +
			"-[ RECORD 3 ]\n id   | 3\n name | n\n" +
			"-[ RECORD 4 ]\n id   | 4\n name | n\n" +
			"-[ RECORD 5 ]\n id   | 5\n name | n\n" +
			"-[ RECORD 6 ]\n id   | 6\n name | n\n" +
			"-[ RECORD 7 ]\n id   | 7\n name | a much longer name\n" +
			"-[ RECORD 8 ]\n id   | 8\n name | n\n" +
			"(8 rows)\n"},
		{"markdown", Printer{F: Markdown}, regexp.MustCompile(`(?m)^\| (\d+) \|`), "" +
			"| id | name |\n| ---:| --- |\n| 1 | n |\n| 2 | n |\n| 3 | n |\n" +
			"| 4 | n |\n| 5 | n |\n| 6 | n |\n" +
			"| 7 | a much longer name |\n| 8 | n |\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			p := tt.p
			p.W, p.Chunk = &b, 3
			src := &counting{t: t, w: &b, n: 8, hold: p.Chunk + 1, lastID: lastNumber(tt.last)}
			n, err := p.Rows(src)
			if err != nil || n != 8 {
				t.Fatalf("Rows = %d, %v; want 8, nil", n, err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
}

// A result of exactly Chunk rows is drawn whole, as it always was.
func TestAResultOfOneChunkIsDrawnWhole(t *testing.T) {
	var chunked, whole strings.Builder
	for _, c := range []struct {
		b     *strings.Builder
		chunk int
	}{{&chunked, 2}, {&whole, 0}} {
		if _, err := (&Printer{W: c.b, F: Table, Chunk: c.chunk}).Rows(rows()); err != nil {
			t.Fatal(err)
		}
	}
	if chunked.String() != whole.String() {
		t.Errorf("two rows in a chunk of 2:\n%s\nwant:\n%s", chunked.String(), whole.String())
	}
}

// JSON objects keep one value per key: names the select list repeats
// (SELECT s AS x, n AS x) get _2, _3, so no column is lost to a parser.
func TestJSONKeysAreUnique(t *testing.T) {
	src := &Static{Cols: []string{"x", "x", "x_2", "x"}, Data: [][]value.Value{{"a", value.Number("1"), "b", "c"}}}
	var b strings.Builder
	if _, err := (&Printer{W: &b, F: JSONL}).Rows(src); err != nil {
		t.Fatal(err)
	}
	if want := `{"x":"a","x_2":1,"x_2_2":"b","x_3":"c"}` + "\n"; b.String() != want {
		t.Errorf("got %s want %s", b.String(), want)
	}
}

// Lists, maps and sets print their <, > and & as they are in every
// format, and a number set in numeric order.
func TestDocumentsPrintTheirText(t *testing.T) {
	src := &Static{Cols: []string{"l", "ns"}, Data: [][]value.Value{{[]value.Value{"a<b>&c"}, value.NumberSet{"10", "9", "-1.5"}}}}
	var b strings.Builder
	if _, err := (&Printer{W: &b, F: TSV}).Rows(src); err != nil {
		t.Fatal(err)
	}
	if want := "l\tns\n[\"a<b>&c\"]\t[-1.5,9,10]\n"; b.String() != want {
		t.Errorf("got %q want %q", b.String(), want)
	}
}

// failing is a source that fails after its rows.
type failing struct{ Static }

func (f *failing) Err() error { return errors.New("stopped") }

// JSON output cut short by an error does not parse: a consumer that sees
// only stdout cannot take the rows printed for the whole result.
func TestJSONCutShortDoesNotParse(t *testing.T) {
	src := &failing{Static{Cols: []string{"a"}, Data: [][]value.Value{{value.Number("1")}}}}
	var b strings.Builder
	if _, err := (&Printer{W: &b, F: JSON}).Rows(src); err == nil {
		t.Fatal("no error")
	}
	if json.Valid([]byte(b.String())) {
		t.Errorf("output %q parses as a whole result", b.String())
	}
}

// CSV tells the empty string ("") from NULL (nothing), so that a row of
// one empty string is not an empty line, which readers skip; and every
// other field reads back with encoding/csv as written.
func TestCSVTellsEmptyFromNullAndReadsBack(t *testing.T) {
	odd := []value.Value{"x", "", nil, " lead", "a,b", `q"q`, "l\nf", "c\rr", `\.`, "\t", "é", "y"}
	src := &Static{Cols: []string{"s"}}
	for _, v := range odd {
		src.Data = append(src.Data, []value.Value{v})
	}
	var b strings.Builder
	if _, err := (&Printer{W: &b, F: CSV}).Rows(src); err != nil {
		t.Fatal(err)
	}
	if want := "s\nx\n\"\"\n\n"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("CSV starts %q, want %q", b.String()[:min(len(want), b.Len())], want)
	}
	r := csv.NewReader(strings.NewReader(b.String()))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rec := range recs[1:] {
		got = append(got, rec[0])
	}
	// encoding/csv skips the empty line of the one NULL and reads CR LF
	// inside quotes as it is.
	var want []string
	for _, v := range odd {
		if v != nil {
			want = append(want, v.(string))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("read back %q, want %q", got, want)
	}
}

// A markdown cell shows its value when rendered: go-pretty writes a
// newline as <br/>, so the value "a<br/>b" printed as "a\nb" did, and
// "<b>x</b>", "*x*" and "a_b_" rendered as markup, losing characters.
// Every one is escaped, and the two values print apart.
func TestMarkdownCellsRenderAsTheirValues(t *testing.T) {
	src := &Static{
		Cols: []string{"v"},
		Data: [][]value.Value{{"a\nb"}, {"a<br/>b"}, {"<b>x</b> & *y* a_b_ `c` ~~d~~ [e](f)"}},
	}
	var b strings.Builder
	if _, err := (&Printer{W: &b, F: Markdown}).Rows(src); err != nil {
		t.Fatal(err)
	}
	want := "| v |\n| --- |\n" +
		"| a<br/>b |\n" +
		`| a\<br/\>b |` + "\n" +
		`| \<b\>x\</b\> \& \*y\* a\_b\_ \` + "`c\\` \\~\\~d\\~\\~ \\[e\\](f) |\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
