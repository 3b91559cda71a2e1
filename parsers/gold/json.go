package gold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
func object(raw []byte) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("expected an object, found %s", rawjson.KindOf(raw))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
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
