package jsontree

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// SyntaxError is a decoding error with its position.
type SyntaxError struct {
	Msg    string
	Offset int // byte offset
	Line   int // 1-based
	Col    int // 1-based, in bytes
}

// FirstLineIsObject reports whether the first non-blank line of data is a
// whole JSON object, which makes the content JSON lines (a pretty-printed
// object is not).
func FirstLineIsObject(data []byte) bool {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := Parse(line)
		return err == nil && v.Is(Object)
	}
	return false
}

// LineAt is the 1-based line of byte offset off in data.
func LineAt(data []byte, off int) int {
	return 1 + bytes.Count(data[:min(max(off, 0), len(data))], []byte{'\n'})
}

// At places err in the file at path: "path:line:column: invalid JSON: …"
// for a syntax error, "path: err" for anything else.
func At(path string, err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: invalid JSON: %s", path, se.Line, se.Col, se.Msg)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at line %d column %d: %s", e.Line, e.Col, e.Msg)
}

// maxDepth bounds nesting (Python raises RecursionError near 1000).
const maxDepth = 1000

// Parse decodes one JSON document; only whitespace may follow it. The
// tree holds copies of the document's strings, not the document.
func Parse(data []byte) (*Value, error) { return ParseAt(data, 1) }

// ParseEach is Parse for a document most of which is one list, under the
// top-level member key: each of its elements is handed to each as soon as
// it is decoded, and not kept (the member reads as an empty list), so the
// whole is never one tree in memory. A repeated key starts its list again
// (i is 0 again): the last list is the member's, as in Parse. Errors are
// Parse's.
func ParseEach(data []byte, key string, each func(i int, v *Value)) (*Value, error) {
	return parse(&parser{s: data, line: 1, eachKey: key, each: each})
}

// ParseAt is Parse for a document that starts on line first of its file
// (a line of a JSON-lines file), so errors name the file's line.
func ParseAt(data []byte, first int) (*Value, error) {
	return parse(&parser{s: data, line: first})
}

func parse(p *parser) (*Value, error) {
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
	s []byte
	i int
	// each, when set, is handed the elements of the list under the
	// top-level member eachKey instead of the tree keeping them.
	eachKey string
	each    func(i int, v *Value)
	// keep, when set, names the only object members that are built
	// (ParseKeeping); the others are checked and left out.
	keep []string
	// line and lineStart place p.i for errors. Newlines are only ever
	// whitespace between values (a string may not hold a raw one), so ws
	// counts them all.
	line, lineStart int
	// nodes is a chunk of values handed out one by one (node), and keys
	// the short object keys seen (key): a run repeats a handful of keys
	// over thousands of small values, one allocation each without them.
	nodes []Value
	chunk int
	keys  map[string]string
}

// node places v in the current chunk of values.
func (p *parser) node(v Value) *Value {
	if len(p.nodes) == 0 {
		// Small documents (a JSON Lines record) get small chunks.
		p.chunk = min(2*p.chunk+8, 256)
		p.nodes = make([]Value, p.chunk)
	}
	n := &p.nodes[0]
	*n = v
	p.nodes = p.nodes[1:]
	return n
}

// key reads an object key, returning the same string for the same short
// plain key.
func (p *parser) key() (string, error) {
	j := p.i + 1
	for j < len(p.s) && j-p.i <= 32 && plain[p.s[j]] {
		j++
	}
	if j >= len(p.s) || p.s[j] != '"' || j-p.i > 32 {
		return p.str()
	}
	raw := p.s[p.i+1 : j]
	k, ok := p.keys[string(raw)]
	if !ok {
		if p.keys == nil {
			p.keys = make(map[string]string)
		}
		k = string(raw)
		if len(p.keys) < 1024 {
			p.keys[k] = k
		}
	}
	p.i = j + 1
	return k, nil
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), Offset: p.i, Line: p.line, Col: p.i - p.lineStart + 1}
}

// found names what stands at the parser's position, for errors.
func (p *parser) found() string {
	if p.i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.s[p.i:])
	return fmt.Sprintf("%q", r)
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
	v, err := p.value1(depth)
	if v != nil {
		v.End = p.i
	}
	return v, err
}

func (p *parser) value1(depth int) (*Value, error) {
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
		return p.node(Value{Kind: String, Str: s, Off: start}), nil
	case p.lit("null"):
		return p.node(Value{Kind: Null, Off: start}), nil
	case p.lit("true"):
		return p.node(Value{Kind: Bool, Bool: true, Off: start}), nil
	case p.lit("false"):
		return p.node(Value{Kind: Bool, Off: start}), nil
	case p.lit("NaN"):
		return p.node(Value{Kind: Number, Str: "NaN", Off: start}), nil
	case p.lit("Infinity"):
		return p.node(Value{Kind: Number, Str: "Infinity", Off: start}), nil
	case p.lit("-Infinity"):
		return p.node(Value{Kind: Number, Str: "-Infinity", Off: start}), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.errf("expected a value, found %s", p.found())
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
		return nil, p.errf("expected a digit, found %s", p.found())
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
	return p.node(Value{Kind: Number, Str: string(p.s[start:p.i]), Off: start}), nil
}

func (p *parser) array(depth int, each func(int, *Value)) (*Value, error) {
	v := p.node(Value{Kind: Array, Off: p.i})
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, nil
	}
	for n := 0; ; n++ {
		p.ws()
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if each != nil {
			each(n, e)
		} else {
			v.Arr = append(v.Arr, e)
		}
		if done, err := p.next(']', "a list"); done || err != nil {
			return v, err
		}
	}
}

// next reads what follows an element of a list or an object: ',' (more to
// come) or close (done).
func (p *parser) next(close byte, what string) (done bool, err error) {
	p.ws()
	switch {
	case p.i >= len(p.s):
		return true, p.errf("unterminated %s", strings.TrimPrefix(strings.TrimPrefix(what, "an "), "a "))
	case p.s[p.i] == ',':
		p.i++
		return false, nil
	case p.s[p.i] == close:
		p.i++
		return true, nil
	}
	return true, p.errf("expected ',' or '%c' in %s, found %s", close, what, p.found())
}

func (p *parser) object(depth int) (*Value, error) {
	v := p.node(Value{Kind: Object, Off: p.i})
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
			return nil, p.errf("expected a string key in an object, found %s", p.found())
		}
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("expected ':' after an object key, found %s", p.found())
		}
		p.i++
		p.ws()
		if !p.kept(k) {
			if err := p.skipValue(depth + 1); err != nil {
				return nil, err
			}
			if done, err := p.next('}', "an object"); done || err != nil {
				return v, err
			}
			continue
		}
		var e *Value
		if depth == 0 && p.each != nil && k == p.eachKey && p.i < len(p.s) && p.s[p.i] == '[' {
			e, err = p.array(depth+1, p.each)
			if e != nil {
				e.End = p.i
			}
		} else {
			e, err = p.value(depth + 1)
		}
		if err != nil {
			return nil, err
		}
		if len(v.Obj) >= 8 && index == nil {
			index = make(map[string]int, len(v.Obj)*2)
			for i, m := range v.Obj {
				index[m.Key] = i
			}
		}
		pos := -1
		switch {
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
		case pos >= 0:
			v.Obj[pos].Val = e // a dict keeps the first position, the last value
		default:
			if index != nil {
				index[k] = len(v.Obj)
			}
			v.Obj = append(v.Obj, Member{k, e})
		}
		if done, err := p.next('}', "an object"); done || err != nil {
			return v, err
		}
	}
}
