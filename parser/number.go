package parser

import (
	"strconv"
	"strings"
)

// DynamoDB's numbers hold at most 38 significant digits, and apart from
// zero their magnitude lies between 1E-130 and 9.99...E+125. A literal
// outside them is refused where it is written: DynamoDB would refuse it
// only when it is stored or compared there, and the embedded backend
// rounds it silently.
const (
	maxDigits = 38
	maxPower  = 125  // the largest power of ten of a number's first digit
	minPower  = -130 // the smallest
)

// NumberProblem says why the text of a number (digits, an optional
// point and exponent, as sqlparser reads a literal and value.Number
// writes one) does not fit a DynamoDB number, and what to do, or returns
// "". A leading minus sign is allowed. It reads the text itself, so
// that a huge exponent costs nothing.
func NumberProblem(text string) (why, hint string) {
	text = strings.TrimPrefix(text, "-") // a computed number's sign
	mant, exp := text, 0
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		mant = text[:i]
		e, err := strconv.Atoi(text[i+1:])
		switch {
		case err != nil && strings.HasPrefix(text[i+1:], "-"):
			e = minPower - maxDigits - 1
		case err != nil:
			e = maxPower + 1
		}
		exp = max(min(e, 1<<20), -1<<20)
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	if lead == len(all) {
		return "", "" // zero
	}
	digits := len(strings.TrimRight(all[lead:], "0"))
	power := len(intPart) - 1 - lead + exp
	switch {
	case digits > maxDigits:
		return "has " + strconv.Itoa(digits) + " significant digits; DynamoDB numbers keep at most 38",
			"round it to 38 significant digits, or keep such values in a string (S) column"
	case power > maxPower:
		return "is too large for DynamoDB, whose numbers stay below 1E+126",
			"keep such values in a string (S) column"
	case power < minPower:
		return "is too close to zero for DynamoDB, whose numbers other than 0 are at least 1E-130 from it",
			"round it to 0, or keep such values in a string (S) column"
	}
	return "", ""
}
