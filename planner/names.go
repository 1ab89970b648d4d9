package planner

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
)

// Attribute names in expressions.
//
// DynamoDB takes any string as an attribute name through
// ExpressionAttributeNames, but the SDK's expression builder does not:
// even expression.NameNoDotSplit reads a trailing [n] as a list index
// (x[0] becomes element 0 of list x) and refuses any other bracket
// (a[b], c]). So every name goes into the builder as a stand-in it takes
// as one whole attribute, the real name with '%', '[' and ']' escaped
// (%25, %5B, %5D), and build puts the real names back into the
// #placeholders' map, the only place names appear in what is sent. Every
// expression is built through attrName, keyCondition and build; nothing
// else in the planner calls the builder's Name, Key or Build
// (TestExpressionsAreBuiltThroughBuild).

// nameEscaper and nameUnescaper spell a name as its stand-in and back.
var (
	nameEscaper   = strings.NewReplacer("%", "%25", "[", "%5B", "]", "%5D")
	nameUnescaper = strings.NewReplacer("%25", "%", "%5B", "[", "%5D", "]")
)

// StandIn is the name the builder is given for attribute attr; code
// written from a plan (EXPLAIN FORMAT go) spells names the same way.
func StandIn(attr string) string { return nameEscaper.Replace(attr) }

// realName is the attribute a stand-in names.
func realName(s string) string {
	if !strings.Contains(s, "%") {
		return s // nearly every name: no replacer walk
	}
	return nameUnescaper.Replace(s)
}

// attrName names an attribute in an expression. Names are never split on
// dots ("a.b" is one attribute, as the mapping and the items spell it)
// and never read as paths ("x[0]" is the attribute of that name, not an
// element of x): see StandIn.
func attrName(attr string) expression.NameBuilder { return expression.NameNoDotSplit(StandIn(attr)) }

// keyCondition is mapping.KeyCondition with the key attributes named
// as attrName names them.
func keyCondition(pkAttr string, pk types.AttributeValue, skAttr string, sk *mapping.SortCondition) expression.KeyConditionBuilder {
	return mapping.KeyCondition(StandIn(pkAttr), pk, StandIn(skAttr), sk)
}

// builtExpr is an expression as the builder wrote it, but for Names,
// which holds the real attribute names.
type builtExpr struct {
	expression.Expression
	names map[string]string
}

// Names returns the ExpressionAttributeNames: each #placeholder with the
// attribute it stands for.
func (e builtExpr) Names() map[string]string { return e.names }

// build builds b and puts the real attribute names back.
func build(b expression.Builder) (builtExpr, error) {
	expr, err := b.Build()
	if err != nil {
		return builtExpr{}, err
	}
	var names map[string]string
	if n := expr.Names(); n != nil {
		names = make(map[string]string, len(n))
		for p, s := range n {
			names[p] = realName(s)
		}
	}
	return builtExpr{Expression: expr, names: names}, nil
}
