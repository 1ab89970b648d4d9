// Package parser turns SQL text into dynosql's own small statement types.
// It reads MySQL syntax with github.com/xwb1989/sqlparser, keeps the subset
// dynosql can translate, and rejects the rest with the position of the
// offending text. No sqlparser type leaves this package.
//
// Choices worth knowing:
//   - Keywords are case-insensitive; table, column and alias names keep
//     the case they are written in, because DynamoDB attribute names are
//     case-sensitive. sqlparser lower-cases keywords used as names (year,
//     status); the parser restores them from the text.
//   - != and <> are both Compare{Op: "<>"}. Strings may be quoted with
//     ' or " (MySQL reads both as strings); backslash escapes apply.
//   - Numbers (integers, decimals, exponents) become canonical
//     value.Number: 007 is 7, 1.50 is 1.5, 1e3 is 1000. A minus on a
//     number folds into it; on anything else it becomes 0 - x.
//     Hexadecimal and bit literals are refused.
//   - Each ? is a Placeholder numbered from 0 in textual order, LIMIT and
//     OFFSET included; sqlparser's named :params are refused.
//   - sqlparser reads EXPLAIN as a statement of its own and drops what
//     follows, so the parser strips EXPLAIN itself; it does the same for
//     its own CHECK COPIES and REPAIR COPIES, which it hands to sqlparser
//     as SELECT * FROM t WHERE .... Error positions are always offsets in
//     the text the caller passed.
//   - Syntax errors keep sqlparser's message, whose position is the
//     offset just past the offending token plus one; the error's Pos (and
//     so its caret) is the start of that token.
package parser
