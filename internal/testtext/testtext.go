// Package testtext writes long test inputs short: golden files and
// command scripts name a statement of thousands of keys or parentheses
// by a pattern instead of holding it.
package testtext

import (
	"strconv"
	"strings"
)

// Expand returns s with every [[N:text]] replaced by text written N
// times, {i} in it replaced by the count from 0. Anything else is kept
// as it is; a group that is not well formed is kept too.
//
//	SELECT * FROM t WHERE id IN ('k'[[1000:, 'k{i}']])
func Expand(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "[[")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "]]")
		colon := strings.IndexByte(s[i:], ':')
		if j < 0 || colon < 0 || colon > j {
			break
		}
		n, err := strconv.Atoi(s[i+2 : i+colon])
		if err != nil {
			break
		}
		b.WriteString(s[:i])
		text := s[i+colon+1 : i+j]
		for k := range n {
			b.WriteString(strings.ReplaceAll(text, "{i}", strconv.Itoa(k)))
		}
		s = s[i+j+2:]
	}
	b.WriteString(s)
	return b.String()
}
