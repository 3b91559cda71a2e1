package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
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

// z on a sub-agent's action folds to the call that started it (through a
// nested agent to the lead's call), not to the next lead action.
func TestFoldGoesToTheLaunchingCall(t *testing.T) {
	a := demoAnalysis(t)
	a.Run.Agents = []model.Agent{{Parent: -1, Call: -1}, {ID: "e1", Type: "Explore", Parent: 0, Call: 1}, {ID: "n1", Type: "Explore", Parent: 1, Call: 3}}
	a.Run.Actions[2].Agent, a.Run.Actions[3].Agent = 1, 1
	a.Run.Actions[4].Agent, a.Run.Actions[5].Agent = 2, 2 // nested, started by action 4
	for _, c := range []struct{ from, want int }{{2, 1}, {5, 1}, {6, 6}} {
		m := newModel(t, a, Options{Step: c.from + 1}, 120, 40)
		send(m, press("z"))
		if m.Current() != c.want {
			t.Errorf("z at action %d went to action %d, want %d", c.from+1, m.Current()+1, c.want+1)
		}
	}
}

// Agents that ran side by side: each one's actions are listed under its
// own call, its name on its first row; the timeline's j walks an agent's
// block, while stepping (l) and the curve go by time (issue 46 #5).
func TestInterleavedAgentsGrouped(t *testing.T) {
	a := demoAnalysis(t)
	if !demotask.Interleave(a.Run) {
		t.Skipf("the demo has %d actions", len(a.Run.Actions))
	}
	m := newModel(t, a, Options{}, 120, 40)
	var order []int
	var agentLine [8]string
	for _, line := range strings.Split(ansi.Strip(m.Render()), "\n") {
		f := strings.Fields(strings.TrimLeft(line, " *▸"))
		if len(f) < 2 {
			continue
		}
		var n int
		if _, err := fmt.Sscan(f[0], &n); err != nil || n < 1 || n > 8 || slices.Contains(order, n) {
			continue
		}
		order = append(order, n)
		agentLine[n-1] = line
	}
	if want := []int{1, 2, 4, 6, 3, 5, 7, 8}; !slices.Equal(order[:min(8, len(order))], want) {
		t.Fatalf("timeline order %v, want %v", order, want)
	}
	if !strings.Contains(agentLine[3], "Explore#aaaa:") || !strings.Contains(agentLine[4], "Explore#bbbb:") ||
		strings.Contains(agentLine[5], "Explore#") {
		t.Errorf("agent names: %q / %q / %q", agentLine[3], agentLine[4], agentLine[5])
	}
	send(m, press("g"))
	for range 3 {
		send(m, press("l"))
	}
	if m.Current() != 3 {
		t.Fatalf("l ×3 from the first: action %d, want 4", m.Current()+1)
	}
	send(m, press("j"))
	if m.Current() != 5 {
		t.Errorf("j on agent aaaa's first action went to action %d, want 6 (its next)", m.Current()+1)
	}
	send(m, press("l"))
	if m.Current() != 6 {
		t.Errorf("l after action 6 went to action %d, want 7 (time order)", m.Current()+1)
	}
}
