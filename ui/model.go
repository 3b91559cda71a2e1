// Package ui is trajscope's explorer: a Bubble Tea root model composing one
// component per pane (header, timeline, source, observation, gold panel,
// metrics bar), plus the plain summary printed when stdout is no terminal.
package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/common"
	"github.com/trajscope/trajscope/ui/goldpanel"
	"github.com/trajscope/trajscope/ui/header"
	"github.com/trajscope/trajscope/ui/metrics"
	"github.com/trajscope/trajscope/ui/observation"
	"github.com/trajscope/trajscope/ui/source"
	"github.com/trajscope/trajscope/ui/timeline"
)

// Options configure the explorer.
type Options struct {
	// Theme is auto, dark, light or contrast.
	Theme string
	// NoColor drops every colour (NO_COLOR, --no-color).
	NoColor bool
	// Dark is the background assumed until the terminal reports its own.
	Dark bool
	Lens model.Lens
	// Step is the 1-based action to open at (0: the first).
	Step int
	// LocalPath maps a repository path to a file on disk that `e` may open
	// directly (a plain directory source). Nil, or "", opens a read-only copy.
	LocalPath func(repoPath string) string
	// Editor is the editor command line ($VISUAL or $EDITOR); "" means vi.
	Editor string
}

// speeds are the autoplay intervals, slowest first.
var speeds = []time.Duration{3 * time.Second, 2 * time.Second, time.Second, 500 * time.Millisecond, 250 * time.Millisecond, 100 * time.Millisecond}

const defaultSpeed = 2

// Model is the explorer's root model.
type Model struct {
	ctx  *common.Context
	opts Options

	w, h   int
	lay    layout
	focus  pane
	bottom pane // observation or gold, where they share a slot
	main   pane // source or timeline, in a tiny layout

	header *header.Model
	tl     *timeline.Model
	src    *source.Model
	obs    *observation.Model
	gold   *goldpanel.Model
	met    *metrics.Model

	help      help.Model
	showHelp  bool
	searching bool
	input     string
	status    string

	playing bool
	speed   int
	tickGen int

	// cache holds each pane's last rendering; dirty marks the ones to redo,
	// so scrolling one pane does not re-render the others. The header,
	// metrics bar and footer are a few lines and always re-render.
	cache map[pane]string
	dirty map[pane]bool
}

// New builds the explorer for an analysed run. It precomputes everything the
// panes show, so stepping later only indexes arrays.
func New(a *scoring.Analysis, opts Options) (*Model, error) {
	th, err := themes.Get(opts.Theme, opts.Dark, opts.NoColor)
	if err != nil {
		return nil, err
	}
	if len(a.Run.Actions) == 0 {
		return nil, fmt.Errorf("the run has no actions to show")
	}
	ctx := &common.Context{Data: common.NewData(a), Theme: th, Lens: opts.Lens, Speed: speedLabel(defaultSpeed)}
	m := &Model{
		ctx: ctx, opts: opts, focus: paneTimeline, bottom: paneObservation, main: paneSource,
		header: header.New(ctx), tl: timeline.New(ctx), src: source.New(ctx),
		obs: observation.New(ctx), gold: goldpanel.New(ctx), met: metrics.New(ctx),
		help: help.New(), speed: defaultSpeed,
		cache: map[pane]string{}, dirty: map[pane]bool{},
	}
	m.applyTheme()
	m.tl.Focused = true
	if opts.Step > 0 {
		ctx.Cur = min(opts.Step, ctx.Data.N) - 1
	}
	m.src.OnStep()
	return m, nil
}

// Context exposes the shared state (tests and the summary use it).
func (m *Model) Context() *common.Context { return m.ctx }

func speedLabel(i int) string {
	d := speeds[i]
	if d >= time.Second {
		return fmt.Sprintf("%ds/step", int(d/time.Second))
	}
	return fmt.Sprintf("%dms/step", d/time.Millisecond)
}

func (m *Model) applyTheme() {
	t := m.ctx.Theme
	m.help.Styles = help.Styles{
		ShortKey: t.HelpKey, ShortDesc: t.HelpDesc, ShortSeparator: t.HelpSep, Ellipsis: t.HelpSep,
		FullKey: t.HelpKey, FullDesc: t.HelpDesc, FullSeparator: t.HelpSep,
	}
	m.ctx.Rev++
	m.markAll()
}

// Init asks the terminal for its background when the theme follows it.
func (m *Model) Init() tea.Cmd {
	if (m.opts.Theme == "" || m.opts.Theme == "auto" || m.opts.Theme == "contrast") && !m.opts.NoColor {
		return tea.RequestBackgroundColor
	}
	return nil
}

type tickMsg struct{ gen int }

type editorDoneMsg struct {
	err error
	tmp string
}

func (m *Model) markAll() {
	for p := pane(0); p < numPanes; p++ {
		m.dirty[p] = true
	}
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.relayout()
		return m, nil
	case tea.BackgroundColorMsg:
		if !m.opts.NoColor && (m.opts.Theme == "" || m.opts.Theme == "auto" || m.opts.Theme == "contrast") {
			if th, err := themes.Get(m.opts.Theme, msg.IsDark(), false); err == nil {
				m.ctx.Theme = th
				m.applyTheme()
			}
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		return m, m.wheel(msg.Mouse())
	case common.GotoMsg:
		m.setCur(msg.I)
		return m, nil
	case common.ShowMsg:
		m.src.Show(msg.File, msg.Line)
		m.dirty[paneSource] = true
		return m, nil
	case common.JumpMsg:
		if msg.I >= 0 {
			m.setCur(msg.I)
		}
		m.src.Show(msg.File, msg.Line)
		m.dirty[paneSource] = true
		m.status = msg.Status
		return m, nil
	case common.StatusMsg:
		m.status = string(msg)
		return m, nil
	case tickMsg:
		return m, m.tick(msg)
	case editorDoneMsg:
		if msg.tmp != "" {
			os.RemoveAll(msg.tmp)
		}
		if msg.err != nil {
			m.status = "editor: " + termsafe.Line(msg.err.Error())
		}
		m.markAll()
		return m, nil
	}
	return m, nil
}

// setCur makes action i current and lets the panes follow it.
func (m *Model) setCur(i int) {
	i = max(0, min(i, m.ctx.Data.N-1))
	if i == m.ctx.Cur {
		return
	}
	m.ctx.Cur = i
	m.src.OnStep()
	m.obs.OnStep()
	m.markAll()
}

func (m *Model) relayout() {
	m.lay = computeLayout(m.w, m.h, m.bottom, m.main)
	m.header.SetSize(m.w, 1)
	m.met.SetSize(m.w, m.lay.metricsH)
	m.help.SetWidth(m.w)
	for p, r := range m.lay.rects() {
		m.comp(p).SetSize(r.w, r.h)
	}
	for p := pane(0); p < numPanes; p++ {
		m.setFocused(p, p == m.focus)
	}
	m.markAll()
}

func (m *Model) comp(p pane) common.Component {
	switch p {
	case paneTimeline:
		return m.tl
	case paneSource:
		return m.src
	case paneObservation:
		return m.obs
	}
	return m.gold
}

func (m *Model) setFocused(p pane, f bool) {
	switch p {
	case paneTimeline:
		m.tl.Focused = f
	case paneSource:
		m.src.Focused = f
	case paneObservation:
		m.obs.Focused = f
	case paneGold:
		m.gold.Focused = f
	}
}

// setFocus moves focus, bringing a hidden pane into its shared slot.
func (m *Model) setFocus(p pane) {
	m.focus = p
	switch p {
	case paneObservation, paneGold:
		m.bottom = p
	case paneSource, paneTimeline:
		m.main = p
	}
	m.relayout()
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	keys := common.Keys
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
	if m.src.Picking() {
		if key.Matches(k, keys.Quit) {
			k = tea.KeyPressMsg{Code: tea.KeyEscape} // q closes the picker first
		}
		m.dirty[paneSource] = true
		return m.src.Update(k)
	}
	m.status = ""
	switch {
	case key.Matches(k, keys.Quit):
		return tea.Quit
	case key.Matches(k, keys.Help):
		m.showHelp = true
		m.markAll()
	case key.Matches(k, keys.Next):
		m.step(1)
	case key.Matches(k, keys.Prev):
		m.step(-1)
	case key.Matches(k, keys.First):
		if i, ok := m.tl.Neighbour(0, 0); ok {
			m.setCur(i)
		}
	case key.Matches(k, keys.Last):
		if i, ok := m.tl.Neighbour(m.ctx.Data.N-1, 0); ok {
			m.setCur(i)
		}
	case key.Matches(k, keys.Focus):
		m.setFocus((m.focus + 1) % numPanes)
	case key.Matches(k, keys.FocusBack):
		m.setFocus((m.focus + numPanes - 1) % numPanes)
	case key.Matches(k, keys.Search):
		m.searching, m.input = true, ""
	case key.Matches(k, keys.NextMatch):
		m.match(1)
	case key.Matches(k, keys.PrevMatch):
		m.match(-1)
	case key.Matches(k, keys.Filter):
		m.cycleFilter()
	case key.Matches(k, keys.Play):
		return m.togglePlay()
	case key.Matches(k, keys.Faster):
		m.setSpeed(m.speed + 1)
	case key.Matches(k, keys.Slower):
		m.setSpeed(m.speed - 1)
	case key.Matches(k, keys.Edit):
		return m.edit()
	case key.Matches(k, keys.Lens):
		m.ctx.Lens = 1 - m.ctx.Lens
		m.ctx.Rev++
		m.src.OnStep()
		m.status = "lens: " + m.ctx.Lens.String()
		m.markAll()
	case key.Matches(k, keys.Files):
		m.src.OpenPicker()
		if !m.lay.visible(paneSource) {
			m.setFocus(paneSource)
		}
		m.dirty[paneSource] = true
	case key.Matches(k, keys.NextGold):
		m.jump(1, false)
	case key.Matches(k, keys.PrevGold):
		m.jump(-1, false)
	case key.Matches(k, keys.NextMissed):
		m.jump(1, true)
	case key.Matches(k, keys.PrevMissed):
		m.jump(-1, true)
	case key.Matches(k, keys.Follow):
		m.src.Follow()
		m.status = "source follows the steps"
		m.dirty[paneSource] = true
	case key.Matches(k, keys.Back):
		if m.ctx.Query != "" {
			m.ctx.Query = ""
			m.ctx.Rev++
			m.markAll()
		}
	default:
		// Pane keys (j/k, enter…) go to the focused pane only.
		m.dirty[m.focus] = true
		return m.comp(m.focus).Update(k)
	}
	return nil
}

func (m *Model) step(n int) {
	if i, ok := m.tl.Neighbour(m.ctx.Cur, n); ok {
		m.setCur(i)
	}
}

func (m *Model) jump(dir int, unread bool) {
	m.status = m.src.JumpGold(dir, unread)
	if !m.lay.visible(paneSource) {
		m.setFocus(paneSource)
	}
	m.dirty[paneSource] = true
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
				m.match(1)
			}
		}
	case "esc":
		m.searching = false
	case "backspace":
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	default:
		if k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			m.input += k.Text
		}
	}
	return nil
}

// match moves to the next (dir 1) or previous matching visible action,
// wrapping around.
func (m *Model) match(dir int) {
	q := m.ctx.Query
	if q == "" {
		m.status = "no search: / to search"
		return
	}
	d := m.ctx.Data
	for k := 1; k <= d.N; k++ {
		i := ((m.ctx.Cur+dir*k)%d.N + d.N) % d.N
		if d.Matches(i, q) && m.tl.Visible(i) {
			m.setCur(i)
			m.status = m.matchStatus()
			return
		}
	}
	m.status = fmt.Sprintf("no match for %q", termsafe.Line(q))
}

func (m *Model) matchStatus() string {
	d, q := m.ctx.Data, m.ctx.Query
	n, at := 0, 0
	for i := 0; i < d.N; i++ {
		if d.Matches(i, q) && m.tl.Visible(i) {
			n++
			if i == m.ctx.Cur {
				at = n
			}
		}
	}
	return fmt.Sprintf("match %d/%d for %q", at, n, termsafe.Line(q))
}

func (m *Model) cycleFilter() {
	opts := append([]string{""}, m.ctx.Data.Categories...)
	next := 0
	for k, c := range opts {
		if c == m.ctx.Filter {
			next = (k + 1) % len(opts)
		}
	}
	m.ctx.Filter = opts[next]
	m.ctx.Rev++
	if i, ok := m.tl.Neighbour(m.ctx.Cur, 0); ok {
		m.setCur(i)
	}
	if m.ctx.Filter == "" {
		m.status = "filter: all actions"
	} else {
		m.status = fmt.Sprintf("filter: %s (%d actions)", m.ctx.Filter, len(m.tl.Rows()))
	}
	m.markAll()
}

func (m *Model) togglePlay() tea.Cmd {
	m.playing = !m.playing
	m.ctx.Playing = m.playing
	m.tickGen++
	if !m.playing {
		m.status = "paused"
		return nil
	}
	if _, ok := m.tl.Neighbour(m.ctx.Cur, 1); !ok {
		if i, ok := m.tl.Neighbour(0, 0); ok {
			m.setCur(i) // at the end: play from the start
		}
	}
	return m.nextTick()
}

func (m *Model) nextTick() tea.Cmd {
	gen := m.tickGen
	return tea.Tick(speeds[m.speed], func(time.Time) tea.Msg { return tickMsg{gen} })
}

func (m *Model) tick(t tickMsg) tea.Cmd {
	if !m.playing || t.gen != m.tickGen {
		return nil // a stale tick from before a pause or speed change
	}
	i, ok := m.tl.Neighbour(m.ctx.Cur, 1)
	if !ok {
		m.playing, m.ctx.Playing = false, false
		m.status = "autoplay reached the last step"
		return nil
	}
	m.setCur(i)
	return m.nextTick()
}

func (m *Model) setSpeed(i int) {
	i = max(0, min(i, len(speeds)-1))
	m.speed = i
	m.ctx.Speed = speedLabel(i)
	m.status = "autoplay " + m.ctx.Speed
	if m.playing {
		m.tickGen++
	}
}

// edit opens the source pane's file at its cursor line in the user's
// editor. Only the editor from the environment runs, with the file as an
// argument; nothing from the trajectory is executed.
func (m *Model) edit() tea.Cmd {
	file, line := m.src.File()
	if file == "" {
		m.status = "no file to open"
		return nil
	}
	path, tmp := "", ""
	if m.opts.LocalPath != nil {
		path = m.opts.LocalPath(file)
	}
	if path == "" {
		content, ok := m.ctx.Data.A.Files.Content(file)
		if !ok {
			m.status = "file not in the repository: " + termsafe.Line(file)
			return nil
		}
		dir, err := os.MkdirTemp("", "trajscope-")
		if err != nil {
			m.status = "cannot write a copy: " + err.Error()
			return nil
		}
		path, tmp = filepath.Join(dir, filepath.Base(file)), dir
		if err := os.WriteFile(path, content, 0o444); err != nil {
			os.RemoveAll(dir)
			m.status = "cannot write a copy: " + err.Error()
			return nil
		}
	}
	argv := strings.Fields(m.opts.Editor)
	if len(argv) == 0 {
		argv = []string{"vi"}
	}
	argv = append(argv, fmt.Sprintf("+%d", line), path)
	c := exec.Command(argv[0], argv[1:]...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorDoneMsg{err, tmp} })
}

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
			switch p {
			case paneTimeline:
				return m.tl.Scroll(n)
			case paneSource:
				return m.src.Scroll(3 * n)
			case paneObservation:
				return m.obs.Scroll(3 * n)
			case paneGold:
				return m.gold.Scroll(n)
			}
		}
	}
	return nil
}

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
	rows = append(rows, common.Fit(m.header.View(), m.w))
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
	rows = append(rows, common.Fit(m.footer(), m.w))
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
			if m.dirty[s.p] || m.cache[s.p] == "" {
				m.cache[s.p] = m.comp(s.p).View()
				m.dirty[s.p] = false
			}
			for _, line := range strings.Split(m.cache[s.p], "\n") {
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

func (m *Model) footer() string {
	t := m.ctx.Theme
	if m.searching {
		return t.Status.Render(" /"+termsafe.Line(m.input)+"█") + t.Muted.Render("   enter search · esc cancel")
	}
	left := ""
	if m.status != "" {
		left = " " + t.Status.Render(termsafe.Line(m.status)) + "  "
	}
	keys := common.Keys
	bindings := []key.Binding{keys.Next, keys.Prev, keys.Focus, keys.Search, keys.Play, keys.Lens, keys.Files, keys.Edit, keys.Help, keys.Quit}
	m.help.SetWidth(max(m.w-ansi.StringWidth(left)-1, 0))
	return left + " " + m.help.ShortHelpView(bindings)
}

// FullHelpKeys are the help screen's groups.
func FullHelpKeys() [][]key.Binding {
	k := common.Keys
	return [][]key.Binding{
		{k.Next, k.Prev, k.First, k.Last, k.Play, k.Faster, k.Lens},
		{k.Focus, k.FocusBack, k.Down, k.Up, k.PageDown, k.PageUp, k.Select},
		{k.NextGold, k.NextMissed, k.Closest, k.Files, k.Follow, k.Edit},
		{k.Search, k.NextMatch, k.Filter, k.Back, k.Help, k.Quit},
	}
}

// helpView is the full help: key groups side by side as far as the width
// allows (wrapping to more rows), then the legend of every glyph.
func (m *Model) helpView(h int) []string {
	t := m.ctx.Theme
	lines := []string{common.Title(m.ctx, "Help", "? or esc closes", true, m.w)}
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
	for _, g := range FullHelpKeys() {
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
	legend(t.Bold.Render("Gutter:"), t.MarkReadNow.Render(common.GlyphReadNow)+" read by this step",
		t.MarkReadBefore.Render(common.GlyphReadBefore)+" read before",
		t.MarkGoldFound.Render(common.GlyphGoldFound)+" gold, read",
		t.MarkGoldPending.Render(common.GlyphGoldPending)+" gold, read later",
		t.MarkGoldMissed.Render(common.GlyphGoldMissed)+" gold, never read")
	cats := []string{t.Bold.Render("Timeline:")}
	for _, c := range common.CategoryOrder {
		cats = append(cats, t.Category(c).Render(common.CategoryGlyph(c))+" "+c)
	}
	cats = append(cats, t.NewGold.Render("+n")+" new gold lines", t.Reread.Render(common.GlyphReread)+" only re-read", "* search match")
	legend(cats...)
	lines = append(lines, t.Muted.Render(" Lens (L): contextbench = the evaluator's steps · observed = what actions showed"))
	// Last, so that a short screen (80x24) loses this line and no key.
	lines = append(lines, t.Muted.Render(" Gold: @k first read by step k · → by the end: found, read then dropped, near miss ±lines, searched, never opened"))
	return common.Block(lines, m.w, h)
}
