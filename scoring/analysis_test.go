package scoring_test

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
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
	want := []view{{2, 5, 0, 5, 0, false}, {0, 13, 5, 18, 5, false}, {0, 0, 0, 18, 5, false}, {0, 2, 2, 20, 7, true}, {1, 1, 0, 21, 7, false}}
	for i, w := range want {
		v := a.Actions[i]
		got := view{v.NewGold, v.ReadLines, v.Reread, v.CumRead, v.CumReread, v.PureReread}
		if got != w {
			t.Errorf("action %d: got %+v, want %+v", i, got, w)
		}
	}
	if got := a.Actions[4].Reads; len(got) != 1 || got[0].File != "pkg/util.py" || !reflect.DeepEqual(got[0].Lines, []model.Interval{{Start: 2, End: 2}}) {
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
