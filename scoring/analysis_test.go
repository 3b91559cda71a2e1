package scoring_test

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// TestAnalyze checks the per-action views and both lenses on a hand-made run
// over the vector repository (gold G1: mod.py 4-5, util.py 1-2).
func TestAnalyze(t *testing.T) {
	files := vectorRepo(t)
	g := loadGold(t, loadCases(t)[0].Gold)
	rd := func(file string, kind model.ReadKind, a, b int) model.ObservedRead {
		return model.ObservedRead{File: file, Kind: kind, Start: a, End: b}
	}
	step := model.Step{Files: []string{"pkg/mod.py"}, Spans: []model.FileSpans{{File: "pkg/mod.py", Spans: []model.Interval{{Start: 4, End: 5}}}}}
	run := &model.Run{
		InstanceID: "owner__repo-1",
		Actions: []model.Action{
			{Command: "nl -ba pkg/mod.py | sed -n 1,5p", Reads: []model.ObservedRead{rd("/testbed/pkg/mod.py", model.ReadRange, 1, 5)}, Steps: []int{0}},
			{Command: "cat pkg/mod.py", Reads: []model.ObservedRead{rd("pkg/mod.py", model.ReadWhole, 0, 0)}},
			{Command: "grep -rn alpha ."},
			{Command: "sed -n 4,5p pkg/mod.py", Reads: []model.ObservedRead{rd("pkg/mod.py", model.ReadRange, 4, 5)}},
			{Command: "tail -n 1 pkg/util.py", Reads: []model.ObservedRead{rd("pkg/util.py", model.ReadTail, 0, 1), rd("../../etc/passwd", model.ReadWhole, 0, 0)}},
		},
		Prediction: model.Prediction{InstanceID: "owner__repo-1", Steps: []model.Step{step}, Final: step},
	}
	a := scoring.Analyze(run, g, files, model.ContextBench)

	type view struct {
		newGold, read, reread, cumRead, cumReread int
		pure                                      bool
	}
	for _, c := range []struct {
		lens model.Lens
		want []view
	}{
		{model.LensObserved, []view{{2, 5, 0, 5, 0, false}, {0, 13, 5, 18, 5, false}, {0, 0, 0, 18, 5, false}, {0, 2, 2, 20, 7, true}, {1, 1, 0, 21, 7, false}}},
		// The one ContextBench step (mod.py 4-5) belongs to action 1.
		{model.LensContextBench, []view{{2, 2, 0, 2, 0, false}, {}, {}, {}, {}}},
	} {
		for i, w := range c.want {
			if c.lens == model.LensContextBench && i > 0 {
				w.cumRead = 2
			}
			v := a.Lenses[c.lens].Actions[i]
			got := view{int(v.NewGold), v.ReadLines(), int(v.Reread), v.CumRead, v.CumReread, v.PureReread()}
			if got != w {
				t.Errorf("%s action %d: got %+v, want %+v", c.lens, i, got, w)
			}
		}
	}
	if got := a.Lenses[model.LensObserved].Actions[1].Lines; !reflect.DeepEqual(got, []model.FileSpans{{File: "pkg/mod.py", Spans: []model.Interval{{Start: 1, End: 13}}}}) {
		t.Errorf("observed lines of action 1 = %+v, want mod.py 1-13", got)
	}
	if got := a.Lenses[model.LensContextBench].NumSteps; got != 1 {
		t.Errorf("contextbench NumSteps = %d, want 1", got)
	}
	if got := a.Lenses[model.LensObserved].Curve(model.GranLine); !reflect.DeepEqual(got, []float64{0.5, 0.5, 0.5, 0.5, 0.75}) {
		t.Errorf("observed line coverage curve = %v", got)
	}
	if got := a.Actions[4].Reads; len(got) != 1 || got[0].File != "pkg/util.py" || !reflect.DeepEqual(got[0].Spans, []model.Interval{{Start: 2, End: 2}}) {
		t.Errorf("action 4 reads = %+v, want util.py line 2 only (the escaping path dropped)", got)
	}
	if got, want := a.Lenses[model.LensObserved].StepsDone, []int{1, 2, 2, 3, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("observed StepsDone = %v, want %v", got, want)
	}
	if got, want := a.Lenses[model.LensContextBench].StepsDone, []int{1, 1, 1, 1, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("contextbench StepsDone = %v, want %v", got, want)
	}
	obs := a.Coverage(model.LensObserved, 4)
	if obs.File != 1.0 || obs.Line != 0.75 {
		t.Errorf("observed coverage at the end = %+v, want file 1.0 line 0.75", obs)
	}
	cb := a.Coverage(model.LensContextBench, 4)
	if cb.File != 0.5 || cb.Line != 0.5 {
		t.Errorf("contextbench coverage at the end = %+v, want file 0.5 line 0.5", cb)
	}
	if got := a.ReadSoFar("pkg/mod.py", 0); !reflect.DeepEqual(got, []model.Interval{{Start: 1, End: 5}}) {
		t.Errorf("ReadSoFar(mod, 0) = %v", got)
	}
	if got := a.ReadSoFar("pkg/mod.py", 4); !reflect.DeepEqual(got, []model.Interval{{Start: 1, End: 13}}) {
		t.Errorf("ReadSoFar(mod, 4) = %v", got)
	}
}

// ContextBench steps may name lines backwards or past the end of the file:
// the lens puts in view the lines the file has (a reversed range swapped),
// and counts them once.
func TestAnalyzeClipsContextBenchSteps(t *testing.T) {
	files := vectorRepo(t)
	g := loadGold(t, loadCases(t)[0].Gold)
	spans := []model.Interval{{Start: 5, End: 3}, {Start: 10, End: 99}, {Start: 12, End: 13}}
	step := model.Step{Files: []string{"pkg/mod.py"}, Spans: []model.FileSpans{{File: "pkg/mod.py", Spans: spans}}}
	run := &model.Run{
		InstanceID: "owner__repo-1",
		Actions:    []model.Action{{Command: "think"}, {Command: "declare", Steps: []int{0, 7}}, {Command: "again", Steps: []int{0}}},
		Prediction: model.Prediction{InstanceID: "owner__repo-1", Steps: []model.Step{step}, Final: step},
	}
	a := scoring.Analyze(run, g, files, model.ContextBench)
	cb := a.Lenses[model.LensContextBench]
	want := []model.FileSpans{{File: "pkg/mod.py", Spans: []model.Interval{{Start: 3, End: 5}, {Start: 10, End: 13}}}}
	if got := cb.Actions[1].Lines; !reflect.DeepEqual(got, want) {
		t.Errorf("lines = %+v, want %+v", got, want)
	}
	if v := cb.Actions[1]; v.ReadLines() != 7 || v.NewGold != 2 || v.Reread != 0 {
		t.Errorf("action 2: read %d new gold %d reread %d, want 7, 2, 0", v.ReadLines(), v.NewGold, v.Reread)
	}
	// The step was claimed by action 2: action 3 lists it again and shows
	// nothing.
	if v := cb.Actions[2]; len(v.Lines) != 0 || v.CumRead != 7 {
		t.Errorf("action 3: %+v, want nothing new and 7 lines read so far", v)
	}
	if got := a.GoldShown("pkg/mod.py"); !reflect.DeepEqual(got, []model.Interval{{Start: 4, End: 5}}) {
		t.Errorf("GoldShown(mod.py) = %v", got)
	}
}

// A run the evaluator rejects (no_context_extracted) says why in words a
// user knows: it never submitted, it declared no final context, or its
// final context names no file of the repository.
func TestNoContextReasons(t *testing.T) {
	files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte("x = 1\n")}}))
	g := &model.Gold{ID: "t", Init: []model.GoldSpan{{File: "a.py", Start: 1, End: 1}}}
	for _, c := range []struct {
		exit  string
		final model.Step
		want  string
	}{
		{"StepResponseTimeout", model.Step{}, `the run never submitted (it ended with "StepResponseTimeout"), so it declared no final context`},
		{"Submitted", model.Step{}, "the run declared no final context"},
		{"", model.Step{}, "the run declared no final context"},
		{"StepResponseTimeout", model.Step{Files: []string{"elsewhere.py"}}, "the final context names no file of the repository"},
	} {
		run := &model.Run{InstanceID: "t", ExitStatus: c.exit, Prediction: model.Prediction{InstanceID: "t", Final: c.final}}
		res := scoring.Analyze(run, g, files, model.ContextBench).Lenses[model.LensContextBench].Result
		if res.Error != scoring.ErrNoContext || res.Reason != c.want {
			t.Errorf("exit %q, final %v: %s %q; want %q", c.exit, c.final.Files, res.Error, res.Reason, c.want)
		}
	}
}

// Against no gold nothing can be shown; against file-level gold only the
// file figures mean something; the reason is said per granularity.
func TestUncomputable(t *testing.T) {
	files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte("x = 1\n")}}))
	run := func() *model.Run {
		return &model.Run{InstanceID: "t", Prediction: model.Prediction{InstanceID: "t", Final: model.Step{Files: []string{"a.py"}}}}
	}
	for _, c := range []struct {
		name       string
		gold       *model.Gold
		file, line string
	}{
		{"no gold", &model.Gold{ID: "t"}, "no gold", "no gold"},
		{"file-level gold", &model.Gold{ID: "t", Files: []string{"a.py"}}, "", "file-level gold"},
		{"line gold", &model.Gold{ID: "t", Init: []model.GoldSpan{{File: "a.py", Start: 1, End: 1}}}, "", ""},
	} {
		a := scoring.Analyze(run(), c.gold, files, model.ContextBench)
		if f, l := a.UncomputableAt(model.GranFile), a.UncomputableAt(model.GranLine); f != c.file || l != c.line {
			t.Errorf("%s: file %q, line %q; want %q, %q", c.name, f, l, c.file, c.line)
		}
	}
}

// Gold that names definitions (LocAgent's "Class.method") is scored at
// symbol granularity: the named definition and no other of the same last
// name; a name no definition spells so falls back to upstream's rule (every
// definition of its last part). Span and line have nothing to measure.
func TestNamedSymbolGold(t *testing.T) {
	src := "class A:\n    def run(self):\n        return 1\n\n    def other(self):\n        return 2\n\n\ndef run():\n    return 3\n"
	files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"m.py": {Data: []byte(src)}}))
	read := func(a, b int) model.Step {
		return model.Step{Files: []string{"m.py"}, Spans: []model.FileSpans{{File: "m.py", Spans: []model.Interval{{Start: a, End: b}}}}}
	}
	for _, c := range []struct {
		name   string
		named  []string
		final  model.Step
		symbol float64 // symbol coverage
	}{
		{"the method read", []string{"A.run"}, read(2, 3), 1},
		{"the module function of the same name read, not the method", []string{"A.run"}, read(9, 10), 0},
		{"the module function", []string{"run"}, read(9, 10), 1},
		{"two entities, one read", []string{"A.run", "A.other"}, read(5, 6), 0.5},
		{"an unknown class: upstream's rule takes every run", []string{"B.run"}, read(9, 10), 0.5},
	} {
		g := &model.Gold{ID: "t", Files: []string{"m.py"}, Symbols: []model.FileSymbols{{File: "m.py", Symbols: c.named}}}
		run := &model.Run{InstanceID: "t", Prediction: model.Prediction{InstanceID: "t", Final: c.final, Steps: []model.Step{c.final}}}
		for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
			a := scoring.Analyze(run, g, files, sem)
			res := a.Lenses[model.LensContextBench].Result
			if res.Final.Symbol.Coverage != c.symbol || res.Final.File.Coverage != 1 {
				t.Errorf("%s (%v): symbol coverage %v, file %v; want %v", c.name, sem, res.Final.Symbol.Coverage, res.Final.File.Coverage, c.symbol)
			}
			if a.UncomputableAt(model.GranSymbol) != "" || a.UncomputableAt(model.GranLine) != "file- and symbol-level gold" {
				t.Errorf("%s: symbol %q, line %q", c.name, a.UncomputableAt(model.GranSymbol), a.UncomputableAt(model.GranLine))
			}
		}
	}
}

// The patch view marks the removed and context lines that are gold, by
// their old-file numbers from the hunk headers; added lines have none.
func TestPatchLines(t *testing.T) {
	files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte("1\n2\n3\n4\n5\n6\n")}}))
	g := &model.Gold{ID: "t", Init: []model.GoldSpan{{File: "a.py", Start: 2, End: 3}}}
	run := &model.Run{InstanceID: "t", Prediction: model.Prediction{InstanceID: "t", Final: model.Step{Files: []string{"a.py"}}}}
	a := scoring.Analyze(run, g, files, model.Fixed)
	patch := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,5 +1,4 @@\n 1\n-2\n+two\n 3\n 4\n-5\n"
	lines, removed, gold := a.PatchLines(patch)
	type row struct {
		old  int
		gold bool
	}
	want := []row{{0, false}, {0, false}, {0, false}, {0, false}, {1, false}, {2, true}, {0, false}, {3, true}, {4, false}, {5, false}}
	if len(lines) != len(want) || removed != 2 || gold != 1 {
		t.Fatalf("%d lines, %d removed, %d gold: %+v", len(lines), removed, gold, lines)
	}
	for i, w := range want {
		if lines[i].Old != w.old || lines[i].Gold != w.gold || lines[i].Old > 0 && lines[i].File != "a.py" {
			t.Errorf("line %d %q: old %d gold %v file %q, want %+v", i, lines[i].Text, lines[i].Old, lines[i].Gold, lines[i].File, w)
		}
	}
}

// TestLinkSteps: a prediction whose steps no action claims (an
// AgentStackBench page's predTrajectory beside its trace) has each step
// tied to the action that displayed its lines, in order, so the
// contextbench curve rises there; a step nothing displayed goes to the end.
func TestLinkSteps(t *testing.T) {
	files := vectorRepo(t)
	g := loadGold(t, loadCases(t)[0].Gold)
	rd := func(file string, a, b int) []model.ObservedRead {
		return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: a, End: b}}
	}
	step := func(file string, a, b int) model.Step {
		return model.Step{Files: []string{file}, Spans: []model.FileSpans{{File: file, Spans: []model.Interval{{Start: a, End: b}}}}}
	}
	run := &model.Run{
		InstanceID: "owner__repo-1",
		Actions: []model.Action{
			{Command: "ls"},
			{Command: "sed -n 1,3p pkg/util.py", Reads: rd("pkg/util.py", 1, 3)},
			{Command: "sed -n 1,9p pkg/mod.py", Reads: rd("pkg/mod.py", 1, 9)},
			{Command: "pytest"},
		},
		Prediction: model.Prediction{InstanceID: "owner__repo-1",
			Steps: []model.Step{step("pkg/util.py", 1, 2), step("pkg/mod.py", 4, 5), step("pkg/other.py", 1, 1)},
			Final: step("pkg/mod.py", 4, 5)},
	}
	a := scoring.Analyze(run, g, files, model.ContextBench)
	if got, want := a.Lenses[model.LensContextBench].StepsDone, []int{0, 1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("steps done by action %v, want %v", got, want)
	}
	if cov := a.Lenses[model.LensContextBench].CurveAt(model.GranLine, 1); cov == 0 {
		t.Error("the curve does not rise at the action that showed step 1")
	}
}
