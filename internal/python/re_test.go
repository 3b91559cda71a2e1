package python

import "testing"

func TestTranslate(t *testing.T) {
	cases := []struct {
		py, s string
		want  []string // submatches, nil when no match
	}{
		{`^(\d+)\s*-\s*(\d+)`, "4 - 5", []string{"4 - 5", "4", "5"}},
		{`^(\d+)\s*-\s*(\d+)`, "٤-٥", []string{"٤-٥", "٤", "٥"}},                     // Arabic-Indic digits are \d
		{`^(\d+)\s*-\s*(\d+)`, "4\x1c-\u20035", []string{"4\x1c-\u20035", "4", "5"}}, // \x1c and em space are \s
		{`^(\d+)\s*-\s*(\d+)`, "x 4-5", nil},
		{`a([^\s|]+)`, "ab\u00a0c", []string{"ab", "b"}},
		{`<t>\s*([\s\S]*?)\s*</t>`, "<t>\n a\nb \n</t>", []string{"<t>\n a\nb \n</t>", "a\nb"}},
		{`[]x]+`, "]x]", []string{"]x]"}},
		{`(\w+)`, "é_1", []string{"é_1", "é_1"}},
		// Python's $ matches before a final newline too (RE2 consumes it).
		{`a(\d)$`, "a1\n", []string{"a1\n", "1"}},
		{`a(\d)$`, "a1", []string{"a1", "1"}},
		{`a(\d)$`, "a1\nb", nil},
		{`a(\d)$`, "a1\n\n", nil},
		{`[$](\d)`, "$5", []string{"$5", "5"}},
		// ReWordStart: \b before a word, Unicode letters being word characters.
		{ReWordStart + `(cat)`, "cat x", []string{"cat", "cat"}},
		{ReWordStart + `(cat)`, "x;cat", []string{";cat", "cat"}},
		{ReWordStart + `(cat)`, "écat", nil},
		{ReWordStart + `(cat)`, "_cat", nil},
	}
	for _, c := range cases {
		got := MustCompileRegexp(c.py).FindStringSubmatch(c.s)
		if len(got) != len(c.want) {
			t.Errorf("%q on %q: got %q, want %q", c.py, c.s, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q on %q: got %q, want %q", c.py, c.s, got, c.want)
			}
		}
	}
}

func TestAtoi(t *testing.T) {
	cases := []struct {
		s  string
		n  int
		ok bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"٤٢", 42, true}, {"४२", 42, true},
		{"𝟒𝟐", 42, true}, // mathematical bold digits: a run of 50 starting at a zero
		{"99999999999999999999", MaxDigitsInt, true}, {"", 0, false}, {"4a", 0, false}, {"-1", 0, false},
	}
	for _, c := range cases {
		n, ok := DigitsInt(c.s)
		if n != c.n || ok != c.ok {
			t.Errorf("DigitsInt(%q) = %d, %v; want %d, %v", c.s, n, ok, c.n, c.ok)
		}
	}
}

func TestTranslatePanicsOnWordBoundary(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic on \\b")
		}
	}()
	TranslateRegexp(`\bcat`)
}
