package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A run with sub-agents: their actions sit under the call that launched
// them, marked ↳; z folds them away (stepping passes over them, the
// timeline says so) and unfolds them again. A run without any says so.
func TestFoldSubagents(t *testing.T) {
	a := demoAnalysis(t)
	for i := 2; i <= 4; i++ {
		a.Run.Actions[i].Agent = 1 // actions 3-5 a sub-agent's: only the view reads it
	}
	m := newModel(t, a, Options{}, 120, 40)
	if s := ansi.Strip(m.Render()); !strings.Contains(s, "↳") {
		t.Fatalf("no ↳ on the sub-agent's actions:\n%s", s)
	}
	send(m, press("l")) // action 2
	send(m, press("z"))
	if !strings.Contains(m.status, "sub-agents folded: 3 actions hidden") {
		t.Errorf("status %q", m.status)
	}
	if s := ansi.Strip(m.Render()); strings.Contains(s, "↳") || !strings.Contains(s, "[sub-agents folded]") {
		t.Errorf("folded timeline:\n%s", s)
	}
	send(m, press("l"))
	if m.Current() != 5 {
		t.Errorf("the step after action 2, folded: action %d, want 6", m.Current()+1)
	}
	send(m, press("z"), press("h"))
	if m.Current() != 4 || m.ctx.Folded {
		t.Errorf("unfolded, the step before action 6 is action %d (folded %v), want 5", m.Current()+1, m.ctx.Folded)
	}
	plain := newModel(t, demoAnalysis(t), Options{}, 120, 40)
	send(plain, press("z"))
	if plain.status != "no sub-agent actions in this run" || plain.ctx.Folded {
		t.Errorf("a run without sub-agents: status %q", plain.status)
	}
}
