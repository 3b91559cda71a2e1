package agentstackbench

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

var load = predtest.Loader(ParseRuns, nil)

// Each variant is a run named by the task's original id; its prediction
// is its predTrajectory (camelCase traj_data) read as a unified record,
// its timeline its trace: commands unwrapped from bash -lc and read as
// shell commands, the file change an edit, the final message a thought,
// the variant's token usage on its last action.
func TestPage(t *testing.T) {
	runs, err := load("testdata/page.json")
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	a, b := runs[0], runs[1]
	if a.InstanceID != "o__r-1" || a.Agent != "codex-x · Baseline" || a.Model != "gpt-5.4" || a.Format != Name || b.Agent != "codex-x · Tuned" {
		t.Errorf("runs %q %q %q / %q", a.InstanceID, a.Agent, a.Model, b.Agent)
	}
	wantSpans := []model.FileSpans{{File: "pkg/mod.py", Spans: []model.Interval{{Start: 1, End: 3}}}}
	if len(a.Prediction.Steps) != 1 || !reflect.DeepEqual(a.Prediction.Steps[0].Spans, wantSpans) || len(b.Prediction.Steps) != 2 || a.Prediction.ModelPatch == "" {
		t.Errorf("predictions: %+v / %+v", a.Prediction.Steps, b.Prediction.Steps)
	}
	if len(a.Actions) != 2 || a.Actions[0].Command != "sed -n '1,3p' pkg/mod.py" || !reflect.DeepEqual(a.Actions[0].Reads, predtest.Range("pkg/mod.py", 1, 3)) ||
		a.Actions[1].Category != model.CategoryEdit || !reflect.DeepEqual(a.Actions[1].Edits, []string{"pkg/mod.py"}) {
		t.Errorf("variant A actions %+v", a.Actions)
	}
	if a.Thought(1) != "Done." || a.Actions[1].Usage != (model.Usage{InputTokens: 200, OutputTokens: 50, CacheRead: 800}) {
		t.Errorf("thought %q, usage %+v", a.Thought(1), a.Actions[1].Usage)
	}
	if len(b.Actions) != 3 || b.Actions[0].Category != model.CategorySearch || !b.Actions[1].Failed() {
		t.Errorf("variant B actions %+v", b.Actions)
	}
	if !Sniff("renamed.json", predtest.ReadFile(t, "testdata/page.json")) || Sniff("x.json", []byte(`{"variants": []}`)) {
		t.Error("Sniff")
	}
}

// The real page of ../shared (skipped without it): two variants of
// django__django-11163, their traces and their scored trajectories.
func TestSharedPage(t *testing.T) {
	const f = "../../../shared/data/formats/agentstackbench/codex-gpt-5.4__django__django-11163.json"
	predtest.NeedFile(t, f)
	runs, err := load(f)
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	for i, want := range []struct{ actions, steps int }{{23, 4}, {31, 6}} {
		r := runs[i]
		if r.InstanceID != "django__django-11163" || len(r.Actions) != want.actions || len(r.Prediction.Steps) != want.steps {
			t.Errorf("variant %d: %q, %d actions, %d steps; want %+v", i, r.InstanceID, len(r.Actions), len(r.Prediction.Steps), want)
		}
	}
	if got := runs[0].Prediction.Final.Files; len(got) != 13 {
		t.Errorf("variant A's final names %d files, want predFiles' 13", len(got))
	}
}

func FuzzAgentStackBench(f *testing.F) {
	f.Add(predtest.ReadFile(f, "testdata/page.json"))
	f.Add([]byte(`{"comparisonId": 1, "variants": [{"predTrajectory": {"predSteps": 3}, "traceEntries": [{"kind": "file_change"}]}]}`))
	predtest.FuzzRuns(f, "fuzz.json", ParseRuns)
}
