// Package pane is the contract between the explorer's root model and its
// panes: the Pane interface, the Context every pane reads, the messages a
// pane and the root send each other, and the title row every pane draws.
//
// The root holds the panes in one list (ui/panes.go), sizes them, gives
// the focused one its keys, shows its help in the footer and broadcasts
// every other message to all of them. A pane knows no other pane.
package pane

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// Pane is one of the explorer's panes.
type Pane interface {
	// Update handles a key while the pane is focused, and the messages the
	// root broadcasts (StepMsg, LensMsg, ShowMsg).
	Update(msg tea.Msg) tea.Cmd
	// View renders the pane, title row included, as exactly the lines and
	// cells SetSize gave it.
	View() string
	SetSize(width, height int)
	SetFocused(focused bool)
	// Scroll moves the pane by n mouse-wheel notches (down when n > 0).
	Scroll(n int) tea.Cmd
	// ShortHelp is the footer while the pane is focused (keys.Footer) and
	// FullHelp the help screen's key groups (keys.FullHelp).
	help.KeyMap
}

// Base is what every pane holds: the shared context, its size (title row
// included) and whether it has the focus. Embedding it gives a pane
// SetSize and SetFocused.
type Base struct {
	Ctx     *Context
	W, H    int
	Focused bool
}

// SetSize sets the pane's size.
func (b *Base) SetSize(w, h int) { b.W, b.H = w, h }

// SetFocused focuses or blurs the pane.
func (b *Base) SetFocused(f bool) { b.Focused = f }

// Modal is a pane that can take every key for a while, whatever the focus
// (the source pane's file picker).
type Modal interface {
	Modal() bool
}

// Idler is a pane with work it can do ahead while the user reads (the
// source pane highlights the rest of its file). Idle does one small piece
// and reports whether any is left.
type Idler interface {
	Idle() bool
}

// Reloader is a pane that keeps something of the run it shows beyond the
// context: told when a followed run was read again (ui.LiveMsg), it drops
// that and keeps what the user chose (the file shown, the scroll, the
// selection).
type Reloader interface {
	Reload()
}

// Global is a pane with keys that work whatever the focus (the source
// pane's gold jumps and file picker). The root offers it every key it does
// not handle itself, before the focused pane; ok reports the key was the
// pane's.
type Global interface {
	Global(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool)
}

// Context is the state every pane reads. The root model owns it and is the
// only writer; panes keep a pointer and compare what they last rendered.
type Context struct {
	Data  *viewdata.Data
	Theme *themes.Theme
	// Cur is the current action, 0-based.
	Cur int
	// Lens selects which steps drive coverage, reads and the gutter.
	Lens model.Lens
	// Filter is the category shown in the timeline ("" for all).
	Filter string
	// Spend shows where time and tokens went (u): per action in the
	// timeline, as bars in the metrics pane.
	Spend bool
	// Folded hides the actions sub-agents made (Sidechain): the timeline
	// shows the calls that launched them only.
	Folded bool
	// Query is the committed search text, lower-cased ("" for none).
	Query string
	// Playing and Speed describe autoplay for the header.
	Playing bool
	Speed   string
	// Live says, for a run being followed (view --follow), whether it is
	// still being written ("live") or has ended ("ended"); "" otherwise.
	Live string
	// Rev counts changes to Theme, Filter or Query, so panes can key their
	// caches on one integer.
	Rev int
	// rows caches the filter's rows (nav.go).
	rows rows
}

// L is the current lens's analysis.
func (c *Context) L() *scoring.LensData { return &c.Data.A.Lenses[c.Lens] }

// Title renders a pane's title row: name, then detail, focused or not.
func Title(ctx *Context, name, detail string, focused bool, w int) string {
	t := ctx.Theme
	st := t.PaneTitle
	mark := " "
	if focused {
		st = t.PaneTitleFocused
		mark = display.GlyphCursor
	}
	s := mark + name
	if detail != "" {
		s += "  " + termsafe.Line(detail)
	}
	return st.Render(fit.Line(s, w))
}
