package opencode

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

var load = predtest.Loader(ParseRuns, nil)

// An OpenCode export: each tool part an action, read's numbered output
// saying which lines it showed, a task part naming its sub-agent's session,
// usage from the step-finish part, unknown parts and tools counted.
func TestExport(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/export.json")
	if run.InstanceID != "ses_1" || run.Model != "kimi-k3" || run.Agent != "opencode 1.4.0" || run.Task != "Why is the retry loop infinite?" {
		t.Errorf("run %q %q %q %q", run.InstanceID, run.Model, run.Agent, run.Task)
	}
	rng := predtest.Range
	want := []struct {
		tool  string
		cat   model.Category
		reads []model.ObservedRead
	}{
		{"read", model.CategoryRead, rng("src/retry.ts", 10, 12)},
		{"grep", model.CategorySearch, nil},
		{"task", model.CategoryOther, nil},
		{"edit", model.CategoryEdit, nil},
		{"warp", model.CategoryOther, nil},
	}
	if len(run.Actions) != len(want) {
		t.Fatalf("%d actions", len(run.Actions))
	}
	for i, w := range want {
		a := run.Actions[i]
		if a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) {
			t.Errorf("action %d = %s %v %+v, want %+v", i, a.Tool, a.Category, a.Reads, w)
		}
	}
	if u := run.Actions[0].Usage; u.InputTokens != 900 || u.OutputTokens != 50 || u.CacheRead != 300 {
		t.Errorf("usage %+v", u)
	}
	if len(run.Agents) != 2 || run.Agents[1].ID != "ses_2" || run.Agents[1].Type != "explore" || run.Agents[1].Call != 2 {
		t.Errorf("agents %+v", run.Agents)
	}
	if want := map[string]int{"tool:warp": 1, "part:hologram": 1}; !reflect.DeepEqual(run.Unread, want) {
		t.Errorf("unread %v", run.Unread)
	}
}
