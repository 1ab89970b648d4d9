package parser_test

import (
	"strings"
	"testing"

	"github.com/dynosql/dynosql/parser"
)

// NumberProblem reads literals and numbers computed from them (a moved
// key's n + 0.1), signed, as DynamoDB holds them: 38 significant digits,
// magnitudes from 1E-130 to below 1E+126.
func TestNumberProblemTellsWhatDynamoDBCannotHold(t *testing.T) {
	const d38 = "12345678901234567890123456789012345678"
	for _, c := range []struct{ text, why string }{
		{d38, ""},
		{"-" + d38, ""},
		{d38 + "000", ""},
		{"0.000" + d38, ""},
		{d38 + ".1", "has 39 significant digits"},
		{"-" + d38 + ".1", "has 39 significant digits"},
		{"9.9e125", ""},
		{"-1e126", "too large"},
		{"1e-130", ""},
		{"-1e-131", "too close to zero"},
		{"0", ""},
		{"-0.0", ""},
	} {
		why, hint := parser.NumberProblem(c.text)
		if c.why == "" && why != "" || !strings.Contains(why, c.why) {
			t.Errorf("%s: got %q, want %q", c.text, why, c.why)
		}
		if (why == "") != (hint == "") {
			t.Errorf("%s: reason %q with hint %q", c.text, why, hint)
		}
	}
}
