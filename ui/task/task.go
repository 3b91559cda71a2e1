// Package task is the explorer's pane for what the run was asked and what
// it handed in: the task statement (the run's own, else the gold's), with
// the search's matches marked, and the submitted patch, each line it
// removes or keeps that is a gold line marked (EditLoc made visible).
package task

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/pane"
)

// maxPatchLines caps how much of a patch the pane lays out.
const maxPatchLines = 20000

// Model is the task pane.
type Model struct {
	pane.Base
	offset int
	// lines is the laid-out text for width forW, theme forTheme and the
	// query of revision forRev; patchAt is the row the patch starts on.
	lines    []string
	patchAt  int
	forW     int
	forTheme *themes.Theme
	forRev   int
	// summary is the title's detail.
	summary string
}

// New returns a task pane.
func New(ctx *pane.Context) *Model { return &Model{Base: pane.Base{Ctx: ctx}, forW: -1} }

// Update scrolls a focused pane; p jumps to the patch and back to the task.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !m.Focused {
		return nil
	}
	m.build()
	if key.Matches(k, keys.Patch) {
		if m.offset < m.patchAt {
			m.offset = m.patchAt
		} else {
			m.offset = 0
		}
		m.clamp()
		return nil
	}
	if n := keys.ScrollLines(k, m.H-1); n != 0 {
		m.offset += n
		m.clamp()
	}
	return nil
}

// Global handles t, which brings the pane into view and focuses it.
func (m *Model) Global(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(k, keys.Task) {
		return nil, false
	}
	return pane.Focus(m), true
}

// Scroll moves the text by n wheel notches of three lines.
func (m *Model) Scroll(n int) tea.Cmd {
	m.build()
	m.offset += 3 * n
	m.clamp()
	return nil
}

func (m *Model) clamp() { m.offset = max(0, min(m.offset, len(m.lines)-(m.H-1))) }

// build lays the task and the patch out, once per width, theme and search.
func (m *Model) build() {
	ctx := m.Ctx
	w := max(m.W-1, 1)
	if m.forW == w && m.forTheme == ctx.Theme && m.forRev == ctx.Rev {
		return
	}
	m.forW, m.forTheme, m.forRev = w, ctx.Theme, ctx.Rev
	t := ctx.Theme
	var out []string
	heading := func(s string) { out = append(out, " "+t.Bold.Render(fit.Line(s, w))) }

	text, from := ctx.Data.Task()
	switch from {
	case "run":
		heading("Task, as the run was given it")
	case "gold":
		heading("Task, from the gold file (the run records none)")
	default:
		heading("Task: the run records none, and the gold has no problem statement")
	}
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		para = termsafe.Line(para)
		for _, wl := range strings.Split(ansi.Wrap(para, w, " "), "\n") {
			if ctx.Query != "" && strings.Contains(strings.ToLower(wl), ctx.Query) {
				wl = t.Match.Render(wl) // a search match: / searches the task too
			}
			out = append(out, " "+wl)
		}
	}
	out = append(out, "")
	m.patchAt = len(out)

	patch := ctx.Data.Run.Patch()
	if patch == "" {
		heading("Patch: none submitted")
		m.summary = "no patch"
	} else {
		pls, removed, gold := ctx.Data.A.PatchLines(patch)
		what := fmt.Sprintf("%d %s removed, %d of them gold", removed, display.Plural(removed, "line"), gold)
		m.summary = "patch: " + what
		heading(fmt.Sprintf("Submitted patch · %s (%s)", what, display.GlyphGoldFound))
		for i, pl := range pls {
			if i == maxPatchLines {
				out = append(out, " "+t.Muted.Render(fmt.Sprintf("… %d more lines not shown", len(pls)-i)))
				break
			}
			mark := "  "
			if pl.Gold {
				mark = t.MarkGoldFound.Render(display.GlyphGoldFound) + " "
			}
			style := t.Text
			switch {
			case strings.HasPrefix(pl.Text, "+++"), strings.HasPrefix(pl.Text, "---"), strings.HasPrefix(pl.Text, "diff "):
				style = t.Bold
			case strings.HasPrefix(pl.Text, "@@"):
				style = t.Muted
			case strings.HasPrefix(pl.Text, "-"):
				style = t.Error
			case strings.HasPrefix(pl.Text, "+"):
				style = t.NewGold
			}
			out = append(out, mark+style.Render(fit.Line(termsafe.Line(pl.Text), w-2)))
		}
	}
	m.lines = out
}

// View renders the title and the visible part.
func (m *Model) View() string {
	if m.W <= 0 || m.H <= 0 {
		return ""
	}
	m.build()
	m.clamp()
	body := m.H - 1
	detail := m.summary
	if q := m.Ctx.Query; q != "" {
		detail += fmt.Sprintf(" · %d task lines match", m.Ctx.Data.TaskMatches(q))
	}
	lines := []string{pane.Title(m.Ctx, "Task & patch", detail, m.Focused, m.W)}
	end := min(m.offset+body, len(m.lines))
	lines = append(lines, m.lines[m.offset:end]...)
	return strings.Join(fit.Block(lines, m.W, m.H), "\n")
}

var own = []key.Binding{keys.Down, keys.Up, keys.PageDown, keys.PageUp, keys.Patch}

// ShortHelp is the footer while the pane is focused.
func (m *Model) ShortHelp() []key.Binding { return keys.Footer(own...) }

// FullHelp is the help screen while the pane is focused.
func (m *Model) FullHelp() [][]key.Binding { return keys.FullHelp(own...) }
