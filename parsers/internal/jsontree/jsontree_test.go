package jsontree

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

func TestParse(t *testing.T) {
	doc := `{"b": 1, "a": [true, null, "x\u00e9\ud83d\ude00"], "b": NaN, "c": -Infinity, "d": 1.5e3}`
	v, err := Parse([]byte(doc))
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
	if b := v.Get("b"); b.Str != "NaN" {
		t.Errorf("b = %q, want the last value NaN", b.Str)
	}
	if a := v.Get("a"); a.Arr[2].Str != "xé😀" {
		t.Errorf("surrogate pair decoded to %q", a.Arr[2].Str)
	}
	if _, ok := v.Get("d").Int(); ok {
		t.Error("1.5e3 is not an int")
	}
	// Every value knows its text.
	for key, want := range map[string]string{"a": `[true, null, "x\u00e9\ud83d\ude00"]`, "c": "-Infinity", "d": "1.5e3"} {
		m := v.Get(key)
		if got := doc[m.Off:m.End]; got != want {
			t.Errorf("%s: text %q, want %q", key, got, want)
		}
	}
	if v.Off != 0 || v.End != len(doc) {
		t.Errorf("document spans %d..%d of %d", v.Off, v.End, len(doc))
	}
}

// Keys read the way values do whatever path they take: short plain keys
// are shared, others (escaped, non-ASCII, long, unterminated) decoded.
func TestKeys(t *testing.T) {
	long := strings.Repeat("k", 33)
	for _, tc := range []struct{ doc, want string }{
		{`{"k":1,"k":2,"k\u0031":3}`, "k,k1"},
		{`{"a\"b":1,"\u00e9":2,"é":3}`, `a"b,é`},
		{`{"` + long + `":1,"` + long[:32] + `":2}`, long + "," + long[:32]},
		{"{\"\xff\":1}", "\uFFFD"},
	} {
		v, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		var keys []string
		for _, m := range v.Obj {
			keys = append(keys, m.Key)
		}
		if got := strings.Join(keys, ","); got != tc.want {
			t.Errorf("%s: keys %q, want %q", tc.doc, got, tc.want)
		}
	}
	if _, err := Parse([]byte(`{"abc`)); err == nil || !strings.Contains(err.Error(), "unterminated string") {
		t.Errorf("unterminated key: %v", err)
	}
}

// Reading is nil-safe: a missing step or one of another kind reads as
// nothing.
func TestNilSafe(t *testing.T) {
	v, err := Parse([]byte(`{"a": {"b": "x", "n": 7, "q": " 12 ", "f": 2.5, "t": true, "l": [1]}, "s": "str"}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Path("a", "b").Text() != "x" || v.Path("a", "zz", "b").Text() != "" || v.Path("s", "b").Text() != "" {
		t.Error("Path")
	}
	if n, ok := v.Path("a", "n").Int(); !ok || n != 7 {
		t.Error("Int")
	}
	if _, ok := v.Path("a", "q").Int(); ok {
		t.Error("a quoted number is no strict int")
	}
	if n, ok := v.Path("a", "q").AnyInt(); !ok || n != 12 {
		t.Error("AnyInt of a quoted number")
	}
	if _, ok := v.Path("a", "f").AnyInt(); ok {
		t.Error("2.5 is no int")
	}
	if !v.Path("a", "t").True() || v.Path("a", "n").True() || v.Get("nope").True() {
		t.Error("True")
	}
	if len(v.Path("a", "l").Items()) != 1 || v.Get("s").Items() != nil || v.Get("s").Object() != nil || v.Get("a").Object() == nil {
		t.Error("Items/Object")
	}
	if v.Get("a").First("zz", "n", "b") != "x" {
		t.Error("First skips missing and non-string members")
	}
	if !v.Get("nope").IsNull() || v.Get("nope").Describe() != "nothing" || v.Get("s").Describe() != "a string" {
		t.Error("IsNull/Describe")
	}
	var none *Value
	if none.Truthy() || none.Text() != "" || none.Get("x") != nil {
		t.Error("nil value")
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

// What encoding/json accepts, Parse reads to the same values.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `{"m":[1,{"m":[2]}],"m":[3]}`, `"\u00e9"`, `-1.5e-3`, `[NaN,Infinity]`, `{"a":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		v, err := Parse(b)
		if err == nil && v == nil {
			t.Fatal("nil value without error")
		}
		if err != nil || !json.Valid(b) {
			return
		}
		if v.End-v.Off != len(strings.TrimSpace(string(b))) {
			t.Fatalf("document spans %d..%d", v.Off, v.End)
		}
		var std any
		if json.Unmarshal(b, &std) == nil && strings.ToValidUTF8(string(b), "") == string(b) && !strings.Contains(string(b), `\ud`) && !strings.Contains(string(b), `\uD`) {
			if got, want := compact(v), mustCompact(std); got != want {
				t.Fatalf("Parse %s, encoding/json %s", got, want)
			}
		}
	})
}

func mustCompact(v any) string {
	b, _ := json.Marshal(v)
	var back any
	_ = json.Unmarshal(b, &back)
	return canon(back)
}

// canon writes a decoded encoding/json value with sorted keys and numbers
// as float64, for comparison with compact's sorted form.
func canon(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			parts[i] = string(kb) + ":" + canon(x[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canon(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// compact writes a value back as canon does.
func compact(v *Value) string {
	switch v.Kind {
	case String:
		b, _ := json.Marshal(v.Str)
		return string(b)
	case Number:
		f, _ := v.Float()
		b, _ := json.Marshal(f)
		return string(b)
	case Array:
		parts := make([]string, len(v.Arr))
		for i, e := range v.Arr {
			parts[i] = compact(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case Object:
		m := map[string]string{}
		var keys []string
		for _, mm := range v.Obj {
			keys = append(keys, mm.Key)
			m[mm.Key] = compact(mm.Val)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			parts[i] = string(kb) + ":" + m[k]
		}
		return "{" + strings.Join(parts, ",") + "}"
	case Bool:
		if v.Bool {
			return "true"
		}
		return "false"
	}
	return "null"
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

// FuzzString: a string decodes as encoding/json decodes it, escapes,
// surrogates and invalid UTF-8 (U+FFFD a byte) included.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u2028"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d\u0041"`, "\"\xff\xfe\"", `"é…"`, "\"a\xe2\x82b\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, tok []byte) {
		defer testkit.FuzzBudget(t)()
		if len(tok) < 2 || tok[0] != '"' || !json.Valid(tok) {
			return
		}
		var want string
		if err := json.Unmarshal(tok, &want); err != nil {
			t.Fatal(err)
		}
		v, err := Parse(tok)
		if err != nil || v.Str != want {
			t.Fatalf("Parse(%q) = %q, %v; want %q", tok, v.Text(), err, want)
		}
	})
}

// Compact copies a value whole: equal to the original, sharing none of
// its values, and the original is left as it was.
func TestCompact(t *testing.T) {
	v, err := Parse([]byte(`{"a": [1, {"b": "x", "c": null}, true], "d": {}, "e": [], "f": "s"}`))
	if err != nil {
		t.Fatal(err)
	}
	c := Compact(v)
	if !reflect.DeepEqual(c, v) {
		t.Fatalf("Compact differs:\n%#v\n%#v", c, v)
	}
	if c == v || c.Obj[0].Val == v.Obj[0].Val || c.Get("a").Arr[1] == v.Get("a").Arr[1] {
		t.Error("a value is shared")
	}
	c.Get("a").Arr[1].Obj[0].Val.Str = "changed"
	if v.Get("a").Arr[1].Get("b").Text() != "x" {
		t.Error("the original changed")
	}
	if Compact(nil) != nil {
		t.Error("Compact(nil)")
	}
}
