package dynosql

import (
	"github.com/dynosql/dynosql/internal/codegen"
	"github.com/dynosql/dynosql/internal/errs"
)

// ExplainAs plans sql with args, sends nothing, and writes the DynamoDB
// requests the statement would send as code: format "go" gives a Go
// program that sends them with the AWS SDK for Go v2 and its expression
// builder, "cli" gives AWS CLI commands (aws dynamodb <op>
// --cli-input-json '...'). Requests whose values the statement fixes are
// runnable as written; those formed from rows read at run time (a
// join's lookups) are comments saying how. sql may start with EXPLAIN
// (FORMAT go) or EXPLAIN (FORMAT cli), as the shell takes it; format ""
// then uses that one.
func (db *DB) ExplainAs(sql, format string, args ...any) (string, error) {
	given, stmt, ok, err := codegen.Split(sql)
	if err != nil {
		return "", err
	}
	if ok {
		sql = stmt
		if format == "" {
			format = string(given)
		}
	}
	f, err := codegen.ParseFormat(format)
	if err != nil {
		return "", err
	}
	if ok && f != given {
		return "", errs.New(errs.Invalid, "the statement asks for EXPLAIN (FORMAT %s) but format %s was given", given, f)
	}
	p, err := db.Explain(sql, args...)
	if err != nil {
		return "", err
	}
	return codegen.Write(p, f)
}
