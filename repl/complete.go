package repl

import (
	"sort"
	"strings"
	"unicode"

	"github.com/chzyer/readline"

	"github.com/dynosql/dynosql/mapping"
)

// keywords are the SQL words dynosql reads, offered by tab completion.
var keywords = strings.Fields(`SELECT DISTINCT FROM WHERE AND OR NOT IN BETWEEN LIKE IS NULL
	JOIN INNER LEFT ON AS ORDER BY ASC DESC GROUP HAVING LIMIT OFFSET
	COUNT MIN MAX SUM AVG TRUE FALSE
	INSERT INTO VALUES UPDATE SET DELETE DUPLICATE KEY
	EXPLAIN CHECK REPAIR COPIES FOR`)

// completer offers keywords, entity names, the columns of the entities a
// statement names and, after "alias.", the columns of that alias.
type completer struct {
	m *mapping.Mapping
	// pending holds the lines of the statement typed so far, for the
	// aliases they declare.
	pending string
}

var _ readline.AutoCompleter = (*completer)(nil)

// Do returns the endings of the candidates for the word before pos, and
// the length of that word.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && isWordRune(line[start-1]) {
		start--
	}
	word := string(line[start:pos])
	text := c.pending + string(line)

	var cands []string
	prefix := word
	switch {
	case strings.HasPrefix(word, `\`):
		if strings.TrimSpace(c.pending+string(line[:start])) != "" {
			return nil, 0
		}
		cands = metaNames()
	case strings.Contains(word, "."):
		dot := strings.LastIndex(word, ".")
		prefix = word[dot+1:]
		if e := c.aliases(text)[word[:dot]]; e != nil {
			cands = e.ColumnNames()
		}
	default:
		cands = append(cands, c.m.EntityNames()...)
		for _, e := range uniqueEntities(c.aliases(text)) {
			cands = append(cands, e.ColumnNames()...)
		}
		lower := prefix != "" && unicode.IsLower([]rune(prefix)[0])
		for _, k := range keywords {
			if lower {
				k = strings.ToLower(k)
			}
			cands = append(cands, k)
		}
	}
	var out [][]rune
	seen := map[string]bool{}
	for _, cand := range cands {
		if seen[cand] || len(cand) <= len(prefix) || !strings.EqualFold(cand[:len(prefix)], prefix) {
			continue
		}
		seen[cand] = true
		out = append(out, []rune(cand[len(prefix):]))
	}
	return out, len([]rune(prefix))
}

func isWordRune(r rune) bool {
	return r == '_' || r == '.' || r == '\\' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// aliases finds the table references of text: each entity name, and the
// word after it (past an optional AS) when that word is not a keyword.
func (c *completer) aliases(text string) map[string]*mapping.Entity {
	words := strings.FieldsFunc(text, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := map[string]*mapping.Entity{}
	for i, w := range words {
		e := c.m.Entities[w]
		if e == nil {
			continue
		}
		out[w] = e
		j := i + 1
		if j < len(words) && strings.EqualFold(words[j], "AS") {
			j++
		}
		if j < len(words) && !isKeyword(words[j]) && c.m.Entities[words[j]] == nil {
			out[words[j]] = e
		}
	}
	return out
}

func isKeyword(w string) bool {
	for _, k := range keywords {
		if strings.EqualFold(k, w) {
			return true
		}
	}
	return false
}

func uniqueEntities(m map[string]*mapping.Entity) []*mapping.Entity {
	seen := map[*mapping.Entity]bool{}
	var out []*mapping.Entity
	for _, e := range m {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
