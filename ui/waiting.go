package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/themes"
)

// Waiting is the screen view --follow shows before the followed session
// holds an action: an agent's session followed from its first second is
// empty, or holds the prompt alone. It ends when a WaitDoneMsg comes (the
// explorer then opens on the run) or when the user quits.
type Waiting struct {
	// what is awaited ("the first action of s.jsonl") and how it ends.
	what, hint string
	since      time.Time
	w, h       int
	ready      bool
	theme      *themes.Theme
	elapsed    time.Duration
}

// WaitDoneMsg says the followed file now holds a run with an action.
type WaitDoneMsg struct{}

type waitTick struct{}

// NewWaiting is the waiting screen for the first action of the file named
// name.
func NewWaiting(name string, opts Options) (*Waiting, error) {
	return NewWaitingFor("the first action of "+name, "the explorer opens on the run when the agent makes its first tool call", opts)
}

// NewWaitingFor is a waiting screen for what (said after "waiting for"),
// hint saying what happens when it comes (watch before any session).
func NewWaitingFor(what, hint string, opts Options) (*Waiting, error) {
	th, err := themes.Get(opts.Theme, opts.Dark, opts.NoColor)
	if err != nil {
		return nil, err
	}
	return &Waiting{what: termsafe.Line(what), hint: termsafe.Line(hint), since: time.Now(), theme: th}, nil
}

// Ready reports whether the wait ended with the run there (not quit).
func (w *Waiting) Ready() bool { return w.ready }

func (w *Waiting) Init() tea.Cmd { return w.tick() }

// tick redraws the elapsed time once a second: the screen shows it is
// alive while the agent thinks.
func (w *Waiting) tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return waitTick{} })
}

func (w *Waiting) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		w.w, w.h = msg.Width, msg.Height
	case WaitDoneMsg:
		w.ready = true
		return w, tea.Quit
	case waitTick:
		w.elapsed = time.Since(w.since).Truncate(time.Second)
		return w, w.tick()
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			return w, tea.Quit
		}
	}
	return w, nil
}

func (w *Waiting) View() tea.View {
	v := tea.NewView(w.Render())
	v.AltScreen = true
	v.WindowTitle = "trajscope · waiting"
	return v
}

// Render is the screen's text: what is awaited, centred.
func (w *Waiting) Render() string {
	lines := []string{
		w.theme.Bold.Render("◌ waiting for " + w.what),
		"",
		w.theme.Muted.Render(w.hint),
		w.theme.Muted.Render(fmt.Sprintf("%s so far · q quits", w.elapsed)),
	}
	text := strings.Join(lines, "\n")
	if w.w <= 0 || w.h <= 0 {
		return text
	}
	return lipgloss.Place(w.w, w.h, lipgloss.Center, lipgloss.Center, text)
}
