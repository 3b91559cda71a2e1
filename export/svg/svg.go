// Package svg draws one of the explorer's screens as an SVG picture for
// slides: the screen's cells (package screen) become a background rectangle
// per run of one background colour and a text element per run of one style,
// in the theme's colours and a monospace font stack the viewer already has.
// The file refers to nothing outside itself, and every piece of text is
// escaped for XML.
package svg

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
)

// Geometry of a cell, in pixels: a 14px monospace font advances about 0.6em
// per character; each text run is also stretched to its exact cell count, so
// a font with other metrics cannot break the columns.
const (
	fontSize = 14
	cellW    = 8.4
	cellH    = 18
	baseline = 13.5
	fonts    = `ui-monospace, 'SF Mono', 'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace`
)

// Write draws the explorer at o.Step as SVG.
func Write(w io.Writer, st *story.Story, o screen.Options) error {
	a := st.A
	m, err := screen.Open(st, o)
	if err != nil {
		return err
	}
	th, err := themes.Get(o.Theme, true, false)
	if err != nil {
		return err
	}
	fg, bg := defaults(th)
	lines := screen.Grab(m, o.Width, o.Height)
	b := bufio.NewWriter(w)
	W, H := float64(o.Width)*cellW, float64(o.Height*cellH)
	// width and height give slides and <img> their size; the style makes
	// the still, opened on its own (a projector's browser), scale to the
	// window instead of sitting at a fixed size.
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" style="width:100%%;height:auto;max-height:100vh">`+"\n", W, H, W, H)
	fmt.Fprintf(b, "<title>%s</title>\n", esc(fmt.Sprintf("trajscope · %s · step %d/%d", termsafe.Line(a.Run.InstanceID), m.Current()+1, len(a.Run.Actions))))
	fmt.Fprintf(b, "<style>text{font-family:%s;font-size:%dpx;white-space:pre}</style>\n", fonts, fontSize)
	fmt.Fprintf(b, `<rect width="100%%" height="100%%" fill="%s"/>`+"\n", hex(bg))
	for y, l := range lines {
		cells := resolve(l, fg, bg)
		drawBackgrounds(b, cells, y, bg)
		drawText(b, cells, y)
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

// defaults are the colours of text and background the terminal leaves to
// itself: the background the theme's contrast was computed against.
func defaults(th *themes.Theme) (fg, bg color.Color) {
	fg, bg = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}, color.RGBA{0x00, 0x00, 0x00, 0xff}
	if !th.Dark {
		fg, bg = color.RGBA{0x1f, 0x23, 0x28, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}
	}
	if c := th.Background(); c != nil {
		r, g, b := themes.RGB(c)
		bg = color.RGBA{r, g, b, 0xff}
	}
	return fg, bg
}

// cell is one cell as drawn: its text, width and resolved colours.
type cell struct {
	text   string
	width  int
	fg, bg string
	attrs  uint8
	under  bool
}

// resolve applies defaults and reverse video to a line's cells.
func resolve(l uv.Line, fg, bg color.Color) []cell {
	out := make([]cell, 0, len(l))
	for _, c := range l {
		if c.Width == 0 {
			continue // the second half of a wide character
		}
		f, k := fg, bg
		if c.Style.Fg != nil {
			f = c.Style.Fg
		}
		if c.Style.Bg != nil {
			k = c.Style.Bg
		}
		if c.Style.Attrs&uv.AttrReverse != 0 {
			f, k = k, f
		}
		text := c.Content
		if c.Style.Attrs&uv.AttrConceal != 0 {
			text = strings.Repeat(" ", c.Width)
		}
		out = append(out, cell{text: text, width: c.Width, fg: hex(f), bg: hex(k),
			attrs: c.Style.Attrs & (uv.AttrBold | uv.AttrFaint | uv.AttrItalic | uv.AttrStrikethrough),
			under: c.Style.Underline != uv.UnderlineNone})
	}
	return out
}

func drawBackgrounds(b *bufio.Writer, cells []cell, y int, bg color.Color) {
	page := hex(bg)
	x := 0
	for i := 0; i < len(cells); {
		j, w := i, 0
		for j < len(cells) && cells[j].bg == cells[i].bg {
			w += cells[j].width
			j++
		}
		if cells[i].bg != page {
			fmt.Fprintf(b, `<rect x="%g" y="%d" width="%g" height="%d" fill="%s"/>`+"\n",
				float64(x)*cellW, y*cellH, float64(w)*cellW, cellH, cells[i].bg)
		}
		x += w
		i = j
	}
}

// blockEighths is how many eighths of a cell a lower block element fills
// (▁ one … █ eight).
func blockEighths(s string) int {
	r := []rune(s)
	if len(r) != 1 || r[0] < '▁' || r[0] > '█' {
		return 0
	}
	return int(r[0]-'▁') + 1
}

func drawText(b *bufio.Writer, cells []cell, y int) {
	x := 0
	for i := 0; i < len(cells); {
		if k := blockEighths(cells[i].text); k > 0 {
			// A sparkline level is a bar of its height: fonts draw block
			// elements at whatever height they like, and the heights are
			// the information.
			h := float64(cellH) * float64(k) / 8
			fmt.Fprintf(b, `<rect class="bar" x="%g" y="%g" width="%g" height="%g" fill="%s"/>`+"\n",
				float64(x)*cellW, float64((y+1)*cellH)-h, float64(cells[i].width)*cellW, h, cells[i].fg)
			x += cells[i].width
			i++
			continue
		}
		j, w := i, 0
		var text strings.Builder
		for j < len(cells) && blockEighths(cells[j].text) == 0 && cells[j].fg == cells[i].fg && cells[j].attrs == cells[i].attrs && cells[j].under == cells[i].under {
			text.WriteString(cells[j].text)
			w += cells[j].width
			j++
		}
		s := text.String()
		if strings.TrimSpace(s) != "" {
			c := cells[i]
			fmt.Fprintf(b, `<text x="%g" y="%g" textLength="%g" lengthAdjust="spacingAndGlyphs" fill="%s"%s>%s</text>`+"\n",
				float64(x)*cellW, float64(y*cellH)+baseline, float64(w)*cellW, c.fg, attrs(c), esc(s))
		}
		x += w
		i = j
	}
}

func attrs(c cell) string {
	var s string
	if c.attrs&uv.AttrBold != 0 {
		s += ` font-weight="bold"`
	}
	if c.attrs&uv.AttrItalic != 0 {
		s += ` font-style="italic"`
	}
	if c.attrs&uv.AttrFaint != 0 {
		s += ` opacity="0.6"`
	}
	switch {
	case c.under && c.attrs&uv.AttrStrikethrough != 0:
		s += ` text-decoration="underline line-through"`
	case c.under:
		s += ` text-decoration="underline"`
	case c.attrs&uv.AttrStrikethrough != 0:
		s += ` text-decoration="line-through"`
	}
	return s
}

// hex writes a colour as #rrggbb; terminal palette colours take xterm's
// values.
func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// esc escapes text for XML character data (and drops characters XML
// forbids).
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
