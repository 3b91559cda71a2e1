package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
)

// View renders the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "trajscope · " + termsafe.Line(m.ctx.Data.Run.InstanceID)
	return v
}

// Render returns the screen's text.
func (m *Model) Render() string {
	if m.w <= 0 || m.h <= 0 {
		return "loading…"
	}
	rows := make([]string, 0, m.h)
	rows = append(rows, fit.Line(m.header.View(), m.w))
	switch {
	case m.showHelp:
		// Help takes the metrics' rows too: at 80x24 every key must fit.
		rows = append(rows, m.helpView(m.lay.bodyH+m.lay.metricsH)...)
	default:
		rows = append(rows, m.body()...)
		if m.lay.metricsH > 0 {
			rows = append(rows, strings.Split(m.met.View(), "\n")...)
		}
	}
	rows = append(rows, fit.Line(m.footer(), m.w))
	// Every row is already exactly m.w wide (panes and bars fit their own
	// lines), so only the row count needs fixing: measuring 60 rows of 200
	// cells again would cost more than rendering them.
	for len(rows) < m.h {
		rows = append(rows, strings.Repeat(" ", m.w))
	}
	return strings.Join(rows[:m.h], "\n")
}

// body joins the columns of panes row by row, re-rendering only dirty panes.
func (m *Model) body() []string {
	sep := m.ctx.Theme.Separator.Render("│")
	rows := make([]string, m.lay.bodyH)
	for ci, c := range m.lay.cols {
		y := 0
		for _, s := range c.slots {
			if s.h <= 0 {
				continue
			}
			var text string
			switch {
			case s.p < 0:
				text = strings.Join(fit.Block(nil, c.w, s.h), "\n") // a slot no pane has
			case m.dirty[s.p] || m.cache[s.p] == "":
				text = m.panes[s.p].View()
				m.cache[s.p], m.dirty[s.p] = text, false
			default:
				text = m.cache[s.p]
			}
			for _, line := range strings.Split(text, "\n") {
				if y >= len(rows) {
					break
				}
				if ci > 0 {
					rows[y] += sep
				}
				rows[y] += line
				y++
			}
		}
	}
	return rows
}

// footer is the status, then the focused pane's keys.
func (m *Model) footer() string {
	t := m.ctx.Theme
	if m.searching {
		return t.Status.Render(" /"+termsafe.Line(m.input)+"█") + t.Muted.Render("   enter search · esc cancel")
	}
	left := ""
	if m.status != "" {
		left = " " + t.Status.Render(termsafe.Line(m.status)) + "  "
	} else if id := m.hiddenGold(); id >= 0 {
		// Too small a screen for the gold panel: say where it went.
		left = " " + t.Muted.Render("gold panel: "+m.keyTo(id)) + " "
	}
	m.help.SetWidth(max(m.w-ansi.StringWidth(left)-1, 0))
	return left + " " + m.help.ShortHelpView(m.panes[m.focus].ShortHelp())
}

// hiddenGold is the gold panel's id when the layout has no room for it
// and it is not focused, -1 otherwise.
func (m *Model) hiddenGold() paneID {
	for id, r := range registry {
		if r.place == placeSide && paneID(id) != m.focus && !m.lay.visible(paneID(id)) {
			return paneID(id)
		}
	}
	return -1
}

// keyTo is the key that focuses pane id soonest: tab forward or
// shift+tab back.
func (m *Model) keyTo(id paneID) string {
	n := paneID(len(m.panes))
	fwd, back := (id-m.focus+n)%n, (m.focus-id+n)%n
	if back < fwd {
		return strings.Repeat("⇧tab ", int(back)-1) + "⇧tab"
	}
	return strings.Repeat("tab ", int(fwd)-1) + "tab"
}

// helpView is the full help of the focused pane: key groups side by side as
// far as the width allows (wrapping to more rows), then the legend of every
// glyph.
func (m *Model) helpView(h int) []string {
	t := m.ctx.Theme
	lines := []string{pane.Title(m.ctx, "Help", "? or esc closes", true, m.w)}
	var row []string
	rowW := 0
	flush := func() {
		if len(row) == 0 {
			return
		}
		lines = append(lines, "")
		for _, l := range strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, row...), "\n") {
			lines = append(lines, " "+l)
		}
		row, rowW = nil, 0
	}
	m.help.SetWidth(0)
	for _, g := range m.panes[m.focus].FullHelp() {
		col := m.help.FullHelpView([][]key.Binding{g})
		cw := lipgloss.Width(col) + 3
		if rowW > 0 && rowW+cw > m.w-1 {
			flush()
		}
		row = append(row, lipgloss.NewStyle().PaddingRight(3).Render(col))
		rowW += cw
	}
	flush()
	legend := func(items ...string) {
		// Wrap legend items to the width, two spaces apart.
		cur, curW := " ", 1
		for _, it := range items {
			w := ansi.StringWidth(it)
			if curW > 1 && curW+2+w > m.w {
				lines = append(lines, cur)
				cur, curW = " ", 1
			}
			cur += " " + it + " "
			curW += w + 2
		}
		lines = append(lines, cur)
	}
	lines = append(lines, "")
	legend(t.Bold.Render("Gutter:"), t.MarkReadNow.Render(display.GlyphReadNow)+" read by this step",
		t.MarkReadBefore.Render(display.GlyphReadBefore)+" read before",
		t.MarkGoldFound.Render(display.GlyphGoldFound)+" gold, read",
		t.MarkGoldPending.Render(display.GlyphGoldPending)+" gold, read later",
		t.MarkGoldMissed.Render(display.GlyphGoldMissed)+" gold, never read",
		t.Value.Render(display.GlyphFinal)+" in the final context",
		t.Error.Render(display.GlyphReadFailed)+" counted, but its command failed")
	cats := []string{t.Bold.Render("Timeline:")}
	for _, c := range display.CategoryOrder {
		cats = append(cats, t.Category(c).Render(display.CategoryGlyph(c))+" "+c)
	}
	cats = append(cats, t.NewGold.Render("+n")+" new gold lines", t.Reread.Render(display.GlyphReread)+" only re-read",
		t.Error.Render(display.GlyphFailed)+" command failed", t.Muted.Render(display.GlyphAside)+" read a file not in the repository", "* search match")
	legend(cats...)
	lines = append(lines, t.Muted.Render(" Lens (v): contextbench = the evaluator's steps · observed = what actions showed"))
	// Last, so that a short screen (80x24) loses this line and no key.
	lines = append(lines, t.Muted.Render(" Gold: @k first read by step k · → by the end: found, read then dropped, near miss ±lines, searched, never opened"))
	return fit.Block(lines, m.w, h)
}

// wheel scrolls the pane under the pointer.
func (m *Model) wheel(ms tea.Mouse) tea.Cmd {
	n := 0
	switch ms.Button {
	case tea.MouseWheelDown:
		n = 1
	case tea.MouseWheelUp:
		n = -1
	default:
		return nil
	}
	if m.showHelp {
		return nil
	}
	for p, r := range m.lay.rects() {
		if ms.X >= r.x && ms.X < r.x+r.w && ms.Y >= r.y && ms.Y < r.y+r.h {
			m.dirty[p] = true
			return m.panes[p].Scroll(n)
		}
	}
	return nil
}
