// Package goldpanel lists every gold file and span: whether the run has read
// it by the current action (and at which step), and what became of it by the
// end of the run (package diagnose: found, read then dropped, near miss,
// searched not read, never opened). Enter goes to the step that came
// closest.
package goldpanel

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/common"
)

// Model is the gold panel.
type Model struct {
	ctx     *common.Context
	w, h    int
	Focused bool
	// sel is the selected span (index into Data.Gold); offset the first
	// visible row.
	sel, offset int
}

// New returns a gold panel.
func New(ctx *common.Context) *Model { return &Model{ctx: ctx} }

// SetSize sets the pane's size, title row included.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Update moves the selection; enter goes to the step that came closest to
// the selected span and shows the span in the source pane.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !m.Focused {
		return nil
	}
	keys := common.Keys
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
	d, l := m.ctx.Data, m.ctx.Lens
	if m.sel >= len(d.Gold) {
		return nil
	}
	g := &d.Gold[m.sel]
	where := termsafe.Line(g.File)
	if !g.FileLevel {
		where += fmt.Sprintf(":%d-%d", g.Start, g.End)
	}
	i := g.Closest(l)
	status := fmt.Sprintf("no step came near %s", where)
	if i >= 0 {
		status = fmt.Sprintf("step %d came closest to %s", i+1, where)
	}
	return common.Jump(i, g.File, max(g.Start, 1), status)
}

// Scroll moves the selection by n spans.
func (m *Model) Scroll(n int) tea.Cmd {
	m.sel = max(0, min(m.sel+n, len(m.ctx.Data.Gold)-1))
	return nil
}

// Label names a span's end-of-run category in a few words (the row's last
// column and the plain summary).
func Label(g *common.GoldSpan, l model.Lens) string {
	switch g.Category(l) {
	case diagnose.Found:
		if g.Span[l] != nil && g.Span[l].Declared || g.Whole[l] != nil && g.Whole[l].Declared {
			return "found (declared)"
		}
		return "found"
	case diagnose.ReadThenDropped:
		return "read, dropped"
	case diagnose.NearMiss:
		if sp := g.Span[l]; sp != nil && sp.Distance >= 0 {
			return fmt.Sprintf("near miss ±%d", sp.Distance)
		}
		return "near miss"
	case diagnose.SearchedNotRead:
		return "searched"
	}
	if g.Span[l] != nil && g.Span[l].Missing || g.Whole[l] != nil && g.Whole[l].Missing {
		return "not in repo"
	}
	return "never opened"
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
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	ctx, t, d := m.ctx, m.ctx.Theme, m.ctx.Data
	found := 0
	for k := range d.Gold {
		if g := &d.Gold[k]; g.FoundAt[ctx.Lens] >= 0 && g.FoundAt[ctx.Lens] <= ctx.Cur {
			found++
		}
	}
	lines := []string{common.Title(ctx, "Gold", fmt.Sprintf("%d/%d spans read", found, len(d.Gold)), m.Focused, m.w)}
	if len(d.Gold) == 0 {
		lines = append(lines, t.Muted.Render(" no gold context (pass --gold)"))
		return strings.Join(common.Block(lines, m.w, m.h), "\n")
	}
	// The description of the selected span takes up to three rows (two on
	// a short pane) below the spans, when that leaves three rows of spans.
	var detail []string
	if m.Focused && m.sel < len(d.Gold) {
		text := termsafe.Line(d.Gold[m.sel].Describe(ctx.Lens))
		detail = strings.Split(ansi.Wrap(text, max(m.w-2, 1), ""), "\n")
		if most := 2 + min(1, max(0, m.h-12)); len(detail) > most {
			detail = detail[:most]
			detail[most-1] = common.Truncate(detail[most-1]+" …", m.w-2)
		}
		if m.h-1-len(detail) < 3 {
			detail = nil
		}
	}
	// Rows: a header per file, then its spans; remember each span's row.
	type row struct {
		text string
		span int
	}
	var rows []row
	selRow := 0
	cols := m.columns()
	for k := range d.Gold {
		g := &d.Gold[k]
		if k == 0 || d.Gold[k-1].File != g.File {
			rows = append(rows, row{t.Bold.Render(common.GlyphGoldFile + " " + termsafe.Line(g.File)), -1})
		}
		if k == m.sel {
			selRow = len(rows)
		}
		rows = append(rows, row{m.spanRow(g, k == m.sel && m.Focused, cols), k})
	}
	body := m.h - 1 - len(detail)
	if selRow < m.offset+1 {
		m.offset = max(selRow-1, 0) // keep the file header in view
	}
	if selRow >= m.offset+body {
		m.offset = selRow - body + 1
	}
	m.offset = max(0, min(m.offset, len(rows)-body))
	for r := m.offset; r < len(rows) && len(lines) < 1+body; r++ {
		lines = append(lines, rows[r].text)
	}
	if len(lines) < 1+body {
		lines = append(lines, "") // a blank row sets the description apart
	}
	for _, l := range detail {
		lines = append(lines, " "+t.Muted.Render(l))
	}
	return strings.Join(common.Block(lines, m.w, m.h), "\n")
}

// columns are the widths of the line-range and read-fraction columns,
// sized to the longest entry so the diagnosis keeps the room that is left.
// A frac of 0 hides the fraction.
type columns struct{ lines, frac int }

// diagRoom is what the diagnosis column needs: "read, dropped @12".
const diagRoom = 17

func (m *Model) columns() columns {
	c := columns{lines: 4, frac: 1} // "file", "-"
	for k := range m.ctx.Data.Gold {
		g := &m.ctx.Data.Gold[k]
		if !g.FileLevel {
			c.lines = max(c.lines, len(fmt.Sprintf("%d-%d", g.Start, g.End)))
			c.frac = max(c.frac, 2*len(fmt.Sprint(g.Lines))+1)
		}
	}
	// On a narrow pane the diagnosis matters more than the fraction: the
	// glyph already says whether the span is read.
	if len("  ● ")+c.lines+1+c.frac+1+len("not yet")+len(" → ")+diagRoom > m.w {
		c.frac = 0
	}
	return c
}

func (m *Model) spanRow(g *common.GoldSpan, selected bool, cols columns) string {
	ctx, t := m.ctx, m.ctx.Theme
	l := ctx.Lens
	var glyph, glyphStyled string
	read := 0
	if g.FileLevel {
		if g.FoundAt[l] >= 0 && g.FoundAt[l] <= ctx.Cur {
			read = 1
		}
	} else {
		read = g.ReadBy(l, ctx.Cur)
	}
	switch {
	case read > 0:
		glyph, glyphStyled = common.GlyphGoldFound, t.MarkGoldFound.Render(common.GlyphGoldFound)
	case g.FoundAt[l] >= 0:
		glyph, glyphStyled = common.GlyphGoldPending, t.MarkGoldPending.Render(common.GlyphGoldPending)
	default:
		glyph, glyphStyled = common.GlyphGoldMissed, t.MarkGoldMissed.Render(common.GlyphGoldMissed)
	}
	lines, frac := "file", "-"
	if !g.FileLevel {
		lines = fmt.Sprintf("%d-%d", g.Start, g.End)
		frac = fmt.Sprintf("%d/%d", read, g.Lines)
	}
	// As of the current step: the step that first read it, or not yet.
	at := "not yet"
	if g.FoundAt[l] >= 0 && g.FoundAt[l] <= ctx.Cur {
		at = fmt.Sprintf("@%d", g.FoundAt[l]+1)
	}
	// By the end of the run (the arrow): the category, and the step that
	// came closest (where enter goes) when the row has room for it.
	if cols.frac == 0 {
		frac = ""
	} else {
		frac = fmt.Sprintf("%*s ", cols.frac, frac)
	}
	prefix := fmt.Sprintf("  %s %-*s %s%-7s → ", glyph, cols.lines, lines, frac, at)
	diag := Label(g, l)
	if i := g.Closest(l); i >= 0 {
		if long := fmt.Sprintf("%s @%d", diag, i+1); ansi.StringWidth(prefix)+ansi.StringWidth(long) <= m.w {
			diag = long
		}
	}
	if selected {
		plain := common.GlyphCursor + prefix[1:] + diag
		return t.Selected.Render(common.Fit(plain, m.w))
	}
	atStyle := t.Muted
	if at != "not yet" {
		atStyle = t.Value
	}
	return fmt.Sprintf("  %s %-*s %s%s %s %s", glyphStyled, cols.lines, lines, frac,
		atStyle.Render(fmt.Sprintf("%-7s", at)), t.Muted.Render("→"), categoryStyle(t, g.Category(l)).Render(diag))
}

// ShortHelp lists the panel's keys.
func (m *Model) ShortHelp() []key.Binding { return []key.Binding{common.Keys.Closest} }

// FullHelp lists the panel's keys in groups.
func (m *Model) FullHelp() [][]key.Binding {
	k := common.Keys
	return [][]key.Binding{{k.Down, k.Up, k.Closest}}
}
