package errs

// The typed errors below carry the facts a caller may branch on. Each
// wraps a *Error (its Base) and unwraps to it, so errors.Is(err,
// errs.Refused) and errors.As(err, **Error) keep working on them.

// ScanRefusedError is returned when a statement reads or writes a table
// through no key: DynamoDB could only answer it with a Scan.
type ScanRefusedError struct {
	Base   *Error
	Entity string // the logical table that has no key condition
	Alias  string // its alias in the statement
	Table  string // the DynamoDB table that would be scanned
}

// Error returns the one-line form and, on a second line, the hint that
// says which key or index would serve: "refused: ...\nhint: ...". (The
// REPL and the CLI print the one-line form of Base, then Detail.)
func (e *ScanRefusedError) Error() string {
	if e.Base.Hint == "" {
		return e.Base.Error()
	}
	return e.Base.Error() + "\nhint: " + e.Base.Hint
}

// Unwrap returns the general error.
func (e *ScanRefusedError) Unwrap() error { return e.Base }

// ConditionFailedError is returned when a guarded write found the item in
// a state the statement forbids: already there for INSERT, missing for a
// single-row UPDATE or DELETE that must find it.
type ConditionFailedError struct {
	Base   *Error
	Entity string
	Key    map[string]string // the item's key attributes, as strings
}

func (e *ConditionFailedError) Error() string { return e.Base.Error() }

// Unwrap returns the general error.
func (e *ConditionFailedError) Unwrap() error { return e.Base }

// BackendError is a DynamoDB error, reduced to the request that failed and
// the service's error code.
type BackendError struct {
	Base *Error
	Op   string // GetItem, Query, BatchGetItem, ...
	Code string // the service's error code, e.g. ValidationException
}

func (e *BackendError) Error() string { return e.Base.Error() }

// Unwrap returns the general error.
func (e *BackendError) Unwrap() error { return e.Base }

// Detailed is implemented by every dynosql error: the lines to print after
// the one-line message.
type Detailed interface {
	error
	Detail() string
}

// Detail returns the detail lines of the general error.
func (e *ScanRefusedError) Detail() string { return e.Base.Detail() }

// Detail returns the detail lines of the general error.
func (e *ConditionFailedError) Detail() string { return e.Base.Detail() }

// Detail returns the detail lines of the general error.
func (e *BackendError) Detail() string { return e.Base.Detail() }
