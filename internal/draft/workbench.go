package draft

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

// The parts of a NoSQL Workbench data model export that a draft reads.
type (
	wbModel struct {
		ModelName string
		DataModel []wbTable
	}
	wbTable struct {
		TableName              string
		KeyAttributes          wbKeys
		NonKeyAttributes       []wbAttr
		GlobalSecondaryIndexes []wbIndex
		LocalSecondaryIndexes  []wbIndex
		TableFacets            []wbFacet
		TableData              []map[string]json.RawMessage
	}
	wbKeys struct {
		PartitionKey *wbAttr
		SortKey      *wbAttr
	}
	wbAttr struct {
		AttributeName string
		AttributeType string
	}
	wbIndex struct {
		IndexName     string
		KeyAttributes wbKeys
		Projection    struct {
			ProjectionType   string
			NonKeyAttributes []string
		}
	}
	wbFacet struct {
		FacetName         string
		KeyAttributeAlias struct{ PartitionKeyAlias, SortKeyAlias string }
		NonKeyAttributes  []string
		TableData         []map[string]json.RawMessage
	}
)

const exportHint = "give a model exported from NoSQL Workbench (Data modeler: Export data model), a JSON file with DataModel[].TableName"

// FromWorkbench reads a NoSQL Workbench data model export (file names it
// in messages) and returns the input of the draft of one of its tables:
// table names it, and may be "" when the model holds one. One entity is
// drafted per facet, from the facet's sample items; a model whose facets
// hold none (Workbench 3 keeps them with the table) is drafted from the
// table's items.
func FromWorkbench(file string, data []byte, table string) (Input, error) {
	var m wbModel
	if err := json.Unmarshal(data, &m); err != nil {
		return Input{}, errs.New(errs.Invalid, "%s is not a NoSQL Workbench model: %s", file, jsonError(data, err)).Wrap(err).WithHint(exportHint)
	}
	if len(m.DataModel) == 0 {
		return Input{}, errs.New(errs.Invalid, "%s holds no table (DataModel is empty or missing)", file).WithHint(exportHint)
	}
	names := make([]string, len(m.DataModel))
	for i, t := range m.DataModel {
		names[i] = t.TableName
	}
	pick := -1
	for i, n := range names {
		if n == table || (table == "" && len(names) == 1) {
			pick = i
		}
	}
	switch {
	case pick < 0 && table == "":
		return Input{}, errs.New(errs.Invalid, "model %s holds %d tables: %s", file, len(names), strings.Join(names, ", ")).
			WithHint("pick one with --table %s", names[0])
	case pick < 0:
		e := errs.New(errs.Invalid, "model %s holds no table %s", file, table)
		if near := errs.Nearest(table, names); near != "" {
			e.Message += "; did you mean " + near + "?"
		}
		return Input{}, e.WithHint("its tables: %s", strings.Join(names, ", "))
	}
	return fromWBTable(file, m.ModelName, m.DataModel[pick])
}

func fromWBTable(file, model string, wt wbTable) (Input, error) {
	where := fmt.Sprintf("%s, table %s", file, wt.TableName)
	if wt.KeyAttributes.PartitionKey == nil || wt.KeyAttributes.PartitionKey.AttributeName == "" {
		return Input{}, errs.New(errs.Invalid, "%s: KeyAttributes has no PartitionKey", where).WithHint(exportHint)
	}
	if !mapping.DynamoDBName(wt.TableName) {
		return Input{}, errs.New(errs.Invalid, "%s: %q is not a name DynamoDB takes for a table", where, wt.TableName).WithHint(nameHint)
	}
	t := Table{Name: wt.TableName, KeyTypes: map[string]string{}, AttrTypes: map[string]string{}}
	t.PartitionKey = keyAttr(wt.KeyAttributes.PartitionKey, t.KeyTypes)
	t.SortKey = keyAttr(wt.KeyAttributes.SortKey, t.KeyTypes)
	for _, a := range wt.NonKeyAttributes {
		t.AttrTypes[a.AttributeName] = a.AttributeType
	}
	for i, list := range [][]wbIndex{wt.GlobalSecondaryIndexes, wt.LocalSecondaryIndexes} {
		for _, ix := range list {
			if !mapping.DynamoDBName(ix.IndexName) {
				return Input{}, errs.New(errs.Invalid, "%s: %q is not a name DynamoDB takes for an index", where, ix.IndexName).WithHint(nameHint)
			}
			if i == 0 && (ix.KeyAttributes.PartitionKey == nil || ix.KeyAttributes.PartitionKey.AttributeName == "") {
				return Input{}, errs.New(errs.Invalid, "%s: index %s has no partition key (KeyAttributes.PartitionKey)", where, ix.IndexName).WithHint(exportHint)
			}
			proj := ix.Projection.ProjectionType
			if proj == "" {
				proj = "ALL"
			}
			t.Indexes = append(t.Indexes, Index{
				Name: ix.IndexName, Local: i == 1, Projection: proj, Include: ix.Projection.NonKeyAttributes,
				PartitionKey: keyAttr(ix.KeyAttributes.PartitionKey, t.KeyTypes),
				SortKey:      keyAttr(ix.KeyAttributes.SortKey, t.KeyTypes),
			})
		}
	}
	in := Input{Table: t}
	facetItems := 0
	for _, f := range wt.TableFacets {
		facetItems += len(f.TableData)
	}
	base := filepath.Base(file)
	in.Header = []string{fmt.Sprintf("Imported by dynosql mapping import from the NoSQL Workbench model %q (%s), table %s:", model, base, t.Name)}
	if facetItems == 0 {
		items, err := wbItems(where, wt.TableData)
		if err != nil {
			return Input{}, err
		}
		in.Items = items
		in.Header = append(in.Header, fmt.Sprintf("entities inferred from the table's %d sample items (its facets hold none).", len(items)))
	} else {
		for _, f := range wt.TableFacets {
			items, err := wbItems(where+", facet "+f.FacetName, f.TableData)
			if err != nil {
				return Input{}, err
			}
			alias := map[string]string{t.PartitionKey: f.KeyAttributeAlias.PartitionKeyAlias}
			if t.SortKey != "" {
				alias[t.SortKey] = f.KeyAttributeAlias.SortKeyAlias
			}
			in.Groups = append(in.Groups, Group{Name: f.FacetName, Items: items, Attrs: f.NonKeyAttributes, Alias: alias})
		}
		in.Header = append(in.Header, fmt.Sprintf("one entity per facet (%d), key templates inferred from the facets' %d sample items.", len(wt.TableFacets), facetItems))
	}
	in.Header = append(in.Header, "Comments mark what is guessed: check them before relying on the mapping.")
	return in, nil
}

const nameHint = "DynamoDB names tables and indexes with 3 to 255 of a-z, A-Z, 0-9, '_', '-' and '.': rename it in the model"

// keyAttr returns a key attribute's name and records its type.
func keyAttr(a *wbAttr, keyTypes map[string]string) string {
	if a == nil {
		return ""
	}
	if a.AttributeType != "" {
		keyTypes[a.AttributeName] = a.AttributeType
	}
	return a.AttributeName
}

func wbItems(where string, data []map[string]json.RawMessage) ([]Item, error) {
	items := make([]Item, 0, len(data))
	for i, raw := range data {
		it := Item{}
		for name, v := range raw {
			av, err := attrValue(v)
			if err != nil {
				return nil, errs.New(errs.Invalid, "%s: item %d, attribute %s: %v", where, i+1, name, err).
					WithHint("sample values are written in DynamoDB JSON, such as {\"S\": \"text\"} or {\"N\": \"12\"}")
			}
			it[name] = av
		}
		items = append(items, it)
	}
	return items, nil
}

// attrValue reads one value in DynamoDB JSON ({"S": "x"}, {"M": {...}}).
func attrValue(raw json.RawMessage) (types.AttributeValue, error) {
	var typed map[string]json.RawMessage
	if err := json.Unmarshal(raw, &typed); err != nil || len(typed) != 1 {
		return nil, fmt.Errorf("not a DynamoDB JSON value: %s", oneLine(raw))
	}
	for t, v := range typed {
		return typedValue(t, v)
	}
	return nil, nil // unreachable: one entry
}

func typedValue(t string, v json.RawMessage) (types.AttributeValue, error) {
	var err error
	switch t {
	case "S":
		var s string
		err = json.Unmarshal(v, &s)
		return &types.AttributeValueMemberS{Value: s}, err
	case "N":
		var s string
		err = json.Unmarshal(v, &s)
		return &types.AttributeValueMemberN{Value: s}, err
	case "B":
		var s string
		if err = json.Unmarshal(v, &s); err == nil {
			var b []byte
			b, err = base64.StdEncoding.DecodeString(s)
			return &types.AttributeValueMemberB{Value: b}, err
		}
	case "BOOL":
		var b bool
		err = json.Unmarshal(v, &b)
		return &types.AttributeValueMemberBOOL{Value: b}, err
	case "NULL":
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case "SS", "NS", "BS":
		var ss []string
		err = json.Unmarshal(v, &ss)
		switch t {
		case "SS":
			return &types.AttributeValueMemberSS{Value: ss}, err
		case "NS":
			return &types.AttributeValueMemberNS{Value: ss}, err
		}
		var bs [][]byte
		for _, s := range ss {
			b, derr := base64.StdEncoding.DecodeString(s)
			err = errors.Join(err, derr)
			bs = append(bs, b)
		}
		return &types.AttributeValueMemberBS{Value: bs}, err
	case "L":
		var raws []json.RawMessage
		if err = json.Unmarshal(v, &raws); err == nil {
			l := make([]types.AttributeValue, 0, len(raws))
			for _, r := range raws {
				av, err := attrValue(r)
				if err != nil {
					// Workbench 3 writes a list's or map's contents as
					// plain JSON ({"M": {"is_enabled": true}}).
					return plainValue(v)
				}
				l = append(l, av)
			}
			return &types.AttributeValueMemberL{Value: l}, nil
		}
	case "M":
		var raws map[string]json.RawMessage
		if err = json.Unmarshal(v, &raws); err == nil {
			m := make(map[string]types.AttributeValue, len(raws))
			for k, r := range raws {
				av, err := attrValue(r)
				if err != nil {
					return plainValue(v)
				}
				m[k] = av
			}
			return &types.AttributeValueMemberM{Value: m}, nil
		}
	default:
		return nil, fmt.Errorf("unknown type %q (S, N, B, BOOL, NULL, SS, NS, BS, L, M)", t)
	}
	return nil, fmt.Errorf("bad %s value %s: %w", t, oneLine(v), err)
}

// plainValue reads a value written as plain JSON, as NoSQL Workbench 3
// writes what a map or list holds: objects are maps, arrays lists,
// numbers N (their text as written), strings S, true and false BOOL,
// null NULL.
func plainValue(raw json.RawMessage) (types.AttributeValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("not a DynamoDB JSON value: %s", oneLine(raw))
	}
	return plainAttr(x), nil
}

func plainAttr(x any) types.AttributeValue {
	switch x := x.(type) {
	case map[string]any:
		m := make(map[string]types.AttributeValue, len(x))
		for k, v := range x {
			m[k] = plainAttr(v)
		}
		return &types.AttributeValueMemberM{Value: m}
	case []any:
		l := make([]types.AttributeValue, 0, len(x))
		for _, v := range x {
			l = append(l, plainAttr(v))
		}
		return &types.AttributeValueMemberL{Value: l}
	case json.Number:
		return &types.AttributeValueMemberN{Value: x.String()}
	case string:
		return &types.AttributeValueMemberS{Value: x}
	case bool:
		return &types.AttributeValueMemberBOOL{Value: x}
	default:
		return &types.AttributeValueMemberNULL{Value: true}
	}
}

func oneLine(raw []byte) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return s
}

// jsonError says where in data a JSON error is: line and column.
func jsonError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 1 || off > int64(len(data)) {
		return err.Error()
	}
	at := off - 1 // the offset is just past the byte that failed
	line := bytes.Count(data[:at], []byte("\n")) + 1
	col := at - int64(bytes.LastIndexByte(data[:at], '\n'))
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}
