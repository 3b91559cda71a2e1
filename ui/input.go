package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/pane"
)

// key handles a key press: the search input and the help screen first, then
// a modal pane (the file picker), the root's global keys, the panes' global
// keys and last the focused pane.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if k.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.searching {
		return m.searchKey(k)
	}
	if m.showHelp {
		switch {
		case key.Matches(k, keys.Quit):
			return tea.Quit
		case key.Matches(k, keys.Help), key.Matches(k, keys.Back):
			m.showHelp = false
			m.markAll()
		}
		return nil
	}
	for p, pn := range m.panes {
		if md, ok := pn.(pane.Modal); ok && md.Modal() {
			if key.Matches(k, keys.Quit) {
				k = tea.KeyPressMsg{Code: tea.KeyEscape} // q closes the picker first
			}
			m.dirty[p] = true
			return pn.Update(k)
		}
	}
	m.status = ""
	switch {
	case key.Matches(k, keys.Quit):
		return tea.Quit
	case key.Matches(k, keys.Help):
		m.showHelp = true
		m.markAll()
	case key.Matches(k, keys.Next):
		return m.step(1)
	case key.Matches(k, keys.Prev):
		return m.step(-1)
	case key.Matches(k, keys.First):
		if i, ok := m.ctx.Neighbour(0, 0); ok {
			return m.setCur(i)
		}
	case key.Matches(k, keys.Last):
		if i, ok := m.ctx.Neighbour(m.ctx.Data.N-1, 0); ok {
			return m.setCur(i)
		}
	case key.Matches(k, keys.Focus):
		m.setFocus((m.focus + 1) % paneID(len(m.panes)))
	case key.Matches(k, keys.FocusBack):
		m.setFocus((m.focus + paneID(len(m.panes)) - 1) % paneID(len(m.panes)))
	case key.Matches(k, keys.Search):
		m.searching, m.input = true, ""
	case key.Matches(k, keys.NextMatch):
		return m.match(1)
	case key.Matches(k, keys.PrevMatch):
		return m.match(-1)
	case key.Matches(k, keys.Filter):
		return m.cycleFilter()
	case key.Matches(k, keys.Fold):
		return m.toggleFold()
	case key.Matches(k, keys.Spend):
		m.ctx.Spend = !m.ctx.Spend
		m.ctx.Rev++
		m.markAll()
		m.status = "spend: time and tokens per step (u: coverage)"
		if !m.ctx.Spend {
			m.status = "coverage"
		} else if display.SpendWords(story.RunSpend(m.ctx.Data.Run)) == "" {
			m.status = "this run records no timestamps, tokens or cost"
		}
	case key.Matches(k, keys.Play):
		return m.togglePlay()
	case key.Matches(k, keys.GoldStep):
		return m.nextGold()
	case key.Matches(k, keys.SessionBack):
		if m.liveBack == nil {
			m.status = "no session to go back to: watch switches when a newer one starts"
			return nil
		}
		back := m.liveBack
		m.liveBack = nil
		m.status = "back to the last session…"
		go back() // the feed reads it and sends it, as every reading
		return nil
	case key.Matches(k, keys.Faster):
		return m.setSpeed(m.speed + 1)
	case key.Matches(k, keys.Slower):
		return m.setSpeed(m.speed - 1)
	case key.Matches(k, keys.Lens):
		m.ctx.Lens = 1 - m.ctx.Lens
		m.ctx.Rev++
		m.status = "lens: " + m.ctx.Lens.String()
		return m.broadcast(pane.LensMsg{})
	case key.Matches(k, keys.PrevRun), key.Matches(k, keys.NextRun):
		if !m.opts.InList {
			m.status = "one run: view a folder or several files to move between runs"
			return nil
		}
		n := 1
		if key.Matches(k, keys.PrevRun) {
			n = -1
		}
		return func() tea.Msg { return switchMsg{n} }
	case key.Matches(k, keys.Back):
		switch {
		case m.ctx.Query != "":
			m.ctx.Query = ""
			m.ctx.Rev++
			m.markAll()
		case m.opts.InList:
			return func() tea.Msg { return leaveMsg{} }
		}
	default:
		for p, pn := range m.panes {
			if g, ok := pn.(pane.Global); ok {
				if cmd, ok := g.Global(k); ok {
					m.dirty[p] = true
					return cmd
				}
			}
		}
		// Pane keys (j/k, enter…) go to the focused pane only.
		m.dirty[m.focus] = true
		return m.panes[m.focus].Update(k)
	}
	return nil
}

func (m *Model) step(n int) tea.Cmd {
	if i, ok := m.ctx.Neighbour(m.ctx.Cur, n); ok {
		return m.setCur(i)
	}
	return nil
}

func (m *Model) searchKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		m.searching = false
		m.ctx.Query = strings.ToLower(m.input)
		m.ctx.Rev++
		m.markAll()
		if m.ctx.Query != "" {
			if m.ctx.Data.Matches(m.ctx.Cur, m.ctx.Query) {
				m.status = m.matchStatus()
			} else {
				return m.match(1)
			}
		}
	case "esc":
		m.searching = false
	default:
		m.input = keys.TypeInto(m.input, k)
	}
	return nil
}

// match moves to the next (dir 1) or previous matching visible action,
// wrapping around.
func (m *Model) match(dir int) tea.Cmd {
	q := m.ctx.Query
	if q == "" {
		m.status = "no search: / to search"
		return nil
	}
	d := m.ctx.Data
	for k := 1; k <= d.N; k++ {
		i := ((m.ctx.Cur+dir*k)%d.N + d.N) % d.N
		if d.Matches(i, q) && m.ctx.Visible(i) {
			cmd := m.setCur(i)
			m.status = m.matchStatus()
			return cmd
		}
	}
	m.status = fmt.Sprintf("no match for %q", termsafe.Line(q))
	if n := m.ctx.Data.TaskMatches(q); n > 0 {
		m.status = fmt.Sprintf("no action matches %q; %d lines of the task do (t shows them)", termsafe.Line(q), n)
	}
	return nil
}

func (m *Model) matchStatus() string {
	d, q := m.ctx.Data, m.ctx.Query
	n, at := 0, 0
	for i := 0; i < d.N; i++ {
		if d.Matches(i, q) && m.ctx.Visible(i) {
			n++
			if i == m.ctx.Cur {
				at = n
			}
		}
	}
	s := fmt.Sprintf("match %d/%d for %q", at, n, termsafe.Line(q))
	if k := d.TaskMatches(q); k > 0 {
		s += fmt.Sprintf(" · %d in the task (t)", k)
	}
	return s
}

// toggleFold folds or unfolds the sub-agents' actions under the calls that
// launched them.
func (m *Model) toggleFold() tea.Cmd {
	n := 0
	for i := range m.ctx.Data.Run.Actions {
		if m.ctx.Data.Run.Actions[i].Sidechain() {
			n++
		}
	}
	if n == 0 {
		m.status = "no sub-agent actions in this run"
		return nil
	}
	m.ctx.Folded = !m.ctx.Folded
	m.ctx.Rev++
	var cmd tea.Cmd
	cur := m.ctx.Cur
	if m.ctx.Folded {
		// Folding from a sub-agent's action goes to the call that
		// started it, not to whatever lead action comes next.
		if c := m.ctx.Data.Run.LaunchedBy(cur); c >= 0 {
			cur = c
		}
	}
	if i, ok := m.ctx.Neighbour(cur, 0); ok {
		cmd = m.setCur(i)
	}
	acts := fmt.Sprintf("%d action", n)
	if n != 1 {
		acts += "s"
	}
	m.status = "sub-agents unfolded: " + acts + " shown under their calls (↳)"
	if m.ctx.Folded {
		m.status = "sub-agents folded: " + acts + " hidden (z unfolds)"
	}
	m.markAll()
	return cmd
}

func (m *Model) cycleFilter() tea.Cmd {
	opts := append([]string{""}, m.ctx.Data.Categories...)
	next := 0
	for k, c := range opts {
		if c == m.ctx.Filter {
			next = (k + 1) % len(opts)
		}
	}
	m.ctx.Filter = opts[next]
	m.ctx.Rev++
	var cmd tea.Cmd
	if i, ok := m.ctx.Neighbour(m.ctx.Cur, 0); ok {
		cmd = m.setCur(i)
	}
	if m.ctx.Filter == "" {
		m.status = "filter: all actions"
	} else {
		m.status = fmt.Sprintf("filter: %s (%d actions)", m.ctx.Filter, len(m.ctx.Rows()))
	}
	m.markAll()
	return cmd
}
