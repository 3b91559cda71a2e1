package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/header"
	"github.com/trajscope/trajscope/ui/metrics"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// LiveMsg is a new reading of a run still being written (view --follow).
type LiveMsg struct {
	// St is the run's story as the file now is; nil when only the state
	// changed.
	St *story.Story
	// Note says what happened to the file, for the status line ("the file
	// was truncated: read again").
	Note string
	// Ended: the agent recorded its end, or nothing was written for a
	// while.
	Ended bool
	// Switched: St is another session's (watch followed a newer one); the
	// screen goes to its newest step. Back, when set, returns to the
	// session before (the back key calls it).
	Switched bool
	Back     func()
}

// live shows a new reading of a followed run. The screen stays on the
// newest step while it is there (G goes back to it); a step the user
// moved to stays put, and so does what each pane shows (its file, scroll
// and selection).
func (m *Model) live(msg LiveMsg) tea.Cmd {
	m.ctx.Live = "live"
	if msg.Ended {
		m.ctx.Live = "ended"
	}
	switch {
	case msg.Note != "" && msg.Switched:
		// Which session is on screen now stays said until the user moves
		// on: the readings that follow do not make it false.
		m.status, m.liveNote = msg.Note, ""
	case msg.Note != "":
		m.status, m.liveNote = msg.Note, msg.Note
	case m.status == m.liveNote && msg.St != nil:
		// The last reading's note ("cannot read the file now") is no
		// longer true once a reading succeeds.
		m.status, m.liveNote = "", ""
	}
	if msg.Back != nil {
		m.liveBack = msg.Back
	}
	// A session switched to may hold no action yet: its first reading
	// that does opens at its newest step all the same.
	m.switching = m.switching || msg.Switched
	if msg.St == nil || len(msg.St.A.Run.Actions) == 0 {
		m.markAll()
		return nil
	}
	defer m.restatus()
	newest := m.ctx.Cur >= m.ctx.Data.N-1 || m.switching
	m.switching = false
	m.ctx.Data = viewdata.Next(msg.St, m.ctx.Data)
	m.ctx.Rev++ // the panes' caches are of the last reading
	m.header, m.met = header.New(m.ctx), metrics.New(m.ctx)
	for _, p := range m.panes {
		if r, ok := p.(pane.Reloader); ok {
			r.Reload() // what the user chose stays; the last reading's caches go
		}
	}
	m.ctx.Cur = min(m.ctx.Cur, m.ctx.Data.N-1)
	if newest {
		m.ctx.Cur = m.ctx.Data.N - 1
	}
	m.applyTheme()
	m.relayout()
	return m.broadcast(pane.StepMsg{})
}

// Live says whether the followed run is "live" or "ended" ("" when the
// run is not followed), and how many actions the explorer holds.
func (m *Model) Live() (state string, actions int) { return m.ctx.Live, m.ctx.Data.N }

// restatus says again, of the new reading, what the status line said of
// the last: a search's matches and a filter's count change as actions
// come.
func (m *Model) restatus() {
	switch q := m.ctx.Query; {
	case q != "" && (strings.HasPrefix(m.status, "match ") || strings.HasPrefix(m.status, "no match for ") || strings.HasPrefix(m.status, "no action matches ")):
		m.status = m.matchStatus()
		if strings.HasPrefix(m.status, "match 0/0 ") {
			m.status = fmt.Sprintf("no match for %q", termsafe.Line(q))
		}
	case strings.HasPrefix(m.status, "filter: ") && m.ctx.Filter != "":
		m.status = fmt.Sprintf("filter: %s (%d actions)", m.ctx.Filter, len(m.ctx.Rows()))
	}
}
