package repl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/parser"
)

// A statement's history entry is one line, and recalled (the arrow keys,
// or the next session reading the file) it must be the same statement:
// a comment inside it may not swallow the rest, and white space inside
// its strings is data.
func TestHistoryEntriesRecallTheSameStatement(t *testing.T) {
	for _, typed := range []string{
		"SELECT name -- the name\nFROM students WHERE id = 'a91';",
		"SELECT name # the name\nFROM students WHERE id = 'a91';",
		"INSERT INTO courses (id, title) VALUES ('x1', 'two  spaces');",
		"INSERT INTO courses (id, title) VALUES ('x1', 'two\nlines');",
		"SELECT name FROM students /* a91; */ WHERE id = 'a91';",
	} {
		var in input
		var pieces []piece
		for i, line := range strings.Split(typed, "\n") {
			pieces = append(pieces, in.feed(line, i+1)...)
		}
		if len(pieces) != 1 {
			t.Fatalf("%q: %d pieces", typed, len(pieces))
		}
		entry := historyEntry(pieces[0], &in)
		if strings.Contains(entry, "\n") {
			t.Errorf("%q: entry %q is not one line", typed, entry)
		}
		var again input
		recalled := again.feed(entry, 1)
		if len(recalled) != 1 || again.pending() {
			t.Errorf("%q: its history entry %q recalls %d statements, and leaves %q typed", typed, entry, len(recalled), again.text())
			continue
		}
		want, err1 := parser.Parse(pieces[0].sql)
		got, err2 := parser.Parse(recalled[0].sql)
		if err1 != nil || err2 != nil {
			t.Errorf("%q: %v / %v", typed, err1, err2)
			continue
		}
		if w, g := literals(want), literals(got); w != g {
			t.Errorf("%q: its history entry %q holds the values %s, want %s", typed, entry, g, w)
		}
	}
}

// literals lists the string values of an INSERT, the rest of a statement
// aside.
func literals(st parser.Statement) string {
	ins, ok := st.(*parser.Insert)
	if !ok {
		return ""
	}
	var out []string
	for _, row := range ins.Rows {
		for _, e := range row {
			if l, ok := e.(*parser.Literal); ok {
				out = append(out, strings.ReplaceAll(strings.ReplaceAll(fmt.Sprint(l.Value), "\n", `\n`), " ", "·"))
			}
		}
	}
	return strings.Join(out, ",")
}
