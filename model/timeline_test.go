package model

import (
	"fmt"
	"testing"
)

// TestMarkRejectedSubmits: a submit the run went on after, or a last submit
// of a run that ended without submitting, was not accepted; an accepted
// last submit, a sub-agent's own last action and failed submits stay as
// they are.
func TestMarkRejectedSubmits(t *testing.T) {
	sub := Action{Category: CategorySubmit}
	for _, c := range []struct {
		name   string
		status string
		acts   []Action
		want   []bool
	}{
		{"accepted", "Submitted", []Action{{Category: CategoryRead}, sub}, []bool{false, false}},
		{"asked again", "Submitted", []Action{sub, {Category: CategoryRead}, sub}, []bool{true, false, false}},
		{"context requested", "Submitted", []Action{sub, sub}, []bool{false, false}},
		{"guard refused", "ExploreContextEnforcementExceeded", []Action{{Category: CategoryRead}, sub}, []bool{false, true}},
		{"no status", "", []Action{sub}, []bool{false}},
		{"sub-agent's last", "LimitsExceeded", []Action{{Category: CategoryRead}, {Category: CategorySubmit, Agent: 1}, {Category: CategoryRead}}, []bool{false, false, false}},
	} {
		run := &Run{ExitStatus: c.status, Actions: append([]Action(nil), c.acts...)}
		if c.name == "context requested" {
			run.Observations = TextList([]string{"<context_request>\nBefore finalizing your submission, please provide the context.", ""})
		}
		MarkRejectedSubmits(run)
		for i, w := range c.want {
			if got := run.Actions[i].Failed(); got != w {
				t.Errorf("%s: action %d rejected %v, want %v (%q)", c.name, i, got, w, run.Actions[i].Failure)
			}
		}
	}
}

// Grouped puts each agent's actions under the call that started it, even
// when agents ran side by side; an agent of no recorded call stays where
// time puts it, and a cycle of calls loses no action.
func TestGrouped(t *testing.T) {
	run := func(agents []Agent, of ...int32) *Run {
		r := &Run{Agents: agents}
		for _, k := range of {
			r.Actions = append(r.Actions, Action{Agent: k})
		}
		return r
	}
	lead := Agent{Parent: -1, Call: -1}
	for _, tc := range []struct {
		name string
		r    *Run
		want []int
	}{
		{"one agent", run(nil, 0, 0, 0), []int{0, 1, 2}},
		// Three Explore agents started by calls 1, 2, 3, their actions
		// interleaved from 4 on.
		{"interleaved", run([]Agent{lead, {Call: 1}, {Call: 2}, {Call: 3}}, 0, 0, 0, 0, 1, 2, 1, 3, 2, 3, 0),
			[]int{0, 1, 4, 6, 2, 5, 8, 3, 7, 9, 10}},
		// Agent 2 is started by agent 1's action 3 (nested).
		{"nested", run([]Agent{lead, {Call: 1}, {Parent: 1, Call: 3, Depth: 2}}, 0, 0, 1, 1, 2, 1, 2, 0),
			[]int{0, 1, 2, 3, 4, 6, 5, 7}},
		{"no call", run([]Agent{lead, {Call: -1}}, 0, 1, 0, 1), []int{0, 1, 2, 3}},
		{"cycle", run([]Agent{lead, {Call: 2}, {Call: 1}}, 0, 1, 2), []int{0, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.r.Grouped()
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Grouped = %v, want %v", got, tc.want)
			}
		})
	}
}
