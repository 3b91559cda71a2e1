package python

import (
	"reflect"
	"testing"
)

func TestSplitLines(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"a\r\nb\rc", []string{"a", "b", "c"}},
		{"a\r\r\nb", []string{"a", "", "b"}},
		{"a\vb\fc\x1cd\x1de\x1ef", []string{"a", "b", "c", "d", "e", "f"}},
		{"a\u0085b\u2028c\u2029d", []string{"a", "b", "c", "d"}},
		{"a\x1fb", []string{"a\x1fb"}}, // unit separator is not a line break
		{"\n", []string{""}},
	}
	for _, c := range cases {
		if got := SplitLines(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStrip(t *testing.T) {
	cases := []struct {
		name, got, want string
	}{
		{"lstrip set eats dot-dirs", LStrip(".github/ci.yml", "./"), "github/ci.yml"},
		{"lstrip set eats dotfile", LStrip("./.size-limit.js", "./"), "size-limit.js"},
		{"lstrip keeps inner", LStrip("a/./b", "./"), "a/./b"},
		{"strip quotes", Strip(`"'x.py'"`, `'"`), "x.py"},
		{"strip python whitespace", StripSpace("\x1c\u3000 x \t\u00a0"), "x"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}
