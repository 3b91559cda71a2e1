// Package jsontree is the one JSON reader of the parsers: it decodes a
// document into a tree that behaves like what Python's json.loads returns,
// so extractors can follow the reference code's dynamic typing. Object
// members keep their order (a repeated key keeps its first position and
// takes the last value, like a dict), NaN and Infinity are accepted,
// control characters inside strings are rejected, values have Python
// truthiness, and every value knows where it stands in the document (for
// messages, and to keep a member's raw bytes). Errors give the byte offset,
// line and column.
//
// Reading is nil-safe, as reading a dict with .get is: v.Get("a").Get("b")
// .Text() is "" when any step is missing or of another kind.
package jsontree

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// Article returns the kind with its article, for messages, in Python's
// words for what json.loads returns: "a list", "an object", "null".
func (k Kind) Article() string {
	return [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}[k]
}

// Value is one decoded JSON value.
type Value struct {
	Kind Kind
	Bool bool
	// Off and End are the byte offsets of the value in the document:
	// doc[Off:End] is its text.
	Off, End int
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

// NewString returns a string value.
func NewString(s string) *Value { return &Value{Kind: String, Str: s} }

// NewObject returns an empty object.
func NewObject() *Value { return &Value{Kind: Object} }

// Wrap returns an object of one member, key: v.
func Wrap(key string, v *Value) *Value {
	return &Value{Kind: Object, Off: v.Off, End: v.End, Obj: []Member{{key, v}}}
}

// Lookup returns an object's member (Python's key in d). ok is false for a
// missing key or a value that is not an object.
func (v *Value) Lookup(key string) (*Value, bool) {
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

// Get returns an object's member, nil when it is missing or v is not an
// object (Python's d.get(key)).
func (v *Value) Get(key string) *Value {
	m, _ := v.Lookup(key)
	return m
}

// Path follows object keys from v, nil when one is missing.
func (v *Value) Path(keys ...string) *Value {
	for _, k := range keys {
		v = v.Get(k)
	}
	return v
}

// Is reports whether v is a value of kind k (a nil v is no value at all,
// not null).
func (v *Value) Is(k Kind) bool { return v != nil && v.Kind == k }

// IsNull reports a missing value or JSON null.
func (v *Value) IsNull() bool { return v == nil || v.Kind == Null }

// Object returns v when it is an object, else nil.
func (v *Value) Object() *Value {
	if v.Is(Object) {
		return v
	}
	return nil
}

// Items returns an array's elements, nil for anything else.
func (v *Value) Items() []*Value {
	if v.Is(Array) {
		return v.Arr
	}
	return nil
}

// Members returns an object's members, nil for anything else.
func (v *Value) Members() []Member {
	if v.Is(Object) {
		return v.Obj
	}
	return nil
}

// Text returns a string's value, "" for anything else.
func (v *Value) Text() string {
	if v.Is(String) {
		return v.Str
	}
	return ""
}

// AsString returns a string's value and whether v is a string.
func (v *Value) AsString() (string, bool) {
	if v.Is(String) {
		return v.Str, true
	}
	return "", false
}

// True reports JSON true.
func (v *Value) True() bool { return v.Is(Bool) && v.Bool }

// First returns the first non-empty string among an object's keys.
func (v *Value) First(keys ...string) string {
	for _, k := range keys {
		if s := v.Get(k).Text(); s != "" {
			return s
		}
	}
	return ""
}

// Describe names v's kind with its article ("a list"); a missing value
// is "nothing".
func (v *Value) Describe() string {
	if v == nil {
		return "nothing"
	}
	return v.Kind.Article()
}

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

// Int returns a number as an int when it is written as an integer that
// fits (not a boolean: JSON booleans are kept apart even though Python
// would add them).
func (v *Value) Int() (int, bool) {
	if !v.Is(Number) || strings.ContainsAny(v.Str, ".eEIN") {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	return int(n), err == nil
}

// Integer is v as an integer the reference evaluator can use as a list
// index (a Python int): a float, a boolean or anything else is an error
// saying what was found.
func (v *Value) Integer() (int, error) {
	if !v.Is(Number) {
		return 0, fmt.Errorf("expected an integer, found %s", v.Describe())
	}
	if strings.ContainsAny(v.Str, ".eEIN") {
		return 0, fmt.Errorf("expected an integer, found %s", v.Str)
	}
	n, ok := v.Int()
	if !ok {
		return 0, fmt.Errorf("integer %s out of range", v.Str)
	}
	return n, nil
}

// AnyInt returns v as an int however an exporter wrote it: a number with
// an integral value within ±2^53, or a string holding one (some exporters
// quote numbers). Int is the strict form the reference extractors need.
func (v *Value) AnyInt() (int, bool) {
	var n int64
	var err error
	switch {
	case v.Is(Number):
		n, err = strconv.ParseInt(v.Str, 10, 64)
	case v.Is(String):
		n, err = strconv.ParseInt(strings.TrimSpace(v.Str), 10, 64)
	default:
		return 0, false
	}
	if err != nil || n > 1<<53 || n < -(1<<53) {
		return 0, false
	}
	return int(n), true
}

// Float returns a number as a float64. Past the float range it is ±Inf, as
// Python's float() gives.
func (v *Value) Float() (float64, bool) {
	if !v.Is(Number) {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// Format is v as fmt's %v prints what encoding/json decodes it to, for a
// scalar (a string or number as written, true, false, <nil>); arrays and
// objects are written as Compact does.
func (v *Value) Format() string {
	switch {
	case v == nil || v.Kind == Null:
		return "<nil>"
	case v.Kind == String || v.Kind == Number:
		return v.Str
	case v.Kind == Bool:
		return strconv.FormatBool(v.Bool)
	}
	return v.Compact()
}

// Compact writes v as encoding/json's Marshal writes the value it decodes
// to: no spaces, object keys sorted, strings with HTML-safe escapes.
func (v *Value) Compact() string {
	var b strings.Builder
	v.compact(&b)
	return b.String()
}

func (v *Value) compact(b *strings.Builder) {
	switch {
	case v == nil || v.Kind == Null:
		b.WriteString("null")
	case v.Kind == Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case v.Kind == Number:
		b.WriteString(v.Str)
	case v.Kind == String:
		q, _ := json.Marshal(v.Str)
		b.Write(q)
	case v.Kind == Array:
		b.WriteByte('[')
		for i, e := range v.Arr {
			if i > 0 {
				b.WriteByte(',')
			}
			e.compact(b)
		}
		b.WriteByte(']')
	case v.Kind == Object:
		ms := slices.Clone(v.Obj)
		slices.SortFunc(ms, func(x, y Member) int { return strings.Compare(x.Key, y.Key) })
		b.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(m.Key)
			b.Write(q)
			b.WriteByte(':')
			m.Val.compact(b)
		}
		b.WriteByte('}')
	}
}

// Compact is a copy of v that holds only v: its values in one allocation
// of their own. A value taken out of a document (a tool call's input kept
// for the run's life) otherwise keeps alive the chunks of values the whole
// document was parsed into. Strings are shared, not copied.
func Compact(v *Value) *Value {
	if v == nil {
		return nil
	}
	n, members := count(v)
	c := compacter{vals: make([]Value, n)}
	if members > 0 {
		c.members = make([]Member, members)
	}
	return c.copy(v)
}

// count is how many values (v among them) and object members v holds.
func count(v *Value) (values, members int) {
	values = 1
	for _, e := range v.Arr {
		n, m := count(e)
		values, members = values+n, members+m
	}
	for _, m := range v.Obj {
		n, mm := count(m.Val)
		values, members = values+n, members+mm+1
	}
	return values, members
}

type compacter struct {
	vals    []Value
	members []Member
}

func (c *compacter) copy(v *Value) *Value {
	out := &c.vals[0]
	c.vals = c.vals[1:]
	*out = *v
	if v.Arr != nil {
		out.Arr = make([]*Value, len(v.Arr))
		for i, e := range v.Arr {
			out.Arr[i] = c.copy(e)
		}
	}
	if v.Obj != nil {
		out.Obj = c.members[:len(v.Obj):len(v.Obj)]
		c.members = c.members[len(v.Obj):]
		for i, m := range v.Obj {
			out.Obj[i] = Member{Key: m.Key, Val: c.copy(m.Val)}
		}
	}
	return out
}
