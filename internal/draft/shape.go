package draft

import (
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// separators are the characters single-table designs put between the
// parts of a key (USER#u1, ORG|acme), most common first. '-', '_' and
// '.' are left out: dates, ids and e-mail addresses hold them.
var separators = []string{"#", "|", "$", "~", "/", ":"}

// clockRe finds times (12:00:24), whose colons are not separators.
var clockRe = regexp.MustCompile(`\d{2}(:\d{2})+`)

// chooseSeparator returns the separator most key values of the sample
// hold ("#" when none holds any: nothing is then split).
func chooseSeparator(attrs []string, items []Item) string {
	count := make([]int, len(separators))
	for _, it := range items {
		for _, a := range attrs {
			s, ok := it[a].(*types.AttributeValueMemberS)
			if !ok {
				continue
			}
			v := clockRe.ReplaceAllString(s.Value, "")
			for i, sep := range separators {
				if strings.Contains(v, sep) {
					count[i]++
				}
			}
		}
	}
	best := 0
	for i := range separators {
		if count[i] > count[best] {
			best = i
		}
	}
	return separators[best]
}

// wordRe is a segment that reads as a label (USER, comm, follower):
// letters, with '_' or '-' inside.
var wordRe = regexp.MustCompile(`^[A-Za-z][A-Za-z_-]*$`)

// genericKeyRe matches key attribute names that say nothing of what they
// hold (PK, SK, GSI1PK, gsi2_sk, pk1): a value's column is not named
// after them.
var genericKeyRe = regexp.MustCompile(`(?i)^(gsi|lsi)?[0-9]*[-_]?(pk|sk|hk|rk|hash|range|hashkey|rangekey|partitionkey|sortkey|partition_key|sort_key|key)[0-9]*$`)

func isGeneric(attr string) bool { return genericKeyRe.MatchString(attr) }

// isUpper reports whether a word is written in capitals (USER, CRS).
func isUpper(s string) bool { return strings.ToUpper(s) == s && strings.ToLower(s) != s }

// literalByShape tells, from one value alone, whether segment i of a
// key is literal text or a value: an empty segment and a word in first
// place, in capitals, or after a value are literal (USER#, #follower,
// ENROLL#CRS#); a word after a literal (USER#alice) and anything with
// digits or other characters (u1, 2024-05-01) is a value.
func literalByShape(segs []string, i int, prevVar bool) bool {
	s := segs[i]
	switch {
	case s == "":
		return true
	case strings.ContainsAny(s, "{}") || !wordRe.MatchString(s):
		return false
	case i == 0, prevVar, isUpper(s):
		return true
	}
	return false
}

// seg is one segment of a key shape: literal text, or a value (Var).
type seg struct {
	Lit string
	Var bool
}

// shape is a key value's form: its type, and for a string its segments.
type shape struct {
	Type string // S, N or B
	Segs []seg
}

// key returns the shape as text, for grouping.
func (s shape) key() string {
	var b strings.Builder
	b.WriteString(s.Type)
	for _, g := range s.Segs {
		if g.Var {
			b.WriteString("\x00*")
		} else {
			b.WriteString("\x00=" + g.Lit)
		}
	}
	return b.String()
}

// shapeOf reads the shape of one key value and the text of its
// segments. A value of a key attribute with a telling name (CustomerId,
// escalated_to) that has no separator is a value, whatever it looks like.
func shapeOf(av types.AttributeValue, sep, attr string) (shape, []string) {
	switch x := av.(type) {
	case *types.AttributeValueMemberN:
		return shape{Type: "N", Segs: []seg{{Var: true}}}, []string{x.Value}
	case *types.AttributeValueMemberB:
		return shape{Type: "B", Segs: []seg{{Var: true}}}, []string{hex.EncodeToString(x.Value)}
	case *types.AttributeValueMemberS:
		texts := strings.Split(x.Value, sep)
		sh := shape{Type: "S", Segs: make([]seg, len(texts))}
		prevVar := false
		for i := range texts {
			lit := literalByShape(texts, i, prevVar)
			if len(texts) == 1 && !isGeneric(attr) && texts[0] != "" {
				lit = false
			}
			if lit {
				sh.Segs[i] = seg{Lit: texts[i]}
			} else {
				sh.Segs[i] = seg{Var: true}
			}
			prevVar = !lit
		}
		return sh, texts
	}
	return shape{}, nil
}

// text returns a scalar value as text (numbers as DynamoDB writes them,
// binaries in hex), and false for other types.
func text(av types.AttributeValue) (string, bool) {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value, true
	case *types.AttributeValueMemberN:
		return x.Value, true
	case *types.AttributeValueMemberB:
		return hex.EncodeToString(x.Value), true
	}
	return "", false
}
