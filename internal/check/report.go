package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// Status says what became of a statement.
type Status string

// The statuses.
const (
	Served  Status = "served"  // planned: key-based requests only
	Refused Status = "refused" // it would need a Scan
	Failed  Status = "error"   // it does not parse or plan (unknown column, wrong type, ...)
)

// Report is what check says about one statement.
type Report struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	SQL    string `json:"sql"`
	Status Status `json:"status"`
	// Total, Consistency and Cost describe a served statement.
	Total       string `json:"total,omitempty"`
	Consistency string `json:"consistency,omitempty"`
	*Cost
	Error *ErrorReport `json:"error,omitempty"`
	pos   int          // the error's offset in SQL, or -1
}

// ErrorReport is why a statement is refused or does not plan.
type ErrorReport struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Statement plans one statement, ? placeholders filled with dummies of
// their types, and reports it.
func Statement(db *dynosql.DB, sql string) *Report {
	r, _, _ := statement(db, sql)
	return r
}

// statement is Statement, also returning the plan of a statement served
// and, when the statement is an EXPLAIN, its parse.
func statement(db *dynosql.DB, sql string) (*Report, *planner.Plan, *parser.Explain) {
	r := &Report{SQL: strings.TrimSpace(sql[codeStart(sql):]), pos: -1}
	var args []any
	var explain *parser.Explain
	if stmt, err := parser.Parse(sql); err == nil {
		args = dummyArgs(func(name string) (*mapping.Entity, error) {
			return db.Entity(context.Background(), name)
		}, stmt)
		explain, _ = stmt.(*parser.Explain)
	}
	plan, err := db.Explain(sql, args...)
	if err != nil {
		r.fail(err)
		return r, nil, explain
	}
	r.serve(costOf(plan))
	return r, plan, explain
}

// fail reports err as why the statement is refused or does not plan.
func (r *Report) fail(err error) {
	e := errs.As(err)
	r.Status, r.pos = Failed, e.Pos
	if errors.Is(err, dynosql.ErrRefused) {
		r.Status = Refused
	}
	r.Error = &ErrorReport{Kind: string(e.Kind), Message: e.Message, Hint: e.Hint}
	r.Cost, r.Total, r.Consistency = nil, "", ""
}

func (r *Report) serve(c *Cost) {
	r.Status, r.Cost = Served, c
	r.Total, r.Consistency = c.Total(), c.Consistency()
}

// writeText prints one line per statement, FILE:LINE: first, and under
// a served statement its variables and requests.
func writeText(w io.Writer, reports []*Report) error {
	var b strings.Builder
	counts := map[Status]int{}
	for _, r := range reports {
		counts[r.Status]++
		if r.Error != nil {
			msg := oneLine(r.Error.Message)
			if !strings.HasPrefix(msg, r.Error.Kind+" ") { // "syntax error at ...", as errs.Error says it
				msg = r.Error.Kind + ": " + msg
			}
			line := fmt.Sprintf("%s:%d:%d: %s", r.File, r.Line, r.Column, msg)
			if r.Error.Hint != "" {
				line += " (hint: " + oneLine(r.Error.Hint) + ")"
			}
			b.WriteString(line + "\n")
			continue
		}
		fmt.Fprintf(&b, "%s:%d: %s; %s\n", r.File, r.Line, r.Total, r.Consistency)
		fmt.Fprintf(&b, "    %s\n", summary(r.SQL))
		for _, v := range r.Vars {
			fmt.Fprintf(&b, "    %s = %s\n", v.Name, v.Meaning)
		}
		for _, q := range r.Requests {
			fmt.Fprintf(&b, "    %s\n", requestLine(q))
		}
	}
	fmt.Fprintf(&b, "%d statements: %d served, %d refused, %d not planned\n", len(reports), counts[Served], counts[Refused], counts[Failed])
	_, err := io.WriteString(w, b.String())
	return err
}

func requestLine(q Request) string {
	s := strings.TrimSpace(q.Op + " " + q.Table) // ListTables names no table
	if q.Index != "" {
		s += " index " + q.Index
	}
	s += ": " + q.Count
	if q.Paged {
		s += " (paged: +1 per MB read)"
	}
	if q.Consistency != "" {
		s += ", " + q.Consistency
	}
	return s
}

// summary is the statement on one line, cut at 100 characters.
func summary(sql string) string {
	s := oneLine(sql)
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeJSON prints every report and the counts, for CI annotations.
func writeJSON(w io.Writer, reports []*Report) error {
	counts := map[Status]int{}
	for _, r := range reports {
		counts[r.Status]++
	}
	if reports == nil {
		reports = []*Report{}
	}
	out := struct {
		Statements []*Report `json:"statements"`
		Served     int       `json:"served"`
		Refused    int       `json:"refused"`
		Failed     int       `json:"failed"`
	}{reports, counts[Served], counts[Refused], counts[Failed]}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
