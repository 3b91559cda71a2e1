package gold

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/trajscope/trajscope/parsers/internal/rawjson"
)

// truthy is Python truthiness of a decoded JSON value: null, false, 0, "",
// [] and {} are false.
func truthy(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case 'n', 'f':
		return false
	case 't':
		return true
	case '"':
		return len(raw) > 2
	case '[', '{':
		inner := bytes.TrimSpace(raw[1 : len(raw)-1])
		return len(inner) > 0
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return err != nil || f != 0
}

// object decodes a JSON object; a repeated key takes the last value, as in
// Python.
// raw is valid JSON (checked by the caller); the values are raw's own
// bytes, not copies, so a row holding a large gold costs its size once.
func object(raw []byte) (map[string][]byte, error) {
	raw = bytes.TrimSpace(raw)
	it, err := rawjson.NewObjIter(raw)
	if err != nil {
		return nil, err
	}
	m := map[string][]byte{}
	for {
		key, val, ok := it.Next()
		if !ok {
			return m, nil
		}
		k, err := rawjson.DecodeString(key)
		if err != nil {
			return nil, err
		}
		m[k] = val
	}
}

// checkJSON reports whether b is one valid JSON value, with encoding/json's
// error (and its offset) when it is not; valid input is not copied.
func checkJSON(b []byte) error {
	if json.Valid(b) {
		return nil
	}
	var v json.RawMessage
	return json.Unmarshal(b, &v)
}

// syntaxOffset is the byte offset a json error points at, or -1.
func syntaxOffset(err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		return max(int(se.Offset)-1, 0)
	}
	return -1
}
