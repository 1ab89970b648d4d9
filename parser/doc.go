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
//     ' or " (MySQL reads both as strings); backslash escapes follow
//     MySQL's table (like.go), \% and \_ included, which keep their
//     backslash: 'a\_b' is the four characters a\_b.
//   - LIKE escapes with \ unless ESCAPE 'c' names another character
//     (Like.Escape); LikeTokens reads a pattern for the executor and the
//     planner alike.
//   - The text must be UTF-8 without NUL bytes, and no chain of
//     operators may nest deeper than 5000: both are checked before
//     sqlparser reads the text.
//   - Numbers (integers, decimals, exponents) become canonical
//     value.Number: 007 is 7, 1.50 is 1.5, 1e3 is 1000. A minus on a
//     number folds into it; on anything else it becomes 0 - x. A number
//     DynamoDB cannot hold (more than 38 significant digits, beyond
//     1E+126 or within 1E-130 of 0) is an Invalid error.
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
