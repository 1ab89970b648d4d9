package repl

import (
	"os"
	"slices"
	"testing"

	"github.com/dynosql/dynosql/mapping"
)

func TestCompletion(t *testing.T) {
	data, err := os.ReadFile("../testdata/school/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse("school", data)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, pending, line string
		want                []string
	}{
		{"keywords keep the case the user types", "", "sel", []string{"ect"}},
		{"upper case keywords stay upper case", "", "SEL", []string{"ECT"}},
		{"entity names complete after FROM", "", "SELECT * FROM enr", []string{"ollments"}},
		{"alias.prefix gives that alias's columns", "", "SELECT * FROM enrollments e WHERE e.gr", []string{"ade"}},
		{"an alias declared on an earlier line counts", "SELECT s.name\nFROM students AS s\n", "WHERE s.", []string{"id", "email", "name", "year"}},
		{"an unknown alias gives nothing", "", "SELECT x.", nil},
		{"meta-commands complete at the start of a line", "", `\ti`, []string{"ming"}},
		{"meta-commands do not complete inside a statement", "SELECT 1\n", `\ti`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &completer{m: m, pending: tt.pending}
			line := []rune(tt.line)
			cands, _ := c.Do(line, len(line))
			var got []string
			for _, r := range cands {
				got = append(got, string(r))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Do(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}
