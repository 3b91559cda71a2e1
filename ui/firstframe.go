//go:build firstframe

package ui

import tea "charm.land/bubbletea/v2"

// A binary built with -tags firstframe quits as soon as its first full
// screen is drawn, so start-up can be timed from outside (/usr/bin/time,
// hyperfine) on a real terminal. The product binary has no such hook.
func init() { firstFrameHook = func(m tea.Model) tea.Model { return firstFrame{m} } }

type firstFrame struct{ tea.Model }

func (f firstFrame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := f.Model.Update(msg)
	if _, sized := msg.(tea.WindowSizeMsg); sized {
		// Quitting renders the final frame: the first full screen.
		return firstFrame{m}, tea.Quit
	}
	return firstFrame{m}, cmd
}
