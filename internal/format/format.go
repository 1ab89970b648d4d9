// Package format prints statement results for the dynosql command: rows,
// write counts and plans, in one of the output formats of --format.
//
// Tables, markdown and expanded display are drawn by go-pretty and
// buffer the rows they print; csv, tsv, json and jsonl write each row as it
// comes, so a large result streams.
package format

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

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
	CSV      Format = "csv"      // RFC 4180, a header line, NULL as an empty field
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
}

// Rows prints every row of src and returns how many it printed. It
// returns src's error, after printing what came before it only in the
// streaming formats.
func (p *Printer) Rows(src Source) (int, error) {
	switch p.F {
	case JSON, JSONL:
		return p.jsonRows(src)
	case CSV:
		return p.csvRows(src)
	case TSV:
		return p.tsvRows(src)
	}
	cols := src.Columns()
	var rows [][]value.Value
	for src.Next() {
		rows = append(rows, src.RawValues())
	}
	if err := src.Err(); err != nil {
		return 0, err
	}
	switch {
	case p.F == Markdown:
		t := newTable(cols, rows)
		_, err := fmt.Fprintln(p.W, t.RenderMarkdown())
		return len(rows), err
	case p.Expanded:
		return len(rows), p.expanded(cols, rows)
	}
	t := newTable(cols, rows)
	t.SetStyle(plainStyle)
	t.SuppressTrailingSpaces()
	out := t.Render()
	if p.AutoWidth > 0 && widest(out) > p.AutoWidth {
		return len(rows), p.expanded(cols, rows)
	}
	_, err := fmt.Fprintf(p.W, "%s\n%s\n", out, count(len(rows)))
	return len(rows), err
}

// widest returns the display width of the widest line of s.
func widest(s string) int {
	w := 0
	for _, line := range strings.Split(s, "\n") {
		w = max(w, text.StringWidthWithoutEscSequences(line))
	}
	return w
}

// plainStyle draws tables the way psql does: no outer border, columns
// separated by |, the header underlined.
var plainStyle = func() table.Style {
	s := table.StyleDefault
	s.Name = "dynosql"
	s.Format.Header = text.FormatDefault // keep the column names as written
	s.Options = table.Options{SeparateColumns: true, SeparateHeader: true}
	return s
}()

// newTable fills a go-pretty table, NULL shown as NULL and numeric
// columns aligned right.
func newTable(cols []string, rows [][]value.Value) table.Writer {
	t := table.NewWriter()
	header := make(table.Row, len(cols))
	for i, c := range cols {
		header[i] = c
	}
	t.AppendHeader(header)
	numeric := make([]bool, len(cols))
	for i := range cols {
		numeric[i] = true
	}
	for _, r := range rows {
		row := make(table.Row, len(r))
		for i, v := range r {
			row[i] = value.Text(v)
			if _, ok := v.(value.Number); !ok && v != nil && i < len(numeric) {
				numeric[i] = false
			}
		}
		t.AppendRow(row)
	}
	var cfg []table.ColumnConfig
	for i, n := range numeric {
		if n && len(rows) > 0 {
			cfg = append(cfg, table.ColumnConfig{Number: i + 1, Align: text.AlignRight, AlignHeader: text.AlignRight})
		}
	}
	t.SetColumnConfigs(cfg)
	return t
}

// expanded prints each row as name | value lines under "-[ RECORD n ]".
func (p *Printer) expanded(cols []string, rows [][]value.Value) error {
	var b strings.Builder
	for n, r := range rows {
		t := table.NewWriter()
		for i, v := range r {
			t.AppendRow(table.Row{cols[i], value.Text(v)})
		}
		s := plainStyle
		s.Options.SeparateHeader = false
		t.SetStyle(s)
		t.SuppressTrailingSpaces()
		fmt.Fprintf(&b, "-[ RECORD %d ]\n%s\n", n+1, t.Render())
	}
	b.WriteString(count(len(rows)) + "\n")
	_, err := io.WriteString(p.W, b.String())
	return err
}

func count(n int) string {
	if n == 1 {
		return "(1 row)"
	}
	return fmt.Sprintf("(%d rows)", n)
}

// jsonRows writes a JSON array on one line (JSON) or one object per line
// (JSONL), each object's keys in column order.
func (p *Printer) jsonRows(src Source) (int, error) {
	cols := src.Columns()
	keys := make([][]byte, len(cols))
	for i, c := range cols {
		keys[i] = marshal(c)
	}
	var b bytes.Buffer
	n := 0
	if p.F == JSON {
		b.WriteByte('[')
	}
	for src.Next() {
		if p.F == JSON && n > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for i, v := range src.RawValues() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(keys[i])
			b.WriteByte(':')
			b.Write(marshal(value.JSON(v)))
		}
		b.WriteByte('}')
		n++
		if p.F == JSONL {
			b.WriteByte('\n')
		}
		if _, err := p.W.Write(b.Bytes()); err != nil {
			return n, err
		}
		b.Reset()
	}
	if err := src.Err(); err != nil {
		if p.F == JSON && n > 0 {
			// Close the array so that what was printed still parses.
			_, _ = io.WriteString(p.W, "]\n")
		}
		return n, err
	}
	if p.F == JSON {
		b.WriteString("]\n")
	}
	_, err := p.W.Write(b.Bytes())
	return n, err
}

// marshal encodes v as JSON without escaping <, > and &, which are
// ordinary characters in data.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Values from value.JSON always encode; say so loudly if not.
		return marshal("[BUG] " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// csvRows writes a header line and then each row, flushed as it comes.
func (p *Printer) csvRows(src Source) (int, error) {
	w := csv.NewWriter(p.W)
	if err := w.Write(src.Columns()); err != nil {
		return 0, err
	}
	n := 0
	for src.Next() {
		r := src.RawValues()
		rec := make([]string, len(r))
		for i, v := range r {
			if v != nil {
				rec[i] = value.Text(v)
			}
		}
		if err := w.Write(rec); err != nil {
			return n, err
		}
		w.Flush()
		n++
	}
	w.Flush()
	if err := src.Err(); err != nil {
		return n, err
	}
	return n, w.Error()
}

// tsvEscape keeps a field on its line and in its column without quotes,
// the way PostgreSQL's COPY text format and mysql --batch do, so that
// cut and awk can read the output.
var tsvEscape = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

// tsvRows writes a header line and then each row, tab-separated and
// escaped rather than quoted; NULL is an empty field.
func (p *Printer) tsvRows(src Source) (int, error) {
	line := func(fields []string) error {
		for i, f := range fields {
			fields[i] = tsvEscape.Replace(f)
		}
		_, err := io.WriteString(p.W, strings.Join(fields, "\t")+"\n")
		return err
	}
	if err := line(slices.Clone(src.Columns())); err != nil {
		return 0, err
	}
	n := 0
	for src.Next() {
		r := src.RawValues()
		rec := make([]string, len(r))
		for i, v := range r {
			if v != nil {
				rec[i] = value.Text(v)
			}
		}
		if err := line(rec); err != nil {
			return n, err
		}
		n++
	}
	return n, src.Err()
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
