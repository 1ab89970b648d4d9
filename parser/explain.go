package parser

import (
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
)

// explainFormats are the values FORMAT takes: the plan as a tree or as
// JSON, or its requests as Go or AWS CLI commands.
var explainFormats = []string{"text", "json", "go", "cli"}

// explainOptions reads what may follow EXPLAIN in sql[start:end]: the
// word ANALYZE, or options in parentheses, comma separated, as
// PostgreSQL writes them: (ANALYZE), (FORMAT json), (ANALYZE, FORMAT
// json). It returns where the statement starts.
func explainOptions(sql string, start, end int) (*Explain, int, *errs.Error) {
	ex := &Explain{}
	w, _, e := wordAt(sql, start)
	if strings.EqualFold(w, "ANALYZE") {
		ex.Analyze = true
		return ex, e, nil
	}
	open := nextByte(sql, start)
	if open >= end || sql[open] != '(' {
		return ex, start, nil
	}
	i := open + 1
	for {
		w, p, e := wordAt(sql, i)
		switch {
		case strings.EqualFold(w, "ANALYZE"):
			ex.Analyze = true
			i = e
		case strings.EqualFold(w, "FORMAT"):
			f, fp, fe := wordAt(sql, e)
			f = strings.ToLower(f)
			if !slices.Contains(explainFormats, f) {
				return nil, 0, errs.New(errs.Invalid, "EXPLAIN (FORMAT %s): unknown format", orNothing(f)).At(sql, fp).
					WithHint("FORMAT text (the plan), json (the plan as JSON), go (the requests as a Go program) or cli (as aws dynamodb commands)")
			}
			if ex.Format != "" {
				return nil, 0, errs.New(errs.Invalid, "EXPLAIN gives FORMAT twice").At(sql, fp)
			}
			ex.Format, i = f, fe
		default:
			return nil, 0, errs.New(errs.Syntax, "unknown EXPLAIN option %s", orNothing(w)).At(sql, p).
				WithHint("the options are ANALYZE and FORMAT text|json|go|cli, in parentheses, comma separated")
		}
		j := nextByte(sql, i)
		switch {
		case j < end && sql[j] == ',':
			i = j + 1
		case j < end && sql[j] == ')':
			if ex.Analyze && (ex.Format == "go" || ex.Format == "cli") {
				return nil, 0, errs.New(errs.Invalid, "EXPLAIN (ANALYZE, FORMAT %s): ANALYZE reports on a run as text or JSON", ex.Format).At(sql, open).
					WithHint("FORMAT %s writes the requests without running them; drop ANALYZE, or use FORMAT text or json", ex.Format)
			}
			return ex, j + 1, nil
		default:
			return nil, 0, errs.New(errs.Syntax, "EXPLAIN options end with )").At(sql, j).
				WithHint("write EXPLAIN (ANALYZE, FORMAT json) SELECT ...")
		}
	}
}

// nextByte returns the position of the first byte at or after i that is
// not white space or a comment.
func nextByte(s string, i int) int {
	_, p, _ := wordAt(s, i)
	return p
}

func orNothing(w string) string {
	if w == "" {
		return "(nothing)"
	}
	return w
}
