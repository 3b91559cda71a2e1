package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/compare"
	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/metrics"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/timeline"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// CompareModel shows two runs of one task side by side: both timelines
// stepping together, both coverage curves per granularity, and the gold
// spans with who showed each and when. Wide screens put the runs side by
// side; narrow ones stack them.
type CompareModel struct {
	c     *compare.Comparison
	theme *themes.Theme
	ctx   [2]*pane.Context
	tl    [2]*timeline.Model
	w, h  int
	// aligned steps through the first reads of gold spans instead of by
	// action index; event is the current one.
	aligned bool
	event   int
	gran    model.Granularity // the chart's granularity on narrow screens
	help    bool
	// showSource puts the source pane where the timelines are, on a
	// narrow screen (a wide one shows both).
	showSource bool
}

// Spark glyphs: A draws blocks, B braille, so the two curves read apart
// without colour.
var sparkB = []rune("⡀⣀⣄⣤⣦⣶⣷⣿")

// Compare builds the comparison explorer.
func Compare(c *compare.Comparison, opts Options) (*CompareModel, error) {
	th, err := themes.Get(opts.Theme, opts.Dark, opts.NoColor)
	if err != nil {
		return nil, err
	}
	m := &CompareModel{c: c, theme: th, gran: model.GranLine}
	for k := range m.ctx {
		m.ctx[k] = &pane.Context{Data: viewdata.New(c.Story(k)), Theme: th, Lens: opts.Lens}
		m.tl[k] = timeline.New(m.ctx[k])
		m.tl[k].Name = compare.Labels[k] + " · timeline"
	}
	return m, nil
}

var compareKeys = struct{ Align, Gran, Source, Help, Quit key.Binding }{
	Source: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "source / timelines")),
	Align:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "align on gold first reads")),
	Gran:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chart granularity")),
	Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
	Quit:   key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
}

// Init starts nothing: everything is computed.
func (m *CompareModel) Init() tea.Cmd { return nil }

// Update steps both runs together.
func (m *CompareModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, compareKeys.Quit):
			return m, tea.Quit
		case key.Matches(msg, compareKeys.Help):
			m.help = !m.help
		case key.Matches(msg, compareKeys.Align):
			m.aligned = !m.aligned
			m.event = 0
			m.sync()
		case key.Matches(msg, compareKeys.Source):
			m.showSource = !m.showSource
		case key.Matches(msg, keys.Lens):
			m.switchLens()
		case key.Matches(msg, compareKeys.Gran):
			m.gran = (m.gran + 1) % model.Granularity(len(model.Granularities))
		case key.Matches(msg, keys.Next):
			m.move(1)
		case key.Matches(msg, keys.Prev):
			m.move(-1)
		case key.Matches(msg, keys.First):
			m.move(-1 << 30)
		case key.Matches(msg, keys.Last):
			m.move(1 << 30)
		}
	}
	return m, nil
}

// switchLens compares the two runs again under the other lens: their
// stories hold both, so only the spans' finds are recomputed.
func (m *CompareModel) switchLens() {
	l := model.LensObserved
	if m.ctx[0].Lens == model.LensObserved {
		l = model.LensContextBench
	}
	c, err := compare.New(m.c.Story(0), m.c.Story(1), l)
	if err != nil {
		return // the same two runs: cannot differ in task
	}
	m.c = c
	for _, ctx := range m.ctx {
		ctx.Lens = l
	}
	m.event = min(m.event, m.events()-1)
	m.sync()
}

// events is the number of aligned stops: the longer list of first reads.
func (m *CompareModel) events() int {
	return max(len(m.c.FirstReads(0)), len(m.c.FirstReads(1)), 1)
}

// move steps by n actions, or n gold first reads when aligned.
func (m *CompareModel) move(n int) {
	if m.aligned {
		m.event = max(0, min(m.event+n, m.events()-1))
		m.sync()
		return
	}
	cur := max(m.ctx[0].Cur, m.ctx[1].Cur)
	cur = max(0, min(cur+n, m.c.Actions()-1))
	for k, ctx := range m.ctx {
		ctx.Cur = min(cur, len(m.c.Story(k).A.Run.Actions)-1)
	}
}

// sync puts each run on its action of the current aligned stop: its k-th
// first read of a gold span (its last one when it has fewer, its first
// action when none).
func (m *CompareModel) sync() {
	if !m.aligned {
		return
	}
	for k, ctx := range m.ctx {
		reads := m.c.FirstReads(k)
		switch {
		case len(reads) == 0:
			ctx.Cur = 0
		case m.event < len(reads):
			ctx.Cur = reads[m.event]
		default:
			ctx.Cur = reads[len(reads)-1]
		}
	}
}

// View draws the screen.
func (m *CompareModel) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "trajscope compare · " + termsafe.Line(m.c.InstanceID)
	return v
}

// Render is the screen as text, exactly w×h cells.
func (m *CompareModel) Render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	lines := m.header()
	footer := m.footer()
	body := m.h - len(lines) - 1
	if m.help {
		lines = append(lines, fit.Block(m.helpLines(), m.w, body)...)
		return strings.Join(append(lines, footer), "\n")
	}
	wide := m.w >= 120 && body >= 16
	grans := []model.Granularity{m.gran}
	if wide {
		grans = model.Granularities[:]
	}
	chart := m.chart(grans)
	goldH := max(3, min(len(m.c.Spans)+1, body/3))
	tlH := body - len(chart) - goldH
	switch {
	case wide:
		// The timelines one above the other on the left, the source of
		// the file the current actions point at on the right.
		colW := m.w * 2 / 5
		ha := tlH / 2
		m.tl[0].SetSize(colW, ha)
		m.tl[1].SetSize(colW, tlH-ha)
		left := append(strings.Split(m.tl[0].View(), "\n"), strings.Split(m.tl[1].View(), "\n")...)
		right := m.source(m.w-colW-1, tlH)
		for i := range left {
			lines = append(lines, left[i]+m.theme.Separator.Render("│")+right[i])
		}
	case m.showSource:
		lines = append(lines, m.source(m.w, tlH)...)
	default:
		ha := tlH / 2
		m.tl[0].SetSize(m.w, ha)
		m.tl[1].SetSize(m.w, tlH-ha)
		lines = append(lines, strings.Split(m.tl[0].View(), "\n")...)
		lines = append(lines, strings.Split(m.tl[1].View(), "\n")...)
	}
	lines = append(lines, m.gold(goldH)...)
	lines = append(lines, chart...)
	return strings.Join(append(fit.Block(lines, m.w, m.h-1), footer), "\n")
}

// runStyle colours run k's label and curve.
func (m *CompareModel) runStyle(k int) lipgloss.Style {
	if k == 0 {
		return m.theme.NewGold
	}
	return m.theme.Value
}

func (m *CompareModel) header() []string {
	t := m.theme
	mode := "by action"
	if m.aligned {
		mode = fmt.Sprintf("aligned on gold first reads %d/%d", m.event+1, m.events())
	}
	lines := []string{fit.Line(t.AppName.Render(" trajscope compare")+" "+t.HeaderValue.Render(termsafe.Line(m.c.InstanceID))+
		t.Muted.Render(" · lens "+m.c.Lens+" · "+mode), m.w)}
	for k := range m.c.Runs {
		s := &m.c.Runs[k]
		fig := s.Error
		if s.NoGold {
			fig = "no gold"
		} else if fig == "" {
			f := s.Final.Line
			fig = fmt.Sprintf("final line %.2f/%.2f · AUC %.2f · %s", f.Coverage, f.Precision, s.AUC.Line, m.c.FoundText(k))
			if s.FinalStandIn {
				fig += " (union of steps: no final declared)"
			}
		}
		at := fmt.Sprintf("@%d/%d", m.ctx[k].Cur+1, s.Actions)
		lines = append(lines, fit.Line(" "+m.runStyle(k).Render(compare.Labels[k])+" "+at+" · "+fig+t.Muted.Render(" · "+m.c.Who(k)), m.w))
	}
	return lines
}

// gold lists the spans, the one either run is on first: "A @4 · B never".
func (m *CompareModel) gold(h int) []string {
	t := m.theme
	onlyA, onlyB, both, neither := m.c.Differences()
	lines := []string{pane.Title(m.ctx[0], "Gold", fmt.Sprintf("%d spans: both %d · only A %d · only B %d · neither %d%s", len(m.c.Spans), both, onlyA, onlyB, neither, m.c.StandInMark()), false, m.w)}
	nameW := 0
	for _, sp := range m.c.Spans {
		nameW = max(nameW, len(spanName(sp)))
	}
	nameW = min(nameW, m.w/2)
	for _, sp := range m.c.Spans {
		if len(lines) == h {
			break
		}
		name := display.Middle(spanName(sp), nameW)
		name += strings.Repeat(" ", max(0, nameW-ansi.StringWidth(name)))
		var who []string
		for k, f := range sp.Find {
			txt := compare.FindText(f)
			if f.Action > 0 && f.Action-1 <= m.ctx[k].Cur {
				txt = m.runStyle(k).Render(txt)
			} else if f.Action > 0 {
				txt = t.Muted.Render(txt) // not shown yet at this step
			}
			who = append(who, compare.Labels[k]+" "+txt)
		}
		lines = append(lines, fit.Line(" "+name+"  "+strings.Join(who, " · "), m.w))
	}
	return lines
}

func spanName(sp compare.Span) string {
	return fmt.Sprintf("%s:%d-%d", termsafe.Line(sp.File), sp.Start, sp.End)
}

// chart draws, per granularity, both runs' cumulative coverage over the
// longer run's actions, each up to its current action.
func (m *CompareModel) chart(grans []model.Granularity) []string {
	t := m.theme
	n := m.c.Actions()
	lines := []string{pane.Title(m.ctx[0], "Coverage", "A "+string(metrics.Blocks[7])+"  B "+string(sparkB[7])+"  cumulative, per action", false, m.w)}
	for _, g := range grans {
		for k := range m.ctx {
			label := fmt.Sprintf(" %-6s %s ", g, compare.Labels[k])
			if k == 1 {
				label = fmt.Sprintf(" %-6s %s ", "", compare.Labels[k])
			}
			// By action, both curves are drawn to the common step: a run
			// that has ended keeps its last coverage. Aligned, each run is
			// drawn to its own action.
			cur := m.ctx[k].Cur
			if !m.aligned {
				cur = max(m.ctx[0].Cur, m.ctx[1].Cur)
			}
			if !m.c.Drawn(k, g) {
				// No curve where the lens was not scored: say why.
				why := m.c.Story(k).A.Uncomputable(m.ctx[k].Lens, g)
				lines = append(lines, label+t.Muted.Render(fit.Line(why, max(1, m.w-len(label)))))
				continue
			}
			at := func(i int) float64 { return m.c.CurveAt(k, g, i) }
			figure := fmt.Sprintf(" %.2f", at(cur))
			w := max(1, m.w-len(label)-len(figure))
			levels := metrics.Blocks
			if k == 1 {
				levels = sparkB
			}
			past, future := metrics.SparkOf(levels, n, at, cur, w)
			lines = append(lines, label+m.runStyle(k).Render(past)+t.SparkFuture.Render(future)+t.Value.Render(figure))
		}
	}
	return lines
}

func (m *CompareModel) footer() string {
	bs := []key.Binding{keys.Next, keys.Prev, compareKeys.Align, keys.Lens, compareKeys.Source, compareKeys.Gran, compareKeys.Help, compareKeys.Quit, keys.First, keys.Last} // help and quit before what help lists
	var parts []string
	for _, b := range bs {
		h := b.Help()
		parts = append(parts, m.theme.HelpKey.Render(h.Key)+" "+m.theme.HelpDesc.Render(h.Desc))
	}
	return fit.Line(" "+strings.Join(parts, m.theme.HelpSep.Render(" • ")), m.w)
}

func (m *CompareModel) helpLines() []string {
	// Short lines: the help must read whole at 80 columns.
	return []string{
		" Compare: two runs of one task, stepping together",
		"",
		" l/→ h/←  next / previous action, both runs",
		"          (a run that has ended stays on its last action)",
		" g/0 G/$  first / last action",
		" a        align: step through the gold spans' first reads",
		" v        switch lens (contextbench / observed)",
		"          (A's k-th first read beside B's k-th)",
		" s        narrow screens: the source pane instead of the timelines",
		" c        narrow screens: the chart's granularity",
		"",
		" Source gutter: A, B or AB as those runs had shown the line by",
		" now; ● gold. Gold: the action that first showed each span in",
		" each run and what became of it (dim until the run gets there).",
		" Coverage: A in blocks, B in braille.",
		"",
		" ?  close this help    q  quit",
	}
}
