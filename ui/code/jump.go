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
// wraps across gold files and reports what it did.
func (m *Model) JumpGold(dir int, unread bool) string {
	d := m.Ctx.Data
	type pos struct {
		file      int
		line, end int
		name      string
	}
	var stops []pos
	for fi, f := range d.A.Gold.Files {
		fd := d.Files[f]
		if fd == nil {
			continue
		}
		for _, iv := range fd.Gold {
			if !unread {
				stops = append(stops, pos{fi, iv.Start, iv.End, f})
				continue
			}
			// Lines past the end of the file (or of what a run without the
			// repository showed) were never read: one run to the span's
			// end, however far the gold claims it goes.
			prev := false
			last := min(iv.End, fd.Lines)
			for l := max(iv.Start, 1); l <= last; l++ {
				u := fd.FirstRead(m.Ctx.Lens, l) > m.Ctx.Cur
				switch {
				case u && !prev:
					stops = append(stops, pos{fi, l, l, f})
				case u:
					stops[len(stops)-1].end = l
				}
				prev = u
			}
			if iv.End > last {
				if from := max(last+1, iv.Start); prev {
					stops[len(stops)-1].end = iv.End
				} else {
					stops = append(stops, pos{fi, from, iv.End, f})
				}
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
	curFile := -1
	for fi, f := range d.A.Gold.Files {
		if f == m.file {
			curFile = fi
		}
	}
	less := func(a pos, f, l int) bool { return a.file < f || (a.file == f && a.line < l) }
	target := -1
	if dir > 0 {
		for k, s := range stops {
			if less(pos{curFile, m.cursor, m.cursor, ""}, s.file, s.line) {
				target = k
				break
			}
		}
		if target < 0 {
			target = 0 // wrap
		}
	} else {
		for k := len(stops) - 1; k >= 0; k-- {
			if less(stops[k], curFile, m.cursor) {
				target = k
				break
			}
		}
		if target < 0 {
			target = len(stops) - 1
		}
	}
	s := stops[target]
	m.showSpan(s.name, s.line, s.end)
	return fmt.Sprintf("%s %d/%d: %s:%d", what, target+1, len(stops), s.name, s.line)
}
