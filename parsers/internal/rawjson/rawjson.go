// Package rawjson scans JSON that json.Valid has already accepted. It only
// finds value boundaries and never copies values, which is what keeps the
// gold and prediction readers fast: a json.Decoder per nested object cost most
// of their time, and a gold_context is mostly "content" text nobody reads.
package rawjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// ObjIter walks the members of a valid JSON object without allocating.
type ObjIter struct {
	b []byte
	i int
}

// DecodeInt accepts a JSON integer (Python int). Floats are refused: upstream
// uses these values as list indexes, where a float raises.
func DecodeInt(raw []byte) (int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, fmt.Errorf("expected an integer, found %s", KindOf(raw))
	}
	if bytes.ContainsAny(raw, ".eE") {
		return 0, fmt.Errorf("expected an integer, found %s", raw)
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return 0, fmt.Errorf("integer %s out of range", raw)
	}
	return n, nil
}

func DecodeString(raw []byte) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", fmt.Errorf("expected a string, found %s", KindOf(raw))
	}
	return StringAt(raw)
}

// Elements returns the raw elements of a JSON list. raw must be valid JSON.
// The list is walked twice, to count and then to fill: a list of a million
// elements is one exact allocation, not a doubling series.
func Elements(raw []byte) ([][]byte, error) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, fmt.Errorf("expected a list, found %s", KindOf(raw))
	}
	n := 0
	eachElement(raw, i, func([]byte) { n++ })
	if n == 0 {
		return nil, nil
	}
	out := make([][]byte, 0, n)
	eachElement(raw, i, func(el []byte) { out = append(out, el) })
	return out, nil
}

// eachElement calls f with each element of the list opening at raw[i].
func eachElement(raw []byte, i int, f func([]byte)) {
	i = SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return
	}
	for i < len(raw) {
		end := SkipValue(raw, i)
		f(raw[i:end])
		i = SkipSpace(raw, end)
		if i >= len(raw) || raw[i] == ']' {
			break
		}
		i = SkipSpace(raw, i+1)
	}
}

// hex4 reads four hex digits at b[i:], or returns -1.
func hex4(b []byte, i int) rune {
	if i+4 > len(b) {
		return -1
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// KeyIs compares a key token with a plain ASCII name; keys with escapes are
// decoded first so "st\u0061rt" still counts as "start".
func KeyIs(tok []byte, name string) bool {
	if len(tok) == len(name)+2 && string(tok[1:len(tok)-1]) == name {
		return true
	}
	if bytes.IndexByte(tok, '\\') < 0 {
		return false
	}
	s, err := StringAt(tok)
	return err == nil && s == name
}

// KindOf names a raw JSON value's type for error messages.
func KindOf(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// LineAt is the 1-based line number of byte offset off in data.
func LineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

func NewObjIter(raw []byte) (ObjIter, error) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return ObjIter{}, fmt.Errorf("expected an object, found %s", KindOf(raw))
	}
	return ObjIter{raw, SkipSpace(raw, i+1)}, nil
}

// Next returns the next key token (quotes included) and raw value.
func (it *ObjIter) Next() (key, val []byte, ok bool) {
	b, i := it.b, it.i
	if i >= len(b) || b[i] != '"' {
		return nil, nil, false
	}
	kEnd := SkipString(b, i)
	key = b[i:kEnd]
	i = SkipSpace(b, kEnd)
	i = SkipSpace(b, i+1) // ':'
	vEnd := SkipValue(b, i)
	val = b[i:vEnd]
	i = SkipSpace(b, vEnd)
	if i < len(b) && b[i] == ',' {
		i = SkipSpace(b, i+1)
	}
	it.i = i
	return key, val, true
}

func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index after the string starting at b[i] == '"'.
func SkipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// SkipValue returns the index after the value starting at b[i].
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = SkipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// StringAt decodes a JSON string token (quotes included) that json.Valid
// has accepted, exactly as encoding/json decodes it: invalid UTF-8 bytes and
// unpaired surrogate escapes become U+FFFD.
func StringAt(tok []byte) (string, error) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return "", fmt.Errorf("expected a string, found %s", KindOf(tok))
	}
	body := tok[1 : len(tok)-1]
	plain := true
	for _, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(body), nil
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			e := body[i+1]
			i += 2
			switch e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(body, i)
				if r < 0 {
					return "", fmt.Errorf("invalid \\u escape")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					if i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if d := utf16.DecodeRune(r, hex4(body, i+2)); d != unicode.ReplacementChar {
							out = utf8.AppendRune(out, d)
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\', '/'
				out = append(out, e)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				out = append(out, "\uFFFD"...)
			} else {
				out = append(out, body[i:i+size]...)
			}
			i += size
		}
	}
	return string(out), nil
}

// FirstLineIsObject reports whether the first non-blank line is a complete JSON
// object, which makes the content JSONL (a pretty-printed object is not).
func FirstLineIsObject(data []byte) bool {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return line[0] == '{' && json.Valid(line)
	}
	return false
}
