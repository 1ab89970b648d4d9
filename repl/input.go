package repl

import (
	"strings"

	"github.com/dynosql/dynosql/parser"
)

// piece is what the input gives to run: a statement (without its ';')
// or a meta-command line, and the line of the input it starts on.
type piece struct {
	sql, meta string
	line      int
}

// input cuts lines into statements and meta-commands as psql does: a
// statement ends at a ';' outside quotes and comments, and a '\' there
// starts a meta-command that takes the rest of the line, while what was
// typed before it stays in the buffer (for \g and \e). The parser's
// Scanner says what is outside quotes and comments, line after line.
type input struct {
	lex parser.Scanner
	buf strings.Builder // the statement typed so far
	// start is the line the statement in buf starts on, 0 while buf
	// holds only white space and comments; from is its offset in buf.
	start, from int
}

// feed takes line n (without its newline) and returns the statements it
// ends and the meta-command it holds, in order.
func (in *input) feed(line string, n int) []piece {
	s := line + "\n"
	var out []piece
	done := 0 // s[:done] is in buf or given out
	for i := 0; i < len(s); {
		wasOpen := in.lex.Open()
		next, kind := in.lex.Next(s, i)
		switch kind {
		case parser.SpanQuoted:
			if !wasOpen {
				in.begin(n, i-done) // a quoted string is SQL, a comment is not
			}
		case parser.SpanSemicolon:
			in.buf.WriteString(s[done:i])
			if sql, at := in.take(); sql != "" {
				out = append(out, piece{sql: sql, line: at})
			}
			done = next
		case parser.SpanCode:
			for j := i; j < next; j++ {
				switch s[j] {
				case '\\':
					in.buf.WriteString(s[done:j])
					return append(out, piece{meta: strings.TrimSpace(s[j:]), line: n})
				case ' ', '\t', '\n', '\r':
				default:
					in.begin(n, j-done)
				}
			}
		}
		i = next
	}
	in.buf.WriteString(s[done:])
	return out
}

// begin notes that the statement starts on line n, at offset off past
// what buf holds, unless it started before.
func (in *input) begin(n, off int) {
	if in.start == 0 {
		in.start, in.from = n, in.buf.Len()+off
	}
}

// pending reports whether a statement is being typed: SQL in the buffer,
// or an open quote or comment.
func (in *input) pending() bool { return in.start != 0 || in.lex.Open() }

// take returns the statement in the buffer, trimmed, and the line it
// starts on, and empties the buffer; "" when it holds no SQL.
func (in *input) take() (string, int) {
	sql, line := in.text(), in.start
	in.reset()
	return sql, line
}

// text returns the statement in the buffer, trimmed; "" when it holds no
// SQL.
func (in *input) text() string {
	if in.start == 0 {
		return ""
	}
	return strings.TrimSpace(in.buf.String()[in.from:])
}

// reset forgets the statement being typed, as Ctrl-C does.
func (in *input) reset() {
	in.buf.Reset()
	in.lex = parser.Scanner{}
	in.start, in.from = 0, 0
}

// prompt returns what follows the shell's prompt name, psql's way: "=>"
// for a new statement, "->" for a continued one, and the open quote or
// "*" inside a string or comment.
func (in *input) prompt() string {
	switch {
	case in.lex.Quote() != 0:
		return string(in.lex.Quote()) + "> "
	case in.lex.InBlockComment():
		return "*> "
	case in.pending():
		return "-> "
	}
	return "=> "
}
