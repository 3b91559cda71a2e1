package python

import (
	"math"
	"testing"
)

// Expected strings are Python 3 repr(float) / json.dumps(str) outputs.
func TestAppendFloat(t *testing.T) {
	// Runtime values: Go folds constant expressions exactly, Python does not.
	forty9, eighty, one, three := 49.0, 80.0, 1.0, 3.0
	cases := []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{0.5, "0.5"},
		{-2.5, "-2.5"},
		{1.0 / 3, "0.3333333333333333"},
		{one - forty9/eighty, "0.38749999999999996"},
		{one - one/three*2, "0.33333333333333337"},
		{1e-05, "1e-05"},
		{0.0001, "0.0001"},
		{0.00012345, "0.00012345"},
		{1.5e-7, "1.5e-07"},
		{1e16, "1e+16"},
		{1234567890123456.0, "1234567890123456.0"},
		{12345678901234567.0, "1.2345678901234568e+16"},
		{100, "100.0"},
		{123.456, "123.456"},
		{1e22, "1e+22"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{5e-324, "5e-324"},
		{math.Inf(1), "Infinity"},
		{math.NaN(), "NaN"},
	}
	for _, c := range cases {
		if got := JSONFloat(c.in); got != c.want {
			t.Errorf("JSONFloat(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAppendString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{"plain/path.py", `"plain/path.py"`},
		{"a\"b\\c", `"a\"b\\c"`},
		{"\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"\x00\x1f\x7f", `"\u0000\u001f\u007f"`}, // json.dumps escapes DEL
		{"é", `"\u00e9"`},
		{"：", `"\uff1a"`},
		{"😀", `"\ud83d\ude00"`},
		{"\xff", `"\ufffd"`},
		{"\u2028", `"\u2028"`},
	}
	for _, c := range cases {
		if got := string(AppendJSONString(nil, c.in)); got != c.want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Expected strings are json.dumps(s, ensure_ascii=False).
func TestAppendStringUnicode(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a\"b\\c", `"a\"b\\c"`},
		{"\n\x01\x7f", `"\n\u0001` + "\x7f" + `"`},
		{"é…😀\u2028", "\"é…😀\u2028\""},
		{"x\xffy", "\"x\ufffdy\""},
	}
	for _, c := range cases {
		if got := string(AppendJSONStringUnicode(nil, c.in)); got != c.want {
			t.Errorf("AppendJSONStringUnicode(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
