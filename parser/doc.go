// Package parser turns SQL text into dynosql's own small statement types.
// It reads MySQL syntax with github.com/xwb1989/sqlparser, keeps the subset
// dynosql can translate, and rejects the rest with the position of the
// offending text. No sqlparser type leaves this package.
package parser
