// Package errs holds the one error type every layer of dynosql returns, so
// that the CLI, the REPL and embedding programs can print or branch on an
// error without knowing which layer raised it.
package errs

import (
	"errors"
	"fmt"
	"strings"
)

// Kind says what sort of failure an Error is; callers branch on it with
// errors.Is against the sentinel values below.
type Kind string

// The kinds of failure. Each is also an error value, so
// errors.Is(err, errs.Refused) works on any *Error.
const (
	Syntax      Kind = "syntax"      // the SQL text does not parse
	Unsupported Kind = "unsupported" // valid SQL that dynosql does not translate
	Invalid     Kind = "invalid"     // names, types or values that do not fit the mapping
	Refused     Kind = "refused"     // the statement would need a Scan
	NotFound    Kind = "not-found"   // a guarded write found no item
	Conflict    Kind = "conflict"    // a guarded write found an item that should not be there
	Mapping     Kind = "mapping"     // the mapping file is wrong
	Backend     Kind = "backend"     // DynamoDB answered with an error
	Canceled    Kind = "canceled"    // the context ended
	Internal    Kind = "internal"    // a bug in dynosql
)

// Error implements error so that a Kind can be the target of errors.Is.
func (k Kind) Error() string { return string(k) }

// Error is a failure a person can act on: what went wrong, where, and what to do.
type Error struct {
	Kind    Kind
	Message string // one line, without the kind
	Hint    string // what to do about it; may be empty
	SQL     string // the statement, when Pos is meaningful
	Pos     int    // byte offset into SQL, or -1
	Err     error  // the underlying error, if any
}

// New returns an Error of kind k with a formatted message and no position.
func New(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...), Pos: -1}
}

// WithHint sets the hint and returns e, for chaining.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// At records where in sql the error is and returns e, for chaining.
func (e *Error) At(sql string, pos int) *Error {
	e.SQL, e.Pos = sql, pos
	return e
}

// Wrap records the underlying cause and returns e, for chaining.
func (e *Error) Wrap(err error) *Error {
	e.Err = err
	return e
}

// Error returns the one-line form: "kind: message".
func (e *Error) Error() string {
	switch {
	case e.Kind == Internal:
		return "[BUG] " + e.Message
	case strings.HasPrefix(e.Message, string(e.Kind)+" "):
		return e.Message // "syntax error at ...", not "syntax: syntax error at ..."
	}
	return string(e.Kind) + ": " + e.Message
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, errs.Refused) true for an Error of that kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

// Detail returns the lines that follow the one-line form: the line of
// the statement holding the position (about 100 characters of it around
// the position, see echoLine) with a caret under it, then the hint. It is empty when there
// is nothing more to say.
func (e *Error) Detail() string {
	var b strings.Builder
	if e.Pos >= 0 && e.SQL != "" {
		line, col := echoLine(e.SQL, e.Pos)
		fmt.Fprintf(&b, "  %s\n  %s^\n", line, strings.Repeat(" ", col))
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, "hint: %s\n", e.Hint)
	}
	return b.String()
}

// As returns err as an *Error, turning any other error into an Internal one
// so that callers always have something printable.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: Internal, Message: err.Error(), Pos: -1, Err: err}
}
