package scoring_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// observedRun reads the vector repository (mod.py has 13 lines, util.py 2)
// in every way a read can be known: a range, the whole file, a tail, a
// window, a path outside the repository, and an action that read nothing.
func observedRun(final model.Step) *model.Run {
	rd := func(file string, kind model.ReadKind, a, b int) model.ObservedRead {
		return model.ObservedRead{File: file, Kind: kind, Start: a, End: b}
	}
	return &model.Run{
		InstanceID: "owner__repo-1",
		Actions: []model.Action{
			{Reads: []model.ObservedRead{rd("/testbed/pkg/mod.py", model.ReadRange, 1, 5)}},
			{Reads: []model.ObservedRead{rd("pkg/mod.py", model.ReadWhole, 0, 0)}},
			{Command: "grep -rl alpha ."},
			{Reads: []model.ObservedRead{rd("pkg/util.py", model.ReadTail, 0, 1), rd("../../etc/passwd", model.ReadWhole, 0, 0)}},
			// A SWE-agent window around line 64 of a 13-line file: all of it.
			{Reads: []model.ObservedRead{rd("src/pkg/mod.py", model.ReadWindow, 64, 100), rd("pkg/util.py", model.ReadRange, 2, 9)}},
		},
		Prediction: model.Prediction{InstanceID: "owner__repo-1", Final: final},
	}
}

func spans(file string, ivs ...model.Interval) model.FileSpans {
	return model.FileSpans{File: file, Spans: ivs}
}

// TestObservedPrediction: the observed steps are the reads resolved against
// the repository (paths to its files, lengths from its files, ranges
// clipped), one per action that displayed lines; the final context stays
// the run's own, or is their union when the run has none; and scoring it
// gives Analyze's observed lens exactly.
func TestObservedPrediction(t *testing.T) {
	files := vectorRepo(t)
	g := loadGold(t, loadCases(t)[0].Gold)
	iv := func(a, b int) model.Interval { return model.Interval{Start: a, End: b} }
	wantSteps := []model.Step{
		{Files: []string{"pkg/mod.py"}, Spans: []model.FileSpans{spans("pkg/mod.py", iv(1, 5))}},
		{Files: []string{"pkg/mod.py"}, Spans: []model.FileSpans{spans("pkg/mod.py", iv(1, 13))}},
		{Files: []string{"pkg/util.py"}, Spans: []model.FileSpans{spans("pkg/util.py", iv(2, 2))}},
		{Files: []string{"pkg/mod.py", "pkg/util.py"}, Spans: []model.FileSpans{spans("pkg/mod.py", iv(1, 13)), spans("pkg/util.py", iv(2, 2))}},
	}
	own := model.Step{Files: []string{"pkg/util.py"}, Spans: []model.FileSpans{spans("pkg/util.py", iv(1, 2))}}
	union := model.Step{Files: []string{"pkg/mod.py", "pkg/util.py"}, Spans: []model.FileSpans{spans("pkg/mod.py", iv(1, 13)), spans("pkg/util.py", iv(2, 2))}}
	for _, c := range []struct {
		name        string
		final, want model.Step
	}{
		{"own final", own, own},
		{"no final: the union", model.Step{}, union},
	} {
		run := observedRun(c.final)
		p := observed.Prediction(run, files)
		if !reflect.DeepEqual(p.Steps, wantSteps) || !reflect.DeepEqual(p.Final, c.want) {
			t.Errorf("%s:\n steps %+v\n final %+v", c.name, p.Steps, p.Final)
		}
		got := scoring.Score(g, &p, files, model.ContextBench)
		a := scoring.Analyze(observedRun(c.final), g, files, model.ContextBench)
		if want := a.Lenses[model.LensObserved].Result; !reflect.DeepEqual(got, want) || got.Error != "" {
			t.Errorf("%s: scored %+v\nAnalyze's observed lens %+v", c.name, got, want)
		}
	}
	// A run without a timeline: its declared steps stand in, resolved.
	decl := &model.Run{Prediction: model.Prediction{InstanceID: "x", Steps: []model.Step{{Files: []string{"/testbed/pkg/mod.py"},
		Spans: []model.FileSpans{spans("/testbed/pkg/mod.py", iv(10, 40))}}}, Final: own}}
	p := observed.Prediction(decl, files)
	if want := []model.Step{{Files: []string{"pkg/mod.py"}, Spans: []model.FileSpans{spans("pkg/mod.py", iv(10, 13))}}}; !reflect.DeepEqual(p.Steps, want) {
		t.Errorf("unified record: steps %+v, want %+v", p.Steps, want)
	}
}

// TestBatchObservedLens: Batch under the observed lens gives Analyze's
// observed rows with or without the full analysis, and the default lens
// still gives Score's rows of the predictions as they are.
func TestBatchObservedLens(t *testing.T) {
	files := vectorRepo(t)
	g := loadGold(t, loadCases(t)[0].Gold)
	run := observedRun(model.Step{})
	pred := run.Prediction
	pred.Steps = []model.Step{{Files: []string{"pkg/util.py"}}}
	pred.Final = pred.Steps[0]
	run.Prediction = pred
	in := []scoring.Instance{{Pred: &pred, Gold: g, Run: run}}
	tree := scoring.OneTree{Tree: fsTree(t)}
	a := scoring.Analyze(observedRun(pred.Final), g, files, model.ContextBench)
	wantObs := a.Lenses[model.LensObserved].Result
	wantObs.Lens = model.LensObserved // the row says what it was scored under
	for _, analyze := range []bool{false, true} {
		res, _ := scoring.Batch{Checkouts: tree, Lens: model.LensObserved, Analyze: analyze}.Run(in)
		if !reflect.DeepEqual(res[0], wantObs) {
			t.Errorf("analyze=%v: observed row %+v, want %+v", analyze, res[0], wantObs)
		}
		res, _ = scoring.Batch{Checkouts: tree, Analyze: analyze}.Run(in)
		if want := scoring.Score(g, &pred, files, model.ContextBench); !reflect.DeepEqual(res[0], want) {
			t.Errorf("analyze=%v: default row %+v, want %+v", analyze, res[0], want)
		}
	}
	if wantObs.NumSteps != 4 {
		t.Errorf("observed steps = %d, want 4", wantObs.NumSteps)
	}
	// A run that declared no final: the union of its steps stands in, and
	// its row says so in both paths and in the JSON it writes.
	bare := observedRun(model.Step{})
	bp := bare.Prediction
	in = []scoring.Instance{{Pred: &bp, Gold: g, Run: bare}}
	for _, analyze := range []bool{false, true} {
		res, _ := scoring.Batch{Checkouts: tree, Lens: model.LensObserved, Analyze: analyze}.Run(in)
		if !res[0].FinalStandIn || res[0].Lens != model.LensObserved {
			t.Errorf("analyze=%v: stand-in row lens %v stand-in %v, want observed, true", analyze, res[0].Lens, res[0].FinalStandIn)
		}
		line := string(scoring.AppendResultJSON(nil, &res[0], model.ContextBench))
		if !strings.HasSuffix(line, `, "lens": "observed", "final_stand_in": true}`) {
			t.Errorf("analyze=%v: row ends %q", analyze, line[max(0, len(line)-60):])
		}
	}
	// The default lens's row is the evaluator's bytes: no lens key.
	res, _ := scoring.Batch{Checkouts: tree}.Run(in)
	if line := string(scoring.AppendResultJSON(nil, &res[0], model.ContextBench)); strings.Contains(line, `"lens"`) {
		t.Errorf("contextbench row names a lens: %s", line)
	}
}

// fsTree is the vector repository as a plain directory.
func fsTree(t *testing.T) model.Tree {
	t.Helper()
	tree, err := source.Open(filepath.Join(vectors, "repo"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
