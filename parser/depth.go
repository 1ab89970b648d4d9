package parser

import (
	"github.com/xwb1989/sqlparser"

	"github.com/dynosql/dynosql/internal/errs"
)

// maxNesting bounds how deep a statement's tree may grow. sqlparser
// builds a chain of N operators (a OR b OR ..., NOT NOT ..., JOIN ...
// JOIN) as a tree N deep, and every later step walks it recursively: a
// few hundred thousand of them overflow the stack, which ends the process
// rather than failing the statement. Parentheses sqlparser bounds itself
// (199 deep).
const maxNesting = 5000

// checkNesting returns an error when the tokens of c.src could build a
// tree deeper than maxNesting. It counts, for each level of parentheses,
// the operators and keywords since the last comma at that level (commas
// separate list items, which do not nest); the sum of those counts over
// the open levels bounds the depth of the tree at that point. It reads
// tokens only, before sqlparser builds anything.
func (c *converter) checkNesting() *errs.Error {
	counts := []int{0}
	total := 0
	for i, t := range c.toks {
		level := len(counts) - 1
		switch t.typ {
		case '(':
			counts = append(counts, 0)
			continue
		case ')':
			if level > 0 {
				total -= counts[level]
				counts = counts[:level]
			}
			continue
		case ',':
			total -= counts[level]
			counts[level] = 0
			continue
		case '.', ';', sqlparser.ID, sqlparser.STRING, sqlparser.INTEGRAL, sqlparser.FLOAT,
			sqlparser.HEXNUM, sqlparser.HEX, sqlparser.BIT_LITERAL, sqlparser.VALUE_ARG,
			sqlparser.LIST_ARG, sqlparser.NULL, sqlparser.TRUE, sqlparser.FALSE:
			continue
		}
		counts[level]++
		total++
		if total > maxNesting {
			return c.unsupported(i, "the statement nests more than %d operators deep", maxNesting).
				WithHint("a long chain of OR on one column is IN (...); else split the statement into smaller ones")
		}
	}
	return nil
}
