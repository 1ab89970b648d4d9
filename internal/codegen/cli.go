package codegen

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/planner"
)

// CLI writes the plan's requests as AWS CLI commands, `aws dynamodb
// <op> --cli-input-json '...'`, the JSON being the request as the SDK
// sends it. As in Go, a request formed from rows read at run time is a
// comment saying how.
func CLI(plan *planner.Plan) (string, error) {
	var b strings.Builder
	b.WriteString("# The DynamoDB requests dynosql sends for:\n")
	for _, l := range strings.Split(strings.TrimSpace(plan.SQL), "\n") {
		b.WriteString(strings.TrimRight("#   "+l, " ") + "\n")
	}
	step := 0
	for _, s := range plan.Sends() {
		if s.Inputs == nil {
			step++
			comment(&b, "# ", step, s.Request, true)
			continue
		}
		for _, in := range s.Inputs {
			step++
			comment(&b, "# ", step, each(s, in), false)
			cmd, err := CLICommand(in)
			if err != nil {
				return "", err
			}
			b.WriteString(cmd + "\n")
		}
	}
	if step == 0 {
		b.WriteString("# The statement sends no request.\n")
	}
	return b.String(), nil
}

// cliOps are the AWS CLI's names of the operations dynosql sends.
var cliOps = map[reflect.Type]string{
	reflect.TypeFor[*dynamodb.GetItemInput]():            "get-item",
	reflect.TypeFor[*dynamodb.QueryInput]():              "query",
	reflect.TypeFor[*dynamodb.BatchGetItemInput]():       "batch-get-item",
	reflect.TypeFor[*dynamodb.PutItemInput]():            "put-item",
	reflect.TypeFor[*dynamodb.UpdateItemInput]():         "update-item",
	reflect.TypeFor[*dynamodb.DeleteItemInput]():         "delete-item",
	reflect.TypeFor[*dynamodb.TransactWriteItemsInput](): "transact-write-items",
}

// CLICommand writes one SDK input as an AWS CLI command, its JSON quoted
// for a POSIX shell.
func CLICommand(in any) (string, error) {
	op, ok := cliOps[reflect.TypeOf(in)]
	if !ok {
		return "", errs.New(errs.Internal, "no AWS CLI command for %T", in)
	}
	j, err := InputJSON(in)
	if err != nil {
		return "", err
	}
	cmd := "aws dynamodb " + op + " --cli-input-json '" + strings.ReplaceAll(string(j), "'", `'\''`) + "'"
	if q, ok := in.(*dynamodb.QueryInput); ok && q.Limit != nil {
		// The CLI pages on; Limit is only the page size.
		cmd += " --max-items " + strconv.Itoa(int(*q.Limit))
	}
	return cmd, nil
}

// InputJSON writes an SDK input in the JSON of DynamoDB's API, which is
// what --cli-input-json takes: members by their API names (the SDK's
// field names), AttributeValues as {"S": ...}, binaries in base64, unset
// members left out.
func InputJSON(in any) ([]byte, error) {
	v, err := apiValue(reflect.ValueOf(in))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func apiValue(v reflect.Value) (any, error) {
	if v.Type() == attributeValue {
		return attrJSON(v.Interface().(types.AttributeValue))
	}
	switch v.Kind() {
	case reflect.Pointer:
		return apiValue(v.Elem())
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			f, fv := v.Type().Field(i), v.Field(i)
			if !f.IsExported() || isUnset(fv) {
				continue
			}
			x, err := apiValue(fv)
			if err != nil {
				return nil, err
			}
			out[f.Name] = x
		}
		return out, nil
	case reflect.Map:
		out := map[string]any{}
		for _, k := range v.MapKeys() {
			x, err := apiValue(v.MapIndex(k))
			if err != nil {
				return nil, err
			}
			out[k.String()] = x
		}
		return out, nil
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes(), nil // base64, as json writes []byte
		}
		out := make([]any, v.Len())
		for i := range v.Len() {
			x, err := apiValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int32, reflect.Int64:
		return v.Int(), nil
	}
	return nil, errs.New(errs.Internal, "cannot write a %s as JSON", v.Type())
}

// isUnset reports whether a member is left out: a nil pointer, map or
// slice, or an empty enum.
func isUnset(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return v.IsNil()
	case reflect.String:
		return v.String() == ""
	}
	return false
}

func attrJSON(av types.AttributeValue) (any, error) {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": x.Value}, nil
	case *types.AttributeValueMemberN:
		return map[string]any{"N": x.Value}, nil
	case *types.AttributeValueMemberB:
		return map[string]any{"B": x.Value}, nil
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": x.Value}, nil
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}, nil
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": x.Value}, nil
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": x.Value}, nil
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": x.Value}, nil
	case *types.AttributeValueMemberL:
		l := make([]any, len(x.Value))
		for i, e := range x.Value {
			j, err := attrJSON(e)
			if err != nil {
				return nil, err
			}
			l[i] = j
		}
		return map[string]any{"L": l}, nil
	case *types.AttributeValueMemberM:
		m := map[string]any{}
		for k, e := range x.Value {
			j, err := attrJSON(e)
			if err != nil {
				return nil, err
			}
			m[k] = j
		}
		return map[string]any{"M": m}, nil
	}
	return nil, errs.New(errs.Internal, "cannot write attribute value %T", av)
}
