package aider

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

var load = predtest.Loader(ParseRuns, nil)

// The chat history's actions: /add and /read-only, a file the model asked
// for and the user accepted (not the one refused), an applied edit, a
// command run with its echoed output; usage and cost from "Tokens:" lines,
// the reply before an action its thought.
func TestHistory(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/proj.aider.chat.history.md")
	if run.InstanceID != "proj" || run.Agent != "aider v0.86.1" || run.Model != "anthropic/claude-sonnet-4-5" || run.CostUSD != 0.03 {
		t.Errorf("run %q %q %q %v", run.InstanceID, run.Agent, run.Model, run.CostUSD)
	}
	type want struct {
		cmd   string
		cat   model.Category
		reads []model.ObservedRead
		edits []string
		usage model.Usage
	}
	whole := func(f string) []model.ObservedRead { return []model.ObservedRead{{File: f, Kind: model.ReadWhole}} }
	wants := []want{
		{"/add pkg/mod.py", model.CategoryRead, whole("pkg/mod.py"), nil, model.Usage{}},
		{"/read-only docs/notes.md", model.CategoryRead, whole("docs/notes.md"), nil, model.Usage{}},
		{"add tests/test_mod.py", model.CategoryRead, whole("tests/test_mod.py"), nil, model.Usage{InputTokens: 1400, OutputTokens: 120, CacheRead: 1100}},
		{"edit pkg/mod.py", model.CategoryEdit, nil, []string{"pkg/mod.py"}, model.Usage{InputTokens: 3000, OutputTokens: 200}},
		{"nl -ba pkg/mod.py | sed -n '1,3p'", model.CategoryRead, predtest.Range("pkg/mod.py", 1, 3), nil, model.Usage{}},
	}
	if len(run.Actions) != len(wants) {
		t.Fatalf("%d actions: %+v", len(run.Actions), run.Actions)
	}
	for i, w := range wants {
		a := run.Actions[i]
		if a.Command != w.cmd || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) || !reflect.DeepEqual(a.Edits, w.edits) || a.Usage != w.usage {
			t.Errorf("action %d: %q %v reads %v edits %v usage %+v; want %+v", i, a.Command, a.Category, a.Reads, a.Edits, a.Usage, w)
		}
	}
	if got := run.Thought(2); got != "The bug is in `run`. Let me look at the tests." {
		t.Errorf("thought %q", got)
	}
	if got := run.Observation(4); got != "     1\tdef run():\n     2\t    return 1\n     3\t" {
		t.Errorf("output %q", got)
	}
}

// The real history of ../shared (skipped without it): the files the user
// accepted into the chat, and the two edits applied.
func TestSharedHistory(t *testing.T) {
	const f = "../../../shared/data/formats/aider/0202alcc-luvatrix.aider.chat.history.md"
	predtest.NeedFile(t, f)
	run := predtest.LoadOne(t, load, f)
	var cmds []string
	for _, a := range run.Actions {
		cmds = append(cmds, a.Command)
	}
	want := []string{"add ios/Luvatrix/AppDelegate.swift", "add luvatrix_core/platform/ios/metal_backend.py", "add luvatrix_core/platform/ios/scene_target.py",
		"add main.py", "add ios/Luvatrix/PythonBridge.m", "edit ios/Luvatrix/AppDelegate.swift", "edit ios/Luvatrix/AppDelegate.swift"}
	if !reflect.DeepEqual(cmds, want) || run.Model != "openai/Qwen3.5-9B-Q8_0" {
		t.Errorf("actions %q, model %q", cmds, run.Model)
	}
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"x.aider.chat.history.md", "anything", true},
		{"renamed.md", "\n# aider chat started at 2026-01-02 10:00:00\n\n> Aider v0.86.1", true},
		{"notes.md", "# Notes\n\n# aider chat started at is a heading", false},
	} {
		if got := Sniff(c.name, []byte(c.head)); got != c.want {
			t.Errorf("Sniff(%s) = %v", c.name, got)
		}
	}
}

func FuzzAider(f *testing.F) {
	f.Add(predtest.ReadFile(f, "testdata/proj.aider.chat.history.md"))
	f.Add([]byte("# aider chat started at x\n> Add file to the chat? [Yes]: y\n> Running\n> Tokens: 9e99k sent, 1 received."))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		runs, err := ParseRuns("fuzz.md", data)
		if err != nil {
			return
		}
		if err := predtest.CheckRun(&runs[0]); err != nil {
			t.Fatal(err)
		}
	})
}
