package story

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// AgentFigures is what one agent of a run did under a lens: the summary's
// per-agent line, view --json's agents, the explorer's agent labels.
type AgentFigures struct {
	model.Agent
	// Index is the agent's place in Run.Agents (0: the lead).
	Index int
	// Actions are the actions it made; ReadLines the lines they put in
	// view, RereadLines those seen before (by any agent).
	Actions, ReadLines, RereadLines int
	// GoldFound counts the gold spans this agent first put in view.
	GoldFound int
}

// Label names an agent in a few words: "lead", else its type (or id) and
// depth when below the first level ("Explore", "general-purpose·2"); a
// plugin's namespaced type keeps its last part ("security-sentinel" for
// "entire-engineering:review:security-sentinel"). Agents of one type are
// told apart by the start of their ids ("reviewer#a3f9"), as short as
// tells them apart.
func Label(run *model.Run, k int) string {
	if k <= 0 || k >= len(run.Agents) {
		return "lead"
	}
	return labels(run)[k]
}

// labelCache holds the labels of the run last asked about: a timeline
// labels its rows one by one, and the labels of a run's agents are made
// together (agents of one type tell each other apart).
var labelCache struct {
	sync.Mutex
	run    *model.Run
	agents int
	labels []string
}

// labels is every agent's label, the lead's "lead".
func labels(run *model.Run) []string {
	labelCache.Lock()
	defer labelCache.Unlock()
	if labelCache.run == run && labelCache.agents == len(run.Agents) {
		return labelCache.labels
	}
	type kind struct {
		name  string
		depth int32
	}
	ids := map[kind][]string{}
	for j := 1; j < len(run.Agents); j++ {
		a := run.Agents[j]
		if a.Type != "" {
			kd := kind{typeName(a), a.Depth}
			ids[kd] = append(ids[kd], a.ID)
		}
	}
	out := make([]string, len(run.Agents))
	out[0] = "lead"
	for j := 1; j < len(run.Agents); j++ {
		a := run.Agents[j]
		name := typeName(a)
		if twins := ids[kind{name, a.Depth}]; a.Type != "" && len(twins) > 1 {
			name += "#" + distinct(a.ID, twins)
		}
		if a.Depth > 1 {
			name += fmt.Sprintf("·%d", a.Depth)
		}
		out[j] = name
	}
	labelCache.run, labelCache.agents, labelCache.labels = run, len(run.Agents), out
	return out
}

// typeName is an agent's type as a label shows it.
func typeName(a model.Agent) string {
	name := a.Type
	if i := strings.LastIndexByte(name, ':'); i >= 0 && i < len(name)-1 {
		name = name[i+1:]
	}
	if name == "" {
		name = "sub-agent " + shortID(a.ID)
	}
	return name
}

// distinct is the shortest start of id (4 characters at least, 8 at most)
// that no other id of twins (id's among them) starts with.
func distinct(id string, twins []string) string {
	for n := 4; n < 8 && n < len(id); n++ {
		clash := false
		for _, o := range twins {
			if o != id && strings.HasPrefix(o, id[:n]) {
				clash = true
				break
			}
		}
		if !clash {
			return id[:n]
		}
	}
	return shortID(id)
}

// shortID is an agent id cut to what tells agents apart on a screen.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// agents is each agent's figures under lens, the lead first; nil for a run
// of one agent.
func agents(a *scoring.Analysis, gold *diagnose.RunGold, lens model.Lens) []AgentFigures {
	run := a.Run
	if len(run.Agents) < 2 {
		return nil
	}
	out := make([]AgentFigures, len(run.Agents))
	for k := range out {
		out[k] = AgentFigures{Agent: run.Agents[k], Index: k}
	}
	ld := &a.Lenses[lens]
	for i := range run.Actions {
		k := int(run.Actions[i].Agent)
		if k < 0 || k >= len(out) {
			k = 0
		}
		out[k].Actions++
		if i < len(ld.Actions) {
			out[k].ReadLines += ld.Actions[i].ReadLines()
			out[k].RereadLines += int(ld.Actions[i].Reread)
		}
	}
	for _, g := range gold.Spans {
		if k := FoundBy(run, g.FoundAt(lens)); k >= 0 && k < len(out) {
			out[k].GoldFound++
		}
	}
	return out
}

// FoundBy is the agent that made action i (the action that first put a gold
// span in view), -1 for none.
func FoundBy(run *model.Run, i int) int {
	if i < 0 || i >= len(run.Actions) {
		return -1
	}
	k := int(run.Actions[i].Agent)
	if k < 0 || k >= max(len(run.Agents), 1) {
		return 0
	}
	return k
}

// FoundByWords says who first put a gold span in view, for a run of
// several agents: "found by Explore @14"; "" when the lead found it, none
// did, or the run has one agent.
func FoundByWords(run *model.Run, i int) string {
	k := FoundBy(run, i)
	if k <= 0 || len(run.Agents) < 2 {
		return ""
	}
	return fmt.Sprintf("found by %s @%d", Label(run, k), i+1)
}

// UnreadWords says what the reader did not understand, in a few words
// ("not understood: 320 progress:agent_progress, 2 tool:Foo"), the most
// frequent first; "" when it understood everything.
func UnreadWords(run *model.Run, most int) string {
	if len(run.Unread) == 0 {
		return ""
	}
	return "not understood: " + UnreadList(run, most)
}

// UnreadList is UnreadWords without its opening words.
func UnreadList(run *model.Run, most int) string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	total := 0
	for k, n := range run.Unread {
		all = append(all, kv{k, n})
		total += n
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].k < all[j].k
	})
	var parts []string
	for i, e := range all {
		if i == most {
			parts = append(parts, fmt.Sprintf("%d more kinds", len(all)-most))
			break
		}
		parts = append(parts, fmt.Sprintf("%d %s", e.n, e.k))
	}
	return strings.Join(parts, ", ")
}
