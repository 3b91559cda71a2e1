// Package screen renders the explorer's screens off a terminal, as cells:
// the explorer is built exactly as `view` builds it (ui.New, then a window
// size), and each screen it draws is parsed into a grid of styled cells the
// way Bubble Tea's renderer parses it. The recording and the still are made
// from these cells, so they show what the explorer shows and nothing else:
// run text reaches them only through the panes, which make it inert.
package screen

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

// Options configure the explorer a screen is taken from.
type Options struct {
	// Width and Height are the terminal's size in cells.
	Width, Height int
	// Theme is auto, dark, light or contrast. Off a terminal there is no
	// background to ask, so auto (and contrast) assume a dark one.
	Theme string
	Lens  model.Lens
	// Step is the 1-based action to open at (0: the first).
	Step int
	// Autoplay opens the explorer playing, at Speed (0: its default).
	Autoplay bool
	Speed    time.Duration
}

// The sizes a screen may have: the smallest the explorer lays out usefully,
// and a bound that keeps a mistyped size from exhausting memory.
const (
	MinWidth, MinHeight = 40, 12
	MaxWidth, MaxHeight = 1000, 500
)

// ParseSize reads a WxH size, such as 120x40.
func ParseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		_, err = fmt.Sscanf(a+" "+b, "%d %d", &w, &h)
	}
	if !ok || err != nil || fmt.Sprintf("%dx%d", w, h) != strings.ToLower(s) {
		return 0, 0, fmt.Errorf("size %q: want WIDTHxHEIGHT in cells, such as 120x40", s)
	}
	if w < MinWidth || h < MinHeight || w > MaxWidth || h > MaxHeight {
		return 0, 0, fmt.Errorf("size %s: between %dx%d and %dx%d cells", s, MinWidth, MinHeight, MaxWidth, MaxHeight)
	}
	return w, h, nil
}

// Open builds the explorer on an analysed run at a size.
func Open(st *story.Story, o Options) (*ui.Model, error) {
	if o.Width < MinWidth || o.Height < MinHeight {
		return nil, fmt.Errorf("screen size %dx%d: at least %dx%d cells", o.Width, o.Height, MinWidth, MinHeight)
	}
	m, err := ui.New(st, ui.Options{Theme: o.Theme, Dark: true, Lens: o.Lens, Step: o.Step, Autoplay: o.Autoplay, Speed: o.Speed})
	if err != nil {
		return nil, err
	}
	m.Update(tea.WindowSizeMsg{Width: o.Width, Height: o.Height})
	return m, nil
}

// Cells parses a screen's text into exactly h lines of w cells, as Bubble
// Tea's renderer does before it draws them (styles carry across lines until
// reset; wide characters take two cells).
func Cells(text string, w, h int) []uv.Line {
	buf := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(text).Draw(buf, buf.Bounds())
	lines := make([]uv.Line, h)
	for y := range lines {
		lines[y] = buf.Line(y)
	}
	return lines
}

// Grab is the explorer's current screen as cells.
func Grab(m *ui.Model, w, h int) []uv.Line { return Cells(m.Render(), w, h) }
