// Package themes holds every colour trajscope's explorer uses: lipgloss styles
// for the panes and the syntax style for source code, for a dark, a light and
// a high-contrast theme, plus a colourless variant for NO_COLOR. The ui
// package has no colour literals; it asks a Theme.
package themes

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
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
	// Syntax is the style of each syntax class, its colours chosen to reach
	// the theme's contrast on the pane and 4.5 on the read band; nil means
	// no syntax colours.
	Syntax *Syntax
	// target: see Target.
	target float64

	// Chrome.
	AppName, HeaderKey, HeaderValue, HeaderSep lipgloss.Style
	PaneTitle, PaneTitleFocused, Separator     lipgloss.Style
	Text, Muted, Faint, Bold, Status, Error    lipgloss.Style

	// Timeline.
	Selected, Match, NewGold, Reread lipgloss.Style
	categories                       map[string]lipgloss.Style
	// agents colour sub-agents' marks in turn (Agent); empty without colour,
	// where the labels alone tell agents apart.
	agents []lipgloss.Style

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

// Agent returns the style of sub-agent k's mark (k ≥ 1, the run's agent
// index): a colour of its own among a few, taken in turn, so agents that
// ran side by side are told apart at a glance; Muted for the lead.
func (t *Theme) Agent(k int) lipgloss.Style {
	if k <= 0 || len(t.agents) == 0 {
		return t.Muted
	}
	return t.agents[(k-1)%len(t.agents)]
}

// palette is one theme's colours; nil means "terminal default".
type palette struct {
	fg, muted, faint, accent, title, titleBg, titleIdle color.Color
	sel, selFg, match                                   color.Color
	found, pending, missed, readNow, readOld            color.Color
	readNowBg                                           color.Color
	newGold, reread, err, escape                        color.Color
	spark                                               [4]color.Color
	read, search, edit, run, submit, other              color.Color
	syntax                                              syntaxPalette
	bold                                                bool // bolder text for projectors
	// target is the contrast ratio every text colour reaches against the
	// pane background: 4.5, the WCAG AA level, or 7 (AAA) for projectors.
	target float64
}

// x is a 256-colour index. The colour themes use indexes 16–255 only:
// those are the same colours in every terminal (the xterm palette), so the
// contrast the tests compute is the contrast people see; indexes 0–15 are
// each user's own palette.
func x(i int) color.Color { return lipgloss.Color(strconv.Itoa(i)) }

// The pane backgrounds the themes are designed for: the xterm defaults of
// a dark and a light terminal.
var (
	darkBg  = x(16)  // #000000
	lightBg = x(231) // #ffffff
)

// Background is the pane background the theme's colours were chosen
// against; nil for the colourless theme.
func (t *Theme) Background() color.Color {
	switch {
	case !t.Color:
		return nil
	case t.Dark:
		return darkBg
	}
	return lightBg
}

// Target is the contrast ratio the theme's text reaches against the pane
// background (the read band: 4.5 in every theme).
func (t *Theme) Target() float64 { return t.target }

func darkPalette() palette {
	return palette{
		fg: nil, muted: x(248), faint: x(244), accent: x(51),
		title: x(252), titleBg: x(237), titleIdle: x(237),
		sel: x(24), selFg: x(231), match: x(226),
		found: x(46), pending: x(226), missed: x(196), readNow: x(51), readOld: x(67),
		readNowBg: x(236),
		newGold:   x(46), reread: x(173), err: x(196), escape: x(201),
		spark: [4]color.Color{x(51), x(201), x(226), x(46)},
		read:  x(51), search: x(201), edit: x(226), run: x(75), submit: x(46), other: x(245),
		syntax: darkSyntax(), target: 4.5,
	}
}

func lightPalette() palette {
	return palette{
		fg: nil, muted: x(240), faint: x(242), accent: x(25),
		title: x(235), titleBg: x(254), titleIdle: x(254),
		sel: x(153), selFg: x(16), match: x(127),
		found: x(28), pending: x(130), missed: x(160), readNow: x(25), readOld: x(61),
		readNowBg: x(253),
		newGold:   x(28), reread: x(130), err: x(160), escape: x(127),
		spark: [4]color.Color{x(25), x(127), x(130), x(28)},
		read:  x(25), search: x(127), edit: x(130), run: x(23), submit: x(28), other: x(240),
		syntax: lightSyntax(), target: 4.5,
	}
}

// contrastPalette is for projectors: saturated colours at 7:1, bold text, a
// read band that holds up in a bright room and syntax colours at the same
// contrast.
func contrastPalette(dark bool) palette {
	p := palette{
		muted: x(252), faint: x(250), accent: x(51), title: x(231), titleBg: x(19), titleIdle: x(240),
		sel: x(231), selFg: x(16), match: x(226),
		found: x(46), pending: x(226), missed: x(210), readNow: x(51), readOld: x(44),
		readNowBg: x(238),
		newGold:   x(46), reread: x(226), err: x(210), escape: x(213),
		spark: [4]color.Color{x(51), x(213), x(226), x(46)},
		read:  x(51), search: x(213), edit: x(226), run: x(81), submit: x(46), other: x(231),
		syntax: contrastSyntax(true), bold: true, target: 7,
	}
	if !dark {
		p.muted, p.faint, p.accent, p.title, p.titleBg, p.titleIdle = x(16), x(238), x(19), x(231), x(19), x(240)
		p.sel, p.selFg, p.match = x(16), x(231), x(90)
		p.found, p.pending, p.missed, p.readNow, p.readOld = x(22), x(90), x(124), x(19), x(18)
		p.readNowBg = x(252)
		p.newGold, p.reread, p.err, p.escape = x(22), x(90), x(124), x(90)
		p.spark = [4]color.Color{x(19), x(90), x(124), x(22)}
		p.read, p.search, p.edit, p.run, p.submit, p.other = x(19), x(90), x(124), x(23), x(22), x(16)
		p.syntax = contrastSyntax(false)
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
	t := &Theme{Name: name, Dark: dark, Color: true, target: p.target}
	t.Syntax = syntaxFrom(p.syntax)
	t.AppName = fg(p.accent).Bold(true)
	t.HeaderKey = fg(p.muted)
	t.HeaderValue = fg(p.fg).Bold(true)
	t.HeaderSep = fg(p.faint)
	t.PaneTitle = fg(p.muted).Background(p.titleBg)
	t.PaneTitleFocused = fg(p.title).Background(p.titleBg).Bold(true)
	if name == "contrast" {
		t.PaneTitle = fg(p.title).Background(p.titleIdle)
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
	// The palette's own text colours, each already at the theme's contrast.
	for _, c := range []color.Color{p.read, p.search, p.edit, p.run, p.submit, p.reread} {
		t.agents = append(t.agents, fg(c).Bold(true))
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
	t := &Theme{Name: "mono", Dark: dark, Color: false}
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
