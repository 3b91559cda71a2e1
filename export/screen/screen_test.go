package screen

import (
	"strings"
	"testing"

	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/story"
)

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		w, h int
		bad  string
	}{
		{"120x40", 120, 40, ""},
		{"80X24", 80, 24, ""},
		{"40x12", 40, 12, ""},
		{"39x12", 0, 0, "between"},
		{"1001x40", 0, 0, "between"},
		{"120", 0, 0, "WIDTHxHEIGHT"},
		{"120x", 0, 0, "WIDTHxHEIGHT"},
		{"x40", 0, 0, "WIDTHxHEIGHT"},
		{"120x40x2", 0, 0, "WIDTHxHEIGHT"},
		{"+120x40", 0, 0, "WIDTHxHEIGHT"},
		{"120 x 40", 0, 0, "WIDTHxHEIGHT"},
	}
	for _, c := range cases {
		w, h, err := ParseSize(c.in)
		switch {
		case c.bad == "" && (err != nil || w != c.w || h != c.h):
			t.Errorf("%q: %d %d %v, want %d %d", c.in, w, h, err, c.w, c.h)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%q: error %v, want one about %q", c.in, err, c.bad)
		}
	}
}

// Cells parse a screen as Bubble Tea does: styles carry across lines,
// wide characters take two cells, and every line is exactly the width.
func TestCells(t *testing.T) {
	lines := Cells("\x1b[31mab\ncd\x1b[m\n界x", 5, 4)
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	for y, l := range lines {
		if len(l) != 5 {
			t.Errorf("line %d: %d cells", y, len(l))
		}
	}
	if lines[1][0].Style.Fg == nil || lines[2][0].Style.Fg != nil {
		t.Error("the style should carry to the second line and be reset on the third")
	}
	if got := exporttest.Plain(lines[2]); got != "界x  " { // 界 takes two of the five cells
		t.Errorf("wide line %q", got)
	}
	if !exporttest.Safe(lines[0]) {
		t.Error("plain text reported unsafe")
	}
}

func TestOpenAtStep(t *testing.T) {
	a := exporttest.Demo(t)
	m, err := Open(story.Tell(a), Options{Width: 120, Height: 40, Theme: "dark", Step: 7})
	if err != nil {
		t.Fatal(err)
	}
	if m.Current() != 6 || !strings.Contains(exporttest.Plain(Grab(m, 120, 40)[0]), "step 7/20") {
		t.Errorf("current %d, header %q", m.Current(), exporttest.Plain(Grab(m, 120, 40)[0]))
	}
	if _, err := Open(story.Tell(a), Options{Width: 20, Height: 40}); err == nil {
		t.Error("a screen narrower than the explorer's minimum opened")
	}
}
