// Package pyval reads JSON values decoded with encoding/json (any, holding
// map[string]any, []any, string, float64 or json.Number, bool, nil): typed
// accessors that every transcript parser shares (Str, Obj, List, Path, …),
// and the Python meaning the reference extractors rely on: truthiness,
// int(), os.path basename/dirname, text-mode line splitting.
package pyval

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Decode decodes one JSON document keeping numbers exact.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// json.loads rejects trailing data, so must we.
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("extra data after the JSON value")
	}
	return v, nil
}

// Truthy is Python's bool(x) for a decoded JSON value.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// Int returns v as an int when it is an integral JSON number (not a
// bool: JSON booleans are kept apart even though Python would add them).
func Int(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, false
	}
	return int(i), true
}

// Str returns v when it is a string.
func Str(v any) string {
	s, _ := v.(string)
	return s
}

func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}
