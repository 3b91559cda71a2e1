package jsonv

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/internal/fuzzbudget"
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
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\u00e9"`, `-1.5e-3`, `[NaN,Infinity]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer fuzzbudget.Start(t)()
		v, err := Parse(b)
		if err == nil && v == nil {
			t.Fatal("nil value without error")
		}
		owned, oerr := ParseOwned(bytes.Clone(b))
		if fmt.Sprint(err) != fmt.Sprint(oerr) || !reflect.DeepEqual(v, owned) {
			t.Fatalf("ParseOwned differs: %v / %v", err, oerr)
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
