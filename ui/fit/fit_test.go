package fit

import "testing"

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"\x1b[1mabcdef\x1b[m", 4, "\x1b[1mabc…\x1b[m"},
		{"", 0, ""},
		{"日本語", 4, "日… "}, // wide runes: padded to exactly w cells
	} {
		if got := Line(c.in, c.w); got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

func TestBlock(t *testing.T) {
	got := Block([]string{"abcdef", "x"}, 3, 3)
	want := []string{"ab…", "x  ", "   "}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %q, want %q", i, got[i], want[i])
		}
	}
}
