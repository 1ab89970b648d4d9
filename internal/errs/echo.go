package errs

import (
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// An error shows a line of the statement whole when it has at most
// echoWhole characters, else echoWidth of them around its position:
// statements can be tens of kilobytes on one line (a long IN list, a
// large INSERT), and the point is the caret.
const (
	echoWhole = 120
	echoWidth = 100
)

// echoLine returns the part of s's line holding byte offset pos that an
// error shows, and pos's column in it (in terminal columns, for the caret).
// A line longer than echoWhole characters is cut to echoWidth of them
// around pos, with "..." where it was cut. Tabs show as one space, other control
// characters as their Unicode picture (NUL as ␀), bytes that are not
// UTF-8 as U+FFFD, each one column wide so the caret stays under pos.
func echoLine(s string, pos int) (string, int) {
	pos = min(max(pos, 0), len(s))
	start := strings.LastIndexByte(s[:pos], '\n') + 1
	end := strings.IndexByte(s[pos:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += pos
	}
	if end > start && s[end-1] == '\r' && pos < end {
		end-- // the CR of a CRLF line ending
	}
	before := shown(s[start:pos])
	after := shown(s[pos:end])
	if len(before)+len(after) <= echoWhole {
		return string(before) + string(after), width(before)
	}
	// Keep 40 characters before the position, more when the line ends
	// soon after it.
	keepBefore := max(echoWidth*2/5, echoWidth-len(after))
	pre, post := "", ""
	if len(before) > keepBefore {
		before, pre = before[len(before)-keepBefore:], "..."
	}
	if keepAfter := echoWidth - len(before); len(after) > keepAfter {
		after, post = after[:keepAfter], "..."
	}
	return pre + string(before) + string(after) + post, len(pre) + width(before)
}

// width is the number of terminal columns rs take: a character of East
// Asian wide text or an emoji takes two, a combining mark none. The caret
// is indented by it, not by the count of characters, so that it stays
// under the position past '日本' or '😀' (the table output measures cells
// the same way).
func width(rs []rune) int {
	n := 0
	for _, r := range rs {
		n += runewidth.RuneWidth(r)
	}
	return n
}

// shown returns s as the runes an error prints for it, one per column.
func shown(s string) []rune {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\t':
			r = ' '
		case r < 0x20:
			r = 0x2400 + r // the control pictures: ␀ ␁ ... ␟
		case r == 0x7f:
			r = 0x2421 // ␡
		}
		out = append(out, r)
		i += size
	}
	return out
}
