package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/internal/testkit"
)

func TestParse(t *testing.T) {
	v, err := Parse([]byte(`{"b": 1, "a": [true, null, "x\u00e9\ud83d\ude00"], "b": NaN, "c": -Infinity, "d": 1.5e3}`))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range v.Obj {
		keys = append(keys, m.Key)
	}
	if strings.Join(keys, ",") != "b,a,c,d" {
		t.Errorf("keys %v: a repeated key keeps its first position", keys)
	}
	if b, _ := v.Get("b"); b.Str != "NaN" {
		t.Errorf("b = %q, want the last value NaN", b.Str)
	}
	if a, _ := v.Get("a"); a.Arr[2].Str != "xé😀" {
		t.Errorf("surrogate pair decoded to %q", a.Arr[2].Str)
	}
	if d, _ := v.Get("d"); func() bool { _, ok := d.Int(); return ok }() {
		t.Error("1.5e3 is not an int")
	}
}

func TestTruthy(t *testing.T) {
	cases := map[string]bool{`0`: false, `0.0`: false, `-0`: false, `1`: true, `""`: false, `" "`: true,
		`[]`: false, `[0]`: true, `{}`: false, `{"a":0}`: true, `null`: false, `false`: false, `true`: true, `NaN`: true}
	for src, want := range cases {
		v, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(src, err)
		}
		if v.Truthy() != want {
			t.Errorf("Truthy(%s) = %v, want %v", src, !want, want)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := map[string]string{
		`{"a": 1,}`:               "line 1 column 9",
		"{\n \"a\": tru}":         "line 2 column 7",
		`"a` + "\x01" + `"`:       "control character",
		`[1] 2`:                   "extra data",
		"\ufeff{}":                "expected a value",
		`1.`:                      "extra data",
		`{"a" 1}`:                 "expected ':'",
		strings.Repeat("[", 2000): "nesting deeper",
	}
	for src, want := range cases {
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.20q) error %v, want %q", src, err, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `{"m":[1,{"m":[2]}],"m":[3]}`, `"\u00e9"`, `-1.5e-3`, `[NaN,Infinity]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		v, err := Parse(b)
		if err == nil && v == nil {
			t.Fatal("nil value without error")
		}
		owned, oerr := ParseOwned(bytes.Clone(b))
		if fmt.Sprint(err) != fmt.Sprint(oerr) || !reflect.DeepEqual(v, owned) {
			t.Fatalf("ParseOwned differs: %v / %v", err, oerr)
		}
		var streamed []*Value
		_, serr := Stream(bytes.Clone(b), "m", func(i int, e *Value) {
			if i < 0 {
				streamed = nil
				return
			}
			streamed = append(streamed, e)
		})
		if fmt.Sprint(err) != fmt.Sprint(serr) {
			t.Fatalf("Stream's error differs: %v / %v", err, serr)
		}
		if m, ok := v.Get("m"); ok && m.Kind == Array && !reflect.DeepEqual(m.Arr, streamed) && len(m.Arr)+len(streamed) > 0 {
			t.Fatalf("Stream handed over %d elements, Parse has %d", len(streamed), len(m.Arr))
		}
	})
}

func TestFloat(t *testing.T) {
	cases := []struct {
		num  string
		want float64
		ok   bool
	}{
		{"1.5e3", 1500, true},
		{"1e400", math.Inf(1), true},   // Python: float('1e400') is inf
		{"-1e400", math.Inf(-1), true}, // and -inf
		{"Infinity", math.Inf(1), true},
	}
	for _, c := range cases {
		v, err := Parse([]byte(c.num))
		if err != nil {
			t.Fatalf("%s: %v", c.num, err)
		}
		if f, ok := v.Float(); f != c.want || ok != c.ok {
			t.Errorf("Float(%s) = %v, %v; want %v, %v", c.num, f, ok, c.want, c.ok)
		}
	}
	if _, ok := (&Value{Kind: String, Str: "1"}).Float(); ok {
		t.Error("a string is not a number")
	}
}

// ParseOwned decodes every document as Parse does, errors and their
// positions included, whatever it does to the buffer.
func TestParseOwnedAgrees(t *testing.T) {
	for _, doc := range []string{
		`{"a": "plain", "b": "esc\n\"aped\u00e9\ud83d\ude00\t", "c": [1, -2.5e3, true, null, "", "\\"]}`,
		"[\n  \"x\\ny\",\n  {\"k\": \"\\u0041\\u00\"}\n]",
		"{\"a\":\n\"b\\nc\",\n \"d\": \"e\u0001\"}",
		`"\ud800 lone"`, `{"a": "x", "a": "y\n"}`, "[1,\n2,\n", `"unterminated \n`,
	} {
		want, werr := Parse([]byte(doc))
		got, gerr := ParseOwned([]byte(doc))
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(want, got) {
			t.Errorf("%q:\n Parse      %v %v\n ParseOwned %v %v", doc, dump(want), werr, dump(got), gerr)
		}
	}
}

func dump(v *Value) string {
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%+v", *v)
}

// Members named to ParseOwned are parsed, so their errors are Parse's, but
// left out of the tree; everything else is as Parse gives it.
func TestParseOwnedDrops(t *testing.T) {
	doc := `{"a": 1, "choices": [{"x": "y\n"}], "b": {"choices": 2, "c": "d"}}`
	got, err := ParseOwned([]byte(doc), "choices")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.Get("choices"); ok || len(got.Obj) != 2 {
		t.Errorf("top level: %+v", got.Obj)
	}
	if b, _ := got.Get("b"); len(b.Obj) != 1 || b.Obj[0].Key != "c" {
		t.Errorf("nested: %+v", b.Obj)
	}
	bad := `{"a": 1, "choices": [1, }`
	_, werr := Parse([]byte(bad))
	_, gerr := ParseOwned([]byte(bad), "choices")
	if werr == nil || fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Errorf("errors differ: %v / %v", werr, gerr)
	}
}

// Stream hands over the elements of the named top-level array in order,
// each as Parse decodes it, and leaves the array empty; a repeated key
// starts again; a member of that name elsewhere, or not an array, is
// decoded as usual; errors are Parse's.
func TestStream(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want []string // the elements handed over, dumped; "|" marks a start
		rest string   // the member's value in the result
	}{
		{`{"m": [1, {"a": "b\n"}, []], "x": {"m": [2]}}`, []string{"|", "1", `{"a":"b\n"}`, "[]"}, "[]"},
		{`{"m": [1], "m": []}`, []string{"|", "1", "|"}, "[]"},
		{`{"m": "text"}`, nil, `"text"`},
		{`[{"m": [1]}]`, nil, ""},
		{`{"m": []}`, []string{"|"}, "[]"},
	} {
		var got []string
		v, err := Stream([]byte(tc.doc), "m", func(i int, e *Value) {
			if i < 0 {
				got = append(got, "|")
				return
			}
			got = append(got, compact(e))
		})
		if err != nil {
			t.Errorf("%s: %v", tc.doc, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: handed over %q, want %q", tc.doc, got, tc.want)
		}
		if m, ok := v.Get("m"); (ok || tc.rest != "") && (!ok || compact(m) != tc.rest) {
			t.Errorf("%s: member m is %s, want %s", tc.doc, compact(m), tc.rest)
		}
		if x, ok := v.Get("x"); ok {
			if m, _ := x.Get("m"); len(m.Arr) != 1 {
				t.Errorf("%s: a nested m was streamed", tc.doc)
			}
		}
	}
	for _, bad := range []string{`{"m": [1, }`, `{"m": [1, "a` + "\x01" + `"]}`, `{"m": [1]] `} {
		_, werr := Parse([]byte(bad))
		_, gerr := Stream([]byte(bad), "m", func(int, *Value) {})
		if werr == nil || fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%q: errors differ: %v / %v", bad, werr, gerr)
		}
	}
}

// compact writes a value back as JSON, for comparisons.
func compact(v *Value) string {
	if v == nil {
		return "<nil>"
	}
	switch v.Kind {
	case String:
		b, _ := json.Marshal(v.Str)
		return string(b)
	case Array:
		parts := make([]string, len(v.Arr))
		for i, e := range v.Arr {
			parts[i] = compact(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case Object:
		parts := make([]string, len(v.Obj))
		for i, m := range v.Obj {
			k, _ := json.Marshal(m.Key)
			parts[i] = string(k) + ":" + compact(m.Val)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case Bool:
		return fmt.Sprint(v.Bool)
	case Null:
		return "null"
	}
	return v.Str
}
