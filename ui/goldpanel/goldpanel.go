// Package goldpanel lists every gold file and span: whether the run has read
// it by the current action (and at which step), and what became of it by the
// end of the run (package diagnose: found, read then dropped, near miss,
// searched not read, never opened). Enter goes to the step that came
// closest.
package goldpanel

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/pane"
)

// Model is the gold panel.
type Model struct {
	pane.Base
	// sel is the selected span (index into Data.Gold); offset the first
	// visible row.
	sel, offset int
	// rows lays the spans out (a header per file, then its spans) for
	// rowsOf; only the visible rows are drawn, so a frame costs the pane's
	// height, not the gold's size.
	rows   []row
	rowsOf *diagnose.GoldSpan
	widest columns // the longest line range and fraction of rowsOf
}

// row is a file header (the file of span) or a span.
type row struct {
	span   int
	header bool
}

// layout returns the rows of gold, laid out once per run.
func (m *Model) layout(gold []diagnose.GoldSpan) []row {
	if len(gold) > 0 && m.rowsOf == &gold[0] && len(m.rows) >= len(gold) {
		return m.rows
	}
	m.rows = m.rows[:0]
	m.widest = columns{lines: 4, frac: 1} // "file", "-"
	for k := range gold {
		if g := &gold[k]; !g.FileLevel() {
			m.widest.lines = max(m.widest.lines, len(fmt.Sprintf("%d-%d", g.Start(), g.End())))
			m.widest.frac = max(m.widest.frac, 2*len(fmt.Sprint(g.Lines()))+1)
		}
		if k == 0 || gold[k-1].File() != gold[k].File() {
			m.rows = append(m.rows, row{k, true})
		}
		m.rows = append(m.rows, row{k, false})
	}
	if len(gold) > 0 {
		m.rowsOf = &gold[0]
	}
	return m.rows
}

// New returns a gold panel.
func New(ctx *pane.Context) *Model { return &Model{Base: pane.Base{Ctx: ctx}} }

// Reload keeps the selection within the gold of the new reading (a
// truncated session has fewer edits).
func (m *Model) Reload() { m.sel = max(0, min(m.sel, len(m.Ctx.Data.Gold)-1)) }

// Update moves the selection; enter goes to the step that came closest to
// the selected span and shows the span in the source pane.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !m.Focused {
		return nil
	}
	switch {
	case key.Matches(k, keys.Down):
		return m.Scroll(1)
	case key.Matches(k, keys.Up):
		return m.Scroll(-1)
	case key.Matches(k, keys.Closest):
		return m.jump()
	}
	return nil
}

func (m *Model) jump() tea.Cmd {
	d, l := m.Ctx.Data, m.Ctx.Lens
	if m.sel >= len(d.Gold) {
		return nil
	}
	g := &d.Gold[m.sel]
	where := termsafe.Line(g.File())
	if !g.FileLevel() {
		where += fmt.Sprintf(":%d-%d", g.Start(), g.End())
	}
	i := g.Closest(l)
	status := fmt.Sprintf("no step came near %s", where)
	if i >= 0 {
		status = fmt.Sprintf("step %d came closest to %s", i+1, where)
	}
	return pane.Jump(i, g.File(), max(g.Start(), 1), status)
}

// describe is what became of gold span k under the lens shown, in words,
// with the agent that found it.
func (m *Model) describe(k int) string {
	d, l := m.Ctx.Data, m.Ctx.Lens
	g := &d.Gold[k]
	text := g.Describe(l)
	if by := story.FoundByWords(d.Run, g.FoundAt(l)); by != "" {
		text += " (" + by + ")"
	}
	return termsafe.Line(text)
}

// Scroll moves the selection by n spans.
func (m *Model) Scroll(n int) tea.Cmd {
	m.sel = max(0, min(m.sel+n, len(m.Ctx.Data.Gold)-1))
	return nil
}

// categoryStyle colours a category with the gutter's gold colours: kept,
// seen but lost, never read. The label carries the meaning without colour.
func categoryStyle(t *themes.Theme, c diagnose.Category) lipgloss.Style {
	switch c {
	case diagnose.Found:
		return t.MarkGoldFound
	case diagnose.ReadThenDropped:
		return t.MarkGoldPending
	}
	return t.MarkGoldMissed
}

// View renders the title, the gold rows and, when focused, what became of
// the selected span.
func (m *Model) View() string {
	if m.W <= 0 || m.H <= 0 {
		return ""
	}
	ctx, t, d := m.Ctx, m.Ctx.Theme, m.Ctx.Data
	found := 0
	for k := range d.Gold {
		if g := &d.Gold[k]; g.FoundAt(ctx.Lens) >= 0 && g.FoundAt(ctx.Lens) <= ctx.Cur {
			found++
		}
	}
	title, spans := display.TargetTitle(d.S.Target.From)
	lines := []string{pane.Title(ctx, title, fmt.Sprintf("%d/%d %s read", found, len(d.Gold), spans), m.Focused, m.W)}
	if len(d.Gold) == 0 {
		// Without --gold the run's edits are the target: an empty gold
		// file's target is the gold's own doing.
		empty := " " + display.EmptyTarget(&d.S.Target)
		lines = append(lines, t.Muted.Render(empty))
		return strings.Join(fit.Block(lines, m.W, m.H), "\n")
	}
	// The description of the selected span takes the rows below the spans
	// that leave three rows of spans (at least two): on a narrow panel (a
	// projector's 100x30) it wraps whole rather than being cut.
	var detail []string
	if m.Focused && m.sel < len(d.Gold) {
		detail = strings.Split(ansi.Wrap(m.describe(m.sel), max(m.W-2, 1), ""), "\n")
		if most := max(2, m.H-5); len(detail) > most {
			detail = detail[:most]
			detail[most-1] = display.Truncate(detail[most-1]+" …", m.W-2)
		}
		if m.H-1-len(detail) < 3 {
			detail = nil
		}
	}
	rows := m.layout(d.Gold)
	selRow, _ := slices.BinarySearchFunc(rows, m.sel, func(r row, sel int) int {
		if r.span != sel {
			return r.span - sel
		}
		if r.header {
			return -1
		}
		return 0
	})
	cols := m.columns()
	body := m.H - 1 - len(detail)
	if selRow < m.offset+1 {
		m.offset = max(selRow-1, 0) // keep the file header in view
	}
	if selRow >= m.offset+body {
		m.offset = selRow - body + 1
	}
	m.offset = max(0, min(m.offset, len(rows)-body))
	for r := m.offset; r < len(rows) && len(lines) < 1+body; r++ {
		g := &d.Gold[rows[r].span]
		if rows[r].header {
			// Cut in the middle: two files of one directory stay apart.
			name := display.Middle(termsafe.Line(g.File()), m.W-2)
			lines = append(lines, t.Bold.Render(display.GlyphGoldFile+" "+name))
			continue
		}
		lines = append(lines, m.spanRow(rows[r].span, rows[r].span == m.sel && m.Focused, cols))
	}
	if len(lines) < 1+body {
		lines = append(lines, "") // a blank row sets the description apart
	}
	for _, l := range detail {
		lines = append(lines, " "+t.Muted.Render(l))
	}
	return strings.Join(fit.Block(lines, m.W, m.H), "\n")
}

// columns are the widths of the line-range and read-fraction columns,
// sized to the longest entry so the diagnosis keeps the room that is left.
// A frac of 0 hides the fraction; noAt hides "not yet"/"@k" (the glyph
// says whether the span is read by now).
type columns struct {
	lines, frac int
	noAt        bool
}

// diagRoom is what the diagnosis column needs: "read, dropped @12".
const diagRoom = 17

func (m *Model) columns() columns {
	m.layout(m.Ctx.Data.Gold)
	c := m.widest
	// On a narrow pane the diagnosis matters more than the fraction: the
	// glyph already says whether the span is read.
	if len("  ● ")+c.lines+1+c.frac+1+len("not yet")+len(" → ")+diagRoom > m.W {
		c.frac = 0
	}
	// Narrower still (a 29-column pane at 80x24): what became of the span
	// matters more than when it was read.
	c.noAt = len("  ● ")+c.lines+1+len("not yet")+len(" → ")+diagRoom > m.W
	return c
}

func (m *Model) spanRow(k int, selected bool, cols columns) string {
	ctx, t := m.Ctx, m.Ctx.Theme
	g := &ctx.Data.Gold[k]
	l := ctx.Lens
	var glyph, glyphStyled string
	read := 0
	if g.FileLevel() {
		if g.FoundAt(l) >= 0 && g.FoundAt(l) <= ctx.Cur {
			read = 1
		}
	} else {
		read = g.ReadBy(l, ctx.Cur)
	}
	switch {
	case read > 0:
		glyph, glyphStyled = display.GlyphGoldFound, t.MarkGoldFound.Render(display.GlyphGoldFound)
	case g.FoundAt(l) >= 0:
		glyph, glyphStyled = display.GlyphGoldPending, t.MarkGoldPending.Render(display.GlyphGoldPending)
	default:
		glyph, glyphStyled = display.GlyphGoldMissed, t.MarkGoldMissed.Render(display.GlyphGoldMissed)
	}
	lines, frac := "file", "-"
	if !g.FileLevel() {
		lines = fmt.Sprintf("%d-%d", g.Start(), g.End())
		frac = fmt.Sprintf("%d/%d", read, g.Lines())
	}
	// As of the current step: the step that first read it, or not yet
	// (never, once there is no step left to read it).
	at, readNow := "not yet", false
	switch {
	case g.FoundAt(l) >= 0 && g.FoundAt(l) <= ctx.Cur:
		at, readNow = fmt.Sprintf("@%d", g.FoundAt(l)+1), true
	case ctx.Cur == ctx.Data.N-1:
		at = "never"
	}
	// By the end of the run (the arrow): the category, and the step that
	// came closest (where enter goes) when the row has room for it.
	if cols.frac == 0 {
		frac = ""
	} else {
		frac = fmt.Sprintf("%*s ", cols.frac, frac)
	}
	atCol := fmt.Sprintf("%-7s ", at)
	if cols.noAt {
		atCol = ""
	}
	prefix := fmt.Sprintf("  %s %-*s %s%s→ ", glyph, cols.lines, lines, frac, atCol)
	diag := g.Label(l)
	eds := ctx.Data.S.Target.Lenses[l].Edits
	if eds != nil {
		// The target is the run's own edits: what it read first says more.
		diag = display.EditLabel(eds[k])
	}
	if i := g.Closest(l); i >= 0 && eds == nil {
		if long := fmt.Sprintf("%s @%d", diag, i+1); ansi.StringWidth(prefix)+ansi.StringWidth(long) <= m.W {
			diag = long
		}
	}
	if run := ctx.Data.Run; story.FoundBy(run, g.FoundAt(l)) > 0 && len(run.Agents) > 1 {
		k := story.FoundBy(run, g.FoundAt(l))
		// Found by a sub-agent: said where the row has room.
		if long := diag + " by " + termsafe.Line(story.Label(run, k)); ansi.StringWidth(prefix)+ansi.StringWidth(long) <= m.W {
			diag = long
		}
	}
	if selected {
		plain := display.GlyphCursor + prefix[1:] + diag
		return t.Selected.Render(fit.Line(plain, m.W))
	}
	atStyle := t.Muted
	if readNow {
		atStyle = t.Value
	}
	if cols.noAt {
		return fmt.Sprintf("  %s %-*s %s%s %s", glyphStyled, cols.lines, lines, frac, t.Muted.Render("→"), categoryStyle(t, g.Category(l)).Render(diag))
	}
	return fmt.Sprintf("  %s %-*s %s%s %s %s", glyphStyled, cols.lines, lines, frac,
		atStyle.Render(fmt.Sprintf("%-7s", at)), t.Muted.Render("→"), categoryStyle(t, g.Category(l)).Render(diag))
}

// ShortHelp is the footer while the panel is focused: enter first, since
// going to the closest step is what the panel is for.
func (m *Model) ShortHelp() []key.Binding { return keys.Footer(keys.Closest, keys.Down, keys.Up) }

// FullHelp is the help screen while the panel is focused.
func (m *Model) FullHelp() [][]key.Binding { return keys.FullHelp(keys.Down, keys.Up, keys.Closest) }
