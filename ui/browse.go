package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/runlist"
)

// Opener analyses the run at a list position for the explorer, and gives
// the editor's path function of its repository (nil for none).
type Opener func(pos int) (*story.Story, func(string) string, error)

// Browser is the run list and, over it, the explorer of the run the user
// opened: enter opens a run, esc returns to the list, H and L go to the
// previous and next run of the list as it is sorted and filtered.
type Browser struct {
	list *runlist.Model
	open Opener
	opts Options
	w, h int

	run *Model // the open run; nil while the list shows
	pos int    // its position
	// opening is the position being analysed, 0 for none.
	opening int
}

// Messages from an open run to the browser.
type (
	leaveMsg  struct{}        // esc with nothing left to close
	switchMsg struct{ n int } // H (-1) or L (+1)
	openedMsg struct {
		pos   int
		a     *story.Story
		local func(string) string
		err   error
	}
)

// Browse returns the run list over runs, titled by what was opened; open
// analyses a run when the user opens it. opts apply to every run.
func Browse(runs runlist.Runs, open Opener, title string, opts Options) (*Browser, error) {
	th, err := themes.Get(opts.Theme, opts.Dark, opts.NoColor)
	if err != nil {
		return nil, err
	}
	opts.InList, opts.Step = true, 0
	return &Browser{list: runlist.New(runs, title, th, opts.Lens), open: open, opts: opts}, nil
}

// List is the run list.
func (b *Browser) List() *runlist.Model { return b.list }

// Run is the open run's explorer, nil while the list shows.
func (b *Browser) Run() *Model { return b.run }

// Init starts loading the list and asks the terminal for its background.
func (b *Browser) Init() tea.Cmd {
	if (&Model{opts: b.opts}).followsTerminal() {
		return tea.Batch(b.list.Init(), tea.RequestBackgroundColor)
	}
	return b.list.Init()
}

// Update handles a message: the list's loading whatever shows, keys for
// what shows, opening and leaving runs.
func (b *Browser) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.w, b.h = msg.Width, msg.Height
		b.list.SetSize(b.w, b.h)
	case tea.BackgroundColorMsg:
		if (&Model{opts: b.opts}).followsTerminal() {
			b.opts.Dark = msg.IsDark()
			if th, err := themes.Get(b.opts.Theme, b.opts.Dark, b.opts.NoColor); err == nil {
				b.list.SetTheme(th)
			}
		}
	case runlist.LoadedMsg:
		return b, b.list.Update(msg)
	case runlist.OpenMsg:
		return b, b.openRun(msg.Pos)
	case openedMsg:
		return b, b.opened(msg)
	case leaveMsg:
		b.leave()
		return b, nil
	case switchMsg:
		if next, ok := b.list.Neighbour(b.pos, msg.n); ok {
			return b, b.openRun(next)
		}
		if b.run != nil {
			b.run.status = "the first run of the list"
			if msg.n > 0 {
				b.run.status = "the last run of the list"
			}
		}
		return b, nil
	}
	if b.run != nil {
		_, cmd := b.run.Update(msg)
		return b, cmd
	}
	return b, b.list.Update(msg)
}

// openRun analyses the run at pos in the background.
func (b *Browser) openRun(pos int) tea.Cmd {
	if b.opening != 0 {
		return nil // one at a time
	}
	b.opening = pos
	b.status(fmt.Sprintf("opening run #%d…", pos))
	open := b.open
	return func() tea.Msg {
		a, local, err := open(pos)
		return openedMsg{pos, a, local, err}
	}
}

func (b *Browser) status(s string) {
	if b.run != nil {
		b.run.status = s
		return
	}
	b.list.SetStatus(s)
}

func (b *Browser) opened(msg openedMsg) tea.Cmd {
	b.opening = 0
	if msg.a != nil && len(msg.a.A.Run.Actions) == 0 {
		msg.a, msg.err = nil, fmt.Errorf("run #%d has no actions to show", msg.pos)
	}
	if msg.a == nil {
		b.status(termsafe.Line(msg.err.Error()))
		return nil
	}
	opts := b.opts
	opts.LocalPath = msg.local
	if b.run != nil {
		opts.Lens = b.run.ctx.Lens // the lens the user chose stays
	}
	m, err := New(msg.a, opts)
	if err != nil {
		b.status(err.Error())
		return nil
	}
	b.run, b.pos = m, msg.pos
	b.list.Select(msg.pos)
	b.list.SetStatus("")
	m.Update(tea.WindowSizeMsg{Width: b.w, Height: b.h})
	if msg.err != nil {
		// Opened without its gold or repository: say why.
		m.status = termsafe.Line(msg.err.Error())
	}
	return m.armIdle(idleAfter)
}

// leave closes the run and shows the list, the run selected.
func (b *Browser) leave() {
	if b.run != nil {
		b.opts.Lens = b.run.ctx.Lens
	}
	b.run = nil
	b.list.Select(b.pos)
}

// View shows the open run, else the list.
func (b *Browser) View() tea.View {
	if b.run != nil {
		return b.run.View()
	}
	v := tea.NewView(b.list.View())
	if b.w <= 0 {
		v = tea.NewView("loading…")
	}
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "trajscope · runs"
	return v
}
