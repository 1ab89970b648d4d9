// Package codegen writes the DynamoDB requests of a plan as code a
// program or a shell can run: Go with the AWS SDK for Go v2 and its
// expression builder (EXPLAIN (FORMAT go)), or AWS CLI commands
// (EXPLAIN (FORMAT cli)). It writes what the planner's request builders
// make (planner.Plan.Sends), so the code sends what dynosql sends.
package codegen

import (
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

// Write writes the plan's requests in format f.
func Write(plan *planner.Plan, f Format) (string, error) {
	if f == FormatCLI {
		return CLI(plan)
	}
	return Go(plan)
}
