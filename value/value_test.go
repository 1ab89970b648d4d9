package value

import (
	"math/big"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A quotient with no exact decimal keeps DynamoDB's 38 significant
// digits, written out; one past any range a decimal exponent reaches
// still gives a number (DynamoDB refuses it) rather than a crash.
func TestNumberFromRat(t *testing.T) {
	if got := NumberFromRat(big.NewRat(1, 3)); got != "0.33333333333333333333333333333333333333" {
		t.Errorf("1/3 = %s", got)
	}
	if got := NumberFromRat(big.NewRat(100000000000000000, 3)); got != "33333333333333333.333333333333333333333" {
		t.Errorf("1e17/3 = %s", got)
	}
	huge := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(2_000_000), nil))
	huge.Quo(huge, big.NewRat(3, 1))
	if got := NumberFromRat(huge); got == "" {
		t.Error("1e2000000/3 gave nothing")
	}
}

// ExactFloat says whether float64 holds a decimal exactly, as far as
// printing it back shows: the cases worked out by hand from float64's 53
// bits (2^53 = 9007199254740992) and its range (about 1.8e308).
func TestExactFloat(t *testing.T) {
	for n, want := range map[Number]bool{
		"0.1": true, "-2.5E+30": true, "1E+100": true, "9007199254740992": true, "0.30000000000000004": true,
		"9007199254740993": false, "0.1000000000000000000001": false, "1E+400": false, "12345678901234567890": false,
	} {
		if _, got := n.ExactFloat(); got != want {
			t.Errorf("%s: exact %v, want %v", n, got, want)
		}
	}
}

// ORDER BY over an attribute holding several types puts them in SQLite's
// order of storage classes: numbers, then text, then binaries.
func TestOrderAcrossTypesIsSQLites(t *testing.T) {
	ascending := []Value{nil, Number("10"), true, "Z", "a", Binary{0x00}, []Value{"x"}}
	for i := range ascending {
		for j := range ascending {
			got := Order(ascending[i], ascending[j])
			if want := i - j; (got < 0) != (want < 0) || (got == 0) != (want == 0) {
				t.Errorf("Order(%#v, %#v) = %d, want the sign of %d", ascending[i], ascending[j], got, want)
			}
		}
	}
}

// A number set's elements are canonical, as a number's are: DynamoDB
// returns them as written, nested in a list too.
func TestNumberSetElementsAreCanonical(t *testing.T) {
	got := FromAttr(&types.AttributeValueMemberNS{Value: []string{"1E+2", "0.10"}})
	if s, ok := got.(NumberSet); !ok || len(s) != 2 || s[0] != "100" || s[1] != "0.1" {
		t.Errorf("FromAttr(NS [1E+2 0.10]) = %#v, want NumberSet{100, 0.1}", got)
	}
}
