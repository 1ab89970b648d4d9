package backend

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// DatasetRow is one logical row of a dataset file.
type DatasetRow struct {
	Entity string
	Row    mapping.Row // declared columns only; NULL and missing columns are absent
	Line   int         // 1-based line in the file, for messages
}

// maxLine bounds one dataset line: an item is at most 400 KB, and JSON
// spells it out at most a few times larger.
const maxLine = 4 << 20

// ReadDataset reads a dataset in JSON lines, one row per line:
//
//	{"entity":"students","row":{"id":"a91","name":"Ann Lee","year":2}}
//
// Each value is converted to its column's declared type: S from a string,
// N from a number, BOOL from true/false, L from an array, M from an object,
// SS and NS from arrays of strings and numbers. null leaves the column out.
// Blank lines are skipped. Errors name the line and the column.
func ReadDataset(r io.Reader, m *mapping.Mapping) ([]DatasetRow, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var rows []DatasetRow
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		row, err := parseLine(text, m)
		if err != nil {
			return nil, errs.New(errs.Invalid, "dataset line %d: %s", line, err.Error()).Wrap(err)
		}
		row.Line = line
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, errs.New(errs.Invalid, "dataset: cannot read after line %d: %v", len(rows), err).Wrap(err)
	}
	return rows, nil
}

func parseLine(text []byte, m *mapping.Mapping) (DatasetRow, error) {
	var raw struct {
		Entity string         `json:"entity"`
		Row    map[string]any `json:"row"`
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return DatasetRow{}, fmt.Errorf(`not a {"entity": ..., "row": {...}} object: %w`, err)
	}
	if raw.Entity == "" {
		return DatasetRow{}, fmt.Errorf(`missing "entity"`)
	}
	e, err := m.Entity(raw.Entity)
	if err != nil {
		return DatasetRow{}, fmt.Errorf("%s", errs.As(err).Message)
	}
	row := make(mapping.Row, len(raw.Row))
	for _, col := range slices.Sorted(maps.Keys(raw.Row)) {
		typ, ok := e.Columns[col]
		if !ok {
			msg := fmt.Sprintf("%s has no column %s", e.Name, col)
			if near := errs.Nearest(col, e.ColumnNames()); near != "" {
				msg += "; did you mean " + near + "?"
			}
			return DatasetRow{}, fmt.Errorf("%s", msg)
		}
		v, err := convert(raw.Row[col], typ)
		if err != nil {
			return DatasetRow{}, fmt.Errorf("column %s.%s (%s): %w", e.Name, col, typ, err)
		}
		if v != nil {
			row[col] = v
		}
	}
	return DatasetRow{Entity: e.Name, Row: row}, nil
}

// convert turns a decoded JSON value into a value of DynamoDB type typ.
func convert(j any, typ string) (value.Value, error) {
	if j == nil {
		return nil, nil
	}
	switch typ {
	case "S":
		if s, ok := j.(string); ok {
			return s, nil
		}
	case "N":
		if n, ok := j.(json.Number); ok {
			return number(n)
		}
	case "BOOL":
		if b, ok := j.(bool); ok {
			return b, nil
		}
	case "L":
		if _, ok := j.([]any); ok {
			return generic(j)
		}
	case "M":
		if _, ok := j.(map[string]any); ok {
			return generic(j)
		}
	case "SS", "NS":
		return set(j, typ)
	}
	return nil, fmt.Errorf("cannot hold the JSON value %s", jsonText(j))
}

// set converts a JSON array to a StringSet or NumberSet. DynamoDB refuses
// empty sets and duplicate members, so they are refused here too.
func set(j any, typ string) (value.Value, error) {
	arr, ok := j.([]any)
	if !ok || len(arr) == 0 {
		return nil, fmt.Errorf("needs a non-empty JSON array, got %s", jsonText(j))
	}
	seen := map[string]bool{}
	var ss value.StringSet
	var ns value.NumberSet
	for _, x := range arr {
		var key string
		switch v := x.(type) {
		case string:
			if typ != "SS" {
				return nil, fmt.Errorf("member %s is not a number", jsonText(x))
			}
			key, ss = v, append(ss, v)
		case json.Number:
			if typ != "NS" {
				return nil, fmt.Errorf("member %s is not a string", jsonText(x))
			}
			n, err := number(v)
			if err != nil {
				return nil, err
			}
			key, ns = string(n), append(ns, n)
		default:
			return nil, fmt.Errorf("member %s is not a %s member", jsonText(x), typ)
		}
		if seen[key] {
			return nil, fmt.Errorf("duplicate member %s", jsonText(x))
		}
		seen[key] = true
	}
	if typ == "SS" {
		return ss, nil
	}
	return ns, nil
}

// generic converts any JSON value the way L and M hold it: strings,
// numbers, booleans, null, lists and maps.
func generic(j any) (value.Value, error) {
	switch v := j.(type) {
	case nil, string, bool:
		return v, nil
	case json.Number:
		return number(v)
	case []any:
		l := make([]value.Value, len(v))
		for i, x := range v {
			e, err := generic(x)
			if err != nil {
				return nil, err
			}
			l[i] = e
		}
		return l, nil
	case map[string]any:
		m := make(map[string]value.Value, len(v))
		for k, x := range v {
			e, err := generic(x)
			if err != nil {
				return nil, err
			}
			m[k] = e
		}
		return m, nil
	}
	return nil, fmt.Errorf("unexpected JSON value %v", j)
}

func number(n json.Number) (value.Number, error) {
	v, ok := value.ParseNumber(string(n))
	if !ok {
		return "", fmt.Errorf("%s is not a decimal number", n)
	}
	return v, nil
}

func jsonText(j any) string {
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Sprint(j)
	}
	s := string(b)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strings.TrimSpace(s)
}
