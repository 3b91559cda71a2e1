package ui

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// variant is the demo task changed for one of the states the demo does not
// show: edit rewrites its messages and submission, noRepo drops the
// repository (the tree is rebuilt from what the run displayed).
type variant struct {
	edit   func(msgs []map[string]any, info map[string]any) []map[string]any
	gold   func(g *model.Gold)
	noRepo bool
}

func (v variant) analysis(t testing.TB) *scoring.Analysis {
	t.Helper()
	fsys := demo.FS()
	names, _ := fs.Glob(fsys, "*.traj.json")
	data, err := fs.ReadFile(fsys, names[0])
	if err != nil {
		t.Fatal(err)
	}
	if v.edit != nil {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var msgs []map[string]any
		b, _ := json.Marshal(doc["messages"])
		json.Unmarshal(b, &msgs)
		doc["messages"] = v.edit(msgs, doc["info"].(map[string]any))
		data, _ = json.Marshal(doc)
	}
	run, err := miniswe.Parse(names[0], data)
	if err != nil {
		t.Fatal(err)
	}
	gdata, _ := fs.ReadFile(fsys, "gold.json")
	set, err := gold.Parse("gold.json", gdata)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := set.Get(run.InstanceID)
	if v.gold != nil {
		v.gold(g)
	}
	var tree model.Tree
	if v.noRepo {
		tree = observed.Build(run, scoring.GoldPaths(g, model.ContextBench), "no --repo or --cache given", nil)
	} else {
		repo, _ := fs.Sub(fsys, "repo")
		tree = source.NewFS(repo)
	}
	return scoring.Analyze(run, g, scoring.NewFileCache(tree), model.ContextBench)
}

// failedStep inserts, before the demo's fourth action, the mistake real
// runs make: the explore_context block pasted into the bash block, which
// the shell refuses, while the evaluator still takes it as a step.
func failedStep(msgs []map[string]any, _ map[string]any) []map[string]any {
	at := 0
	for i, n := 0, 0; i < len(msgs); i++ {
		if msgs[i]["role"] == "assistant" {
			if n == 3 {
				at = i
				break
			}
			n++
		}
	}
	bad := []map[string]any{
		{"role": "assistant", "content": "THOUGHT: I will record what I found.\n\n```bash\n<explore_context>\nFile: /testbed/pricebook/discounts.py\nLines: 41-75\n</explore_context>\n```"},
		{"role": "user", "content": "<returncode>2</returncode>\n<output>\n/bin/sh: 2: Syntax error: newline unexpected\n</output>"},
	}
	return append(msgs[:at:at], append(bad, msgs[at:]...)...)
}

// noPatch drops the run's patch: the reference then scores the gold patch.
func noPatch(msgs []map[string]any, info map[string]any) []map[string]any {
	info["submission"] = ""
	return msgs
}

// The screens of the states the demo does not show, at the two sizes people
// use most.
func TestGoldenStates(t *testing.T) {
	failed, bare, quirk := variant{edit: failedStep}.analysis(t), variant{noRepo: true}.analysis(t), variant{edit: noPatch}.analysis(t)
	cases := []struct {
		name string
		a    *scoring.Analysis
		w, h int
		opts Options
		keys []string
	}{
		// Action 4 failed; the contextbench lens counts its step (+20).
		{"failed_command_80x24", failed, 80, 24, Options{Step: 4}, nil},
		{"failed_command_120x40", failed, 120, 40, Options{Step: 4}, nil},
		{"failed_command_observed_120x40", failed, 120, 40, Options{Step: 4, Lens: model.LensObserved}, nil},
		{"no_repository_80x24", bare, 80, 24, Options{Step: 4}, nil},
		{"no_repository_120x40", bare, 120, 40, Options{Step: 4}, nil},
		{"no_repository_last_120x40", bare, 120, 40, Options{Step: 20}, nil},
		{"editloc_gold_patch_80x24", quirk, 80, 24, Options{Step: 20}, nil},
		{"editloc_gold_patch_120x40", quirk, 120, 40, Options{Step: 20}, nil},
		// The last step shows the final context's lines (▪): 56-62 kept,
		// 49-55 read and dropped.
		{"final_context_80x24", demoAnalysis(t), 80, 24, Options{Step: 20}, []string{"tab", "k", "k", "k", "k", "k", "k"}},
		{"final_context_120x40", demoAnalysis(t), 120, 40, Options{Step: 20}, nil},
		{"no_color_failed_80x24", failed, 80, 24, Options{Step: 4, NoColor: true, Theme: "auto"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, c.a, c.opts, c.w, c.h)
			typeKeys(m, c.keys...)
			raw := m.View().Content
			checkScreen(t, raw, c.w, c.h)
			if c.opts.NoColor && sgrColour.MatchString(raw) {
				t.Errorf("NO_COLOR output has colour codes: %q", sgrColour.FindString(raw))
			}
			golden(t, c.name, ansi.Strip(raw))
		})
	}
}

// What the new states must say, whatever the layout.
func TestStatesSayIt(t *testing.T) {
	failed, bare, quirk := variant{edit: failedStep}.analysis(t), variant{noRepo: true}.analysis(t), variant{edit: noPatch}.analysis(t)
	if a := failed.Run.Actions[3]; a.Failure != `exit 2: /bin/sh: 2: Syntax error: newline unexpected` || failed.Lenses[model.LensContextBench].Actions[3].NewGold != 20 {
		t.Fatalf("fixture: action 4 failure %q, new gold %d; want the syntax error and 20", a.Failure, failed.Lenses[model.LensContextBench].Actions[3].NewGold)
	}
	for _, c := range []struct {
		name string
		a    *scoring.Analysis
		step int
		want []string
		not  []string
	}{
		{"failed", failed, 4, []string{"✗ failed (exit 2)", "✗ command failed: exit 2: /bin/sh: 2: Syntax error", "the command failed, but the contextbench lens counts its step (35 lines, +20 new gold)", "┆●"}, []string{"┃●", "┃ "}},
		{"no repository", bare, 4, []string{"no repository: pass --repo DIR or --cache DIR", "no repository — file/line from line numbers; symbol and span need the repository", "n/a", "needs the repository"}, []string{"not in the repository"}},
		{"no repository, a file the run never showed", bare, 1, []string{"The run displayed no line of pricebook/__init__.py."}, nil},
		{"gold patch", quirk, 20, []string{"no patch: reference scores the gold patch"}, nil},
		{"never at the end", quirk, 20, []string{"never   → never opened"}, []string{"not yet"}},
	} {
		m := newModel(t, c.a, Options{Step: c.step}, 240, 60)
		screen := ansi.Strip(m.Render())
		for _, w := range c.want {
			if !strings.Contains(screen, w) {
				t.Errorf("%s: screen lacks %q:\n%s", c.name, w, screen)
			}
		}
		for _, w := range c.not {
			if strings.Contains(screen, w) {
				t.Errorf("%s: screen has %q:\n%s", c.name, w, screen)
			}
		}
	}
	// Without the repository the file and line figures are the repository's.
	repo := demoAnalysis(t)
	for _, l := range model.Lenses {
		if got, want := bare.Lenses[l].Result.Final.Line, repo.Lenses[l].Result.Final.Line; got != want {
			t.Errorf("%s lens final line %+v without the repository, %+v with it", l, got, want)
		}
	}
}

// r hides the model's thoughts in the output pane, from any pane, and shows
// them again.
func TestThoughtToggle(t *testing.T) {
	m := newModel(t, demoAnalysis(t), Options{Step: 2}, 120, 36)
	const thought = "THOUGHT: The bug is about the bulk discount tiers."
	if !strings.Contains(ansi.Strip(m.Render()), thought) {
		t.Fatal("the thought is not shown to begin with")
	}
	typeKeys(m, "r")
	screen := ansi.Strip(m.Render())
	if strings.Contains(screen, thought) || !strings.Contains(screen, "(thought hidden: r shows it)") || !strings.Contains(screen, "thoughts hidden") {
		t.Errorf("after r the thought is still shown, or nothing says it is hidden:\n%s", screen)
	}
	typeKeys(m, "l", "r")
	if !strings.Contains(ansi.Strip(m.Render()), "THOUGHT:") {
		t.Error("a second r did not show the thoughts again")
	}
}
