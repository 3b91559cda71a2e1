package model

// The agents of a run: who made each action, which call started each
// sub-agent, and the order timelines list their actions in.

// Agent is one agent of a run.
type Agent struct {
	// ID is the format's name for it ("a38ef91"); "" for the lead.
	ID string
	// Type is its kind as the run names it ("Explore",
	// "general-purpose"); "" for the lead or when not recorded.
	Type string
	// Description is what it was asked to do, in a few words, when the
	// run records that.
	Description string
	// Parent is the index of the agent that started it, -1 for the lead.
	Parent int32
	// Call is the index of the action that started it, -1 when unknown.
	Call int32
	// Depth is 0 for the lead, 1 for the agents it started, and so on.
	Depth int32
	// Recorded is the work the result of the call that started it records,
	// for an agent whose own transcript the run does not hold (Claude
	// Code's Agent result: totalToolUseCount, toolStats, totalTokens);
	// nil when its actions are the run's.
	Recorded *AgentTotals
}

// AgentTotals is what an agent did as its launching call's result counts
// it: tool calls (of which reads, searches, shell commands and edits) and
// the tokens it spent.
type AgentTotals struct {
	ToolUses, Reads, Searches, Commands, Edits int
	Tokens                                     int
}

// AgentOf returns the agent that made action i (the lead's zero Agent
// for a run of one agent).
func (r *Run) AgentOf(i int) Agent {
	k := int(r.Actions[i].Agent)
	if k <= 0 || k >= len(r.Agents) {
		if len(r.Agents) > 0 {
			return r.Agents[0]
		}
		return Agent{Parent: -1, Call: -1}
	}
	return r.Agents[k]
}

// LaunchedBy is the lead's action that started the chain of agents action
// i belongs to (its agent's, or its agent's parent's… call), i itself for
// a lead action, -1 when the run does not record the call.
func (r *Run) LaunchedBy(i int) int {
	k := int(r.Actions[i].Agent)
	for hops := 0; k > 0 && k < len(r.Agents) && hops < len(r.Agents); hops++ {
		a := r.Agents[k]
		if a.Parent <= 0 {
			return int(a.Call)
		}
		k = int(a.Parent)
	}
	if k <= 0 {
		return i
	}
	return -1
}

// Grouped is the run's actions in the order a timeline lists them: each
// sub-agent's actions right under the call that started it (and its own
// sub-agents' under theirs), so agents that ran side by side, their
// actions interleaved in time, each read as one block. An agent whose
// call is not recorded keeps its actions where time puts them. It is the
// identity for a run of one agent. Stepping still goes by time (Index).
func (r *Run) Grouped() []int {
	n := len(r.Actions)
	out := make([]int, 0, n)
	if len(r.Agents) < 2 {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	// own[k] are agent k's actions in time order; under[c] the agents
	// action c started.
	own := make([][]int32, len(r.Agents))
	for i := range r.Actions {
		if k := int(r.Actions[i].Agent); k >= 0 && k < len(own) {
			own[k] = append(own[k], int32(i))
		}
	}
	under := map[int][]int{}
	attached := make([]bool, len(r.Agents))
	for k := 1; k < len(r.Agents); k++ {
		c := int(r.Agents[k].Call)
		if c >= 0 && c < n && int(r.Actions[c].Agent) != k {
			under[c] = append(under[c], k)
			attached[k] = true
		}
	}
	done := make([]bool, n)
	// An explicit stack, not recursion: a chain of agents can be as deep
	// as the run is long.
	var stack []int32
	emit := func(i int32) {
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if done[j] {
				continue
			}
			done[j] = true
			out = append(out, int(j))
			ags := under[int(j)]
			// Pushed last agent first, its last action first, so the
			// first agent's first action comes next.
			for a := len(ags) - 1; a >= 0; a-- {
				acts := own[ags[a]]
				for b := len(acts) - 1; b >= 0; b-- {
					if !done[acts[b]] {
						stack = append(stack, acts[b])
					}
				}
			}
		}
	}
	for i := range r.Actions {
		k := int(r.Actions[i].Agent)
		if k <= 0 || k >= len(attached) || !attached[k] {
			emit(int32(i))
		}
	}
	// Actions left out by a cycle of calls keep their time order at the end.
	for i := range r.Actions {
		if !done[i] {
			emit(int32(i))
		}
	}
	return out
}
