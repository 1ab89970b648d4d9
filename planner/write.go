package planner

import (
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/parser"
)

// planWrite plans INSERT, UPDATE, DELETE and CHECK/REPAIR COPIES.
func (p *Planner) planWrite(sql string, stmt parser.Statement, args []value.Value) (*Plan, error) {
	return nil, errs.New(errs.Unsupported, "%T statements are not supported yet", stmt)
}
