// Package code is the explorer's source pane: the file the current action
// touches (or one the user picks), syntax-highlighted, with a gutter that
// marks lines read this step, lines read before, and gold lines found, still
// to be read, or never read. Its gold jumps and file picker work whatever
// pane has the focus.
package code

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// Model is the source pane.
type Model struct {
	pane.Base

	file   string
	follow bool
	// top is the first visible line and cursor the line jumps land on and
	// `e` opens (both 1-based).
	top, cursor int

	picking bool
	pick    int

	hl    *highlighter
	theme *themes.Theme
	marks marks

	// asOf shows an edited file as the run's recorded edits left it by the
	// current step (b), highlighted by asOfHL for the content asOfKey.
	asOf        bool
	asOfHL      *highlighter
	asOfKey     string
	asOfText    string
	asOfApplied int
	asOfOK      bool
}

// marks are the gutter glyphs rendered once per theme.
type marks struct {
	now, before, found, pending, missed string
	failed, final                       string
	bg                                  string // SGR of the read-this-step band
}

// New returns a source pane following the current action.
func New(ctx *pane.Context) *Model {
	return &Model{Base: pane.Base{Ctx: ctx}, follow: true, top: 1, cursor: 1}
}

// SetSize sets the pane's size, title row included.
func (m *Model) SetSize(w, h int) {
	m.Base.SetSize(w, h)
	m.scrollTo(m.cursor, false)
}

// Reload drops the file as of a step of the last reading. What was
// highlighted stays for the files whose content did not change
// (highlighter.lines): without a repository a file is what the run
// displayed, which grows; with one, or a reading that showed nothing new,
// it is the same, and a reading on a long session does not highlight it
// again (~8 ms of a reading's screen at 7,000 calls).
func (m *Model) Reload() {
	m.asOfHL, m.asOfKey = nil, ""
}

// File returns the file shown and the cursor line.
func (m *Model) File() (string, int) { return m.file, m.cursor }

// Following reports whether the pane follows the current action.
func (m *Model) Following() bool { return m.follow }

// Picking reports whether the file picker is open.
func (m *Model) Picking() bool { return m.picking }

// Modal: the open file picker takes every key.
func (m *Model) Modal() bool { return m.picking }

// body is the number of source rows: the pane less its title and, without
// the repository, the banner saying so.
func (m *Model) body() int {
	if m.Ctx.Data.A.Partial != nil {
		return max(m.H-2, 0)
	}
	return max(m.H-1, 0)
}

// onStep follows the current action to the file and lines it touched; an
// action that touched nothing keeps the previous action's file.
func (m *Model) onStep() {
	if !m.follow {
		return
	}
	focus := m.Ctx.Data.Focus[m.Ctx.Lens]
	for i := m.Ctx.Cur; i >= 0; i-- {
		t := focus[i]
		if t.File == "" {
			continue
		}
		changed := t.File != m.file
		m.file = t.File
		line := t.Line
		if line == 0 {
			// The action names the file, not a line (an edit): stay where
			// the pane is, or land where a picked file would.
			if !changed {
				return
			}
			line = m.landing(t.File)
		}
		if i == m.Ctx.Cur || changed {
			m.scrollTo(line, changed)
		}
		return
	}
	if m.file == "" && len(m.Ctx.Data.Order) > 0 {
		m.file = m.Ctx.Data.Order[0]
		m.scrollTo(1, true)
	}
}

// Show displays a file at a line and stops following the steps.
func (m *Model) Show(file string, line int) {
	if file == "" {
		return
	}
	changed := file != m.file
	m.file, m.follow = file, false
	m.scrollTo(max(line, 1), changed)
}

// Follow resumes following the current action.
func (m *Model) Follow() {
	m.follow = true
	m.onStep()
}

// scrollTo moves the cursor to line and scrolls so it is visible, a quarter
// down the pane; force re-centres even when the line is already visible.
func (m *Model) scrollTo(line int, force bool) {
	n := m.lines()
	line = min(max(line, 1), max(n, 1))
	m.cursor = line
	body := m.body()
	if body <= 0 {
		return
	}
	if force || line < m.top || line >= m.top+body {
		m.top = line - body/4
	}
	m.clampTop()
}

func (m *Model) clampTop() {
	m.top = max(1, min(m.top, m.lines()-m.body()+1))
}

func (m *Model) lines() int {
	if fd := m.Ctx.Data.File(m.file); fd != nil {
		return fd.Lines
	}
	return 0
}

// Scroll moves the view (or the picker) by n wheel notches of three lines.
func (m *Model) Scroll(n int) tea.Cmd {
	m.scroll(3 * n)
	return nil
}

// scroll moves the view by n lines, taking the cursor along.
func (m *Model) scroll(n int) {
	if m.picking {
		m.pick = min(max(m.pick+n, 0), len(m.Ctx.Data.Order))
		return
	}
	m.top += n
	m.clampTop()
	m.cursor = min(max(m.cursor+n, m.top), m.top+max(m.body()-1, 0))
	m.cursor = min(max(m.cursor, 1), max(m.lines(), 1))
}

// Update follows the steps, shows what it is asked to, scrolls when
// focused, and runs the picker when open.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	var k tea.KeyPressMsg
	switch msg := msg.(type) {
	case pane.StepMsg, pane.LensMsg:
		m.onStep()
		return nil
	case pane.ShowMsg:
		m.Show(msg.File, msg.Line)
		return nil
	case tea.KeyPressMsg:
		k = msg
	default:
		return nil
	}
	if m.picking {
		switch {
		case key.Matches(k, keys.Down):
			m.scroll(1)
		case key.Matches(k, keys.Up):
			m.scroll(-1)
		case key.Matches(k, keys.Select):
			m.picking = false
			if m.pick == 0 {
				m.Follow()
			} else {
				f := m.Ctx.Data.Order[m.pick-1]
				m.Show(f, m.landing(f))
			}
		case key.Matches(k, keys.Back), key.Matches(k, keys.Files):
			m.picking = false
		}
		return nil
	}
	if n := keys.ScrollLines(k, m.body()); n != 0 && m.Focused {
		m.scroll(n)
	}
	return nil
}

// HighlightedChunks reports how much of the file shown is highlighted.
func (m *Model) HighlightedChunks() (done, all int) {
	if m.hl == nil {
		return 0, 0
	}
	if f := m.hl.files[m.file]; f != nil {
		for _, d := range f.done {
			if d {
				done++
			}
		}
		return done, len(f.done)
	}
	return 0, 0
}

// Idle highlights a little more of the file shown, so that scrolling and
// stepping through it later find it ready.
func (m *Model) Idle() bool {
	if m.hl == nil || m.file == "" {
		return false
	}
	return m.hl.ahead(m.file)
}

// Global handles the pane's keys that work whatever the focus: the file
// picker, the gold jumps, following the steps again and the editor.
func (m *Model) Global(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, keys.Files):
		m.OpenPicker()
		return pane.Reveal(m), true
	case key.Matches(k, keys.NextGold):
		return m.jump(1, false), true
	case key.Matches(k, keys.PrevGold):
		return m.jump(-1, false), true
	case key.Matches(k, keys.NextMissed):
		return m.jump(1, true), true
	case key.Matches(k, keys.PrevMissed):
		return m.jump(-1, true), true
	case key.Matches(k, keys.Follow):
		m.Follow()
		return pane.Status("source follows the steps"), true
	case key.Matches(k, keys.Edit):
		if m.file == "" {
			return pane.Status("no file to open"), true
		}
		return pane.Edit(m.file, m.cursor), true
	case key.Matches(k, keys.AsOf):
		return m.toggleAsOf(), true
	}
	return nil, false
}

func (m *Model) syncTheme() {
	t := m.Ctx.Theme
	if m.theme == t {
		return
	}
	m.theme = t
	if m.hl == nil || m.hl.style != t.Syntax {
		// The highlighted lines depend only on the syntax style: a theme
		// with the same one keeps them.
		m.hl = newHighlighter(t.Syntax)
	}
	m.marks = marks{
		now:     t.MarkReadNow.Render(display.GlyphReadNow),
		before:  t.MarkReadBefore.Render(display.GlyphReadBefore),
		found:   t.MarkGoldFound.Render(display.GlyphGoldFound),
		pending: t.MarkGoldPending.Render(display.GlyphGoldPending),
		missed:  t.MarkGoldMissed.Render(display.GlyphGoldMissed),
		failed:  t.Error.Render(display.GlyphReadFailed),
		final:   t.Value.Render(display.GlyphFinal),
	}
	// GetBackground never returns nil: an unset background is NoColor.
	if bg := t.ReadNowLine.GetBackground(); !isNoColor(bg) {
		m.marks.bg = ansi.Style{}.BackgroundColor(bg).String()
	}
}

func isNoColor(c any) bool {
	_, none := c.(lipgloss.NoColor)
	return none
}

// legend explains the gutter glyphs.
const legend = display.GlyphReadNow + "now " + display.GlyphReadBefore + "before " +
	display.GlyphGoldFound + "gold read " + display.GlyphGoldPending + "later " + display.GlyphGoldMissed + "never " +
	display.GlyphFinal + "final"

// View renders the title and the visible lines with their gutter.
func (m *Model) View() string {
	if m.W <= 0 || m.H <= 0 {
		return ""
	}
	m.syncTheme()
	ctx, t, d := m.Ctx, m.Ctx.Theme, m.Ctx.Data
	if m.picking {
		return m.pickerView()
	}
	detail := "no file"
	if m.file != "" {
		detail = fmt.Sprintf("%s:%d", termsafe.Line(m.file), m.cursor)
		if !m.follow {
			detail += "  (pinned; F follows)"
		}
	}
	if pad := m.W - 10 - ansi.StringWidth(detail) - ansi.StringWidth(legend); pad >= 2 {
		detail += strings.Repeat(" ", pad) + legend
	}
	lines := []string{pane.Title(ctx, "Source", detail, m.Focused, m.W)}
	if p := d.A.Partial; p != nil && m.H > 1 {
		lines = append(lines, t.Error.Render(fit.Line(" "+display.NoRepoShort(p.Reason()), m.W)))
	}
	fd := d.File(m.file)
	switch {
	case m.file == "":
		lines = append(lines, t.Muted.Render(" No file yet: this step read nothing. f picks a file."))
		return strings.Join(fit.Block(lines, m.W, m.H), "\n")
	case fd.Partial && len(fd.Known) == 0 || !fd.OK && d.A.Partial != nil && d.A.Partial.IsFile(m.file):
		lines = append(lines, t.Muted.Render(" The run displayed no line of "+termsafe.Line(m.file)+"."))
		return strings.Join(fit.Block(lines, m.W, m.H), "\n")
	case fd == nil || !fd.OK:
		lines = append(lines, t.Muted.Render(" "+termsafe.Line(m.file)+" is not in the repository"))
		if !d.A.HasRepo() {
			lines = append(lines, t.Muted.Render(" (no repository: pass --repo DIR or --cache DIR)"))
		}
		return strings.Join(fit.Block(lines, m.W, m.H), "\n")
	}
	content, _ := d.A.Source(m.file)
	if edits := d.EditsUpTo(m.file, ctx.Cur); m.asOf && len(edits) > 0 && !fd.Partial {
		return m.asOfView(lines, content, edits)
	}
	code, widths := m.hl.lines(m.file, content, m.top, m.top+m.H)
	now, shown := m.nowLines()
	failed := d.Run.Actions[ctx.Cur].Failed()
	numW := len(strconv.Itoa(fd.Lines))
	gutterW := 1 + 2 + 1 + numW + 1
	codeW := max(m.W-gutterW, 0)
	var b strings.Builder
	for l := m.top; l <= fd.Lines && len(lines) < m.H; l++ {
		b.Reset()
		b.WriteByte(' ') // keeps the read mark apart from the pane separator
		first := fd.FirstRead(ctx.Lens, l)
		inNow := contains(now, l)
		// A failed command's line that the lens counts but the command did
		// not display is not "read by this step".
		isNow := inNow && (!failed || contains(shown, l))
		switch {
		case inNow && !isNow:
			b.WriteString(m.marks.failed)
		case isNow:
			b.WriteString(m.marks.now)
		case first < ctx.Cur:
			b.WriteString(m.marks.before)
		default:
			b.WriteByte(' ')
		}
		switch {
		case !fd.IsGold(l):
			b.WriteByte(' ')
		case first <= ctx.Cur:
			b.WriteString(m.marks.found)
		case first == viewdata.Never:
			b.WriteString(m.marks.missed)
		default:
			b.WriteString(m.marks.pending)
		}
		if fd.InFinal(ctx.Lens, l) {
			b.WriteString(m.marks.final)
		} else {
			b.WriteByte(' ')
		}
		num := fmt.Sprintf("%*d", numW, l)
		if l == m.cursor {
			b.WriteString(t.LineNoFocus.Render(num))
		} else {
			b.WriteString(t.LineNo.Render(num))
		}
		b.WriteByte(' ')
		text, tw := "", 0
		switch {
		case !fd.IsKnown(l):
			text, tw = m.unknown(fd, l, codeW)
		case l-1 < len(code):
			text, tw = code[l-1], widths[l-1]
		}
		if tw > codeW {
			text = ansi.Truncate(text, codeW, "…")
			tw = ansi.StringWidth(text)
		}
		pad := strings.Repeat(" ", max(codeW-tw, 0))
		if isNow && m.marks.bg != "" {
			// Re-assert the band after every reset the highlighter wrote.
			text = m.marks.bg + strings.ReplaceAll(text, ansi.ResetStyle, ansi.ResetStyle+m.marks.bg) + pad + ansi.ResetStyle
		} else {
			text += pad
		}
		b.WriteString(text)
		// The gutter is gutterW cells and the code is padded to codeW: the
		// line is exactly m.W wide without measuring it again.
		lines = append(lines, b.String())
	}
	if codeW == 0 {
		return strings.Join(fit.Block(lines, m.W, m.H), "\n") // narrower than the gutter
	}
	for len(lines) < m.H {
		lines = append(lines, strings.Repeat(" ", m.W))
	}
	return strings.Join(lines, "\n")
}

// nowLines are the current file's lines the current action put in view
// under the lens, and those it displayed (the observed lens's).
func (m *Model) nowLines() (now, shown []model.Interval) {
	a := m.Ctx.Data.A
	return fileLines(m.Ctx.L().Actions[m.Ctx.Cur].Lines, m.file),
		fileLines(a.Lenses[model.LensObserved].Actions[m.Ctx.Cur].Lines, m.file)
}

func fileLines(fls []model.FileSpans, file string) []model.Interval {
	for _, fl := range fls {
		if fl.File == file {
			return fl.Spans
		}
	}
	return nil
}

func contains(ivs []model.Interval, l int) bool {
	for _, iv := range ivs {
		if iv.Start <= l && l <= iv.End {
			return true
		}
	}
	return false
}

// ShortHelp is the footer while the pane is focused.
func (m *Model) ShortHelp() []key.Binding {
	return keys.Footer(keys.NextGold, keys.NextMissed, keys.Follow, keys.Files, keys.Edit, keys.AsOf, keys.Down)
}

// FullHelp is the help screen while the pane is focused.
func (m *Model) FullHelp() [][]key.Binding {
	return keys.FullHelp(keys.NextGold, keys.NextMissed, keys.Follow, keys.Files, keys.Edit, keys.AsOf, keys.Down, keys.Up, keys.PageDown, keys.PageUp)
}
