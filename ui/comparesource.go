package ui

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// sourceTarget is the file and line the comparison's source pane shows:
// where run A's current action points, else run B's; when neither points
// anywhere (a test run, a search), the last file either had shown by now,
// A's first. A whole-file read points at its first line.
func (m *CompareModel) sourceTarget() (int, viewdata.Target) {
	for back := 0; ; back++ {
		more := false
		for k, ctx := range m.ctx {
			i := min(ctx.Cur, len(ctx.Data.Focus[ctx.Lens])-1) - back
			if i < 0 {
				continue
			}
			more = true
			if t := ctx.Data.Focus[ctx.Lens][i]; t.File != "" {
				t.Line = max(t.Line, 1)
				return k, t
			}
		}
		if !more {
			return 0, viewdata.Target{}
		}
	}
}

// source draws the file the current actions point at, h rows tall: the
// gutter says which run had shown each line by its current action (A, B or
// both) and marks gold lines, so the two runs' reading can be told apart
// line by line.
func (m *CompareModel) source(w, h int) []string {
	t := m.theme
	k, target := m.sourceTarget()
	if target.File == "" {
		lines := []string{pane.Title(m.ctx[0], "Source", "", false, w), t.Muted.Render(fit.Line(" neither run has shown a file yet", w))}
		return fit.Block(lines, w, h)
	}
	a := m.c.Story(k).A
	text, ok := a.Source(target.File)
	fd := [2]*viewdata.FileData{m.ctx[0].Data.File(target.File), m.ctx[1].Data.File(target.File)}
	lines := []string{pane.Title(m.ctx[k], "Source", fmt.Sprintf("%s:%d  (A / B: shown by that run so far · ● gold)", target.File, target.Line), false, w)}
	if !ok {
		lines = append(lines, t.Muted.Render(fit.Line(" not in the repository", w)))
		return fit.Block(lines, w, h)
	}
	src := strings.Split(string(text), "\n")
	body := h - 1
	first := max(1, min(target.Line-body/3, len(src)-body+1))
	numW := len(fmt.Sprint(len(src)))
	for n := first; n < first+body && n <= len(src); n++ {
		var g strings.Builder
		for r, f := range fd {
			mark := " "
			if f != nil && n < len(f.First[m.ctx[r].Lens]) && int(f.First[m.ctx[r].Lens][n]) <= m.ctx[r].Cur {
				mark = m.runStyle(r).Render(compareLabel(r))
			}
			g.WriteString(mark)
		}
		gold := " "
		if f := fd[k]; f != nil && viewdata.In(f.Gold, n) {
			gold = t.MarkGoldFound.Render("●")
		}
		num := t.LineNo.Render(fmt.Sprintf("%*d", numW, n))
		code := termsafe.Line(strings.ReplaceAll(src[n-1], "\t", "    "))
		lines = append(lines, fit.Line(g.String()+gold+" "+num+" "+code, w))
	}
	return fit.Block(lines, w, h)
}

func compareLabel(k int) string { return [2]string{"A", "B"}[k] }
