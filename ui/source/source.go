// Package source is the explorer's source pane: the file the current action
// touches (or one the user picks), syntax-highlighted, with a gutter that
// marks lines read this step, lines read before, and gold lines found, still
// to be read, or never read.
package source

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/common"
)

// Model is the source pane.
type Model struct {
	ctx     *common.Context
	w, h    int
	Focused bool

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
}

// marks are the gutter glyphs rendered once per theme.
type marks struct {
	now, before, found, pending, missed string
	bg                                  string // SGR of the read-this-step band
}

// New returns a source pane following the current action.
func New(ctx *common.Context) *Model {
	return &Model{ctx: ctx, follow: true, top: 1, cursor: 1}
}

// SetSize sets the pane's size, title row included.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.scrollTo(m.cursor, false)
}

// File returns the file shown and the cursor line.
func (m *Model) File() (string, int) { return m.file, m.cursor }

// Following reports whether the pane follows the current action.
func (m *Model) Following() bool { return m.follow }

// Picking reports whether the file picker is open.
func (m *Model) Picking() bool { return m.picking }

func (m *Model) body() int { return max(m.h-1, 0) }

// OnStep follows the current action to the file and lines it touched; an
// action that touched nothing keeps the previous action's file.
func (m *Model) OnStep() {
	if !m.follow {
		return
	}
	ld := m.ctx.L()
	for i := m.ctx.Cur; i >= 0; i-- {
		t := ld.Focus[i]
		if t.File == "" {
			continue
		}
		changed := t.File != m.file
		m.file = t.File
		if i == m.ctx.Cur || changed {
			m.scrollTo(max(t.Line, 1), changed)
		}
		return
	}
	if m.file == "" && len(m.ctx.Data.Order) > 0 {
		m.file = m.ctx.Data.Order[0]
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
	m.OnStep()
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
	if fd := m.ctx.Data.Files[m.file]; fd != nil {
		return fd.Lines
	}
	return 0
}

// Scroll moves the view by n lines, taking the cursor along.
func (m *Model) Scroll(n int) tea.Cmd {
	if m.picking {
		m.pick = min(max(m.pick+n, 0), len(m.ctx.Data.Order))
		return nil
	}
	m.top += n
	m.clampTop()
	m.cursor = min(max(m.cursor+n, m.top), m.top+max(m.body()-1, 0))
	m.cursor = min(max(m.cursor, 1), max(m.lines(), 1))
	return nil
}

// OpenPicker shows the list of gold and read files.
func (m *Model) OpenPicker() {
	m.picking = true
	m.pick = 0
	for k, f := range m.ctx.Data.Order {
		if f == m.file && !m.follow {
			m.pick = k + 1
		}
	}
}

// Update handles scrolling when focused, and the picker when open.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := common.Keys
	if m.picking {
		switch {
		case key.Matches(k, keys.Down):
			m.Scroll(1)
		case key.Matches(k, keys.Up):
			m.Scroll(-1)
		case key.Matches(k, keys.Select):
			m.picking = false
			if m.pick == 0 {
				m.Follow()
			} else {
				m.Show(m.ctx.Data.Order[m.pick-1], m.firstGold(m.ctx.Data.Order[m.pick-1]))
			}
		case key.Matches(k, keys.Back), key.Matches(k, keys.Files):
			m.picking = false
		}
		return nil
	}
	if !m.Focused {
		return nil
	}
	switch {
	case key.Matches(k, keys.Down):
		return m.Scroll(1)
	case key.Matches(k, keys.Up):
		return m.Scroll(-1)
	case key.Matches(k, keys.PageDown):
		return m.Scroll(max(1, m.body()/2))
	case key.Matches(k, keys.PageUp):
		return m.Scroll(-max(1, m.body()/2))
	}
	return nil
}

func (m *Model) firstGold(file string) int {
	if fd := m.ctx.Data.Files[file]; fd != nil && len(fd.Gold) > 0 {
		return fd.Gold[0].Start
	}
	return 1
}

// JumpGold moves to the next (dir > 0) or previous gold span; unread
// limits it to gold lines the run has not read by the current action. It
// wraps across gold files and reports what it did.
func (m *Model) JumpGold(dir int, unread bool) string {
	d := m.ctx.Data
	type pos struct {
		file int
		line int
		name string
	}
	var stops []pos
	for fi, f := range d.A.Gold.Files {
		fd := d.Files[f]
		if fd == nil {
			continue
		}
		for _, iv := range fd.Gold {
			if !unread {
				stops = append(stops, pos{fi, iv.Start, f})
				continue
			}
			prev := false
			for l := iv.Start; l <= iv.End; l++ {
				u := fd.FirstRead(m.ctx.Lens, l) > m.ctx.Cur
				if u && !prev {
					stops = append(stops, pos{fi, l, f})
				}
				prev = u
			}
		}
	}
	what := "gold span"
	if unread {
		what = "unread gold span"
	}
	if len(stops) == 0 {
		return "no " + what
	}
	curFile := -1
	for fi, f := range d.A.Gold.Files {
		if f == m.file {
			curFile = fi
		}
	}
	less := func(a pos, f, l int) bool { return a.file < f || (a.file == f && a.line < l) }
	target := -1
	if dir > 0 {
		for k, s := range stops {
			if less(pos{curFile, m.cursor, ""}, s.file, s.line) {
				target = k
				break
			}
		}
		if target < 0 {
			target = 0 // wrap
		}
	} else {
		for k := len(stops) - 1; k >= 0; k-- {
			if less(stops[k], curFile, m.cursor) {
				target = k
				break
			}
		}
		if target < 0 {
			target = len(stops) - 1
		}
	}
	s := stops[target]
	m.Show(s.name, s.line)
	return fmt.Sprintf("%s %d/%d: %s:%d", what, target+1, len(stops), s.name, s.line)
}

func (m *Model) syncTheme() {
	t := m.ctx.Theme
	if m.theme == t {
		return
	}
	m.theme = t
	m.hl = newHighlighter(t.Chroma)
	m.marks = marks{
		now:     t.MarkReadNow.Render(common.GlyphReadNow),
		before:  t.MarkReadBefore.Render(common.GlyphReadBefore),
		found:   t.MarkGoldFound.Render(common.GlyphGoldFound),
		pending: t.MarkGoldPending.Render(common.GlyphGoldPending),
		missed:  t.MarkGoldMissed.Render(common.GlyphGoldMissed),
	}
	if bg := t.ReadNowLine.GetBackground(); bg != nil {
		if _, none := bg.(lipgloss.NoColor); !none {
			m.marks.bg = ansi.Style{}.BackgroundColor(bg).String()
		}
	}
}

// legend explains the gutter glyphs.
const legend = common.GlyphReadNow + "now " + common.GlyphReadBefore + "before " +
	common.GlyphGoldFound + "gold read " + common.GlyphGoldPending + "later " + common.GlyphGoldMissed + "never"

// View renders the title and the visible lines with their gutter.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	m.syncTheme()
	ctx, t, d := m.ctx, m.ctx.Theme, m.ctx.Data
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
	if pad := m.w - 10 - ansi.StringWidth(detail) - ansi.StringWidth(legend); pad >= 2 {
		detail += strings.Repeat(" ", pad) + legend
	}
	lines := []string{common.Title(ctx, "Source", detail, m.Focused, m.w)}
	fd := d.Files[m.file]
	switch {
	case m.file == "":
		lines = append(lines, t.Muted.Render(" No file yet: this step read nothing. f picks a file."))
		return strings.Join(common.Block(lines, m.w, m.h), "\n")
	case fd == nil || !fd.OK:
		lines = append(lines, t.Muted.Render(" "+termsafe.Line(m.file)+" is not in the repository"))
		if d.A.Files.Tree() == nil {
			lines = append(lines, t.Muted.Render(" (no repository: pass --repo DIR or --cache DIR)"))
		}
		return strings.Join(common.Block(lines, m.w, m.h), "\n")
	}
	content, _ := d.A.Files.Content(m.file)
	code, widths := m.hl.lines(m.file, content)
	now := m.nowLines()
	numW := len(strconv.Itoa(fd.Lines))
	gutterW := 1 + 2 + 1 + numW + 1
	codeW := max(m.w-gutterW, 0)
	var b strings.Builder
	for l := m.top; l <= fd.Lines && len(lines) < m.h; l++ {
		b.Reset()
		b.WriteByte(' ') // keeps the read mark apart from the pane separator
		first := fd.FirstRead(ctx.Lens, l)
		isNow := contains(now, l)
		switch {
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
		case first == common.Never:
			b.WriteString(m.marks.missed)
		default:
			b.WriteString(m.marks.pending)
		}
		b.WriteByte(' ')
		num := fmt.Sprintf("%*d", numW, l)
		if l == m.cursor {
			b.WriteString(t.LineNoFocus.Render(num))
		} else {
			b.WriteString(t.LineNo.Render(num))
		}
		b.WriteByte(' ')
		text, tw := "", 0
		if l-1 < len(code) {
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
		// line is exactly m.w wide without measuring it again.
		lines = append(lines, b.String())
	}
	if codeW == 0 {
		return strings.Join(common.Block(lines, m.w, m.h), "\n") // narrower than the gutter
	}
	for len(lines) < m.h {
		lines = append(lines, strings.Repeat(" ", m.w))
	}
	return strings.Join(lines, "\n")
}

// nowLines are the current file's lines the current action read.
func (m *Model) nowLines() []model.Interval {
	for _, fl := range m.ctx.L().Reads[m.ctx.Cur] {
		if fl.File == m.file {
			return fl.Lines
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

func (m *Model) pickerView() string {
	ctx, t, d := m.ctx, m.ctx.Theme, m.ctx.Data
	lines := []string{common.Title(ctx, "Pick a file", "enter shows · esc closes", true, m.w)}
	body := m.body()
	items := make([]string, 0, len(d.Order)+1)
	items = append(items, "↻ follow the current step")
	for _, f := range d.Order {
		fd := d.Files[f]
		mark := "  "
		if fd != nil && fd.GoldLines > 0 || isGoldFile(d, f) {
			mark = common.GlyphGoldFile + " "
		}
		info := ""
		if fd != nil {
			if first := fileFirst(fd, ctx.Lens); first != common.Never {
				info = fmt.Sprintf("  read @%d", first+1)
			} else {
				info = "  never read"
			}
			if !fd.OK {
				info += "  (not in repository)"
			}
		}
		items = append(items, mark+termsafe.Line(f)+info)
	}
	off := max(0, min(m.pick-body/2, len(items)-body))
	for k := off; k < len(items) && len(lines) < m.h; k++ {
		if k == m.pick {
			lines = append(lines, t.Selected.Render(common.Fit(common.GlyphCursor+" "+items[k], m.w)))
		} else {
			lines = append(lines, "  "+items[k])
		}
	}
	return strings.Join(common.Block(lines, m.w, m.h), "\n")
}

func isGoldFile(d *common.Data, f string) bool {
	for _, g := range d.A.Gold.Files {
		if g == f {
			return true
		}
	}
	return false
}

func fileFirst(fd *common.FileData, l model.Lens) int {
	best := common.Never
	for _, v := range fd.First[l] {
		best = min(best, int(v))
	}
	return best
}

// ShortHelp lists the source pane's keys.
func (m *Model) ShortHelp() []key.Binding {
	k := common.Keys
	return []key.Binding{k.NextGold, k.NextMissed, k.Files}
}

// FullHelp lists the source pane's keys in groups.
func (m *Model) FullHelp() [][]key.Binding {
	k := common.Keys
	return [][]key.Binding{{k.Down, k.Up, k.PageDown, k.PageUp, k.NextGold, k.NextMissed, k.Files, k.Follow, k.Edit}}
}
