package code

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// Where the pane lands when it moves to a file or a span, and what it shows
// for a line that a run without its repository never displayed.

// landing is where a picked file opens: what the current step read of it,
// else its gold, else what was read of it by now, else ever, else the first
// line the run displayed.
func (m *Model) landing(file string) int {
	fd := m.Ctx.Data.File(file)
	if fd == nil {
		return 1
	}
	if now := fileLines(m.Ctx.L().Actions[m.Ctx.Cur].Lines, file); len(now) > 0 {
		return now[0].Start
	}
	if len(fd.Gold) > 0 {
		return fd.Gold[0].Start
	}
	firstBy := func(limit int) int {
		for l := 1; l <= fd.Lines; l++ {
			if fd.FirstRead(m.Ctx.Lens, l) <= limit {
				return l
			}
		}
		return 0
	}
	if l := firstBy(m.Ctx.Cur); l > 0 {
		return l
	}
	if l := firstBy(viewdata.Never - 1); l > 0 {
		return l
	}
	if len(fd.Known) > 0 {
		return fd.Known[0].Start
	}
	return 1
}

// showSpan shows a file's lines start..end, scrolling unless all of them
// that fit are already in view away from the bottom edge.
func (m *Model) showSpan(file string, start, end int) {
	changed := file != m.file
	m.file, m.follow = file, false
	start = min(max(start, 1), max(m.lines(), 1))
	m.cursor = start
	body := m.body()
	if body <= 0 {
		return
	}
	end = min(max(end, start), start+body-1-body/4)
	if changed || start < m.top || end > m.top+body-1 {
		m.top = start - body/4
	}
	m.clampTop()
}

// unknown is the text of a line the run never displayed: the first line of
// each gap says how many follow, the others stay blank.
func (m *Model) unknown(fd *viewdata.FileData, l, w int) (string, int) {
	if l > 1 && !fd.IsKnown(l-1) && l != m.top {
		return "", 0
	}
	end := fd.Lines
	for _, iv := range fd.Known {
		if iv.Start > l {
			end = iv.Start - 1
			break
		}
	}
	note := fmt.Sprintf("⋯ line %d not displayed by the run", l)
	if end > l {
		note = fmt.Sprintf("⋯ lines %d-%d not displayed by the run", l, end)
	}
	note = display.Truncate(note, w)
	return m.Ctx.Theme.Faint.Render(note), ansi.StringWidth(note)
}
