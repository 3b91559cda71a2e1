// Package runlist is the list of runs `view DIR` opens on: one row per run
// with who ran it, how long it was, and what it found (final line coverage,
// line AUC, redundancy, and what became of each gold span), sortable by any
// column and filtered by text. Rows fill in as the runs load in the
// background; enter asks the root to open a run.
package runlist

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
)

// Runs is what the list shows and loads (runset.Set). Step and the others
// are called from different goroutines.
type Runs interface {
	// Rows are the runs in list order.
	Rows() []story.Row
	// Step does one piece of background loading; false when all is done.
	Step() bool
	// Progress: files read of all files, runs analysed of all rows.
	Progress() (read, files, analysed, rows int)
	// Warnings are notes about the runs (duplicate ids, unreadable files).
	Warnings() []string
	// Grep gives the rows whose runs hold a text (ignoring case) in a
	// command, thought, output or task, by row index.
	Grep(q string) map[int]bool
}

// OpenMsg asks the root to open the run at position Pos.
type OpenMsg struct{ Pos int }

// LoadedMsg reports a stretch of background loading (more is false when
// it is complete). The root hands it to the list whatever it shows, so
// loading goes on while a run is open.
type LoadedMsg struct{ more bool }

// stretch is how long one background command loads before the list shows
// what it has: rows appear smoothly and keys stay answered.
const stretch = 50 * time.Millisecond

// Model is the run list.
type Model struct {
	runs  Runs
	title string
	theme *themes.Theme
	lens  model.Lens
	w, h  int

	rows []story.Row
	view []int // the rows shown, filtered and sorted: indexes into rows
	// labels are the rows' ids as shown: duplicates say what differs.
	labels []string
	cur    int // the selected entry of view
	off    int // the first visible entry of view

	col    int // sort column (index into columns)
	desc   bool
	filter string
	// inside holds the rows whose runs hold insideQ, for the filter, found
	// when there were insideN rows.
	inside  map[int]bool
	insideQ string
	insideN int

	typing  bool
	input   string
	loading bool
	status  string
}

// New returns a list of runs titled by what was opened (a folder, files).
func New(runs Runs, title string, th *themes.Theme, lens model.Lens) *Model {
	m := &Model{runs: runs, title: title, theme: th, lens: lens, loading: true}
	m.refresh()
	return m
}

// Init starts loading in the background.
func (m *Model) Init() tea.Cmd { return m.load() }

func (m *Model) load() tea.Cmd {
	runs := m.runs
	return func() tea.Msg {
		end := time.Now().Add(stretch)
		more := true
		for more && time.Now().Before(end) {
			more = runs.Step()
		}
		return LoadedMsg{more}
	}
}

// SetSize sets the list's size: the whole screen.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h; m.scroll() }

// SetTheme changes the theme (the terminal's background became known).
func (m *Model) SetTheme(th *themes.Theme) { m.theme = th }

// SetStatus puts a message in the footer until the next key.
func (m *Model) SetStatus(s string) { m.status = s }

// Loading reports whether rows are still being filled in.
func (m *Model) Loading() bool { return m.loading }

// Selected is the position of the selected run, 0 when none is shown.
func (m *Model) Selected() int {
	if m.cur < len(m.view) {
		return m.rows[m.view[m.cur]].Pos
	}
	return 0
}

// Select moves the selection to the run at pos, when the list shows it.
func (m *Model) Select(pos int) {
	for k, i := range m.view {
		if m.rows[i].Pos == pos {
			m.cur = k
			m.scroll()
		}
	}
}

// Neighbour is the position of the run n rows after the one at pos (before
// it when n < 0) in the list as sorted and filtered; ok is false at an end.
func (m *Model) Neighbour(pos, n int) (int, bool) {
	for k, i := range m.view {
		if m.rows[i].Pos == pos {
			if j := k + n; j >= 0 && j < len(m.view) {
				return m.rows[m.view[j]].Pos, true
			}
			return pos, false
		}
	}
	return pos, false
}

// refresh reads the rows again and re-applies the filter and the sort,
// keeping the selected run selected.
func (m *Model) refresh() {
	sel := m.Selected()
	m.rows = m.runs.Rows()
	m.labels = story.Labels(m.rows)
	m.view = m.view[:0]
	q := strings.ToLower(m.filter)
	if q != "" && (m.insideQ != q || m.insideN != len(m.rows)) {
		// The filter also looks inside the runs (read again for it, once
		// per filter).
		m.inside, m.insideQ, m.insideN = m.runs.Grep(q), q, len(m.rows)
	}
	for i := range m.rows {
		r := &m.rows[i]
		if q == "" || strings.Contains(strings.ToLower(r.ID+" "+r.Who()+" "+r.Path+" "+r.Format), q) || m.inside[i] {
			m.view = append(m.view, i)
		}
	}
	// Runs without figures (not analysed yet, or shown "–": no gold, not
	// scored) go last, whatever the direction: a "–" is no 0.00; runs
	// scored without their repository after those scored against it.
	report.SortRows(m.view, m.rows, m.col, m.lens, m.desc)
	m.cur = 0
	if sel > 0 {
		m.Select(sel)
	}
	m.scroll()
}

// resort applies a new sort and shows its top: the best (or worst) runs
// are what a sort is asked for.
func (m *Model) resort() {
	m.refresh()
	m.cur, m.off = 0, 0
}

// scroll keeps the selection in view.
func (m *Model) scroll() {
	body := m.bodyH()
	m.cur = max(0, min(m.cur, len(m.view)-1))
	if m.cur < m.off {
		m.off = m.cur
	}
	if body > 0 && m.cur >= m.off+body {
		m.off = m.cur - body + 1
	}
	m.off = max(0, min(m.off, len(m.view)-body))
}

// bodyH is the number of run rows on screen: the title and column rows
// above, the note line and the keys below.
func (m *Model) bodyH() int { return max(m.h-4, 0) }

// Update handles the background loading and the list's keys.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case LoadedMsg:
		m.refresh()
		m.loading = msg.more
		if msg.more {
			return m.load()
		}
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg:
		if msg.Mouse().Button == tea.MouseWheelDown {
			m.move(3)
		} else if msg.Mouse().Button == tea.MouseWheelUp {
			m.move(-3)
		}
	}
	return nil
}

func (m *Model) move(n int) {
	m.cur += n
	m.scroll()
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if m.typing {
		switch k.String() {
		case "enter":
			m.typing, m.filter = false, m.input
			m.refresh()
		case "esc":
			m.typing = false
		default:
			m.input = keys.TypeInto(m.input, k)
		}
		return nil
	}
	m.status = ""
	switch {
	case key.Matches(k, keys.Quit):
		return tea.Quit
	case key.Matches(k, keys.Open):
		if pos := m.Selected(); pos > 0 {
			return func() tea.Msg { return OpenMsg{pos} }
		}
	case key.Matches(k, keys.Down):
		m.move(1)
	case key.Matches(k, keys.Up):
		m.move(-1)
	case key.Matches(k, keys.PageDown):
		m.move(max(1, m.bodyH()/2))
	case key.Matches(k, keys.PageUp):
		m.move(-max(1, m.bodyH()/2))
	case key.Matches(k, keys.First):
		m.move(-len(m.view))
	case key.Matches(k, keys.Last):
		m.move(len(m.view))
	case key.Matches(k, keys.ListFilter):
		m.typing, m.input = true, m.filter
	case key.Matches(k, keys.Back):
		if m.filter != "" {
			m.filter = ""
			m.refresh()
		}
	case key.Matches(k, keys.Sort):
		ws := m.widths()
		m.col = (m.col + 1) % len(report.ListColumns)
		for m.col != 0 && ws[m.col] == 0 {
			m.col = (m.col + 1) % len(report.ListColumns) // a hidden column sorts nothing anyone sees
		}
		m.desc = report.ListColumns[m.col].Metric
		// The optional columns (blind edits, spend) sort most first, as the figures do.
		m.desc = m.desc || m.col >= len(report.ListColumns)-len(report.OptionalShown)
		m.resort()
	case key.Matches(k, keys.SortDir):
		m.desc = !m.desc
		m.resort()
	case key.Matches(k, keys.Lens):
		m.lens = 1 - m.lens
		m.status = "lens: " + m.lens.String()
		m.refresh()
	}
	return nil
}

// View renders the list: exactly the screen.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	t := m.theme
	ws := m.widths()
	lines := []string{t.PaneTitleFocused.Render(fit.Line(m.titleLine(), m.w))}
	var head strings.Builder
	head.WriteByte(' ')
	for i, c := range report.ListColumns {
		if ws[i] == 0 {
			continue
		}
		title := c.Title
		if i == m.col {
			if m.desc {
				title += "↓"
			} else {
				title += "↑"
			}
		}
		head.WriteString(align(title, ws[i], i != 1 && i != report.ColWho) + " ")
	}
	lines = append(lines, t.HeaderKey.Render(fit.Line(head.String(), m.w)))
	body := m.bodyH()
	for k := m.off; k < len(m.view) && k < m.off+body; k++ {
		lines = append(lines, m.rowLine(&m.rows[m.view[k]], m.labels[m.view[k]], ws, k == m.cur))
	}
	if len(m.view) == 0 {
		msg := " no runs match the filter (esc clears it)"
		if len(m.rows) == 0 {
			msg = " no runs"
		}
		lines = append(lines, t.Muted.Render(msg))
	}
	for len(lines) < 2+body {
		lines = append(lines, "")
	}
	lines = append(lines, m.note(), m.footer())
	return strings.Join(fit.Block(lines, m.w, m.h), "\n")
}

// note is the line above the keys: the status, else what kept the
// selected run from being complete, else the first warning about the runs.
func (m *Model) note() string {
	t := m.theme
	if m.typing {
		return ""
	}
	if m.status != "" {
		return " " + t.Status.Render(termsafe.Line(m.status))
	}
	if m.cur < len(m.view) {
		r := &m.rows[m.view[m.cur]]
		if l := &r.Lenses[m.lens]; r.Analysed && l.Error != "" && !strings.Contains(r.Note, l.Error) &&
			(r.Note == "" || l.Error != scoring.ErrMissingGold) {
			// Why the figures are missing comes first; the note (no
			// repository, gold matched by the record's id) after it.
			why := l.Error
			if l.Reason != "" {
				why += ": " + l.Reason
			}
			line := fmt.Sprintf("#%d: not scored (%s)", r.Pos, why)
			if r.Note != "" {
				line += "; " + r.Note
			}
			return " " + t.Muted.Render(termsafe.Line(line))
		}
		if r.Note != "" {
			return " " + t.Muted.Render(fmt.Sprintf("#%d: %s", r.Pos, termsafe.Line(r.Note)))
		}
	}
	if w := m.runs.Warnings(); len(w) > 0 {
		more := ""
		if len(w) > 1 {
			more = fmt.Sprintf(" (+%d more)", len(w)-1)
		}
		return t.Error.Render(" ! ") + t.Muted.Render(termsafe.Line(w[0])+more)
	}
	return ""
}

// titleLine says what was opened, how many runs, how far loading is, the
// lens, the sort and the filter.
func (m *Model) titleLine() string {
	read, files, analysed, rows := m.runs.Progress()
	parts := []string{display.GlyphCursor + "Runs  " + termsafe.Line(m.title), fmt.Sprintf("%d runs", len(m.rows))}
	switch {
	case read < files:
		parts = append(parts, fmt.Sprintf("reading %d/%d files", read, files))
	case analysed < rows:
		parts = append(parts, fmt.Sprintf("analysing %d/%d", analysed, rows))
	}
	parts = append(parts, "lens "+m.lens.String())
	if m.filter != "" {
		parts = append(parts, fmt.Sprintf("filter %q: %d", termsafe.Line(m.filter), len(m.view)))
	}
	return strings.Join(parts, " · ")
}

func align(s string, w int, right bool) string {
	s = display.Truncate(s, w)
	pad := strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
	if right {
		return pad + s
	}
	return s + pad
}

func (m *Model) rowLine(r *story.Row, label string, ws []int, selected bool) string {
	t := m.theme
	var plain, styled strings.Builder
	plain.WriteByte(' ')
	styled.WriteByte(' ')
	for i, c := range report.ListColumns {
		if ws[i] == 0 {
			continue
		}
		var cell string
		switch {
		case i == 1:
			cell = display.Middle(label, ws[i])
		case c.Metric && i > 3 && !r.Analysed:
			cell = "…"
			if r.Note != "" && r.Loaded && r.Actions == 0 {
				cell = ""
			}
		default:
			cell = c.Cell(r, m.lens)
		}
		text := align(cell, ws[i], i != 1 && i != report.ColWho) + " "
		plain.WriteString(text)
		switch {
		case i == 1 && r.Note != "":
			styled.WriteString(t.Muted.Render(text))
		case cell == "…" || i == 0:
			styled.WriteString(t.Faint.Render(text))
		case i == report.ColFound && r.Analysed && r.Lenses[m.lens].Found() > 0:
			styled.WriteString(t.MarkGoldFound.Render(text))
		case i == report.ColNever && r.Analysed && r.Lenses[m.lens].Never() > 0:
			styled.WriteString(t.MarkGoldMissed.Render(text))
		default:
			styled.WriteString(text)
		}
	}
	if selected {
		return t.Selected.Render(fit.Line(plain.String(), m.w))
	}
	return fit.Line(styled.String(), m.w)
}

// footer is the filter being typed, else the keys.
func (m *Model) footer() string {
	t := m.theme
	if m.typing {
		return t.Status.Render(" /"+termsafe.Line(m.input)+"█") + t.Muted.Render("   enter filter · esc cancel")
	}
	var b strings.Builder
	for i, k := range [][2]string{{"enter", "open"}, {"/", "filter"}, {"s/S", "sort"}, {"v", "lens"}, {"H/L", "prev/next run"}, {"q", "quit"}} {
		if i > 0 {
			b.WriteString(t.HelpSep.Render(" · "))
		}
		b.WriteString(t.HelpKey.Render(k[0]) + " " + t.HelpDesc.Render(k[1]))
	}
	return " " + b.String()
}
