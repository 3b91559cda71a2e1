package ui

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// t shows the task and the submitted patch with its gold lines marked; p
// moves between the two; / finds words of the task and says where.
func TestTaskPane(t *testing.T) {
	m := newModel(t, demoAnalysis(t), Options{}, 120, 40)
	typeKeys(m, "t")
	if m.focus != paneTask {
		t.Fatalf("t focused %s", m.focus)
	}
	screen := ansi.Strip(m.View().Content)
	for _, want := range []string{"Task & patch  patch: 1 line removed, 1 of them gold", "Task, as the run was given it", "Bulk discount is not applied when ordering exactly 10 units"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	typeKeys(m, "p")
	screen = ansi.Strip(m.View().Content)
	if !strings.Contains(screen, "Submitted patch · 1 line removed, 1 of them gold (●)") || !strings.Contains(screen, "● -        if quantity > tier.min_qty:") {
		t.Errorf("p does not show the patch with its gold line marked:\n%s", screen)
	}
	// A word only the task has: no action matches, and the status says the
	// task does.
	typeKeys(m, append(strings.Split("/confirmation", ""), "enter")...)
	if !strings.Contains(m.status, `no action matches "confirmation"; 1 lines of the task do (t shows them)`) {
		t.Errorf("status %q", m.status)
	}
	// A word actions and the task share: the actions' matches, and the
	// task's count.
	typeKeys(m, "esc")
	typeKeys(m, append(strings.Split("/storefront", ""), "enter")...)
	if !strings.Contains(m.status, `for "storefront" · 1 in the task (t)`) {
		t.Errorf("status %q", m.status)
	}
}

// b shows an edited file as the run's recorded edits left it by the current
// step, the lines the last edit wrote marked; before the edit, and with b
// again, the base commit.
func TestSourceAsOfStep(t *testing.T) {
	repo := fstest.MapFS{"a.py": {Data: []byte("def f():\n    return 1\n")}}
	run := &model.Run{InstanceID: "o__r-1", Format: "claude-code"}
	run.Actions = []model.Action{
		{Tool: "Read", Category: model.CategoryRead, Command: "Read a.py", Reads: []model.ObservedRead{{File: "a.py", Kind: model.ReadWhole}}},
		{Tool: "Edit", Category: model.CategoryEdit, Command: "Edit a.py", Edits: []string{"a.py"},
			Changes: []model.Change{{File: "a.py", Old: "    return 1", New: "    x = 2\n    return x"}}},
	}
	a := scoring.Analyze(run, &model.Gold{ID: "o__r-1"}, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
	m := newModel(t, a, Options{}, 120, 30)
	typeKeys(m, "b")
	if screen := ansi.Strip(m.View().Content); strings.Contains(screen, "as of step") || !strings.Contains(screen, "return 1") {
		t.Errorf("before the edit, the base is shown:\n%s", screen)
	}
	typeKeys(m, "l")
	screen := ansi.Strip(m.View().Content)
	for _, want := range []string{"as of step 2: 1 recorded edit(s) replayed", "✎ 2     x = 2", "✎ 3     return x"} {
		if !strings.Contains(screen, want) {
			t.Errorf("as of step 2, screen lacks %q:\n%s", want, screen)
		}
	}
	typeKeys(m, "b")
	if screen := ansi.Strip(m.View().Content); strings.Contains(screen, "as of step") || !strings.Contains(screen, "return 1") {
		t.Errorf("b again shows the base:\n%s", screen)
	}
}

// u shows where time and tokens went: each action's in the timeline, bars
// per step in the metrics pane, totals so far and for the run; u again
// returns to coverage.
func TestSpendMode(t *testing.T) {
	repo := fstest.MapFS{"a.py": {Data: []byte("x = 1\n")}}
	run := &model.Run{InstanceID: "o__r-1", Format: "claude-code", CostUSD: 0.5}
	for i, u := range []int32{1000, 30000, 2000} {
		run.Actions = append(run.Actions, model.Action{Tool: "Bash", Category: model.CategoryRun, Command: "ls",
			Timestamp: 1000 + float64(i*i*10), Usage: model.Usage{InputTokens: u, OutputTokens: 500}})
	}
	a := scoring.Analyze(run, &model.Gold{ID: "o__r-1"}, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
	m := newModel(t, a, Options{Step: 3}, 120, 40)
	typeKeys(m, "u")
	screen := ansi.Strip(m.View().Content)
	for _, want := range []string{"Spend  per step, up to step 3", "this step: 30s · 2.5k tokens", "so far: 40s · 34.5k tokens", "run: 40s · 34.5k tokens · $0.50", "10s 30.5k"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	typeKeys(m, "u")
	if screen := ansi.Strip(m.View().Content); strings.Contains(screen, "Spend") || !strings.Contains(screen, "Coverage") {
		t.Errorf("u again:\n%s", screen)
	}
}
