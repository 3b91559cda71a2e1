// Package observation is the explorer's pane for the current action's text:
// the model's thought, the command and the raw tool output, with every
// control character shown as a visible escape instead of reaching the
// terminal.
package observation

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/pane"
)

// maxLines caps how much of one output the pane lays out, and maxLineBytes
// how much of one line: a gigabyte line would otherwise be copied and
// wrapped into millions of rows.
const (
	maxLines     = 20000
	maxLineBytes = 64 << 10
)

// clipLongLines cuts every line longer than max bytes, saying how much was
// left out; text without such a line comes back as it is.
func clipLongLines(text string, max int) string {
	var b strings.Builder
	start := 0
	for start < len(text) {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if end-start > max {
			if b.Len() == 0 && start > 0 {
				b.WriteString(text[:start])
			}
			cut := start + max
			for cut > start && text[cut]&0xC0 == 0x80 {
				cut--
			}
			b.WriteString(text[start:cut])
			fmt.Fprintf(&b, " … (%d more bytes of this line not shown)", end-cut)
			if end < len(text) {
				b.WriteByte('\n')
			}
		} else if b.Len() > 0 {
			b.WriteString(text[start:min(end+1, len(text))])
		}
		start = end + 1
	}
	if b.Len() == 0 {
		return text
	}
	return b.String()
}

// Model is the observation pane.
type Model struct {
	pane.Base
	offset int

	// hideThoughts leaves the model's thoughts out (r), for long runs.
	hideThoughts bool

	// lines is the wrapped text of action `for` at width `forW`; outLines
	// counts the output's own lines, however they wrap.
	lines      []string
	outLines   int
	forI, forW int
	forTheme   *themes.Theme
	forLens    model.Lens
	forHide    bool
}

// New returns an observation pane.
func New(ctx *pane.Context) *Model { return &Model{Base: pane.Base{Ctx: ctx}, forI: -1} }

// Reload drops the rendering of the last reading's step.
func (m *Model) Reload() { m.forI = -1 }

// Update scrolls a focused pane; a new step shows its action from the top.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case pane.StepMsg:
		m.offset = 0
	case tea.KeyPressMsg:
		if n := keys.ScrollLines(msg, m.H-1); n != 0 && m.Focused {
			m.scroll(n)
		}
	}
	return nil
}

// Scroll moves the text by n wheel notches of three lines.
func (m *Model) Scroll(n int) tea.Cmd {
	m.scroll(3 * n)
	return nil
}

func (m *Model) scroll(n int) {
	m.build()
	m.offset = max(0, min(m.offset+n, len(m.lines)-(m.H-1)))
}

// build wraps the current action's text for the pane width, once per action,
// width and theme.
func (m *Model) build() {
	ctx := m.Ctx
	w := max(m.W-1, 1)
	if m.forI == ctx.Cur && m.forW == w && m.forTheme == ctx.Theme && m.forLens == ctx.Lens && m.forHide == m.hideThoughts {
		return
	}
	m.forI, m.forW, m.forTheme, m.forLens, m.forHide = ctx.Cur, w, ctx.Theme, ctx.Lens, m.hideThoughts
	t := ctx.Theme
	act := &ctx.Data.Run.Actions[ctx.Cur]
	var out []string
	add := func(text string, style func(string) string) {
		for _, l := range Visible(text, t) {
			if style != nil {
				l = style(l)
			}
			for _, wl := range strings.Split(ansi.Hardwrap(l, w, true), "\n") {
				out = append(out, " "+wl)
			}
		}
	}
	// Thoughts and notes are prose: wrap on words.
	prose := func(text string, style func(string) string) {
		for _, para := range strings.Split(text, "\n") {
			for _, wl := range strings.Split(ansi.Wrap(termsafe.Line(para), w, " "), "\n") {
				out = append(out, " "+style(wl))
			}
		}
	}
	if act.Failed() {
		what := " command failed: " + act.Failure
		if act.NotRun {
			what = " command " + act.Failure // "not run: rejected by the user"
		}
		prose(display.GlyphFailed+what, func(s string) string { return t.Error.Render(s) })
		if note := display.FailedButCounted(ctx.Data.A, ctx.Lens, ctx.Cur); note != "" {
			prose(note, func(s string) string { return t.Muted.Render(s) })
		}
		out = append(out, "")
	}
	if act.Pending {
		what := "no result: the record ends before this call's"
		if ctx.Live == "live" {
			what = "running: its result has not come yet"
		}
		prose(what, func(s string) string { return t.Muted.Render(s) })
		out = append(out, "")
	}
	th := strings.TrimSpace(ctx.Data.Run.Thought(ctx.Cur))
	if th != "" && m.hideThoughts {
		out = append(out, " "+t.Muted.Render("(thought hidden: r shows it)"), "")
		th = ""
	}
	if th != "" {
		prose(th, func(s string) string { return t.Thought.Render(s) })
		out = append(out, "")
	}
	if cmd := act.Command; cmd != "" {
		add("$ "+cmd, func(s string) string { return t.Command.Render(s) })
	}
	if len(act.Changes) > 0 {
		// The edit as the format recorded it, before what the tool said.
		out = append(out, "")
		for _, c := range act.Changes {
			prose(display.CategoryGlyph("edit")+" "+display.ChangeTitle(c), func(s string) string { return t.Bold.Render(s) })
			for _, dl := range display.ChangeDiff(c) {
				style := func(s string) string { return t.Muted.Render(s) }
				switch dl.Op {
				case '-':
					style = func(s string) string { return t.Error.Render(s) }
				case '+':
					style = func(s string) string { return t.NewGold.Render(s) }
				}
				add(string(dl.Op)+" "+dl.Text, style)
			}
		}
		out = append(out, "")
	}
	obs := strings.TrimSuffix(ctx.Data.Run.Observation(ctx.Cur), "\n")
	m.outLines = 0
	if obs != "" {
		m.outLines = strings.Count(obs, "\n") + 1
	}
	more := 0
	if n := strings.Count(obs, "\n"); n > maxLines {
		// Huge outputs: wrapping them all would stall every step onto them.
		cut := 0
		for k := 0; k < maxLines; k++ {
			cut += strings.IndexByte(obs[cut:], '\n') + 1
		}
		obs, more = obs[:cut-1], n+1-maxLines
	}
	add(clipLongLines(obs, maxLineBytes), nil)
	if more > 0 {
		out = append(out, " "+t.Muted.Render(fmt.Sprintf("… %d more lines not shown", more)))
	}
	m.lines = out
}

// Visible splits text into lines and replaces every control character (and
// invalid UTF-8 byte) with a styled, visible escape; tabs become spaces.
func Visible(text string, t *themes.Theme) []string {
	raw := strings.Split(text, "\n")
	out := make([]string, len(raw))
	var b strings.Builder
	for k, line := range raw {
		b.Reset()
		col := 0
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			seg := line[i : i+size]
			i += size
			switch {
			case r == '\t':
				n := 8 - col%8
				b.WriteString(strings.Repeat(" ", n))
				col += n
			case r == utf8.RuneError && size == 1, termsafe.Line(seg) != seg:
				esc := termsafe.Line(seg)
				b.WriteString(t.Escape.Render(esc))
				col += len(esc)
			default:
				b.WriteString(seg)
				col++
			}
		}
		out[k] = b.String()
	}
	return out
}

// View renders the title and the visible part of the text.
func (m *Model) View() string {
	if m.W <= 0 || m.H <= 0 {
		return ""
	}
	m.build()
	ctx := m.Ctx
	act := &ctx.Data.Run.Actions[ctx.Cur]
	detail := fmt.Sprintf("step %d · %s", ctx.Cur+1, display.Category(act))
	if act.Tool != "" && act.Tool != "bash" {
		detail += " · " + act.Tool
	}
	detail += fmt.Sprintf(" · %d %s", m.outLines, display.Plural(m.outLines, "line"))
	if act.Failed() {
		if act.NotRun {
			detail += " · " + display.GlyphFailed + " not run"
		} else {
			detail += " · " + display.GlyphFailed + " failed"
		}
		if act.ExitKnown && act.ExitCode != 0 {
			detail += fmt.Sprintf(" (exit %d)", act.ExitCode)
		}
	}
	body := m.H - 1
	m.offset = max(0, min(m.offset, len(m.lines)-body))
	if len(m.lines) > body {
		detail += fmt.Sprintf(" · %d%%", 100*(m.offset+body)/len(m.lines))
	}
	lines := []string{pane.Title(ctx, "Observation", detail, m.Focused, m.W)}
	end := min(m.offset+body, len(m.lines))
	lines = append(lines, m.lines[m.offset:end]...)
	return strings.Join(fit.Block(lines, m.W, m.H), "\n")
}

// Global handles r, which hides or shows the thoughts whatever the focus.
func (m *Model) Global(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if !key.Matches(k, keys.Thoughts) {
		return nil, false
	}
	m.hideThoughts = !m.hideThoughts
	m.offset = 0
	if m.hideThoughts {
		return pane.Status("thoughts hidden (r shows them)"), true
	}
	return pane.Status("thoughts shown"), true
}

// own are the pane's keys: scrolling the text, and the thoughts.
var own = []key.Binding{keys.Down, keys.Up, keys.PageDown, keys.PageUp, keys.Thoughts}

// ShortHelp is the footer while the pane is focused.
func (m *Model) ShortHelp() []key.Binding { return keys.Footer(own...) }

// FullHelp is the help screen while the pane is focused.
func (m *Model) FullHelp() [][]key.Binding { return keys.FullHelp(own...) }
