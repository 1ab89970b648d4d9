// Package format prints statement results for the dynosql command: rows,
// write counts and plans, in one of the output formats of --format.
//
// csv, tsv, json and jsonl write each row as it comes, so a large result
// streams. Tables, markdown and expanded display, drawn by go-pretty, hold
// at most Chunk rows: a result that fits is drawn whole, a longer one in
// chunks of Chunk rows with the widths of the first (see Printer.Rows).
package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Format is an output format name, as --format and \format take it.
type Format string

// The output formats.
const (
	Table    Format = "table"    // aligned columns, NULL shown as NULL, a row count
	JSON     Format = "json"     // one line per statement: an array of row objects
	JSONL    Format = "jsonl"    // one object per row
	CSV      Format = "csv"      // RFC 4180, a header line, NULL as an empty field, the empty string as ""
	TSV      Format = "tsv"      // tab-separated, no quotes: tab, newline, CR and \ escaped as \t, \n, \r, \\
	Markdown Format = "markdown" // a GitHub markdown table
)

// Names lists the formats in the order help text shows them.
var Names = []Format{Table, JSON, JSONL, CSV, TSV, Markdown}

// Parse returns the format called name.
func Parse(name string) (Format, error) {
	for _, f := range Names {
		if string(f) == strings.ToLower(name) {
			return f, nil
		}
	}
	list := make([]string, len(Names))
	for i, f := range Names {
		list[i] = string(f)
	}
	return "", errs.New(errs.Invalid, "unknown format %q", name).WithHint("use one of %s", strings.Join(list, ", "))
}

// Source is a result being read row by row; *dynosql.Rows satisfies it.
type Source interface {
	Columns() []string
	Next() bool
	RawValues() []value.Value
	Err() error
}

// Printer writes results to W in format F.
type Printer struct {
	W io.Writer
	F Format
	// Expanded prints each row of a table as a column of name | value
	// pairs under a record heading, like psql's \x.
	Expanded bool
	// AutoWidth, when not 0, prints a table expanded when one of its
	// lines would be wider than AutoWidth columns, like psql's \x auto.
	AutoWidth int
	// Chunk is the most rows a table holds before it prints, like psql's
	// FETCH_COUNT; 0 means DefaultChunk.
	Chunk int
}

// DefaultChunk is the rows a table holds before it prints by default:
// enough for the widths of the first rows to suit the rest, few enough
// that memory stays small.
const DefaultChunk = 1000

// Rows prints every row of src and returns how many it printed. It
// returns src's error, after printing what came before it in the
// streaming formats, and the chunks printed before it in the others.
func (p *Printer) Rows(src Source) (int, error) {
	switch p.F {
	case JSON, JSONL:
		return p.jsonRows(src)
	case CSV:
		return p.csvRows(src)
	case TSV:
		return p.tsvRows(src)
	}
	return p.tableRows(src)
}

// Result is what a write did, as the JSON formats print it.
type Result struct {
	Affected      int64 `json:"affected"`
	CopiesUpdated int64 `json:"copies_updated,omitempty"`
	CopiesSkipped int64 `json:"copies_skipped,omitempty"`
}

// Message prints a line about the session (BEGIN, ROLLBACK) in the table
// format; the formats other programs read get none.
func (p *Printer) Message(s string) error {
	if p.F != Table {
		return nil
	}
	_, err := fmt.Fprintln(p.W, s)
	return err
}

// Result prints what a write did: a sentence in the table format, an
// object in the JSON formats, a one-row table in the others.
func (p *Printer) Result(r Result) error {
	switch p.F {
	case JSON, JSONL:
		_, err := fmt.Fprintf(p.W, "%s\n", marshal(r))
		return err
	case Table:
		s := plural(r.Affected, "row", "rows") + " affected"
		if r.CopiesUpdated != 0 || r.CopiesSkipped != 0 {
			s += fmt.Sprintf(", %s updated, %s skipped",
				plural(r.CopiesUpdated, "copy", "copies"), plural(r.CopiesSkipped, "copy", "copies"))
		}
		_, err := fmt.Fprintln(p.W, s)
		return err
	}
	st := &Static{Cols: []string{"affected"}, Data: [][]value.Value{{value.Number(fmt.Sprint(r.Affected))}}}
	if r.CopiesUpdated != 0 || r.CopiesSkipped != 0 {
		st.Cols = append(st.Cols, "copies_updated", "copies_skipped")
		st.Data[0] = append(st.Data[0], value.Number(fmt.Sprint(r.CopiesUpdated)), value.Number(fmt.Sprint(r.CopiesSkipped)))
	}
	_, err := p.Rows(st)
	return err
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Plan prints what EXPLAIN prints: the plan as a tree in the table
// format, as {"plan": [requests]} in the JSON formats, one line a row
// in the others.
func (p *Printer) Plan(plan *planner.Plan) error {
	reqs := plan.Requests()
	if reqs == nil {
		reqs = []*planner.Request{}
	}
	return p.Tree(plan.String(), map[string]any{"plan": reqs}, plan.ExplainFormat)
}

// Tree prints a drawn tree (text) or, in the JSON formats, js: the
// table format writes text as it is, the others one line a row. as
// ("text" or "json", from EXPLAIN's FORMAT option) overrides the format.
func (p *Printer) Tree(text string, js any, as string) error {
	switch {
	case as == "json" || (as == "" && (p.F == JSON || p.F == JSONL)):
		_, err := fmt.Fprintf(p.W, "%s\n", marshal(js))
		return err
	case as == "text" || p.F == Table:
		_, err := io.WriteString(p.W, text)
		return err
	}
	st := &Static{Cols: []string{"plan"}}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		st.Data = append(st.Data, []value.Value{line})
	}
	_, err := p.Rows(st)
	return err
}

// Static is a Source over rows known in advance, for the REPL's own
// listings (\d) and one-row results.
type Static struct {
	Cols []string
	Data [][]value.Value
	cur  []value.Value
}

var _ Source = (*Static)(nil)

// Columns returns the column names.
func (s *Static) Columns() []string { return s.Cols }

// Next moves to the next row.
func (s *Static) Next() bool {
	if len(s.Data) == 0 {
		return false
	}
	s.cur, s.Data = s.Data[0], s.Data[1:]
	return true
}

// RawValues returns the current row.
func (s *Static) RawValues() []value.Value { return s.cur }

// Err returns nil: a Static source cannot fail.
func (s *Static) Err() error { return nil }

// marshal encodes v as JSON the way rows are (see encoder).
func marshal(v any) []byte {
	var b bytes.Buffer
	newEncoder(&b).encode(v)
	return b.Bytes()
}
