package repl

import (
	"context"
	"io"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/planner"
)

// explain prints an EXPLAIN statement: the plan (in the session's
// format, unless FORMAT text or json says otherwise), the requests as
// code (FORMAT go or cli), or for EXPLAIN ANALYZE the plan run, with
// what each step sent.
func (s *Session) explain(ctx context.Context, plan *planner.Plan) error {
	if f := plan.ExplainFormat; f == "go" || f == "cli" {
		code, err := dynosql.ExplainCode(plan, "")
		if err != nil {
			return err
		}
		return s.print(func(p *format.Printer) error {
			_, err := io.WriteString(p.W, code)
			return err
		})
	}
	if !plan.Analyze {
		return s.print(func(p *format.Printer) error { return p.Plan(plan) })
	}
	if s.tx != nil {
		return errs.New(errs.Invalid, "EXPLAIN ANALYZE runs the statement, and a transaction sends nothing before COMMIT").
			WithHint("EXPLAIN it instead, or run it after COMMIT or ROLLBACK")
	}
	a, err := s.DB.Analyze(ctx, plan)
	if err != nil {
		return err
	}
	return s.print(func(p *format.Printer) error { return p.Tree(a.String(), a.JSON(), plan.ExplainFormat) })
}
