package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// Autoplay and the editor: the two things the explorer does over time.

type tickMsg struct{ gen int }

type editorDoneMsg struct {
	err error
	tmp string
}

func (m *Model) togglePlay() tea.Cmd {
	m.playing = !m.playing
	m.ctx.Playing = m.playing
	m.tickGen++
	if !m.playing {
		m.status = "paused"
		return nil
	}
	var cmd tea.Cmd
	if _, ok := m.ctx.Neighbour(m.ctx.Cur, 1); !ok {
		if i, ok := m.ctx.Neighbour(0, 0); ok {
			cmd = m.setCur(i) // at the end: play from the start
		}
	}
	return tea.Batch(cmd, m.nextTick())
}

// GoldHold is how many autoplay intervals a step that finds new gold stays
// on screen: the moment a talk is built around is not a blur. The
// recording (export cast) holds the same.
const GoldHold = 3

// FindsGold reports whether the current step shows gold lines no earlier
// step showed, under the lens shown.
func (m *Model) FindsGold() bool {
	acts := m.ctx.Data.A.Lenses[m.ctx.Lens].Actions
	return m.ctx.Cur < len(acts) && acts[m.ctx.Cur].NewGold > 0
}

// holdFor is how long autoplay stays on the current step: the interval,
// GoldHold times it on a step that finds gold.
func (m *Model) holdFor() time.Duration {
	if m.FindsGold() {
		return speeds[m.speed] * GoldHold
	}
	return speeds[m.speed]
}

func (m *Model) nextTick() tea.Cmd {
	gen := m.tickGen
	return tick(m.holdFor(), func(time.Time) tea.Msg { return tickMsg{gen} })
}

// nextGold goes to the next step that finds new gold under the lens shown
// (from the first when past the last): the key moments, one key each.
func (m *Model) nextGold() tea.Cmd {
	acts := m.ctx.Data.A.Lenses[m.ctx.Lens].Actions
	for _, from := range []int{m.ctx.Cur + 1, 0} {
		for i := from; i < len(acts); i++ {
			if acts[i].NewGold > 0 {
				if m.ctx.Visible(i) {
					m.status = fmt.Sprintf("step %d finds %d new gold lines", i+1, acts[i].NewGold)
					return m.setCur(i)
				}
			}
		}
	}
	m.status = "no step finds gold under the " + m.ctx.Lens.String() + " lens"
	return nil
}

func (m *Model) tick(t tickMsg) tea.Cmd {
	if !m.playing || t.gen != m.tickGen {
		return nil // a stale tick from before a pause or speed change
	}
	cmd, more := m.advance()
	if !more {
		return nil
	}
	return tea.Batch(cmd, m.nextTick())
}

// advance is one autoplay tick without the clock: the next visible step, or
// the end of playback.
func (m *Model) advance() (tea.Cmd, bool) {
	i, ok := m.ctx.Neighbour(m.ctx.Cur, 1)
	if !ok {
		m.playing, m.ctx.Playing = false, false
		m.status = "autoplay reached the last step"
		return nil, false
	}
	return m.setCur(i), true
}

// Advance plays one autoplay step as a tick would, so a recording replays
// exactly what the explorer shows; false once playback has ended.
func (m *Model) Advance() bool {
	_, more := m.advance()
	return more
}

// Current is the current action (0-based).
func (m *Model) Current() int { return m.ctx.Cur }

// Interval is the autoplay interval.
func (m *Model) Interval() time.Duration { return speeds[m.speed] }

// setSpeed changes the autoplay interval. While playing, the tick pending
// at the old speed is dropped (its generation is stale) and one at the new
// speed starts: without it playback would stop on the spot.
func (m *Model) setSpeed(i int) tea.Cmd {
	i = max(0, min(i, len(speeds)-1))
	m.speed = i
	m.ctx.Speed = speedLabel(i)
	m.status = "autoplay " + m.ctx.Speed
	if !m.playing {
		return nil
	}
	m.tickGen++
	return m.nextTick()
}

// edit opens a repository file at a line in the user's editor. Only the
// editor from the environment runs, with the file as an argument; nothing
// from the trajectory is executed.
func (m *Model) edit(file string, line int) tea.Cmd {
	path, tmp, refused := m.editPath(file)
	if refused != "" {
		m.status = refused
		return nil
	}
	argv := strings.Fields(m.opts.Editor)
	if len(argv) == 0 {
		argv = []string{"vi"}
	}
	argv = append(argv, fmt.Sprintf("+%d", line), path)
	c := exec.Command(argv[0], argv[1:]...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorDoneMsg{err, tmp} })
}

// editPath is the file `e` hands the editor: the repository's own file when
// it is a regular file inside the root (LocalPath applies the containment
// and symlink rules of reading), else a read-only copy in a temporary
// directory (tmp) of what the repository holds. Anything else is refused,
// with the status line saying why: a path out of the root, a symlink out of
// it, a file the repository does not have (an editor would create it), or
// no repository at all.
func (m *Model) editPath(file string) (path, tmp, refused string) {
	if p := m.ctx.Data.A.Partial; p != nil {
		// The rebuilt lines have holes: there is no file to open.
		return "", "", "no repository to open " + termsafe.Line(file) + " from (--repo DIR or --cache DIR)"
	}
	if m.opts.LocalPath != nil {
		if path = m.opts.LocalPath(file); path != "" {
			return path, "", ""
		}
	}
	content, ok := m.ctx.Data.A.Source(file)
	if !ok {
		return "", "", "not a file of the repository: " + termsafe.Line(file)
	}
	dir, err := os.MkdirTemp("", "trajscope-")
	if err != nil {
		return "", "", "cannot write a copy: " + err.Error()
	}
	name := filepath.Base(filepath.FromSlash(file))
	if name == "." || name == ".." || name == string(filepath.Separator) {
		name = "file"
	}
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o444); err != nil {
		os.RemoveAll(dir)
		return "", "", "cannot write a copy: " + err.Error()
	}
	return path, dir, ""
}
