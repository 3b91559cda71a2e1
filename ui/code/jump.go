package code

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/ui/pane"
)

// The gold jumps (] [ m M): they work from any pane and bring the source
// pane into view.

// jump goes to a gold span and brings the pane into view.
func (m *Model) jump(dir int, unread bool) tea.Cmd {
	return tea.Batch(pane.Status(m.JumpGold(dir, unread)), pane.Reveal(m))
}

// JumpGold moves to the next (dir > 0) or previous gold span; unread
// limits it to gold lines the run has not read by the current action. It
// wraps across gold files and reports what it did. The stops come from the
// gold list (sorted by file and line), so only files read by now need their
// per-line tables.
func (m *Model) JumpGold(dir int, unread bool) string {
	d, l := m.Ctx.Data, m.Ctx.Lens
	type pos struct {
		file      string
		line, end int
	}
	var stops []pos
	add := func(p pos) {
		if k := len(stops) - 1; k < 0 || stops[k].file != p.file || stops[k].line != p.line {
			stops = append(stops, p)
		}
	}
	for k := range d.Gold {
		g := &d.Gold[k]
		if g.FileLevel() {
			continue
		}
		if !unread {
			add(pos{g.File(), g.Start(), g.End()})
			continue
		}
		if g.FoundAt(l) < 0 || g.FoundAt(l) > m.Ctx.Cur {
			add(pos{g.File(), max(g.Start(), 1), g.End()}) // none of it read yet
			continue
		}
		// Lines past the end of the file (or of what a run without the
		// repository showed) were never read: one run to the span's end,
		// however far the gold claims it goes.
		fd := d.File(g.File())
		prev := false
		last := min(g.End(), fd.Lines)
		for line := max(g.Start(), 1); line <= last; line++ {
			u := fd.FirstRead(l, line) > m.Ctx.Cur
			switch {
			case u && !prev:
				add(pos{g.File(), line, line})
			case u:
				stops[len(stops)-1].end = line
			}
			prev = u
		}
		if g.End() > last {
			if prev {
				stops[len(stops)-1].end = g.End()
			} else {
				add(pos{g.File(), max(last+1, g.Start()), g.End()})
			}
		}
	}
	what := "gold span"
	if unread {
		what = "unread gold span"
	}
	if len(stops) == 0 {
		return "no " + what
	}
	less := func(a pos, f string, line int) bool { return a.file < f || (a.file == f && a.line < line) }
	target := -1
	if dir > 0 {
		for k, s := range stops {
			if less(pos{m.file, m.cursor, m.cursor}, s.file, s.line) {
				target = k
				break
			}
		}
		if target < 0 {
			target = 0 // wrap
		}
	} else {
		for k := len(stops) - 1; k >= 0; k-- {
			if less(stops[k], m.file, m.cursor) {
				target = k
				break
			}
		}
		if target < 0 {
			target = len(stops) - 1
		}
	}
	s := stops[target]
	m.showSpan(s.file, s.line, s.end)
	return fmt.Sprintf("%s %d/%d: %s:%d", what, target+1, len(stops), s.file, s.line)
}
