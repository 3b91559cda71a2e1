// Package ui is trajscope's explorer: a Bubble Tea root model holding the
// panes of the registry (panes.go) behind one interface (package pane),
// with the header and the metrics bar around them.
package ui

import (
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/header"
	"github.com/trajscope/trajscope/ui/metrics"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
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
	// Autoplay starts playing at once, from Step (live demos).
	Autoplay bool
	// Speed is the autoplay interval, snapped to the nearest one the +/-
	// keys offer; 0 keeps the default.
	Speed time.Duration
	// InList: the run was opened from a run list (Browse), to which esc
	// returns and whose other runs H and L open.
	InList bool
	// Live: the run is being followed (view --follow); LiveMsg brings
	// each new reading.
	Live bool
	// Status is said on the status line until the first key (the demo
	// says it is one, and how to open a run of one's own).
	Status string
}

// Model is the explorer's root model.
type Model struct {
	ctx  *pane.Context
	opts Options

	w, h int
	lay  layout
	// panes are the registry's panes, by paneID. focus is the focused one;
	// stamps[p] records when p was last focused (0: never), which decides
	// the pane a shared slot shows.
	panes  []pane.Pane
	focus  paneID
	stamps []int
	clock  int

	header *header.Model
	met    *metrics.Model

	help      help.Model
	showHelp  bool
	searching bool
	input     string
	status    string
	liveNote  string // the status a live reading set, cleared by the next that reads
	liveBack  func() // back to the session before (watch switched), nil when none
	switching bool   // a switched-to session's first reading with actions is awaited

	playing bool
	speed   int
	tickGen int
	// idleGen counts the idle timers armed; only the last one works.
	idleGen int

	// cache holds each pane's last rendering; dirty marks the ones to redo,
	// so scrolling one pane does not re-render the others. The header,
	// metrics bar and footer are a few lines and always re-render.
	cache []string
	dirty []bool
}

// New builds the explorer for an analysed run. It precomputes everything the
// panes show, so stepping later only indexes arrays.
func New(st *story.Story, opts Options) (*Model, error) {
	a := st.A
	th, err := themes.Get(opts.Theme, opts.Dark, opts.NoColor)
	if err != nil {
		return nil, err
	}
	if len(a.Run.Actions) == 0 {
		return nil, fmt.Errorf("the run has no actions to show")
	}
	ctx := &pane.Context{Data: viewdata.New(st), Theme: th, Lens: opts.Lens, Speed: speedLabel(defaultSpeed)}
	m := &Model{
		ctx: ctx, opts: opts, focus: 0,
		header: header.New(ctx), met: metrics.New(ctx),
		help: help.New(), speed: defaultSpeed,
	}
	for _, r := range registry {
		m.panes = append(m.panes, r.new(ctx))
	}
	n := len(m.panes)
	m.stamps, m.cache, m.dirty = make([]int, n), make([]string, n), make([]bool, n)
	m.applyTheme()
	m.panes[m.focus].SetFocused(true)
	if opts.Step > 0 {
		ctx.Cur = min(opts.Step, ctx.Data.N) - 1
	}
	if opts.Live {
		ctx.Live = "live"
		if opts.Step == 0 {
			ctx.Cur = ctx.Data.N - 1 // the newest step, which it follows
		}
	}
	if opts.Speed > 0 {
		m.speed = nearestSpeed(opts.Speed)
		ctx.Speed = speedLabel(m.speed)
	}
	m.status = opts.Status
	if w := a.Run.Warnings; len(w) > 0 {
		// What the reader skipped (a line that is not JSON) is said here
		// as on every surface: the first, and how many more.
		m.status = "warning: " + termsafe.Line(w[0])
		if more := len(w) - 1 + a.Run.MoreWarnings; more > 0 {
			m.status += fmt.Sprintf(" (%d more: view --json lists them)", more)
		}
	}
	m.broadcast(pane.StepMsg{})
	if opts.Autoplay {
		m.togglePlay() // Init starts the clock
	}
	return m, nil
}

// followsTerminal reports whether the theme follows the terminal's
// background.
func (m *Model) followsTerminal() bool {
	return (m.opts.Theme == "" || m.opts.Theme == "auto" || m.opts.Theme == "contrast") && !m.opts.NoColor
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

// Init asks the terminal for its background when the theme follows it,
// without waiting for the answer (the first frame is drawn with the assumed
// background and redrawn if the answer differs), arms the idle work, and
// starts the autoplay clock when Options.Autoplay is set.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.armIdle(idleAfter)}
	if m.followsTerminal() {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.playing {
		cmds = append(cmds, m.nextTick())
	}
	return tea.Batch(cmds...)
}

// idleAfter is how long the user must leave the keys alone before panes do
// work ahead (Idler); 0 turns it off.
var idleAfter = 150 * time.Millisecond

type idleMsg struct{ gen int }

// armIdle starts the idle timer again, cancelling the last one.
func (m *Model) armIdle(d time.Duration) tea.Cmd {
	if idleAfter <= 0 {
		return nil
	}
	m.idleGen++
	gen := m.idleGen
	return tick(d, func(time.Time) tea.Msg { return idleMsg{gen} })
}

// tick is tea.Tick; tests replace it with one that never fires, so what
// they run does not depend on how fast the machine is.
var tick = tea.Tick

// idle gives each Idler one piece of work, and comes back at once while
// any is left: a key pressed meanwhile waits for one piece at most.
func (m *Model) idle(msg idleMsg) tea.Cmd {
	if msg.gen != m.idleGen {
		return nil
	}
	more := false
	for _, p := range m.panes {
		if i, ok := p.(pane.Idler); ok && i.Idle() {
			more = true
		}
	}
	if more {
		return m.armIdle(time.Millisecond)
	}
	return nil
}

func (m *Model) markAll() {
	for p := range m.dirty {
		m.dirty[p] = true
	}
}

// broadcast sends a message to every pane.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range m.panes {
		if cmd := p.Update(msg); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	m.markAll()
	if len(cmds) == 0 {
		return nil
	}
	return tea.Batch(cmds...)
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.relayout()
	case tea.BackgroundColorMsg:
		if !m.followsTerminal() {
			break
		}
		// Themes are built once: the same background gives the same theme,
		// and nothing needs to be redrawn.
		if th, err := themes.Get(m.opts.Theme, msg.IsDark(), false); err == nil && th != m.ctx.Theme {
			m.ctx.Theme = th
			m.applyTheme()
		}
	case tea.KeyPressMsg:
		return m, tea.Batch(m.key(msg), m.armIdle(idleAfter))
	case idleMsg:
		return m, m.idle(msg)
	case tea.MouseWheelMsg:
		return m, m.wheel(msg.Mouse())
	case pane.GotoMsg:
		return m, m.setCur(msg.I)
	case pane.JumpMsg:
		var cmd tea.Cmd
		if msg.I >= 0 {
			cmd = m.setCur(msg.I)
		}
		m.status = msg.Status
		return m, tea.Batch(cmd, m.broadcast(pane.ShowMsg{File: msg.File, Line: msg.Line}))
	case pane.StatusMsg:
		m.status = string(msg)
	case pane.RevealMsg:
		for id, p := range m.panes {
			// A modal pane takes every key, so it takes the focus too: one
			// pane shows the focus marker.
			md, modal := p.(pane.Modal)
			if p == msg.Pane && (!m.lay.visible(paneID(id)) || modal && md.Modal()) {
				m.setFocus(paneID(id))
			}
		}
	case pane.FocusMsg:
		for id, p := range m.panes {
			if p == msg.Pane {
				m.setFocus(paneID(id))
			}
		}
	case pane.EditMsg:
		return m, m.edit(msg.File, msg.Line)
	case tickMsg:
		return m, m.tick(msg)
	case LiveMsg:
		return m, m.live(msg)
	case editorDoneMsg:
		if msg.tmp != "" {
			os.RemoveAll(msg.tmp)
		}
		if msg.err != nil {
			m.status = "editor: " + termsafe.Line(msg.err.Error())
		}
		m.markAll()
	}
	return m, nil
}

// need is how many rows the timeline and the gold panel would fill: every
// action, and every gold span under a header per file.
func (m *Model) need() need {
	n := need{list: m.ctx.Data.N + 1, side: 2}
	if g := m.ctx.Data.Gold; len(g) > 0 {
		n.side = len(g) + 1
		for k := range g {
			if k == 0 || g[k-1].File() != g[k].File() {
				n.side++
			}
		}
	}
	return n
}

// setCur makes action i current and lets the panes follow it.
func (m *Model) setCur(i int) tea.Cmd {
	i = max(0, min(i, m.ctx.Data.N-1))
	if i == m.ctx.Cur {
		return nil
	}
	m.ctx.Cur = i
	return m.broadcast(pane.StepMsg{})
}

func (m *Model) relayout() {
	m.lay = computeLayout(m.w, m.h, m.need(), func(places ...place) paneID {
		return pickPane(places, func(p paneID) int { return m.stamps[p] })
	})
	m.header.SetWidth(m.w)
	m.met.SetSize(m.w, m.lay.metricsH)
	m.help.SetWidth(m.w)
	for p, r := range m.lay.rects() {
		m.panes[p].SetSize(r.w, r.h)
	}
	for p := range m.panes {
		m.panes[p].SetFocused(paneID(p) == m.focus)
	}
	m.markAll()
}

// setFocus moves focus, bringing a hidden pane into its shared slot.
func (m *Model) setFocus(p paneID) {
	m.focus = p
	m.clock++
	m.stamps[p] = m.clock
	m.relayout()
}

// speeds are the autoplay intervals, slowest first.
var speeds = []time.Duration{3 * time.Second, 2 * time.Second, time.Second, 500 * time.Millisecond, 250 * time.Millisecond, 100 * time.Millisecond}

const defaultSpeed = 2

// nearestSpeed is the index of the autoplay interval closest to d.
func nearestSpeed(d time.Duration) int {
	best := 0
	for i, s := range speeds {
		if (s - d).Abs() < (speeds[best] - d).Abs() {
			best = i
		}
	}
	return best
}

func speedLabel(i int) string {
	d := speeds[i]
	if d >= time.Second {
		return fmt.Sprintf("%ds/step", int(d/time.Second))
	}
	return fmt.Sprintf("%dms/step", d/time.Millisecond)
}
