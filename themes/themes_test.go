package themes

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestGet(t *testing.T) {
	cases := []struct {
		name    string
		dark    bool
		noColor bool
		want    string
		dark2   bool // the theme's own background
	}{
		{"auto", true, false, "dark", true},
		{"auto", false, false, "light", false},
		{"", true, false, "dark", true},
		{"dark", false, false, "dark", true},
		{"light", true, false, "light", false},
		{"contrast", true, false, "contrast", true},
		{"contrast", false, false, "contrast", false},
		{"high-contrast", true, false, "contrast", true},
		{"light", true, true, "mono", true},
		{"CONTRAST", false, true, "mono", false},
	}
	for _, c := range cases {
		th, err := Get(c.name, c.dark, c.noColor)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if th.Name != c.want || th.Dark != c.dark2 || th.Color == c.noColor || (th.Syntax == nil) != c.noColor {
			t.Errorf("Get(%q, dark=%v, noColor=%v) = %s dark=%v color=%v syntax=%v, want %s dark=%v", c.name, c.dark, c.noColor,
				th.Name, th.Dark, th.Color, th.Syntax != nil, c.want, c.dark2)
		}
	}
	for _, bad := range []string{"neon", "solarized"} {
		if _, err := Get(bad, true, false); err == nil || !strings.Contains(err.Error(), "auto, dark, light, contrast") {
			t.Errorf("Get(%q) error = %v", bad, err)
		}
		if _, err := Get(bad, true, true); err == nil {
			t.Errorf("Get(%q, noColor) accepted", bad)
		}
	}
}

var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)

// Every style of the NO_COLOR theme renders without colour; every coloured
// theme's markers do carry colour. Walks all lipgloss.Style fields.
func TestMonoHasNoColour(t *testing.T) {
	mono, _ := Get("dark", true, true)
	dark, _ := Get("dark", true, false)
	forEachStyle(mono, func(name string, s lipgloss.Style) {
		if out := s.Render("x"); colourSGR.MatchString(out) {
			t.Errorf("mono %s renders colour: %q", name, out)
		}
	})
	for _, s := range []lipgloss.Style{dark.MarkGoldFound, dark.MarkGoldMissed, dark.MarkReadNow} {
		if _, ok := s.GetForeground().(lipgloss.NoColor); ok {
			t.Error("a dark-theme gutter marker has no colour")
		}
	}
	// Distinct markers in colour themes: found, pending and missed differ.
	for _, name := range []string{"dark", "light", "contrast"} {
		th, _ := Get(name, true, false)
		f, p, m := th.MarkGoldFound.GetForeground(), th.MarkGoldPending.GetForeground(), th.MarkGoldMissed.GetForeground()
		if f == p || p == m || f == m {
			t.Errorf("%s: gold markers share a colour", name)
		}
	}
}

func forEachStyle(th *Theme, f func(string, lipgloss.Style)) {
	v := reflect.ValueOf(th).Elem()
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		if !fv.CanInterface() {
			continue
		}
		switch s := fv.Interface().(type) {
		case lipgloss.Style:
			f(v.Type().Field(i).Name, s)
		case [4]lipgloss.Style:
			for k := range s {
				f(v.Type().Field(i).Name, s[k])
			}
		}
	}
	for _, c := range []string{"read", "search", "edit", "run", "submit", "other"} {
		f("Category("+c+")", th.Category(c))
	}
}

// A variant is built once: the same arguments give the same theme, so the
// explorer can skip a redraw when the terminal reports the background it
// already assumed.
func TestGetBuildsOnce(t *testing.T) {
	a, _ := Get("auto", true, false)
	b, _ := Get("dark", false, false)
	c, _ := Get("auto", false, false)
	if a != b {
		t.Error("auto on a dark terminal and dark are two themes")
	}
	if a == c {
		t.Error("auto gave the same theme on dark and light terminals")
	}
	m1, _ := Get("light", true, true)
	m2, _ := Get("contrast", true, true)
	m3, _ := Get("contrast", false, true)
	if m1 != m2 || m1 == m3 || !m1.Dark || m3.Dark {
		t.Error("mono variants are not shared by background")
	}
}

// Agents that ran side by side get colours of their own, in turn; the
// lead and the colourless theme stay plain (labels tell agents apart).
func TestAgentColours(t *testing.T) {
	for _, name := range []string{"dark", "light", "contrast"} {
		th, _ := Get(name, name != "light", false)
		one, two := th.Agent(1).GetForeground(), th.Agent(2).GetForeground()
		if one == nil || one == two {
			t.Errorf("%s: agents 1 and 2 share %v", name, one)
		}
		if th.Agent(1+len(th.agents)).GetForeground() != one {
			t.Errorf("%s: the colours do not come round in turn", name)
		}
		if th.Agent(0).GetForeground() != th.Muted.GetForeground() {
			t.Errorf("%s: the lead is not muted", name)
		}
	}
	mono, _ := Get("dark", true, true)
	if _, ok := mono.Agent(3).GetForeground().(lipgloss.NoColor); !ok && mono.Agent(3).GetForeground() != nil {
		t.Errorf("mono colours an agent: %v", mono.Agent(3).GetForeground())
	}
}
