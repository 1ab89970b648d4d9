package dynosql

import (
	"github.com/dynosql/dynosql/internal/codegen"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
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
	p, err := db.Explain(sql, args...)
	if err != nil {
		return "", err
	}
	return ExplainCode(p, format)
}

// ExplainCode writes a plan's requests as code, as ExplainAs does; format
// "" takes the plan's EXPLAIN (FORMAT ...) option.
func ExplainCode(p *planner.Plan, format string) (string, error) {
	given := p.ExplainFormat
	if format == "" {
		format = given
	}
	f, err := codegen.ParseFormat(format)
	if err != nil {
		return "", err
	}
	if (given == "go" || given == "cli") && string(f) != given {
		return "", errs.New(errs.Invalid, "the statement asks for EXPLAIN (FORMAT %s) but format %s was given", given, f)
	}
	return codegen.Write(p, f)
}
