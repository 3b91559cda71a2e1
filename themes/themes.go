// Package themes holds every colour trajscope's explorer uses: lipgloss styles
// for the panes and the chroma style for source code, for a dark, a light and
// a high-contrast theme, plus a colourless variant for NO_COLOR. The ui
// package has no colour literals; it asks a Theme.
package themes

import (
	"fmt"
	"image/color"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// Names lists the --theme values.
var Names = []string{"auto", "dark", "light", "contrast"}

// Theme is a complete set of styles for the explorer.
type Theme struct {
	// Name is dark, light, contrast or mono.
	Name string
	// Dark reports a dark background (contrast follows the terminal).
	Dark bool
	// Color is false for the NO_COLOR variant, where every marker must stay
	// legible through glyphs and text attributes alone.
	Color bool
	// Chroma is the syntax style; nil means no syntax colours.
	Chroma *chroma.Style

	// Chrome.
	AppName, HeaderKey, HeaderValue, HeaderSep lipgloss.Style
	PaneTitle, PaneTitleFocused, Separator     lipgloss.Style
	Text, Muted, Faint, Bold, Status, Error    lipgloss.Style

	// Timeline.
	Selected, Match, NewGold, Reread lipgloss.Style
	categories                       map[string]lipgloss.Style

	// Source gutter: line numbers and the four markers.
	LineNo, LineNoFocus                            lipgloss.Style
	MarkReadNow, MarkReadBefore                    lipgloss.Style
	MarkGoldFound, MarkGoldPending, MarkGoldMissed lipgloss.Style
	ReadNowLine                                    lipgloss.Style
	// Metrics.
	Spark       [4]lipgloss.Style
	SparkFuture lipgloss.Style
	Value       lipgloss.Style
	// Observation: visible escapes of control characters.
	Escape, Thought, Command lipgloss.Style
	// Help.
	HelpKey, HelpDesc, HelpSep lipgloss.Style
}

// Category returns the style of an action category's glyph.
func (t *Theme) Category(c string) lipgloss.Style {
	if s, ok := t.categories[c]; ok {
		return s
	}
	return t.Muted
}

// palette is one theme's colours; nil means "terminal default".
type palette struct {
	fg, muted, faint, accent, title, titleBg color.Color
	sel, selFg, match                        color.Color
	found, pending, missed, readNow, readOld color.Color
	readNowBg                                color.Color
	newGold, reread, err, escape             color.Color
	spark                                    [4]color.Color
	read, search, edit, run, submit, other   color.Color
	chroma                                   string
	bold                                     bool // bolder text for projectors
}

// ANSI palette indices are used for chrome, so a user's terminal palette
// applies; only the syntax styles carry their own colours.
var (
	black   = lipgloss.ANSIColor(0)
	red     = lipgloss.ANSIColor(1)
	green   = lipgloss.ANSIColor(2)
	blue    = lipgloss.ANSIColor(4)
	magenta = lipgloss.ANSIColor(5)
	cyan    = lipgloss.ANSIColor(6)
	white   = lipgloss.ANSIColor(7)
	grey    = lipgloss.ANSIColor(8)
	bred    = lipgloss.ANSIColor(9)
	bgreen  = lipgloss.ANSIColor(10)
	byellow = lipgloss.ANSIColor(11)
	bblue   = lipgloss.ANSIColor(12)
	bmag    = lipgloss.ANSIColor(13)
	bcyan   = lipgloss.ANSIColor(14)
	bwhite  = lipgloss.ANSIColor(15)
)

func darkPalette() palette {
	return palette{
		fg: nil, muted: lipgloss.Color("245"), faint: lipgloss.Color("240"), accent: bcyan,
		title: lipgloss.Color("252"), titleBg: lipgloss.Color("237"),
		sel: lipgloss.Color("24"), selFg: bwhite, match: byellow,
		found: bgreen, pending: byellow, missed: bred, readNow: bcyan, readOld: lipgloss.Color("67"),
		readNowBg: lipgloss.Color("236"),
		newGold:   bgreen, reread: lipgloss.Color("173"), err: bred, escape: bmag,
		spark: [4]color.Color{bcyan, bmag, byellow, bgreen},
		read:  bcyan, search: bmag, edit: byellow, run: bblue, submit: bgreen, other: lipgloss.Color("245"),
		chroma: "github-dark",
	}
}

func lightPalette() palette {
	return palette{
		fg: nil, muted: lipgloss.Color("242"), faint: lipgloss.Color("249"), accent: blue,
		title: lipgloss.Color("235"), titleBg: lipgloss.Color("254"),
		sel: lipgloss.Color("153"), selFg: black, match: magenta,
		found: green, pending: lipgloss.Color("130"), missed: red, readNow: blue, readOld: lipgloss.Color("110"),
		readNowBg: lipgloss.Color("255"),
		newGold:   green, reread: lipgloss.Color("130"), err: red, escape: magenta,
		spark: [4]color.Color{blue, magenta, lipgloss.Color("130"), green},
		read:  blue, search: magenta, edit: lipgloss.Color("130"), run: cyan, submit: green, other: lipgloss.Color("242"),
		chroma: "github",
	}
}

// contrastPalette is for projectors: pure, saturated colours, bold text and
// the modus syntax styles (designed for WCAG AAA contrast).
func contrastPalette(dark bool) palette {
	p := palette{
		muted: white, faint: white, accent: bcyan, title: bwhite, titleBg: blue,
		sel: bwhite, selFg: black, match: byellow,
		found: bgreen, pending: byellow, missed: bred, readNow: bcyan, readOld: cyan,
		readNowBg: nil,
		newGold:   bgreen, reread: byellow, err: bred, escape: bmag,
		spark: [4]color.Color{bcyan, bmag, byellow, bgreen},
		read:  bcyan, search: bmag, edit: byellow, run: bblue, submit: bgreen, other: bwhite,
		chroma: "modus-vivendi", bold: true,
	}
	if !dark {
		p.muted, p.faint, p.accent, p.title, p.titleBg = black, grey, blue, bwhite, blue
		p.sel, p.selFg, p.match = black, bwhite, magenta
		p.found, p.pending, p.missed, p.readNow, p.readOld = green, magenta, red, blue, blue
		p.newGold, p.reread, p.err, p.escape = green, magenta, red, magenta
		p.spark = [4]color.Color{blue, magenta, red, green}
		p.read, p.search, p.edit, p.run, p.submit, p.other = blue, magenta, red, cyan, green, black
		p.chroma = "modus-operandi"
	}
	return p
}

// Get returns the theme for a --theme value; dark is the terminal's
// background (used by "auto" and by contrast). noColor gives the colourless
// variant whatever the name. Each variant is built once and shared: the
// same arguments return the same *Theme, which callers must not modify, so
// a pane can tell a real theme change by comparing pointers.
func Get(name string, dark, noColor bool) (*Theme, error) {
	name = strings.ToLower(name)
	if noColor {
		switch name {
		case "", "auto", "dark", "light", "contrast":
			return variant("mono", dark), nil
		}
		return nil, unknown(name)
	}
	switch name {
	case "", "auto":
		if dark {
			return variant("dark", true), nil
		}
		return variant("light", false), nil
	case "dark":
		return variant("dark", true), nil
	case "light":
		return variant("light", false), nil
	case "contrast", "high-contrast":
		return variant("contrast", dark), nil
	}
	return nil, unknown(name)
}

var (
	builtMu sync.Mutex
	built   = map[[2]any]*Theme{}
)

// variant returns the theme of a name and background, building it on first
// use.
func variant(name string, dark bool) *Theme {
	builtMu.Lock()
	defer builtMu.Unlock()
	k := [2]any{name, dark}
	if t, ok := built[k]; ok {
		return t
	}
	var t *Theme
	switch name {
	case "mono":
		t = mono(dark)
	case "dark":
		t = build(name, dark, darkPalette())
	case "light":
		t = build(name, dark, lightPalette())
	default:
		t = build(name, dark, contrastPalette(dark))
	}
	built[k] = t
	return t
}

func unknown(name string) error {
	return fmt.Errorf("unknown theme %q (want %s)", name, strings.Join(Names, ", "))
}

func build(name string, dark bool, p palette) *Theme {
	s := lipgloss.NewStyle
	fg := func(c color.Color) lipgloss.Style {
		if c == nil {
			return s()
		}
		return s().Foreground(c)
	}
	t := &Theme{Name: name, Dark: dark, Color: true, Chroma: styles.Get(p.chroma)}
	t.AppName = fg(p.accent).Bold(true)
	t.HeaderKey = fg(p.muted)
	t.HeaderValue = fg(p.fg).Bold(true)
	t.HeaderSep = fg(p.faint)
	t.PaneTitle = fg(p.muted).Background(p.titleBg)
	t.PaneTitleFocused = fg(p.title).Background(p.titleBg).Bold(true)
	if name == "contrast" {
		t.PaneTitle = fg(p.title).Background(grey)
	}
	t.Separator = fg(p.faint)
	t.Text = fg(p.fg).Bold(p.bold)
	t.Muted = fg(p.muted)
	t.Faint = fg(p.faint)
	t.Bold = fg(p.fg).Bold(true)
	t.Status = fg(p.accent)
	t.Error = fg(p.err).Bold(true)

	t.Selected = s().Background(p.sel).Foreground(p.selFg).Bold(true)
	t.Match = fg(p.match).Underline(true)
	t.NewGold = fg(p.newGold).Bold(true)
	t.Reread = fg(p.reread)
	t.categories = map[string]lipgloss.Style{
		"read": fg(p.read), "search": fg(p.search), "edit": fg(p.edit),
		"run": fg(p.run), "submit": fg(p.submit).Bold(true), "other": fg(p.other),
	}

	t.LineNo = fg(p.faint)
	t.LineNoFocus = fg(p.accent).Bold(true)
	t.MarkReadNow = fg(p.readNow).Bold(true)
	t.MarkReadBefore = fg(p.readOld)
	t.MarkGoldFound = fg(p.found).Bold(true)
	t.MarkGoldPending = fg(p.pending).Bold(true)
	t.MarkGoldMissed = fg(p.missed).Bold(true)
	t.ReadNowLine = s()
	if p.readNowBg != nil {
		t.ReadNowLine = s().Background(p.readNowBg)
	}
	for i, c := range p.spark {
		t.Spark[i] = fg(c)
	}
	t.SparkFuture = fg(p.faint)
	t.Value = fg(p.fg).Bold(true)
	t.Escape = fg(p.escape).Bold(true)
	t.Thought = fg(p.muted).Italic(true)
	t.Command = fg(p.accent).Bold(true)
	t.HelpKey = fg(p.accent).Bold(true)
	t.HelpDesc = fg(p.muted)
	t.HelpSep = fg(p.faint)
	return t
}

// mono is the NO_COLOR theme: no colour at all. Selection is reverse video,
// focus is bold+underline, and the gutter relies on its glyphs.
func mono(dark bool) *Theme {
	s := lipgloss.NewStyle
	plain := s()
	t := &Theme{Name: "mono", Dark: dark, Color: false, Chroma: nil}
	t.AppName = s().Bold(true)
	t.HeaderKey, t.HeaderValue, t.HeaderSep = plain, s().Bold(true), plain
	t.PaneTitle = s().Reverse(true)
	t.PaneTitleFocused = s().Reverse(true).Bold(true)
	t.Separator = plain
	t.Text, t.Muted, t.Faint, t.Bold = plain, plain, s().Faint(true), s().Bold(true)
	t.Status, t.Error = s().Bold(true), s().Bold(true)
	t.Selected = s().Reverse(true)
	t.Match = s().Underline(true)
	t.NewGold = s().Bold(true)
	t.Reread = plain
	t.categories = map[string]lipgloss.Style{}
	t.LineNo, t.LineNoFocus = plain, s().Bold(true)
	t.MarkReadNow, t.MarkReadBefore = s().Bold(true), plain
	t.MarkGoldFound, t.MarkGoldPending, t.MarkGoldMissed = s().Bold(true), plain, s().Bold(true)
	t.ReadNowLine = plain
	for i := range t.Spark {
		t.Spark[i] = plain
	}
	t.SparkFuture = s().Faint(true)
	t.Value = s().Bold(true)
	t.Escape = s().Reverse(true)
	t.Thought = s().Italic(true)
	t.Command = s().Bold(true)
	t.HelpKey, t.HelpDesc, t.HelpSep = s().Bold(true), plain, plain
	return t
}
