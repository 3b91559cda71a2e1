package toolcall

import (
	"sort"

	"github.com/trajscope/trajscope/model"
)

// MaxAgents bounds the agents one run may have: past it, further
// sub-agents' actions are counted as the last one's.
const MaxAgents = 4096

// Team builds a run's agent table as a reader meets its agents: the lead
// is agent 0; each sub-agent is keyed by the format's id for it.
type Team struct {
	agents []model.Agent
	byKey  map[string]int32
}

// NewTeam is a table holding the lead alone.
func NewTeam() *Team {
	return &Team{agents: []model.Agent{{Parent: -1, Call: -1}}, byKey: map[string]int32{}}
}

// Lookup is the agent known by key.
func (t *Team) Lookup(key string) (int32, bool) {
	i, ok := t.byKey[key]
	return i, ok
}

// Add makes a the agent known by key (its ID is key when unset) and
// returns its index; an agent already known by key is returned as it is.
func (t *Team) Add(key string, a model.Agent) int32 {
	if i, ok := t.byKey[key]; ok {
		return i
	}
	if len(t.agents) >= MaxAgents {
		return int32(len(t.agents) - 1)
	}
	if a.ID == "" {
		a.ID = key
	}
	i := int32(len(t.agents))
	t.agents = append(t.agents, a)
	t.byKey[key] = i
	return i
}

// At is agent i, to be filled in as the reader learns more of it.
func (t *Team) At(i int32) *model.Agent { return &t.agents[i] }

// Len is how many agents there are, the lead included.
func (t *Team) Len() int { return len(t.agents) }

// Reordered is a copy of the team with its agents in order: order[k] is
// the agent that becomes agent k (order[0] is 0, the lead), and parents
// are renumbered to match. The calls that started them are the caller's to
// renumber.
func (t *Team) Reordered(order []int32) *Team {
	at := make([]int32, len(order)) // at[old] = new
	for k, i := range order {
		at[i] = int32(k)
	}
	out := &Team{agents: make([]model.Agent, len(order)), byKey: make(map[string]int32, len(t.byKey))}
	for k, i := range order {
		a := t.agents[i]
		if a.Parent >= 0 && int(a.Parent) < len(at) {
			a.Parent = at[a.Parent]
		}
		out.agents[k] = a
	}
	for key, i := range t.byKey {
		out.byKey[key] = at[i]
	}
	return out
}

// Agents is the finished table, nil for a run of one agent: each agent's
// depth set by walking its parents (a parent that is itself or a loop
// makes it the lead's), calls remapped by order (new index of old action
// i, nil when the actions were not reordered).
func (t *Team) Agents(order []int) []model.Agent {
	if len(t.agents) == 1 {
		return nil
	}
	var newIndex []int32
	if order != nil {
		newIndex = make([]int32, len(order))
		for k, i := range order {
			newIndex[i] = int32(k)
		}
	}
	out := append([]model.Agent(nil), t.agents...)
	for i := range out {
		a := &out[i]
		if a.Call >= 0 && newIndex != nil {
			if int(a.Call) < len(newIndex) {
				a.Call = newIndex[a.Call]
			} else {
				a.Call = -1
			}
		}
		if i == 0 {
			a.Parent, a.Depth = -1, 0
			continue
		}
		if a.Parent < 0 || int(a.Parent) >= len(out) || int(a.Parent) == i {
			a.Parent = 0
		}
	}
	// Depth by walking parents, at most one step per agent: a loop
	// (a record naming a descendant as its parent) is cut at the lead.
	for i := 1; i < len(out); i++ {
		d, p := int32(1), out[i].Parent
		for steps := 0; p > 0 && steps < len(out); steps++ {
			d++
			p = out[p].Parent
		}
		if p > 0 {
			out[i].Parent, d = 0, 1
		}
		out[i].Depth = d
	}
	return out
}

// OrderByTime returns the order that sorts actions by timestamp, stably:
// an action without one keeps the time of the action before it in its own
// agent's sequence, so each agent's actions stay in their order and a
// sub-agent's actions fall between the lead's where they happened. nil
// when the actions are in order already.
func OrderByTime(actions []model.Action) []int {
	key := make([]float64, len(actions))
	last := map[int32]float64{}
	sorted := true
	prev := 0.0
	for i := range actions {
		t := actions[i].Timestamp
		if t <= 0 {
			t = last[actions[i].Agent]
		}
		last[actions[i].Agent] = t
		key[i] = t
		if t < prev {
			sorted = false
		}
		prev = max(prev, t)
	}
	if sorted {
		return nil
	}
	order := make([]int, len(actions))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] < key[order[b]] })
	return order
}

// Reorder applies order (OrderByTime's) to a run's actions and texts.
func Reorder(order []int, actions []model.Action, texts ...model.TextList) ([]model.Action, []model.TextList) {
	if order == nil {
		return actions, texts
	}
	acts := make([]model.Action, len(actions))
	for k, i := range order {
		acts[k] = actions[i]
	}
	out := make([]model.TextList, len(texts))
	for j, tl := range texts {
		n := make(model.TextList, len(order))
		for k, i := range order {
			n[k] = tl.Text(i)
		}
		out[j] = n
	}
	return acts, out
}

// ReorderInPlace is Reorder into the slices given, which the caller owns
// and which are each as long as order: a followed session's reading holds
// copies made for it, and a second copy of every action was most of what
// reordering cost.
func ReorderInPlace(order []int, actions []model.Action, texts ...model.TextList) {
	if order == nil {
		return
	}
	// Each cycle of the permutation moved along once: k takes what was at
	// order[k].
	done := make([]bool, len(order))
	text := make([]string, len(texts))
	for s := range order {
		if done[s] {
			continue
		}
		act := actions[s]
		for j, tl := range texts {
			text[j] = tl[s]
		}
		k := s
		for {
			done[k] = true
			i := order[k]
			if i == s {
				actions[k] = act
				for j := range texts {
					texts[j][k] = text[j]
				}
				break
			}
			actions[k] = actions[i]
			for j := range texts {
				texts[j][k] = texts[j][i]
			}
			k = i
		}
	}
}

// Origin places an action read from one of several files: the file (an
// index its reader keeps) and how many of that file's actions came before
// it.
type Origin struct{ File, N int32 }

// WholeOrder places actions read from several files in turns (a followed
// session's files, read as they grow) in the order a whole reading meets
// them: file by file in rank order (rank[f] is file f's place, counts[f]
// its actions), each file's in their own order. at[i] is action i's new
// index; start[f] is where file f's actions begin.
func WholeOrder(origins []Origin, rank []int, counts []int32) (at []int32, start []int) {
	byRank := make([]int, len(rank))
	for f, r := range rank {
		byRank[r] = f
	}
	start = make([]int, len(rank))
	n := 0
	for _, f := range byRank {
		start[f] = n
		n += int(counts[f])
	}
	at = make([]int32, len(origins))
	for i, o := range origins {
		at[i] = int32(start[o.File] + int(o.N))
	}
	return at, start
}

// Applied keeps each action as its call made it (Apply and what a format
// adds), for a reader whose readings come again (a followed session's):
// an action is made again only when it was marked stale since.
type Applied struct {
	acts  []model.Action
	fresh []bool
}

// Update makes every action not made yet or stale since with apply, and
// returns them all; the slice is the cache's, to be copied by the caller.
func (c *Applied) Update(actions []model.Action, apply func(i int, a *model.Action)) []model.Action {
	for len(c.acts) < len(actions) {
		c.acts, c.fresh = append(c.acts, model.Action{}), append(c.fresh, false)
	}
	for i := range actions {
		if !c.fresh[i] {
			a := actions[i]
			apply(i, &a)
			c.acts[i], c.fresh[i] = a, true
		}
	}
	return c.acts
}

// Stale marks action i to be made again; StaleAll every action.
func (c *Applied) Stale(i int) {
	if i < len(c.fresh) {
		c.fresh[i] = false
	}
}

// StaleAll marks every action to be made again.
func (c *Applied) StaleAll() { clear(c.fresh) }
