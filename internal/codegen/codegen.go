// Package codegen writes the DynamoDB requests of a plan as code a
// program or a shell can run: Go with the AWS SDK for Go v2 and its
// expression builder (EXPLAIN (FORMAT go)), or AWS CLI commands
// (EXPLAIN (FORMAT cli)). It writes what the planner's request builders
// make (planner.Plan.Sends), so the code sends what dynosql sends.
package codegen

import (
	"regexp"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
)

// Format is a form the requests are written in.
type Format string

// The formats of EXPLAIN (FORMAT ...).
const (
	FormatGo  Format = "go"  // a Go program
	FormatCLI Format = "cli" // AWS CLI commands
)

// ParseFormat returns the format named name (go or cli, any case).
func ParseFormat(name string) (Format, error) {
	switch f := Format(strings.ToLower(name)); f {
	case FormatGo, FormatCLI:
		return f, nil
	}
	return "", errs.New(errs.Invalid, "EXPLAIN (FORMAT %s): unknown format", name).
		WithHint("EXPLAIN (FORMAT go) writes Go code, EXPLAIN (FORMAT cli) AWS CLI commands; plain EXPLAIN prints the plan")
}

// explainFormat matches EXPLAIN (FORMAT name) at the start of a
// statement, after white space and comments.
var explainFormat = regexp.MustCompile(`(?i)^(?:\s+|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$)|/\*[\s\S]*?\*/)*EXPLAIN\s*\(\s*FORMAT\s+(\w+)\s*\)`)

// Split recognizes EXPLAIN (FORMAT go) and EXPLAIN (FORMAT cli) at the
// start of sql and returns the format and the statement that follows.
// ok is false when sql does not start with EXPLAIN (FORMAT ...); err
// names a format dynosql does not write. (The parser does not read the
// FORMAT option yet: callers strip it with Split before planning.)
func Split(sql string) (f Format, stmt string, ok bool, err error) {
	m := explainFormat.FindStringSubmatchIndex(sql)
	if m == nil {
		return "", sql, false, nil
	}
	f, err = ParseFormat(sql[m[2]:m[3]])
	return f, sql[m[1]:], true, err
}

// Write writes the plan's requests in format f.
func Write(plan *planner.Plan, f Format) (string, error) {
	if f == FormatCLI {
		return CLI(plan)
	}
	return Go(plan)
}
