package observed

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Each numbering reads exactly what its regular expression (the form the
// readers used to match) matches, with the same number: on the forms it is
// for and on any line the fuzzer makes. Reading is written out, not an
// expression: it is asked of every line of every output.
var numberingRes = map[string]struct {
	n  Numbering
	re *regexp.Regexp
}{
	"Listing":     {Listing, regexp.MustCompile(`^[ \t]*(\d{1,9}) *(?:\t|→)`)},
	"ReadTool":    {ReadTool, regexp.MustCompile(`^[ \t]*(\d{1,9})(?:→|\t|\| |: )`)},
	"Window":      {Window, regexp.MustCompile(`^(\d{1,9})(?::|\|)`)},
	"Abbreviated": {Abbreviated, regexp.MustCompile(`^[ \t]*(\d{1,9})(?: |$)`)},
	"spaced":      {spacedNumbers, regexp.MustCompile(`^[ \t]+(\d{1,9}) `)},
	"bare":        {bare, regexp.MustCompile(`^[ \t]+(\d{1,9}) *$`)},
}

func FuzzNumbering(f *testing.F) {
	for _, s := range []string{"     12→text", "12\ttext", "     12\ttext", "00012| text", "12: text", "1234567890\tx", "123456789\tx",
		" \t 7→", "\v7\tx", "7", "x12\t", "12 text", "12|text", "12:text", "١٢\tx", "", "  12 ", "  12", "\t3  \tx", "12 →x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return
		}
		for name, c := range numberingRes {
			n, _, ok := c.n.Line(line)
			m := c.re.FindStringSubmatch(line)
			if ok != (m != nil) {
				t.Fatalf("%s %q: Line %v, the expression %v", name, line, ok, m != nil)
			}
			if ok && strconv.Itoa(n) != strings.TrimLeft(m[1], "0") && !(n == 0 && strings.Trim(m[1], "0") == "") {
				t.Fatalf("%s %q: %d, the expression %q", name, line, n, m[1])
			}
		}
	})
}

// Line gives the text after the separator; Lines and First read every
// line.
func TestNumberingText(t *testing.T) {
	for _, c := range []struct {
		n    Numbering
		line string
		num  int
		text string
	}{
		{Listing, "    12→  x := 1", 12, "  x := 1"},
		{Listing, "     3\tfoo", 3, "foo"},
		{ReadTool, "00012| text", 12, "text"},
		{ReadTool, "12: text", 12, "text"},
		{Window, "40|def f():", 40, "def f():"},
		{Abbreviated, "  7", 7, ""},
	} {
		num, text, ok := c.n.Line(c.line)
		if !ok || num != c.num || text != c.text {
			t.Errorf("%q: %d %q %v", c.line, num, text, ok)
		}
	}
	if got := Window.Lines("[File: a.py]\n1:x\n2:y\nnot\n10|z"); strconv.Itoa(len(got)) != "3" || got[2] != 10 {
		t.Errorf("Lines: %v", got)
	}
	if n, ok := Listing.First("header\n  5\tx\n  6\ty"); !ok || n != 5 {
		t.Errorf("First: %d %v", n, ok)
	}
}
