package format

import (
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
