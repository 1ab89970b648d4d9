package dynosql

import "github.com/dynosql/dynosql/internal/errs"

// Error is the error type of every failure dynosql reports: a kind, a
// one-line message, where in the statement it happened and a hint.
type Error = errs.Error

// ScanRefusedError reports a statement that only a Scan could answer;
// nothing was sent.
type ScanRefusedError = errs.ScanRefusedError

// ConditionFailedError reports a guarded write that found the item in a
// state the statement forbids (already there, or missing).
type ConditionFailedError = errs.ConditionFailedError

// BackendError is an error DynamoDB returned, with the request that failed.
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
