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
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trajscope/trajscope/internal/pystr"
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

// ParseInt is Python's int(s) for a str: surrounding whitespace is ignored, an
// optional sign, then decimal digits (any Unicode Nd digit) with single
// underscores allowed between digits. Values beyond int64 are reported as
// errors rather than silently wrapped.
func ParseInt(s string) (int, error) {
	t := pystr.StripSpace(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return 0, fmt.Errorf("invalid literal for int(): %q", s)
	}
	var v int64
	prevUnderscore := true // a leading underscore is invalid
	for _, r := range t {
		if r == '_' {
			if prevUnderscore {
				return 0, fmt.Errorf("invalid literal for int(): %q", s)
			}
			prevUnderscore = true
			continue
		}
		d, ok := digitValue(r)
		if !ok {
			return 0, fmt.Errorf("invalid literal for int(): %q", s)
		}
		prevUnderscore = false
		if v > (1<<63-1-int64(d))/10 {
			return 0, fmt.Errorf("integer too large: %q", s)
		}
		v = v*10 + int64(d)
	}
	if prevUnderscore {
		return 0, fmt.Errorf("invalid literal for int(): %q", s)
	}
	if neg {
		v = -v
	}
	return int(v), nil
}

// digitValue gives the value of a Unicode decimal digit (category Nd). Nd
// digits come in contiguous runs starting at zero, so the value is the
// position in the run.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < utf8.RuneSelf || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	n := 0
	for p := r - 1; unicode.Is(unicode.Nd, p); p-- {
		n++
	}
	return n % 10, true
}

// Base and pyDir are os.path.basename and os.path.dirname (POSIX), which
// differ from filepath.Base/Dir on "", "/" and trailing slashes.
func Base(p string) string { return p[strings.LastIndex(p, "/")+1:] }

func Dir(p string) string {
	head := p[:strings.LastIndex(p, "/")+1]
	if head != "" && strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head
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

// SplitUniversal splits text as Python's text-mode file iteration does:
// "\r\n", "\r" and "\n" all end a line.
func SplitUniversal(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}
