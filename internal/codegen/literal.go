package codegen

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
)

// literalWriter writes an SDK input as a Go composite literal. The
// expressions of each struct that holds some (the input, or an action
// of a transaction) become an expression builder declared before the
// literal (exprs), and the literal's expression fields call it.
type literalWriter struct {
	exprs []string // the builders' declarations, in order
}

var attributeValue = reflect.TypeFor[types.AttributeValue]()

// exprFields are the fields that an expression builder fills, with the
// method of expression.Expression that gives each.
var exprFields = map[string]string{
	"KeyConditionExpression":    "KeyCondition",
	"FilterExpression":          "Filter",
	"ConditionExpression":       "Condition",
	"UpdateExpression":          "Update",
	"ProjectionExpression":      "Projection",
	"ExpressionAttributeNames":  "Names",
	"ExpressionAttributeValues": "Values",
}

func (lw *literalWriter) value(v reflect.Value) (string, error) {
	if v.Type() == attributeValue {
		return attrLiteral(v.Interface().(types.AttributeValue)), nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		e := v.Elem()
		switch e.Kind() {
		case reflect.String:
			return "aws.String(" + strconv.Quote(e.String()) + ")", nil
		case reflect.Bool:
			return "aws.Bool(" + strconv.FormatBool(e.Bool()) + ")", nil
		case reflect.Int32:
			return fmt.Sprintf("aws.Int32(%d)", e.Int()), nil
		case reflect.Int64:
			return fmt.Sprintf("aws.Int64(%d)", e.Int()), nil
		case reflect.Struct:
			s, err := lw.structLit(e)
			return "&" + s, err
		}
	case reflect.String:
		// An enum of the types package: its constant.
		return "types." + v.Type().Name() + pascal(v.String()), nil
	case reflect.Struct:
		return lw.structLit(v)
	case reflect.Map:
		return lw.mapLit(v)
	case reflect.Slice:
		return lw.sliceLit(v)
	}
	return "", errs.New(errs.Internal, "cannot write a %s as Go", v.Type())
}

// structLit writes a struct's set fields; its expressions come from a
// builder declared first.
func (lw *literalWriter) structLit(v reflect.Value) (string, error) {
	t := v.Type()
	expr, standIns, err := lw.builder(v)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(typeRef(t) + "{\n")
	for i := range t.NumField() {
		f, fv := t.Field(i), v.Field(i)
		if !f.IsExported() || fv.IsZero() {
			continue
		}
		if m, ok := exprFields[f.Name]; ok {
			if m == "Names" && standIns {
				b.WriteString(f.Name + ": realNames(" + expr + ".Names()),\n")
				continue
			}
			b.WriteString(f.Name + ": " + expr + "." + m + "(),\n")
			continue
		}
		s, err := lw.value(fv)
		if err != nil {
			return "", err
		}
		b.WriteString(f.Name + ": " + s + ",\n")
	}
	b.WriteString("}")
	return b.String(), nil
}

// typeRef names a struct type as the code refers to it.
func typeRef(t reflect.Type) string {
	if strings.HasSuffix(t.PkgPath(), "/types") {
		return "types." + t.Name()
	}
	return "dynamodb." + t.Name()
}

func (lw *literalWriter) mapLit(v reflect.Value) (string, error) {
	if v.Type().Elem() == attributeValue {
		return itemLiteral(v.Interface().(map[string]types.AttributeValue)), nil
	}
	keys := make([]string, 0, v.Len())
	for _, k := range v.MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("map[string]" + elemRef(v.Type().Elem()) + "{\n")
	for _, k := range keys {
		s, err := lw.value(v.MapIndex(reflect.ValueOf(k)))
		if err != nil {
			return "", err
		}
		b.WriteString(strconv.Quote(k) + ": " + s + ",\n")
	}
	b.WriteString("}")
	return b.String(), nil
}

func (lw *literalWriter) sliceLit(v reflect.Value) (string, error) {
	var b strings.Builder
	b.WriteString("[]" + elemRef(v.Type().Elem()) + "{\n")
	for i := range v.Len() {
		s, err := lw.value(v.Index(i))
		if err != nil {
			return "", err
		}
		if v.Type().Elem().Kind() == reflect.Struct {
			s = strings.TrimPrefix(s, typeRef(v.Type().Elem())) // implied by the slice's type
		}
		b.WriteString(s + ",\n")
	}
	b.WriteString("}")
	return b.String(), nil
}

// elemRef names the element type of a map or slice.
func elemRef(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Map && t.Elem() == attributeValue:
		return "map[string]types.AttributeValue"
	case t.Kind() == reflect.Struct:
		return typeRef(t)
	}
	return t.String()
}

// builder declares the expression builder of a struct's expressions,
// if it has any, and returns its variable's name, and whether it names
// attributes by stand-ins (exprWriter.standIns).
func (lw *literalWriter) builder(v reflect.Value) (string, bool, error) {
	field := func(name string) string {
		f := v.FieldByName(name)
		if !f.IsValid() || f.IsNil() {
			return ""
		}
		return f.Elem().String()
	}
	var names map[string]string
	var vals map[string]types.AttributeValue
	if f := v.FieldByName("ExpressionAttributeNames"); f.IsValid() {
		names, _ = f.Interface().(map[string]string)
	}
	if f := v.FieldByName("ExpressionAttributeValues"); f.IsValid() {
		vals, _ = f.Interface().(map[string]types.AttributeValue)
	}
	w := newExprWriter(names, vals)
	var parts []string
	for _, e := range []struct {
		field, with string
		write       func(string) (string, error)
	}{
		{"KeyConditionExpression", "WithKeyCondition", func(s string) (string, error) {
			c, err := parseCondition(s)
			if err != nil {
				return "", err
			}
			return w.keyCond(c)
		}},
		{"FilterExpression", "WithFilter", w.condition},
		{"ConditionExpression", "WithCondition", w.condition},
		{"UpdateExpression", "WithUpdate", func(s string) (string, error) {
			as, err := parseUpdate(s)
			if err != nil {
				return "", err
			}
			return w.update(as)
		}},
		{"ProjectionExpression", "WithProjection", func(s string) (string, error) {
			ps, err := parseProjection(s)
			if err != nil {
				return "", err
			}
			return w.projection(ps)
		}},
	} {
		text := field(e.field)
		if text == "" {
			continue
		}
		code, err := e.write(text)
		if err != nil {
			return "", false, errs.New(errs.Internal, "%s: %v", e.field, err).Wrap(err)
		}
		parts = append(parts, e.with+"(\n"+code+",\n)")
	}
	if len(parts) == 0 {
		return "", false, nil
	}
	name := "expr"
	if len(lw.exprs) > 0 {
		name = fmt.Sprintf("expr%d", len(lw.exprs)+1)
	}
	lw.exprs = append(lw.exprs, name+", err := expression.NewBuilder().\n"+strings.Join(parts, ".\n")+
		".\nBuild()\nif err != nil {\nlog.Fatal(err)\n}\n")
	return name, w.standIns, nil
}

func (w exprWriter) condition(s string) (string, error) {
	c, err := parseCondition(s)
	if err != nil {
		return "", err
	}
	return w.cond(c)
}
