package model

import "testing"

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
