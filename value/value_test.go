package value

import (
	"math/big"
	"testing"
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
