package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dynosql/dynosql/value"
)

// jsonRows writes a JSON array on one line (JSON) or one object per line
// (JSONL), each object's keys in column order. It holds one row at a
// time.
func (p *Printer) jsonRows(src Source) (int, error) {
	var b bytes.Buffer
	enc := newEncoder(&b)
	cols := uniqueKeys(src.Columns())
	keys := make([][]byte, len(cols))
	for i, c := range cols {
		enc.encode(c)
		keys[i] = bytes.Clone(b.Bytes())
		b.Reset()
	}
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
			enc.encode(value.JSON(v))
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
			// The array stays open: a truncated result must not parse as
			// a whole one (| jq would pass it on, its exit status the
			// pipeline's).
			_, _ = io.WriteString(p.W, "\n")
		}
		return n, err
	}
	if p.F == JSON {
		b.WriteString("]\n")
	}
	_, err := p.W.Write(b.Bytes())
	return n, err
}

// uniqueKeys returns the column names as JSON object keys: a name
// already taken (SELECT s AS x, n AS x; an expression written twice)
// gets _2, _3..., since a JSON parser keeps one value per key and would
// quietly drop the others.
func uniqueKeys(cols []string) []string {
	out := make([]string, len(cols))
	seen := make(map[string]bool, len(cols))
	for i, c := range cols {
		key := c
		for n := 2; seen[key]; n++ {
			key = fmt.Sprintf("%s_%d", c, n)
		}
		seen[key] = true
		out[i] = key
	}
	return out
}

// encoder appends JSON to a buffer without escaping <, > and &, which are
// ordinary characters in data, and without the newline json.Encoder
// ends each value with. One serves a whole result: a new one per value
// cost more than the rest of printing it.
type encoder struct {
	b   *bytes.Buffer
	enc *json.Encoder
}

func newEncoder(b *bytes.Buffer) encoder {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	return encoder{b: b, enc: enc}
}

func (e encoder) encode(v any) {
	if err := e.enc.Encode(v); err != nil {
		// Values from value.JSON always encode; say so loudly if not.
		e.encode("[BUG] " + err.Error())
		return
	}
	e.b.Truncate(e.b.Len() - 1)
}

// csvRows writes a header line and then each row, flushed as it comes,
// as RFC 4180 and encoding/csv do, but for the empty string, which is
// written quoted (""), where NULL is written as nothing: so the two
// differ, and a row of one empty string is no empty line, which CSV
// readers skip.
func (p *Printer) csvRows(src Source) (int, error) {
	var line []byte
	for i, c := range src.Columns() {
		line = appendCSVField(line, i, c, false)
	}
	if _, err := p.W.Write(append(line, '\n')); err != nil {
		return 0, err
	}
	n := 0
	for src.Next() {
		line = line[:0]
		raw := src.RawValues()
		for i, text := range texts(raw) {
			line = appendCSVField(line, i, text, raw[i] == "")
		}
		if _, err := p.W.Write(append(line, '\n')); err != nil {
			return n, err
		}
		n++
	}
	return n, src.Err()
}

// appendCSVField appends field i of a line: quoted, its quotes doubled,
// when it is the empty string (quoteEmpty) or holds what encoding/csv
// quotes (a comma, a quote, CR or LF, a leading space, or \. alone).
func appendCSVField(line []byte, i int, f string, quoteEmpty bool) []byte {
	if i > 0 {
		line = append(line, ',')
	}
	r, _ := utf8.DecodeRuneInString(f)
	if !quoteEmpty && f != `\.` && !strings.ContainsAny(f, ",\"\r\n") && (f == "" || !unicode.IsSpace(r)) {
		return append(line, f...)
	}
	line = append(line, '"')
	line = append(line, strings.ReplaceAll(f, `"`, `""`)...)
	return append(line, '"')
}

// texts spells each value as text; NULL is the empty string.
func texts(r []value.Value) []string {
	out := make([]string, len(r))
	for i, v := range r {
		if v != nil {
			out[i] = value.Text(v)
		}
	}
	return out
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
		rec := texts(src.RawValues())
		if err := line(rec); err != nil {
			return n, err
		}
		n++
	}
	return n, src.Err()
}
