// Package timeline is the explorer's list of actions: one row per action
// with its category glyph, short command, new gold lines and re-read mark.
package timeline

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/keys"
	"github.com/trajscope/trajscope/ui/pane"
)

// Model is the timeline pane.
type Model struct {
	pane.Base
	// Name is the title ("Timeline" when empty): two timelines side by
	// side say whose they are.
	Name string
	// offset is the first visible row of the filtered list.
	offset int
}

// New returns a timeline reading ctx.
func New(ctx *pane.Context) *Model { return &Model{Base: pane.Base{Ctx: ctx}} }

// Update handles the keys of a focused timeline: j/k move between actions.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !m.Focused {
		return nil
	}
	if n := keys.ScrollLines(k, m.H-1); n != 0 {
		return m.Scroll(n)
	}
	return nil
}

// Scroll moves the current action by n visible rows, down the list as it
// is drawn (an agent's block at a time), not in time.
func (m *Model) Scroll(n int) tea.Cmd {
	if i, ok := m.Ctx.Beside(m.Ctx.Cur, n); ok && i != m.Ctx.Cur {
		return pane.Goto(i)
	}
	return nil
}

// View renders the title row and the visible rows.
func (m *Model) View() string {
	if m.W <= 0 || m.H <= 0 {
		return ""
	}
	ctx, t, d := m.Ctx, m.Ctx.Theme, m.Ctx.Data
	rows := ctx.Rows()
	detail := fmt.Sprintf("%d/%d", ctx.Cur+1, d.N)
	if ctx.Filter != "" {
		detail += fmt.Sprintf("  [%s %s: %d]", display.CategoryGlyph(ctx.Filter), ctx.Filter, len(rows))
	}
	if ctx.Folded {
		detail += "  [sub-agents folded]"
	} else if d.Run.Actions[ctx.Cur].Sidechain() {
		detail += "  " + d.AgentOf(ctx.Cur)
	}
	name := m.Name
	if name == "" {
		name = "Timeline"
	}
	lines := []string{pane.Title(ctx, name, detail, m.Focused, m.W)}
	body := m.H - 1
	// Keep the current row in view with a margin of two rows.
	if cur := ctx.Row(ctx.Cur); cur >= 0 && body > 0 {
		margin := min(2, (body-1)/2)
		if cur < m.offset+margin {
			m.offset = cur - margin
		}
		if cur > m.offset+body-1-margin {
			m.offset = cur - body + 1 + margin
		}
	}
	m.offset = max(0, min(m.offset, len(rows)-body))
	numW := len(strconv.Itoa(d.N))
	ld := ctx.L()
	for r := m.offset; r < len(rows) && len(lines) < m.H; r++ {
		i := rows[r]
		cat := display.Category(&d.Run.Actions[i]).String()
		num := fmt.Sprintf("%*d", numW, i+1)
		var suffix, suffixStyled string
		if n := ld.Actions[i].NewGold; n > 0 {
			suffix = "+" + strconv.Itoa(int(n))
			suffixStyled = t.NewGold.Render(suffix)
		}
		if ld.Actions[i].PureReread() {
			if suffix != "" {
				suffix, suffixStyled = suffix+" ", suffixStyled+" "
			}
			suffix += display.GlyphReread
			suffixStyled += t.Reread.Render(display.GlyphReread)
		}
		if d.Run.Actions[i].Pending {
			w := display.PendingWord(ctx.Live == "live")
			if suffix != "" {
				suffix, suffixStyled = suffix+" ", suffixStyled+" "
			}
			suffix += w
			suffixStyled += t.Muted.Render(w)
		}
		if d.S.Aside.Reads[i] != nil {
			// A read of a file not in the repository: no lens counts it.
			if suffix != "" {
				suffix, suffixStyled = suffix+" ", suffixStyled+" "
			}
			suffix += display.GlyphAside
			suffixStyled += t.Muted.Render(display.GlyphAside)
		}
		if ctx.Spend {
			// What the step took instead of what it found (u).
			sp := story.StepSpend(d.Run, i)
			suffix = ""
			if sp.Timed {
				suffix = display.Duration(sp.Seconds)
			}
			if n := sp.Tokens.Total(); n > 0 {
				suffix = strings.TrimSpace(suffix + " " + display.Compact(n))
			}
			suffixStyled = t.Muted.Render(suffix)
		}
		if d.Run.Actions[i].Failed() {
			// First, so failures line up; the glyph says it without colour.
			if suffix != "" {
				suffix, suffixStyled = " "+suffix, " "+suffixStyled
			}
			suffix = display.GlyphFailed + suffix
			suffixStyled = t.Error.Render(display.GlyphFailed) + suffixStyled
		}
		match := d.Matches(i, ctx.Query)
		sw := ansi.StringWidth(suffix)
		gap := 0
		if sw > 0 {
			gap = 1 // the command never touches the suffix
		}
		fixed := numW + 4 + 1 + sw + gap // mark, number, glyph, spaces, trailing space
		short := d.Row(i, ctx.Folded)
		cmd := display.FitLabel(short, max(m.W-fixed, 1))
		pad := max(gap, m.W-fixed+gap-ansi.StringWidth(cmd))
		if i == ctx.Cur {
			row := display.GlyphCursor + num + " " + display.ActionGlyph(&d.Run.Actions[i]) + " " + cmd + strings.Repeat(" ", pad) + suffix + " "
			lines = append(lines, t.Selected.Render(fit.Line(row, m.W)))
			continue
		}
		cmdStyled := cmd
		if match {
			cmdStyled = t.Match.Render(cmd)
		} else if k := int(d.Run.Actions[i].Agent); k > 0 {
			cmdStyled = agentMarked(cmd, d.AgentOf(i), t.Agent(k))
		}
		mark := " "
		if match {
			mark = "*" // matches stay findable without colour
		}
		row := mark + t.Muted.Render(num) + " " + t.Category(cat).Render(display.ActionGlyph(&d.Run.Actions[i])) + " " +
			cmdStyled + strings.Repeat(" ", pad) + suffixStyled + " "
		lines = append(lines, row)
	}
	if len(rows) == 0 {
		lines = append(lines, t.Muted.Render(" no "+ctx.Filter+" actions (c: next filter)"))
	}
	return strings.Join(fit.Block(lines, m.W, m.H), "\n")
}

// agentMarked colours a sub-agent row's mark, and the agent's name where
// the row carries it, in the agent's own colour.
func agentMarked(cmd, label string, st lipgloss.Style) string {
	p := strings.Index(cmd, display.GlyphSidechain)
	if p < 0 {
		return cmd
	}
	q := p + len(display.GlyphSidechain)
	if rest := cmd[q:]; strings.HasPrefix(rest, " "+label+":") {
		q += 1 + len(label) + 1
	}
	return cmd[:p] + st.Render(cmd[p:q]) + cmd[q:]
}

// The timeline is where the run is stepped through: its own keys are the
// stepping ones (j/k step too while it is focused).
var own = []key.Binding{keys.Next, keys.Prev, keys.First, keys.Last, keys.GoldStep, keys.Play, keys.Faster, keys.Lens}

// ShortHelp is the footer while the timeline is focused.
func (m *Model) ShortHelp() []key.Binding { return keys.Footer(own[:2]...) }

// FullHelp is the help screen while the timeline is focused.
func (m *Model) FullHelp() [][]key.Binding { return keys.FullHelp(own...) }
