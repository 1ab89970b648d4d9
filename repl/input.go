package repl

import (
	"strings"
)

// lexState follows quotes and comments across the lines of a statement,
// by the rules of the parser's lexer: '...' and "..." with backslash
// escapes, `...` without, comments from --, # or /* on. The shell needs
// it line by line, to know whether a ';', a '\' or a ':NAME' is SQL text
// or part of a string, which parser.Split and parser.Complete do not say.
type lexState struct {
	quote   byte // the open quote: ', " or `; 0 outside quotes
	comment byte // '-' in a line comment, '*' in a block comment, else 0
}

// open reports whether the text so far ends inside a quote or a comment.
func (st *lexState) open() bool { return st.quote != 0 || st.comment != 0 }

// advance reads s from offset i. Outside quotes and comments it returns
// i+1 and true: s[i] is SQL code. Otherwise it returns the offset past the
// quote or comment that s[i] opens or that st is inside (len(s) when it
// does not end in s) and false.
func (st *lexState) advance(s string, i int) (int, bool) {
	switch {
	case st.quote != 0:
		for j := i; j < len(s); j++ {
			switch {
			case s[j] == '\\' && st.quote != '`':
				j++ // the escaped byte cannot close the quote
			case s[j] == st.quote:
				st.quote = 0
				return j + 1, false
			}
		}
		return len(s), false
	case st.comment == '*':
		if j := strings.Index(s[i:], "*/"); j >= 0 {
			st.comment = 0
			return i + j + 2, false
		}
		return len(s), false
	case st.comment == '-':
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			st.comment = 0
			return i + j + 1, false
		}
		return len(s), false
	}
	switch c := s[i]; {
	case c == '\'' || c == '"' || c == '`':
		st.quote = c
		return st.advance(s, i+1)
	case c == '#':
		st.comment = '-'
		return st.advance(s, i+1)
	case strings.HasPrefix(s[i:], "--"):
		st.comment = '-'
		return st.advance(s, i+2)
	case strings.HasPrefix(s[i:], "/*"):
		st.comment = '*'
		return st.advance(s, i+2)
	}
	return i + 1, true
}

// piece is what the input gives to run: a statement (without its ';')
// or a meta-command line, and the line of the input it starts on.
type piece struct {
	sql, meta string
	line      int
}

// input cuts lines into statements and meta-commands as psql does: a
// statement ends at a ';' outside quotes and comments, and a '\' there
// starts a meta-command that takes the rest of the line, while what was
// typed before it stays in the buffer (for \g and \e).
type input struct {
	lex lexState
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
		wasCode := !in.lex.open()
		next, code := in.lex.advance(s, i)
		switch c := s[i]; {
		case !code:
			if wasCode && (c == '\'' || c == '"' || c == '`') {
				in.begin(n, i-done) // a quoted string is SQL, a comment is not
			}
		case c == ';':
			in.buf.WriteString(s[done:i])
			if sql, at := in.take(); sql != "" {
				out = append(out, piece{sql: sql, line: at})
			}
			done = i + 1
		case c == '\\':
			in.buf.WriteString(s[done:i])
			return append(out, piece{meta: strings.TrimSpace(s[i:]), line: n})
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			in.begin(n, i-done)
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
func (in *input) pending() bool { return in.start != 0 || in.lex.open() }

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
	in.lex = lexState{}
	in.start, in.from = 0, 0
}

// prompt returns what follows the shell's prompt name, psql's way: "=>"
// for a new statement, "->" for a continued one, and the open quote or
// "*" inside a string or comment.
func (in *input) prompt() string {
	switch {
	case in.lex.quote != 0:
		return string(in.lex.quote) + "> "
	case in.lex.comment == '*':
		return "*> "
	case in.pending():
		return "-> "
	}
	return "=> "
}
