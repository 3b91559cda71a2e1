package scoring

import (
	"fmt"

	"github.com/trajscope/trajscope/model"
)

// FileLines is a set of line intervals in one repository file.
type FileLines struct {
	File  string
	Lines []model.Interval
}

// ActionView is what the explorer shows about one action, computed once.
type ActionView struct {
	// Reads are the lines the action displayed, resolved to repository files.
	Reads []FileLines
	// NewGold counts gold lines first displayed by this action.
	NewGold int
	// ReadLines counts lines displayed; Reread of them had been displayed before.
	ReadLines, Reread int
	// PureReread: the action displayed only lines already seen.
	PureReread bool
	// CumRead and CumReread are the redundancy counter up to this action.
	CumRead, CumReread int
}

// LensData is one lens's scoring of the run.
type LensData struct {
	Result model.Result
	// StepsDone[i] is how many of the lens's steps had happened once action
	// i ran; Result.Trajectory.Steps[StepsDone[i]-1] is the coverage then.
	StepsDone []int
}

// Analysis is a run scored under both lenses plus per-action views, so the
// explorer can step in O(1).
type Analysis struct {
	Run     *model.Run
	Gold    *Gold
	Files   *Files
	Sem     model.Semantics
	Actions []ActionView
	Lenses  [2]LensData
}

// Analyze scores a run under both lenses. A run without a timeline (unified
// predictions) gets one synthetic action per ContextBench step.
func Analyze(run *model.Run, g *model.Gold, files *Files, sem model.Semantics) *Analysis {
	sc := scorer{files, sem}
	if len(run.Actions) == 0 {
		run.Actions = syntheticActions(&run.Prediction)
	}
	a := &Analysis{Run: run, Gold: sc.prepareGold(g), Files: files, Sem: sem}
	a.Actions = make([]ActionView, len(run.Actions))

	seen := newCumulative(a.Gold.Lines)
	cumRead, cumReread := 0, 0
	var observed []model.Step
	observedAt := make([]int, len(run.Actions))
	for i := range run.Actions {
		act := &run.Actions[i]
		view := &a.Actions[i]
		view.Reads = sc.resolveReads(act.Reads)
		step := model.Step{}
		for _, fl := range view.Reads {
			merged := model.MergeIntervals(append([]model.Interval(nil), fl.Lines...))
			n := model.TotalLength(merged)
			again, newGold := seen.add(fl.File, merged)
			view.ReadLines += n
			view.Reread += again
			view.NewGold += newGold
			step.Files = append(step.Files, fl.File)
			spans := make([]model.Interval, len(merged))
			for k, iv := range merged {
				spans[k] = model.Interval{Start: iv.Start, End: iv.End}
			}
			step.Spans = append(step.Spans, model.FileSpans{File: fl.File, Spans: spans})
		}
		view.PureReread = view.ReadLines > 0 && view.Reread == view.ReadLines
		cumRead += view.ReadLines
		cumReread += view.Reread
		view.CumRead, view.CumReread = cumRead, cumReread
		if len(step.Files) > 0 {
			observed = append(observed, step)
		}
		observedAt[i] = len(observed)
	}

	cb := Score(g, &run.Prediction, files, sem)
	a.Lenses[model.LensContextBench] = LensData{Result: cb, StepsDone: contextBenchStepsDone(run)}
	obsPred := run.Prediction
	obsPred.Steps = observed
	if len(observed) == 0 {
		// No action displayed anything: score the final context alone, as
		// upstream does for a run without steps.
		obsPred.Steps = nil
	}
	a.Lenses[model.LensObserved] = LensData{Result: Score(g, &obsPred, files, sem), StepsDone: observedAt}
	return a
}

// contextBenchStepsDone maps actions to the number of ContextBench steps
// produced so far, from Action.Steps.
func contextBenchStepsDone(run *model.Run) []int {
	out := make([]int, len(run.Actions))
	done := 0
	for i, act := range run.Actions {
		for _, s := range act.Steps {
			done = max(done, s+1)
		}
		out[i] = done
	}
	return out
}

// syntheticActions gives a unified prediction (no timeline) one read action
// per ContextBench step, so it can still be stepped through.
func syntheticActions(p *model.Prediction) []model.Action {
	if len(p.Steps) == 0 {
		if p.Final.Empty() {
			return nil
		}
		// Upstream scores a prediction without steps on its final context
		// as the one step. It is declared, not displayed, so it has no
		// observed reads.
		return []model.Action{{Tool: "step", Category: model.CategoryOther, Steps: []int{0},
			Command: "final context as step 1 (the record has no steps)"}}
	}
	var acts []model.Action
	for i, st := range p.Steps {
		act := model.Action{Index: i, Tool: "step", Category: model.CategoryRead, Steps: []int{i}}
		for _, fs := range st.Spans {
			for _, sp := range fs.Spans {
				act.Reads = append(act.Reads, model.ObservedRead{File: fs.File, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
			}
		}
		act.Command = fmt.Sprintf("ContextBench step %d", i+1)
		acts = append(acts, act)
	}
	return acts
}

// resolveReads turns observed reads into concrete line ranges of repository
// files, grouped by file in first-seen order.
func (sc scorer) resolveReads(reads []model.ObservedRead) []FileLines {
	var out []FileLines
	index := map[string]int{}
	for _, r := range reads {
		file := sc.files.Resolve(r.File)
		if file == "" {
			continue
		}
		span, ok := r.Resolve(sc.files.LineCount(file))
		if !ok {
			continue
		}
		i, seen := index[file]
		if !seen {
			i = len(out)
			index[file] = i
			out = append(out, FileLines{File: file})
		}
		out[i].Lines = append(out[i].Lines, model.Interval{Start: span.Start, End: span.End})
	}
	return out
}

// Coverage returns the lens's cumulative coverage after action i (zero
// before its first step).
func (a *Analysis) Coverage(l model.Lens, i int) model.ByGranularity[float64] {
	ld := &a.Lenses[l]
	if i < 0 || i >= len(ld.StepsDone) || ld.StepsDone[i] == 0 || len(ld.Result.Trajectory.Steps) == 0 {
		return model.ByGranularity[float64]{}
	}
	k := min(ld.StepsDone[i], len(ld.Result.Trajectory.Steps))
	return ld.Result.Trajectory.Steps[k-1].Coverage
}

// ReadSoFar returns the merged lines of file displayed by actions 0..i. It
// rescans those actions, so it is for one-off queries; stepping must not call
// it per step (the explorer keeps per-line first-read tables instead).
func (a *Analysis) ReadSoFar(file string, i int) []model.Interval {
	var ivs []model.Interval
	for k := 0; k <= i && k < len(a.Actions); k++ {
		for _, fl := range a.Actions[k].Reads {
			if fl.File == file {
				ivs = append(ivs, fl.Lines...)
			}
		}
	}
	return model.MergeIntervals(ivs)
}

// GoldLines returns the gold line intervals of a file.
func (a *Analysis) GoldLines(file string) []model.Interval { return a.Gold.Lines[file] }
