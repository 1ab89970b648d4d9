package format

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/dynosql/dynosql/value"
)

// tableRows prints a table, a markdown table or expanded records. A
// result of at most Chunk rows is drawn whole. A longer one is drawn
// Chunk rows at a time, as psql does with FETCH_COUNT, so that memory
// stays bounded whatever the result's size: the first chunk decides the
// header, which columns align right as numbers, and (with \x auto)
// whether rows print expanded; each later chunk's columns are at least
// as wide as the first's, a wider value widening its column in its own
// chunk only (psql lets every chunk take its own widths). The row count
// follows the last chunk.
func (p *Printer) tableRows(src Source) (int, error) {
	size := p.Chunk
	if size <= 0 {
		size = DefaultChunk
	}
	cols := src.Columns()
	rows, next, more := chunk(src, size, nil)
	if err := src.Err(); err != nil {
		return 0, err
	}
	if !more {
		return len(rows), p.whole(cols, rows)
	}
	total, expanded := 0, p.Expanded
	var lay layout
	for {
		var out string
		switch {
		case p.F == Markdown:
			out = markdown(cols, rows, total == 0) + "\n"
		case expanded:
			out = records(cols, rows, total)
		case total == 0:
			lay = measure(cols, rows)
			out = plain(newTable(cols, rows, lay, true, false, visible)) + "\n"
			if p.AutoWidth > 0 && widest(out) > p.AutoWidth {
				expanded = true
				out = records(cols, rows, total)
			}
		default:
			out = plain(newTable(cols, rows, lay, false, true, visible)) + "\n"
		}
		if _, err := io.WriteString(p.W, out); err != nil {
			return total, err
		}
		total += len(rows)
		if !more {
			break
		}
		rows, next, more = chunk(src, size, next)
	}
	if err := src.Err(); err != nil {
		return total, err
	}
	if p.F == Markdown {
		return total, nil
	}
	_, err := fmt.Fprintln(p.W, count(total))
	return total, err
}

// chunk reads up to n rows: pending first, when not nil (a row read
// already), then rows of src. more tells whether src has a row after
// them, which is next.
func chunk(src Source, n int, pending []value.Value) (rows [][]value.Value, next []value.Value, more bool) {
	if pending != nil {
		rows = append(rows, pending)
	}
	for len(rows) < n && src.Next() {
		rows = append(rows, src.RawValues())
	}
	if len(rows) == n && src.Next() {
		return rows, src.RawValues(), true
	}
	return rows, nil, false
}

// whole prints a result read whole.
func (p *Printer) whole(cols []string, rows [][]value.Value) error {
	lay := measure(cols, rows)
	switch {
	case p.F == Markdown:
		_, err := fmt.Fprintln(p.W, markdown(cols, rows, true))
		return err
	case p.Expanded:
		_, err := io.WriteString(p.W, records(cols, rows, 0)+count(len(rows))+"\n")
		return err
	}
	out := plain(newTable(cols, rows, lay, true, false, visible))
	if p.AutoWidth > 0 && widest(out) > p.AutoWidth {
		_, err := io.WriteString(p.W, records(cols, rows, 0)+count(len(rows))+"\n")
		return err
	}
	_, err := fmt.Fprintf(p.W, "%s\n%s\n", out, count(len(rows)))
	return err
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

// plain renders t in plainStyle.
func plain(t table.Writer) string {
	t.SetStyle(plainStyle)
	t.SuppressTrailingSpaces()
	return t.Render()
}

// layout is what the first rows of a table fix for the rest.
type layout struct {
	numeric []bool // aligned right: every value a number, and one value at least
	widths  []int  // display width of the widest line of each column
}

// measure returns the layout of rows under cols.
func measure(cols []string, rows [][]value.Value) layout {
	lay := layout{numeric: make([]bool, len(cols)), widths: make([]int, len(cols))}
	for i, c := range cols {
		lay.numeric[i] = len(rows) > 0
		lay.widths[i] = widest(visible(c))
	}
	for _, r := range rows {
		for i, v := range r {
			if i >= len(cols) {
				break
			}
			if _, ok := v.(value.Number); !ok && v != nil {
				lay.numeric[i] = false
			}
			lay.widths[i] = max(lay.widths[i], widest(visible(value.Text(v))))
		}
	}
	return lay
}

// newTable fills a go-pretty table, NULL shown as NULL and the numeric
// columns of lay aligned right; header adds the column names, and
// minWidths makes each column at least as wide as lay says.
func newTable(cols []string, rows [][]value.Value, lay layout, header, minWidths bool, show func(string) string) table.Writer {
	t := table.NewWriter()
	if header {
		h := make(table.Row, len(cols))
		for i, c := range cols {
			h[i] = show(c)
		}
		t.AppendHeader(h)
	}
	for _, r := range rows {
		row := make(table.Row, len(r))
		for i, v := range r {
			row[i] = show(value.Text(v))
		}
		t.AppendRow(row)
	}
	var cfg []table.ColumnConfig
	for i := range cols {
		c := table.ColumnConfig{Number: i + 1}
		if lay.numeric[i] {
			c.Align, c.AlignHeader = text.AlignRight, text.AlignRight
		}
		if minWidths {
			c.WidthMin = lay.widths[i]
		}
		if c.Align != text.AlignDefault || c.WidthMin > 0 {
			cfg = append(cfg, c)
		}
	}
	t.SetColumnConfigs(cfg)
	return t
}

// records draws each row as name | value lines under "-[ RECORD n ]",
// numbered from start+1.
func records(cols []string, rows [][]value.Value, start int) string {
	var b strings.Builder
	for n, r := range rows {
		t := table.NewWriter()
		for i, v := range r {
			t.AppendRow(table.Row{visible(cols[i]), visible(value.Text(v))})
		}
		s := plainStyle
		s.Options.SeparateHeader = false
		t.SetStyle(s)
		t.SuppressTrailingSpaces()
		fmt.Fprintf(&b, "-[ RECORD %d ]\n%s\n", start+n+1, t.Render())
	}
	return b.String()
}

func count(n int) string {
	if n == 1 {
		return "(1 row)"
	}
	return fmt.Sprintf("(%d rows)", n)
}

// markdown renders rows as a GitHub markdown table. go-pretty escapes
// | but not the backslash, so a value holding \| or ending in \ would
// end its cell early: backslashes are doubled first. The characters a
// renderer reads as inline markup or HTML are escaped too: go-pretty
// writes a newline as <br/>, so the value "a<br/>b" read as "a\nb", "<b>x"
// as a bold x, and "*x*" or "a_b_" lost their * and _.
func markdown(cols []string, rows [][]value.Value, header bool) string {
	show := func(s string) string { return markdownEscaper.Replace(visible(s)) }
	return newTable(cols, rows, measure(cols, rows), header, false, show).RenderMarkdown()
}

// markdownEscaper puts a backslash before the backslash and the ASCII
// punctuation GitHub markdown reads as inline markup or HTML in a cell
// (CommonMark lets any ASCII punctuation be escaped so).
var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`,
	"[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "&", `\&`)

// visible writes a carriage return as \r and the other control
// characters but newline and tab as \xHH (\u00HH above 0x7f), as psql's
// aligned format does. go-pretty reads a lone \r as a return to the
// start of the line, writing what follows over what came before it
// ("abcdef\r12" would show as "12cdef"), and a terminal runs an escape
// sequence held in data instead of showing it.
func visible(s string) string {
	if !strings.ContainsFunc(s, needsEscape) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\r':
			b.WriteString(`\r`)
		case !needsEscape(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

func needsEscape(r rune) bool { return r != '\n' && r != '\t' && unicode.IsControl(r) }
