package dynosql

import "github.com/dynosql/dynosql/internal/errs"

// Error is the error type of every failure dynosql reports. Its fields:
// Kind (one of the Err values below, for errors.Is), Message (one line),
// Hint (what to do; may be empty), SQL and Pos (the statement and the
// byte offset the error points at, or -1), and Err (the cause, if any).
// Detail returns the statement with a caret under Pos, then the hint.
//
// The more specific errors below wrap an *Error, so errors.As to *Error
// works on them too.
type Error = errs.Error

// ScanRefusedError reports a statement that only a Scan could answer;
// nothing was sent. Entity and Alias name the table reference that had no
// key condition, Table the DynamoDB table that would have been scanned.
type ScanRefusedError = errs.ScanRefusedError

// ConditionFailedError reports a guarded write that found the item in a
// state the statement forbids: already there for INSERT, missing for a
// write that must find it. Entity names the logical table and Key holds
// the item's key attributes as text (PK, SK).
type ConditionFailedError = errs.ConditionFailedError

// BackendError is an error DynamoDB returned: Op is the request that
// failed (GetItem, Query, TransactWriteItems, ...) and Code the service's
// error code (ResourceNotFoundException, ...). The SDK's own error stays
// reachable with errors.As, e.g. to a smithy.APIError.
type BackendError = errs.BackendError

// The kinds of Error, for errors.Is(err, dynosql.ErrRefused) and the like.
var (
	ErrSyntax      error = errs.Syntax      // ErrSyntax is a statement that does not parse.
	ErrUnsupported error = errs.Unsupported // ErrUnsupported is valid SQL dynosql does not translate.
	ErrInvalid     error = errs.Invalid     // ErrInvalid is a name, type or value that does not fit the mapping.
	ErrRefused     error = errs.Refused     // ErrRefused is a statement that would need a Scan.
	ErrNotFound    error = errs.NotFound    // ErrNotFound is a guarded write that found no item.
	ErrConflict    error = errs.Conflict    // ErrConflict is a guarded write that found an item it must not.
	ErrMapping     error = errs.Mapping     // ErrMapping is a mapping file that is wrong.
	ErrBackend     error = errs.Backend     // ErrBackend is an error DynamoDB returned.
	ErrCanceled    error = errs.Canceled    // ErrCanceled is a statement stopped by its context.
)
