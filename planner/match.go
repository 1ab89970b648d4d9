package planner

import (
	"regexp"
	"strings"

	"github.com/dynosql/dynosql/mapping"
)

// Matcher tells which step of a plan sent a request: EXPLAIN ANALYZE
// charges each request to its step, and tests check that every request
// sent is one EXPLAIN announced. Requests are compared by shape: the
// same operation, table, index, key or key condition, filter, condition,
// update, projection and consistency, values aside (EXPLAIN shows
// {e.course_id} where a request holds each outer row's value).
type Matcher struct {
	steps  map[string]Node             // shape → the first step that announced it
	exact  map[string]Node             // shape with its values → the first step that announced it
	tables map[string]*mapping.Mapping // table → its mapping, to describe what is sent
}

// NewMatcher returns the matcher of the requests p announces.
func NewMatcher(p *Plan) *Matcher {
	m := &Matcher{steps: map[string]Node{}, exact: map[string]Node{}, tables: map[string]*mapping.Mapping{}}
	p.eachRequester(func(n Node, reqs []*Request) {
		for _, req := range reqs {
			if tm := requestMapping(n); tm != nil {
				m.tables[req.Table] = tm
			}
			firstAnnounced(m.steps, shapes(req, false), n)
			firstAnnounced(m.exact, shapes(req, true), n)
		}
	})
	return m
}

// firstAnnounced records n as the step of each shape no earlier step
// announced.
func firstAnnounced(steps map[string]Node, shapes []string, n Node) {
	for _, s := range shapes {
		if _, seen := steps[s]; !seen {
			steps[s] = n
		}
	}
}

// Step returns the step that announced a request of operation op with
// SDK input in, or nil when none did.
func (m *Matcher) Step(op string, in any) Node {
	// A table no step reads has no mapping: its requests, described
	// with keys by name, match no shape.
	sent := describeInput(func(table string) *mapping.Mapping { return m.tables[table] }, op, in)
	// Two steps may send requests of the same shape with other values
	// (the branches of a UNION, each reading its own key): a request
	// goes to the step that announced its very values, if one did.
	for _, s := range shapes(sent, true) {
		if n, ok := m.exact[s]; ok {
			return n
		}
	}
	for _, s := range shapes(sent, false) {
		if n, ok := m.steps[s]; ok {
			return n
		}
	}
	return nil
}

// Announced reports whether every part of a sent request (each key of a
// BatchGetItem, each action of a transaction) is one the plan announced,
// and returns the first that is not.
func (m *Matcher) Announced(sent *Request) (string, bool) {
	for _, s := range shapes(sent, false) {
		if _, ok := m.steps[s]; !ok {
			return s, false
		}
	}
	return "", true
}

// Shapes lists what the matcher compares requests by, for messages.
func (m *Matcher) Shapes() []string {
	out := make([]string, 0, len(m.steps))
	for s := range m.steps {
		out = append(out, s)
	}
	return out
}

var (
	quoted   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	bracey   = regexp.MustCompile(`\{[^{}]*\}`)
	listy    = regexp.MustCompile(`\[[^\[\]]*\]`)
	number   = regexp.MustCompile(`(^|[^A-Za-z0-9_#])-?[0-9]+(\.[0-9]+)?`)
	binary   = regexp.MustCompile(`X'[0-9a-f]*'`)
	boolean  = regexp.MustCompile(`\b(true|false)\b`)
	notExist = regexp.MustCompile(`attribute_not_exists \(([^()]+)\)`)
)

// mask hides the values of an expression: what differs between EXPLAIN's
// placeholders and each request's real values. A guard that an attribute
// is absent is written as one that it holds a value: a move's guard
// names every attribute, with the value found or attribute_not_exists.
func mask(s string) string {
	s = quoted.ReplaceAllString(s, "?")
	s = binary.ReplaceAllString(s, "?")
	s = boolean.ReplaceAllString(s, "?")
	for prev := ""; prev != s; {
		prev = s
		s = listy.ReplaceAllString(bracey.ReplaceAllString(s, "?"), "?")
	}
	s = number.ReplaceAllString(s, "$1?")
	return notExist.ReplaceAllString(s, "$1 = ?")
}

// shapes returns what a request is compared by: one string per key of a
// BatchGetItem, per partition of a Query (an IN list's values) and per
// action of a transaction; with values, or with them hidden (mask).
func shapes(r *Request, values bool) []string {
	hide := mask
	if values {
		hide = func(s string) string { return s }
	}
	consistent := ""
	if r.Consistent {
		consistent = "consistent"
	}
	head := strings.Join([]string{r.Op, r.Table, r.Index, hide(r.Filter), hide(r.Condition), hide(r.Update),
		strings.Join(r.Project, ","), consistent, queryNote(r)}, " | ")
	switch {
	case r.Op == "BatchGetItem" || r.Op == "Query":
		var out []string
		for _, k := range strings.Split(r.Key, " | ") {
			out = append(out, head+" | "+hide(k))
		}
		return out
	case len(r.Actions) > 0:
		var out []string
		for _, a := range r.Actions {
			out = append(out, head+" | "+strings.Join(shapes(a, values), ""))
		}
		return out
	}
	return []string{head + " | " + hide(r.Key)}
}

// queryNote is the part of a Query's note that DescribeRequest derives
// from the input (direction, Limit, Select): EXPLAIN may add its own.
// The page size is hidden even when values are compared: the executor
// grows it after the first page, which EXPLAIN announced.
func queryNote(r *Request) string {
	if r.Op != "Query" {
		return ""
	}
	var keep []string
	for _, part := range strings.Split(r.Note, "; ") {
		if strings.HasPrefix(part, "descending") || strings.HasPrefix(part, "pages of") || strings.HasPrefix(part, "Select") {
			keep = append(keep, mask(part))
		}
	}
	return strings.Join(keep, "; ")
}
