package errs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDetailEchoesAboutALineAroundThePosition(t *testing.T) {
	long := "SELECT name FROM students WHERE id IN (" + strings.Repeat("'k', ", 5000) + "'k') ORDR BY name"
	tests := []struct {
		name      string
		sql       string
		pos       int
		wantLine  string
		wantCaret int // column of the caret in the shown line
	}{
		{"a short statement is shown whole", "SELECT x FROM t", 7, "SELECT x FROM t", 7},
		{"only the line of the position is shown", "SELECT x\nFROM t\nWHERE y", 9, "FROM t", 0},
		{"a line of 120 characters is shown whole", strings.Repeat("x", 120), 119, strings.Repeat("x", 120), 119},
		{"a long line is cut after the position", strings.Repeat("x", 300), 0, strings.Repeat("x", 100) + "...", 0},
		{"a long line is cut before the position", strings.Repeat("x", 300), 299, "..." + strings.Repeat("x", 100), 102},
		{"a long line is cut on both sides", strings.Repeat("x", 150) + "^" + strings.Repeat("y", 150), 150,
			"..." + strings.Repeat("x", 40) + "^" + strings.Repeat("y", 59) + "...", 43},
		{"a byte that is not UTF-8 shows as U+FFFD, one column", "a\xe9b", 2, "a\uFFFDb", 2},
		{"NUL and other control characters show as pictures", "a\x00b\x1bc", 4, "a␀b␛c", 4},
		{"a tab shows as a space", "a\tb", 2, "a b", 2},
		{"the CR of a CRLF line ending is not shown", "SELECT x\r\nFROM t", 2, "SELECT x", 2},
		{"characters count as one column each", "ÅÄÖ x", 7, "ÅÄÖ x", 4},
		// A terminal gives wide text and emoji two columns, a combining
		// mark none: the caret counted characters, and stood under the
		// space before x instead of x, or past it.
		{"wide characters count as two columns", "k = '日本😀' AND x", len("k = '日本😀' AND "), "k = '日本😀' AND x", 17},
		{"a combining mark takes no column", "k = 'e\u0301' AND x", len("k = 'e\u0301' AND "), "k = 'e\u0301' AND x", 12},
		{"a position past the end is at the end", "abc", 10, "abc", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, col := echoLine(tt.sql, tt.pos)
			if line != tt.wantLine || col != tt.wantCaret {
				t.Errorf("echoLine = %q, %d; want %q, %d", line, col, tt.wantLine, tt.wantCaret)
			}
		})
	}
	t.Run("Detail of a 30000-character statement is three short lines", func(t *testing.T) {
		pos := strings.Index(long, "ORDR")
		d := New(Syntax, "syntax error").At(long, pos).WithHint("did you mean ORDER?").Detail()
		lines := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("Detail has %d lines:\n%s", len(lines), d)
		}
		for _, l := range lines[:2] {
			if n := utf8.RuneCountInString(l); n > 110 {
				t.Errorf("a line of %d characters: %q", n, l)
			}
		}
		if !strings.Contains(lines[0], "'k') ORDR BY name") {
			t.Errorf("the echo %q does not show the position", lines[0])
		}
		caret := strings.Index(lines[1], "^")
		if got := string([]rune(lines[0])[caret:]); !strings.HasPrefix(got, "ORDR") {
			t.Errorf("the caret points at %q, want ORDR", got)
		}
	})
}
