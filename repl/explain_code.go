package repl

import (
	"io"

	"github.com/dynosql/dynosql/internal/codegen"
	"github.com/dynosql/dynosql/internal/format"
)

// explainCode runs EXPLAIN (FORMAT go) and EXPLAIN (FORMAT cli): it
// prints the statement's requests as code, in every output format, and
// reports false for any other statement.
func (s *Session) explainCode(sql string) (bool, error) {
	if _, _, ok, _ := codegen.Split(sql); !ok {
		return false, nil
	}
	code, err := s.DB.ExplainAs(sql, "")
	if err != nil {
		return true, err
	}
	return true, s.print(func(p *format.Printer) error {
		_, err := io.WriteString(p.W, code)
		return err
	})
}
