package errs

// ReadOnly is a write refused, before anything was sent, because the
// session was opened read-only. It is a kind of its own rather than
// Invalid, so that a program can tell "this DB may not write" from a
// statement that is wrong.
const ReadOnly Kind = "read-only"
