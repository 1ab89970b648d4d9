package codegen

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/planner"
)

// exprWriter writes the expressions of one SDK input as calls of the
// expression builder, with the input's #names and :values put back.
type exprWriter struct {
	names map[string]string
	vals  map[string]types.AttributeValue
	// standIns is set when a name holds a bracket, which the builder
	// would read as a list index: every name is then written as its
	// stand-in (planner.StandIn) and the #names put back with realNames, as
	// dynosql builds them (planner/names.go).
	standIns bool
}

// newExprWriter writes the expressions whose #names and :values are
// names and vals.
func newExprWriter(names map[string]string, vals map[string]types.AttributeValue) exprWriter {
	w := exprWriter{names: names, vals: vals}
	for _, n := range names {
		if strings.ContainsAny(n, "[]") {
			w.standIns = true
		}
	}
	return w
}

// attr is the name the code gives the builder for attribute n.
func (w exprWriter) attr(n string) string {
	if w.standIns {
		return planner.StandIn(n)
	}
	return n
}

// name writes a path as expression.Name, or NameNoDotSplit for one
// attribute whose name holds a dot or a bracket.
func (w exprWriter) name(path []string) (string, error) {
	var parts []string
	for _, el := range path {
		if strings.HasPrefix(el, "[") {
			parts = append(parts, el)
			continue
		}
		n, ok := w.names[el]
		if !ok {
			return "", fmt.Errorf("no attribute name for %s", el)
		}
		if strings.ContainsAny(n, "[]") && len(path) == 1 {
			return "expression.NameNoDotSplit(" + strconv.Quote(w.attr(n)) + ")", nil
		}
		n = w.attr(n)
		if strings.ContainsAny(n, ".[]") {
			if len(path) > 1 {
				return "", fmt.Errorf("attribute %q inside a document path cannot be written with the expression builder", n)
			}
			return "expression.NameNoDotSplit(" + strconv.Quote(n) + ")", nil
		}
		if len(parts) > 0 {
			parts = append(parts, ".")
		}
		parts = append(parts, n)
	}
	return "expression.Name(" + strconv.Quote(strings.Join(parts, "")) + ")", nil
}

func (w exprWriter) value(ph string) (string, error) {
	av, ok := w.vals[ph]
	if !ok {
		return "", fmt.Errorf("no value for %s", ph)
	}
	return "expression.Value(" + shortValue(av) + ")", nil
}

// text returns the string a placeholder stands for, for begins_with.
func (w exprWriter) text(o *operand) (string, error) {
	if o.kind == "value" {
		if s, ok := w.vals[o.val].(*types.AttributeValueMemberS); ok {
			return strconv.Quote(s.Value), nil
		}
	}
	return "", fmt.Errorf("begins_with takes a string value")
}

func (w exprWriter) operand(o *operand) (string, error) {
	switch o.kind {
	case "path":
		return w.name(o.path)
	case "value":
		return w.value(o.val)
	case "size":
		n, err := w.name(o.path)
		return n + ".Size()", err
	}
	args := make([]string, len(o.args))
	for i, a := range o.args {
		s, err := w.operand(a)
		if err != nil {
			return "", err
		}
		args[i] = s
	}
	switch o.kind {
	case "+":
		return "expression.Plus(" + args[0] + ", " + args[1] + ")", nil
	case "-":
		return "expression.Minus(" + args[0] + ", " + args[1] + ")", nil
	case "if_not_exists":
		if len(args) == 2 && o.args[0].kind == "path" {
			return "expression.IfNotExists(" + args[0] + ", " + args[1] + ")", nil
		}
	case "list_append":
		if len(args) == 2 {
			return "expression.ListAppend(" + args[0] + ", " + args[1] + ")", nil
		}
	}
	return "", fmt.Errorf("cannot write operand %s", o.kind)
}

// attributeTypes names the expression package's constant for each type
// attribute_type takes.
var attributeTypes = map[string]string{"S": "String", "SS": "StringSet", "N": "Number", "NS": "NumberSet",
	"B": "Binary", "BS": "BinarySet", "BOOL": "Boolean", "NULL": "Null", "L": "List", "M": "Map"}

var compareFuncs = map[string]string{"=": "Equal", "<>": "NotEqual", "<": "LessThan", "<=": "LessThanEqual", ">": "GreaterThan", ">=": "GreaterThanEqual"}

// cond writes a condition (filter or condition expression).
func (w exprWriter) cond(c *cond) (string, error) {
	switch c.op {
	case "and", "or", "not":
		subs := make([]string, len(c.subs))
		for i, s := range c.subs {
			x, err := w.cond(s)
			if err != nil {
				return "", err
			}
			subs[i] = x
		}
		fn := map[string]string{"and": "And", "or": "Or", "not": "Not"}[c.op]
		return "expression." + fn + "(\n" + strings.Join(subs, ",\n") + ",\n)", nil
	case "attribute_exists", "attribute_not_exists":
		if len(c.args) != 1 || c.args[0].kind != "path" {
			return "", fmt.Errorf("%s takes one path", c.op)
		}
		n, err := w.name(c.args[0].path)
		fn := map[string]string{"attribute_exists": "AttributeExists", "attribute_not_exists": "AttributeNotExists"}[c.op]
		return n + "." + fn + "()", err
	case "attribute_type":
		if len(c.args) != 2 || c.args[0].kind != "path" || c.args[1].kind != "value" {
			return "", fmt.Errorf("attribute_type takes a path and a type")
		}
		n, err := w.name(c.args[0].path)
		if err != nil {
			return "", err
		}
		t, _ := w.vals[c.args[1].val].(*types.AttributeValueMemberS)
		if t == nil || attributeTypes[t.Value] == "" {
			return "", fmt.Errorf("attribute_type takes a DynamoDB type name")
		}
		return n + ".AttributeType(expression." + attributeTypes[t.Value] + ")", nil
	case "begins_with", "contains":
		if len(c.args) != 2 || c.args[0].kind != "path" {
			return "", fmt.Errorf("%s takes a path and a value", c.op)
		}
		n, err := w.name(c.args[0].path)
		if err != nil {
			return "", err
		}
		if c.op == "begins_with" {
			t, err := w.text(c.args[1])
			return n + ".BeginsWith(" + t + ")", err
		}
		if c.args[1].kind != "value" {
			return "", fmt.Errorf("contains takes a value")
		}
		return n + ".Contains(" + shortValue(w.vals[c.args[1].val]) + ")", nil
	}
	ops := make([]string, len(c.args))
	for i, a := range c.args {
		s, err := w.operand(a)
		if err != nil {
			return "", err
		}
		ops[i] = s
	}
	switch {
	case compareFuncs[c.op] != "":
		return ops[0] + "." + compareFuncs[c.op] + "(" + ops[1] + ")", nil
	case c.op == "between":
		return ops[0] + ".Between(" + ops[1] + ", " + ops[2] + ")", nil
	case c.op == "in":
		return ops[0] + ".In(" + strings.Join(ops[1:], ", ") + ")", nil
	}
	return "", fmt.Errorf("cannot write condition %s with the expression builder", c.op)
}

// keyCond writes a key condition: the partition key's equality, and a
// sort-key condition ANDed to it.
func (w exprWriter) keyCond(c *cond) (string, error) {
	if c.op == "and" {
		subs := make([]string, len(c.subs))
		for i, s := range c.subs {
			x, err := w.keyCond(s)
			if err != nil {
				return "", err
			}
			subs[i] = x
		}
		return "expression.KeyAnd(\n" + strings.Join(subs, ",\n") + ",\n)", nil
	}
	if len(c.args) == 0 || c.args[0].kind != "path" || len(c.args[0].path) != 1 {
		return "", fmt.Errorf("a key condition compares a key attribute")
	}
	attr, ok := w.names[c.args[0].path[0]]
	if !ok {
		return "", fmt.Errorf("no attribute name for %s", c.args[0].path[0])
	}
	key := "expression.Key(" + strconv.Quote(w.attr(attr)) + ")"
	var vals []string
	for _, a := range c.args[1:] {
		if a.kind != "value" {
			return "", fmt.Errorf("a key condition compares with values")
		}
		v, err := w.value(a.val)
		if err != nil {
			return "", err
		}
		vals = append(vals, v)
	}
	switch {
	case c.op == "begins_with":
		t, err := w.text(c.args[1])
		return key + ".BeginsWith(" + t + ")", err
	case c.op == "between" && len(vals) == 2:
		return key + ".Between(" + vals[0] + ", " + vals[1] + ")", nil
	case compareFuncs[c.op] != "" && c.op != "<>" && len(vals) == 1:
		return key + "." + compareFuncs[c.op] + "(" + vals[0] + ")", nil
	}
	return "", fmt.Errorf("cannot write key condition %s", c.op)
}

// update writes an update expression: expression.Set(...), then the
// other actions chained.
func (w exprWriter) update(as []action) (string, error) {
	var b strings.Builder
	for i, a := range as {
		n, err := w.name(a.path.path)
		if err != nil {
			return "", err
		}
		args := n
		if a.val != nil {
			v, err := w.operand(a.val)
			if err != nil {
				return "", err
			}
			args += ", " + v
		}
		fn := strings.ToUpper(a.clause[:1]) + strings.ToLower(a.clause[1:])
		if i == 0 {
			b.WriteString("expression." + fn + "(" + args + ")")
		} else {
			b.WriteString(".\n" + fn + "(" + args + ")")
		}
	}
	return b.String(), nil
}

func (w exprWriter) projection(paths [][]string) (string, error) {
	names := make([]string, len(paths))
	for i, p := range paths {
		n, err := w.name(p)
		if err != nil {
			return "", err
		}
		names[i] = n
	}
	return "expression.NamesList(\n" + strings.Join(names, ",\n") + ",\n)", nil
}

// smallInt matches the numbers written as Go integer constants: they
// marshal back to the same N text.
var smallInt = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,17})$`)

// shortValue writes a value as the argument of expression.Value: a Go
// string, integer or bool where that marshals to the same DynamoDB
// value, else the AttributeValue itself.
func shortValue(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(x.Value)
	case *types.AttributeValueMemberN:
		if smallInt.MatchString(x.Value) && x.Value != "-0" {
			return x.Value
		}
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(x.Value)
	}
	return attrLiteral(av)
}

// attrLiteral writes an AttributeValue as a Go composite literal.
func attrLiteral(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return "&types.AttributeValueMemberS{Value: " + strconv.Quote(x.Value) + "}"
	case *types.AttributeValueMemberN:
		return "&types.AttributeValueMemberN{Value: " + strconv.Quote(x.Value) + "}"
	case *types.AttributeValueMemberB:
		return "&types.AttributeValueMemberB{Value: " + bytesLiteral(x.Value) + "}"
	case *types.AttributeValueMemberBOOL:
		return "&types.AttributeValueMemberBOOL{Value: " + strconv.FormatBool(x.Value) + "}"
	case *types.AttributeValueMemberNULL:
		return "&types.AttributeValueMemberNULL{Value: true}"
	case *types.AttributeValueMemberSS:
		return "&types.AttributeValueMemberSS{Value: " + stringsLiteral(x.Value) + "}"
	case *types.AttributeValueMemberNS:
		return "&types.AttributeValueMemberNS{Value: " + stringsLiteral(x.Value) + "}"
	case *types.AttributeValueMemberBS:
		parts := make([]string, len(x.Value))
		for i, b := range x.Value {
			parts[i] = bytesLiteral(b)
		}
		return "&types.AttributeValueMemberBS{Value: [][]byte{" + strings.Join(parts, ", ") + "}}"
	case *types.AttributeValueMemberL:
		parts := make([]string, len(x.Value))
		for i, e := range x.Value {
			parts[i] = attrLiteral(e)
		}
		return "&types.AttributeValueMemberL{Value: []types.AttributeValue{" + strings.Join(parts, ", ") + "}}"
	case *types.AttributeValueMemberM:
		return "&types.AttributeValueMemberM{Value: " + itemLiteral(x.Value) + "}"
	}
	return "nil"
}

// itemLiteral writes an item or key, attributes in name order.
func itemLiteral(item map[string]types.AttributeValue) string {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("map[string]types.AttributeValue{\n")
	for _, n := range names {
		b.WriteString(strconv.Quote(n) + ": " + attrLiteral(item[n]) + ",\n")
	}
	b.WriteString("}")
	return b.String()
}

func stringsLiteral(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func bytesLiteral(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("0x%02x", c)
	}
	return "[]byte{" + strings.Join(parts, ", ") + "}"
}
