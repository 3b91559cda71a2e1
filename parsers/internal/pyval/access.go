package pyval

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Obj returns v as a JSON object when it is one.
func Obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// List returns v as a JSON array when it is one.
func List(v any) []any {
	l, _ := v.([]any)
	return l
}

// AnyInt returns v as an int however an exporter wrote it: a JSON number
// with an integral value that fits, or a string holding one (some exporters
// quote numbers). Int is the strict form the reference extractors need.
func AnyInt(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return 0, false
		}
		return int(x), true
	case json.Number:
		n, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return 0, false
		}
		return int(n), true
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// Float returns v as a float64 when it is a JSON number.
func Float(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// Bool reports whether v is JSON true.
func Bool(v any) bool {
	b, _ := v.(bool)
	return b
}

// Path follows object keys from v, returning nil when one is missing.
func Path(v any, keys ...string) any {
	for _, k := range keys {
		m := Obj(v)
		if m == nil {
			return nil
		}
		v = m[k]
	}
	return v
}

// First returns the first non-empty string among m's keys.
func First(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := Str(m[k]); s != "" {
			return s
		}
	}
	return ""
}
