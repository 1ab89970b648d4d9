package errs

// TooMany is an UPDATE or DELETE refused, before anything was written,
// because it would change more rows than the session allows without
// confirmation (--max-affected). A kind of its own, so that a script can
// tell a safety stop from a statement that is wrong.
const TooMany Kind = "max-affected"
