package code

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// toggleAsOf switches between the base commit's file and the file as the
// run's recorded edits left it by the current step.
func (m *Model) toggleAsOf() tea.Cmd {
	m.asOf = !m.asOf
	if !m.asOf {
		return pane.Status("source: the base commit")
	}
	if len(m.Ctx.Data.EditsUpTo(m.file, m.Ctx.Cur)) == 0 {
		return pane.Status("source as of this step: no recorded edit of this file yet (the base commit is shown)")
	}
	return pane.Status("source as of this step: the recorded edits replayed on the base commit (b: base)")
}

// asOfView draws the file as the recorded edits up to the current step left
// it: the edits replayed on the base content, the lines the last applied
// edit wrote marked ✎. The gutter's read and gold marks are the base
// commit's and are left out: the lines have moved.
func (m *Model) asOfView(lines []string, base []byte, edits []viewdata.Edit) string {
	t := m.Ctx.Theme
	// Replayed once per file and number of edits, not per frame.
	key := fmt.Sprintf("%s\x00%d", m.file, len(edits))
	if m.asOfKey != key || m.asOfHL == nil || m.asOfHL.style != t.Syntax {
		changes := make([]model.Change, len(edits))
		for i, e := range edits {
			changes[i] = e.Change
		}
		m.asOfText, m.asOfApplied, m.asOfOK = display.Replay(string(base), changes)
		m.asOfHL, m.asOfKey = newHighlighter(t.Syntax), key
	}
	text, applied, ok := m.asOfText, m.asOfApplied, m.asOfOK
	note := fmt.Sprintf(" as of step %d: %d recorded edit(s) replayed", m.Ctx.Cur+1, applied)
	if !ok {
		note = fmt.Sprintf(" as of step %d: edit %d of %d (step %d) did not apply (an unrecorded change came first); shown as far as it did",
			m.Ctx.Cur+1, applied+1, len(edits), edits[applied].Action+1)
	}
	lines = append(lines, t.Status.Render(fit.Line(note+" · b: base", m.W)))
	wrote := map[int]bool{}
	if applied > 0 {
		wrote = lastWrite(text, edits[applied-1].Change)
	}
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	top := max(1, min(m.top, n))
	code, widths := m.asOfHL.lines(m.file, []byte(text), top, top+m.H)
	numW := len(strconv.Itoa(max(n, 1)))
	codeW := max(m.W-(3+numW+1), 0)
	for l := top; l <= n && l-1 < len(code) && len(lines) < m.H; l++ {
		mark := "  "
		if wrote[l] {
			mark = t.NewGold.Render(display.CategoryGlyph("edit")) + " "
		}
		s, w := code[l-1], widths[l-1]
		if w > codeW {
			s = ansi.Truncate(s, codeW, "…")
		}
		lines = append(lines, " "+mark+t.LineNo.Render(fmt.Sprintf("%*d", numW, l))+" "+s)
	}
	return strings.Join(fit.Block(lines, m.W, m.H), "\n")
}

// lastWrite finds the lines of content the change wrote: its new text's
// first occurrence (the whole file for a whole-file write).
func lastWrite(content string, c model.Change) map[int]bool {
	out := map[int]bool{}
	if c.New == "" || c.Unrecorded {
		return out
	}
	i := strings.Index(content, c.New)
	switch c.Kind {
	case model.ChangeWhole:
		i = 0
	case model.ChangeAppend:
		i = strings.LastIndex(content, c.New)
	}
	if i < 0 {
		return out
	}
	first := strings.Count(content[:i], "\n") + 1
	for k := 0; k <= strings.Count(strings.TrimSuffix(c.New, "\n"), "\n"); k++ {
		out[first+k] = true
	}
	return out
}
