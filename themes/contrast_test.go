package themes

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestXtermAndRatio(t *testing.T) {
	for _, c := range []struct {
		idx     int
		r, g, b uint8
	}{
		{16, 0, 0, 0}, {21, 0, 0, 255}, {24, 0, 0x5f, 0x87}, {153, 0xaf, 0xd7, 0xff},
		{196, 255, 0, 0}, {231, 255, 255, 255}, {232, 8, 8, 8}, {249, 0xb2, 0xb2, 0xb2}, {255, 0xee, 0xee, 0xee},
	} {
		if r, g, b := RGB(x(c.idx)); r != c.r || g != c.g || b != c.b {
			t.Errorf("xterm %d = #%02x%02x%02x, want #%02x%02x%02x", c.idx, r, g, b, c.r, c.g, c.b)
		}
	}
	for _, c := range []struct {
		a, b color.Color
		want float64
	}{
		{x(16), x(231), 21},
		{x(231), x(231), 1},
		// The light theme's old line numbers on white: far below 4.5.
		{x(249), x(231), 2.12},
		// Its old read band: hardly a band at all.
		{x(255), x(231), 1.16},
		{lipgloss.Color("#767676"), x(231), 4.54},
	} {
		if got := Ratio(c.a, c.b); fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", c.want) {
			t.Errorf("Ratio(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// variants are the coloured themes as the explorer builds them.
func variants() []*Theme {
	var out []*Theme
	for _, v := range []struct {
		name string
		dark bool
	}{{"dark", true}, {"light", false}, {"contrast", true}, {"contrast", false}} {
		th, _ := Get(v.name, v.dark, false)
		out = append(out, th)
	}
	return out
}

// Every text colour of every theme reaches the theme's contrast against its
// background (the style's own, else the pane's), every syntax colour reaches
// it on the pane and 4.5 on the read band, and the band stands out from the
// pane: computed from the palette, as the WCAG defines contrast.
func TestThemeContrast(t *testing.T) {
	for _, th := range variants() {
		name := fmt.Sprintf("%s/dark=%v", th.Name, th.Dark)
		pane := th.Background()
		forEachStyle(th, func(field string, s lipgloss.Style) {
			fg := s.GetForeground()
			if _, none := fg.(lipgloss.NoColor); none {
				return // the terminal's own text colour
			}
			if _, basic := fg.(ansi.BasicColor); basic {
				t.Errorf("%s %s: palette colour %v (its contrast depends on the user's palette)", name, field, fg)
			}
			bg := s.GetBackground()
			if _, none := bg.(lipgloss.NoColor); none {
				bg = pane
			}
			if r := Ratio(fg, bg); r < th.Target() {
				t.Errorf("%s %s: contrast %.2f < %.1f (%v on %v)", name, field, r, th.Target(), fg, bg)
			}
		})
		band := th.ReadNowLine.GetBackground()
		if _, none := band.(lipgloss.NoColor); none {
			t.Errorf("%s: the read band has no background", name)
			continue
		}
		if r := Ratio(band, pane); r < 1.25 {
			t.Errorf("%s: read band %v differs from the pane by %.2f, want >= 1.25", name, band, r)
		}
		if th.Syntax == nil {
			t.Errorf("%s: no syntax style", name)
			continue
		}
		for cls, st := range th.Syntax {
			if st.Fg == nil {
				continue
			}
			if _, basic := st.Fg.(ansi.BasicColor); basic {
				t.Errorf("%s syntax %s: palette colour %v", name, SyntaxClass(cls).Name(), st.Fg)
			}
			if r := Ratio(st.Fg, pane); r < th.Target() {
				t.Errorf("%s syntax %s %v on the pane: %.2f < %.1f", name, SyntaxClass(cls).Name(), st.Fg, r, th.Target())
			}
			if r := Ratio(st.Fg, band); r < 4.5 {
				t.Errorf("%s syntax %s %v on the band: %.2f < 4.5", name, SyntaxClass(cls).Name(), st.Fg, r)
			}
		}
	}
}

// Ratio is the WCAG contrast ratio of two colours, 1 to 21.
func Ratio(a, b color.Color) float64 { return ratio(Luminance(a), Luminance(b)) }

// Luminance is the WCAG relative luminance of c, 0 (black) to 1 (white).
func Luminance(c color.Color) float64 {
	r, g, b := RGB(c)
	return luminance(r, g, b)
}

func luminance(r, g, b uint8) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func ratio(la, lb float64) float64 {
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
