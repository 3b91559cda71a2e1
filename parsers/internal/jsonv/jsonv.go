// Package jsonv decodes JSON into a generic tree that behaves like what
// Python's json.load returns, so extractors can follow the reference code's
// dynamic typing: object members keep their order (a repeated key keeps its
// first position and takes the last value, like a dict), NaN and Infinity
// are accepted, control characters inside strings are rejected, and values
// have Python truthiness. Errors give the byte offset, line and column.
package jsonv

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Kind is a JSON value's type.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Article returns the kind with its article, for messages: "an array",
// "a string", "null".
func (k Kind) Article() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// Value is one decoded JSON value. A long trajectory decodes to millions
// of them, so the fields are few: Str serves strings and numbers alike.
type Value struct {
	Kind Kind
	Bool bool
	// Off is the byte offset where the value starts.
	Off int
	// Str is a string's value, or a number's text as written.
	Str string
	Arr []*Value
	// Obj holds an object's members in order, keys unique.
	Obj []Member
}

// Member is one object member.
type Member struct {
	Key string
	Val *Value
}

// Get returns an object's member (Python dict.get). ok is false for a
// missing key or a value that is not an object.
func (v *Value) Get(key string) (*Value, bool) {
	if v == nil || v.Kind != Object {
		return nil, false
	}
	for _, m := range v.Obj {
		if m.Key == key {
			return m.Val, true
		}
	}
	return nil, false
}

// IsString reports a string value.
func (v *Value) IsString() bool { return v != nil && v.Kind == String }

// Truthy is Python's bool(value).
func (v *Value) Truthy() bool {
	if v == nil {
		return false
	}
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		f, err := strconv.ParseFloat(v.Str, 64)
		return err != nil || f != 0 // NaN is truthy; huge ints parse as ±Inf
	case String:
		return v.Str != ""
	case Array:
		return len(v.Arr) > 0
	case Object:
		return len(v.Obj) > 0
	}
	return false
}

// Int returns a number as an int when it is written as an integer.
func (v *Value) Int() (int64, bool) {
	if v == nil || v.Kind != Number || strings.ContainsAny(v.Str, ".eEIN") {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	return n, err == nil
}

// Float returns a number as a float64.
func (v *Value) Float() (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false // past the float range is ±Inf, as Python's float() gives
	}
	return f, true
}

// SyntaxError is a decoding error with its position.
type SyntaxError struct {
	Msg    string
	Offset int // byte offset
	Line   int // 1-based
	Col    int // 1-based, in bytes
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at line %d column %d (byte %d): %s", e.Line, e.Col, e.Offset, e.Msg)
}

// maxDepth bounds nesting (Python raises RecursionError near 1000).
const maxDepth = 1000

// Parse decodes one JSON document; only whitespace may follow it.
func Parse(data []byte) (*Value, error) { return parse(&parser{s: data}) }

// ParseOwned is Parse for a buffer the caller hands over: strings are
// decoded in place and share its memory, so a document costs its bytes once
// rather than twice (a long trajectory's observations are most of it).
// data must not be used or changed afterwards. Object members named in
// drop are parsed (errors are the same) but left out of the tree: a
// caller that never reads them need not hold them.
func ParseOwned(data []byte, drop ...string) (*Value, error) {
	return parse(&parser{s: data, owned: true, drop: drop})
}

// Stream is ParseOwned that hands each element of the array at the top-level
// member named key to each as soon as it is decoded, instead of keeping it:
// a caller that turns each element into something small never holds the
// whole tree. In the result that member is an array with no elements.
// each(-1, nil) marks the start of such an array (a repeated key starts
// again: the last one is the member's value); each may keep what it is
// given. Errors are ParseOwned's.
func Stream(data []byte, key string, each func(i int, v *Value), drop ...string) (*Value, error) {
	return parse(&parser{s: data, owned: true, drop: drop, streamKey: key, stream: each})
}

func parse(p *parser) (*Value, error) {
	p.line = 1
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(p.s) {
		return nil, p.errf("extra data after the JSON value")
	}
	return v, nil
}

type parser struct {
	s     []byte
	i     int
	owned bool     // strings are decoded over s (ParseOwned)
	drop  []string // object members left out (ParseOwned)
	// streamKey and stream: the top-level member whose array elements go
	// to stream one by one (Stream).
	streamKey string
	stream    func(int, *Value)
	// line and lineStart place p.i for errors. Newlines are only ever
	// whitespace between values (a string may not hold a raw one), so ws
	// counts them all, and decoding in place cannot disturb the count.
	line, lineStart int
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), Offset: p.i, Line: p.line, Col: p.i - p.lineStart + 1}
}

func (p *parser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.i++
			p.line, p.lineStart = p.line+1, p.i
		case ' ', '\t', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) lit(word string) bool {
	if strings.HasPrefix(string(p.s[p.i:min(len(p.s), p.i+len(word))]), word) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (*Value, error) {
	if depth > maxDepth {
		return nil, p.errf("nesting deeper than %d", maxDepth)
	}
	if p.i >= len(p.s) {
		return nil, p.errf("expected a value, found end of input")
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth, nil)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Value{Kind: String, Str: s, Off: start}, nil
	case p.lit("null"):
		return &Value{Kind: Null, Off: start}, nil
	case p.lit("true"):
		return &Value{Kind: Bool, Bool: true, Off: start}, nil
	case p.lit("false"):
		return &Value{Kind: Bool, Off: start}, nil
	case p.lit("NaN"):
		return &Value{Kind: Number, Str: "NaN", Off: start}, nil
	case p.lit("Infinity"):
		return &Value{Kind: Number, Str: "Infinity", Off: start}, nil
	case p.lit("-Infinity"):
		return &Value{Kind: Number, Str: "-Infinity", Off: start}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.errf("expected a value, found %q", p.s[p.i])
}

func (p *parser) number() (*Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.errf("expected a digit")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		save := p.i
		p.i++
		if digits() == 0 {
			p.i = save // Python stops the number before a bare '.'
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		save := p.i
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.i = save
		}
	}
	num := p.s[start:p.i]
	if p.owned {
		return &Value{Kind: Number, Str: unsafe.String(unsafe.SliceData(num), len(num)), Off: start}, nil
	}
	return &Value{Kind: Number, Str: string(num), Off: start}, nil
}

// array decodes an array; with each, its elements go to each instead of
// into the value.
func (p *parser) array(depth int, each func(int, *Value)) (*Value, error) {
	v := &Value{Kind: Array, Off: p.i}
	if each != nil {
		each(-1, nil)
	}
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, nil
	}
	for n := 0; ; {
		p.ws()
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if each != nil {
			each(n, e)
			n++
		} else {
			v.Arr = append(v.Arr, e)
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unterminated array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return v, nil
		default:
			return nil, p.errf("expected ',' or ']' in array")
		}
	}
}

func (p *parser) object(depth int) (*Value, error) {
	v := &Value{Kind: Object, Off: p.i}
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, nil
	}
	var index map[string]int
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errf("expected a string key in object")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("expected ':' after object key")
		}
		p.i++
		p.ws()
		var e *Value
		if depth == 0 && p.stream != nil && k == p.streamKey && p.i < len(p.s) && p.s[p.i] == '[' {
			e, err = p.array(depth+1, p.stream)
		} else {
			e, err = p.value(depth + 1)
		}
		if err != nil {
			return nil, err
		}
		if slices.Contains(p.drop, k) {
			e = nil // parsed for its errors, then let go
		}
		if e != nil && len(v.Obj) >= 8 && index == nil {
			index = make(map[string]int, len(v.Obj)*2)
			for i, m := range v.Obj {
				index[m.Key] = i
			}
		}
		pos := -1
		switch {
		case e == nil:
		case index != nil:
			if i, ok := index[k]; ok {
				pos = i
			}
		default:
			for i, m := range v.Obj {
				if m.Key == k {
					pos = i
				}
			}
		}
		switch {
		case e == nil:
		case pos >= 0:
			v.Obj[pos].Val = e // a dict keeps the first position, the last value
		default:
			if index != nil {
				index[k] = len(v.Obj)
			}
			v.Obj = append(v.Obj, Member{k, e})
		}
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unterminated object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return v, nil
		default:
			return nil, p.errf("expected ',' or '}' in object")
		}
	}
}
