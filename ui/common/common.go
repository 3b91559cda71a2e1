// Package common holds what the explorer's panes share: the program context
// (size, theme, current action, lens), the data precomputed once per run, the
// Component contract and small text helpers.
package common

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/themes"
)

// Component is one pane: it handles its own keys, renders itself at the size
// it was given, and describes its keys for the help view.
type Component interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(width, height int)
	help.KeyMap
}

// Context is the state every pane reads. The root model owns it and is the
// only writer; panes keep a pointer and compare what they last rendered.
type Context struct {
	Data  *Data
	Theme *themes.Theme
	// Cur is the current action, 0-based.
	Cur int
	// Lens selects which steps drive coverage, reads and the gutter.
	Lens model.Lens
	// Filter is the category shown in the timeline ("" for all).
	Filter string
	// Query is the committed search text, lower-cased ("" for none).
	Query string
	// Playing and Speed describe autoplay for the header.
	Playing bool
	Speed   string
	// Rev counts changes to Theme, Filter or Query, so panes can key their
	// caches on one integer.
	Rev int
}

// L is the current lens's data.
func (c *Context) L() *LensData { return &c.Data.Lens[c.Lens] }
