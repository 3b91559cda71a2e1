package python

import "testing"

func TestDecode(t *testing.T) {
	// Expected values are CPython's bytes.decode("utf-8", "replace").
	tests := []struct{ in, want string }{
		{"abc", "abc"},
		{"caf\xc3\xa9", "café"},
		{"\xe2\x82", "\ufffd"},                           // truncated 3-byte: one
		{"\xe2\x82x", "\ufffdx"},                         //
		{"\xff\xfe", "\ufffd\ufffd"},                     // invalid lead bytes
		{"\xc0\xaf", "\ufffd\ufffd"},                     // overlong lead C0
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"},           // surrogate
		{"\xf0\x9f\x98", "\ufffd"},                       // truncated 4-byte
		{"\xf0\x9f\x98\x80", "😀"},                        //
		{"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"}, // > U+10FFFF
		{"\xe0\x80\x80", "\ufffd\ufffd\ufffd"},           // overlong E0
		{"a\x80b", "a\ufffdb"},                           // stray continuation
	}
	for _, tc := range tests {
		if got := DecodeUTF8([]byte(tc.in)); got != tc.want {
			t.Errorf("DecodeUTF8(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
