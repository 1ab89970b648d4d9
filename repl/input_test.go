package repl

import (
	"reflect"
	"strings"
	"testing"
)

// TestInput feeds scripts line by line and checks the statements and
// meta-commands cut from them, with the lines they start on.
func TestInput(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   []piece
		rest   string // the statement left in the buffer at the end
	}{
		{"a statement over lines starts on its first line past comments",
			"-- note\n\nSELECT a\n  FROM t;\n",
			[]piece{{sql: "SELECT a\n  FROM t", line: 3}}, ""},
		{"two statements on a line, the second left open",
			"SELECT 1; SELECT 2;; SELECT\n3",
			[]piece{{sql: "SELECT 1", line: 1}, {sql: "SELECT 2", line: 1}}, "SELECT\n3"},
		{"';' and '\\' in strings, quoted names and comments are text",
			"SELECT 'a;\\' b\\\\', \"c;\", `d\\` -- e; \\x\n/* f; \\g\n*/;",
			[]piece{{sql: "SELECT 'a;\\' b\\\\', \"c;\", `d\\` -- e; \\x\n/* f; \\g\n*/", line: 1}}, ""},
		{"a string over lines",
			"SELECT 'a\n;b';",
			[]piece{{sql: "SELECT 'a\n;b'", line: 1}}, ""},
		{"a meta-command takes the rest of its line and leaves the statement typed",
			"\\x on\nSELECT 1; SELECT\n 2 \\g out.txt\n",
			[]piece{{meta: `\x on`, line: 1}, {sql: "SELECT 1", line: 2}, {meta: `\g out.txt`, line: 3}}, "SELECT\n 2"},
		{"a statement starting with a string",
			"\n'x';",
			[]piece{{sql: "'x'", line: 2}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in input
			var got []piece
			for i, line := range strings.Split(tt.script, "\n") {
				got = append(got, in.feed(line, i+1)...)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pieces:\n%+v\nwant:\n%+v", got, tt.want)
			}
			if rest := in.text(); rest != tt.rest {
				t.Errorf("left %q, want %q", rest, tt.rest)
			}
		})
	}
}

// TestPrompt checks the continuation prompts: psql's, which say what is
// open.
func TestPrompt(t *testing.T) {
	tests := []struct{ typed, want string }{
		{"", "=> "},
		{"-- a comment", "=> "},
		{"SELECT", "-> "},
		{"SELECT 'a", "'> "},
		{`SELECT "a`, `"> `},
		{"SELECT `a", "`> "},
		{"/* a", "*> "},
		{"SELECT 1;", "=> "},
	}
	for _, tt := range tests {
		var in input
		in.feed(tt.typed, 1)
		if got := in.prompt(); got != tt.want {
			t.Errorf("after %q: prompt %q, want %q", tt.typed, got, tt.want)
		}
	}
}

// TestSubstitute puts variables in as psql does: :NAME as written,
// :'NAME' as a string literal, nothing inside strings and comments, and
// a name not set left as it is.
func TestSubstitute(t *testing.T) {
	s := &Session{Vars: map[string]string{"id": "a91", "q": `it's \ here`, "n": "3", "été": "x"}}
	tests := []struct{ in, want string }{
		{"WHERE id = :'id' LIMIT :n", "WHERE id = 'a91' LIMIT 3"},
		{"SELECT :'q'", `SELECT 'it''s \\ here'`},
		{"SELECT ':id', \":id\", `:id` -- :id\n/* :'id' */ #:n\n", "SELECT ':id', \":id\", `:id` -- :id\n/* :'id' */ #:n\n"},
		{"SELECT :nope, :'nope', :, :'', :'id", "SELECT :nope, :'nope', :, :'', :'id"},
		{"SELECT :id:n, :été", "SELECT a913, x"},
	}
	for _, tt := range tests {
		if got := s.substitute(tt.in); got != tt.want {
			t.Errorf("substitute(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMetaArgs splits meta-command arguments: quotes hold spaces, a
// doubled quote is one, and :NAME outside quotes is its value.
func TestMetaArgs(t *testing.T) {
	s := &Session{Vars: map[string]string{"f": "out.txt"}}
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b ", []string{"a", "b"}},
		{"'my file.txt' x'y'z", []string{"my file.txt", "xyz"}},
		{"'it''s' ''", []string{"it's", ""}},
		{":f ':f' dir/:f :nope", []string{"out.txt", ":f", "dir/out.txt", ":nope"}},
	}
	for _, tt := range tests {
		got, err := s.metaArgs(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("metaArgs(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := s.metaArgs("'open"); err == nil {
		t.Error("metaArgs of an unclosed quote: no error")
	}
}
