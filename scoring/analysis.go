package scoring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/internal/same"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

// ActionView is what one action displayed, whatever the lens.
type ActionView struct {
	// Reads are the lines the action displayed, resolved to repository
	// files, grouped by file in first-seen order, as its reads gave them
	// (not merged).
	Reads []model.FileSpans
}

// LensAction is one action under one lens: the lines it put in view and the
// counters the timeline, the metrics bar and the summary show, computed once
// here so that no two of them can disagree. A long run has one per action
// and lens, so what can be read from the lines is not stored.
type LensAction struct {
	// Lines are the lines the action put in view under the lens, per
	// repository file in first-seen order, clipped to the file and merged.
	// Observed lens: the lines it displayed. ContextBench lens: the lines of
	// the steps it produced (a step belongs to the first action that lists
	// it).
	Lines []model.FileSpans
	// NewGold counts gold lines (GoldShown) put in view for the first time;
	// Reread counts the lines put in view that had been before.
	NewGold, Reread int32
	// CumRead and CumReread are the redundancy counter up to this action.
	CumRead, CumReread int
}

// ReadLines counts the lines the action put in view.
func (v *LensAction) ReadLines() int {
	n := 0
	for _, fl := range v.Lines {
		n += model.TotalLength(fl.Spans)
	}
	return n
}

// PureReread reports whether the action put in view only lines already seen.
func (v *LensAction) PureReread() bool {
	n := v.ReadLines()
	return n > 0 && int(v.Reread) == n
}

// LensData is one lens's scoring of the run and its per-action view.
type LensData struct {
	Result model.Result
	// StepsDone[i] is how many of the lens's steps had happened once action
	// i ran; Result.Trajectory.Steps[StepsDone[i]-1] is the coverage then.
	StepsDone []int
	// NumSteps is the number of steps the lens's prediction holds: the
	// steps the run declared, or those its actions displayed, whether or
	// not the evaluator scored them (the row's num_steps counts a final
	// context without steps as one). Every surface shows this count and
	// convert writes as many; StepsDone never exceeds it but for a record
	// scored on its final context alone (DoneAt clamps it).
	NumSteps int
	// Actions[i] is action i under the lens.
	Actions []LensAction
	// Reads counts the actions that put lines in view, and GoldReads those
	// of them that put gold lines in view.
	Reads, GoldReads int
	// Final is the final context the lens scored; FinalStandIn says it is
	// the union of the lens's steps, standing in for a final context the
	// run did not declare (the observed lens only). Figures and diagnosis
	// both read it.
	Final        model.Step
	FinalStandIn bool
	// FinalContext is Final as the metrics count it (StepContext): the one
	// "in the final context" the diagnosis, the explorer's gutter and the
	// exports read.
	FinalContext StepContext
}

// DoneAt is how many of the lens's steps had happened once action i ran,
// at most NumSteps.
func (ld *LensData) DoneAt(i int) int { return min(ld.StepsDone[i], ld.NumSteps) }

// CurveAt is the cumulative coverage at granularity g after action i. It is
// read from the scored steps, not stored: a long run's curves would cost 32
// bytes an action per lens.
func (ld *LensData) CurveAt(g model.Granularity, i int) float64 {
	c := ld.coverage(i)
	return *c.At(g)
}

// Curve is CurveAt for every action, in a new slice.
func (ld *LensData) Curve(g model.Granularity) []float64 {
	out := make([]float64, len(ld.Actions))
	for i := range out {
		out[i] = ld.CurveAt(g, i)
	}
	return out
}

// Analysis is a run scored under both lenses plus per-action views, so the
// explorer can step in O(1).
type Analysis struct {
	Run     *model.Run
	Gold    *Gold
	Files   *FileCache
	Sem     model.Semantics
	Actions []ActionView
	Lenses  [2]LensData
	// Partial is the tree rebuilt from what the run displayed when the
	// repository is missing, nil when Files reads the repository. Every
	// screen that shows the analysis says so when it is set.
	Partial PartialTree
	// EditLocFromGold: the run has no patch and, as upstream does, EditLoc
	// scored the gold patch instead (ContextBench semantics only).
	EditLocFromGold bool
	// stepContexts are the contexts the ContextBench lens's steps came to
	// as it scored them (ContextBenchStep): none when it was not scored, a
	// followed run's new steps' when it went on from the steps before.
	stepContexts StepContexts
	// shown caches GoldShown per file.
	shown map[string][]model.Interval
	// show says how the surfaces name and show files (ShowAs).
	show *shownFiles
	// firsts are the lenses' FirstReads, made at once when the cache keeps
	// no index of them.
	firsts [2]firstReadTables
}

// Analyze scores a run under both lenses. A run without a timeline (unified
// predictions) gets one synthetic action per ContextBench step.
func Analyze(run *model.Run, g *model.Gold, files *FileCache, sem model.Semantics) *Analysis {
	sc := scorer{files, sem}
	if len(run.Actions) == 0 {
		run.Actions = observed.DeclaredActions(&run.Prediction)
	}
	a := &Analysis{Run: run, Gold: sc.preparedGold(g), Files: files, Sem: sem, Partial: partial(files.Tree())}
	a.EditLocFromGold = run.Prediction.ModelPatch == "" && sem == model.ContextBench && g.Patch != ""
	a.shown = map[string][]model.Interval{}
	// NewGold counts against the gold lines the files have: every interval
	// is then well formed, so each action costs a binary search per
	// interval.
	goldShown := FileIntervals{}
	for f, ivs := range a.Gold.Lines.All() {
		// A file without gold lines it has (missing, or shown none of
		// without the repository) gets no entry: a large gold of absent
		// files then costs nothing here.
		if shown := clipLines(ivs, files.LineCount(f), false); len(shown) > 0 {
			a.shown[f] = shown
			for _, iv := range model.MergeIntervals(append([]model.Interval(nil), shown...)) {
				goldShown.add(f, iv)
			}
		}
	}
	n := len(run.Actions)
	memo, done := files.lensMemo()
	defer done()
	reads, obsSteps, stepsAt := memo.Reads(run.Actions, files)
	linkSteps(run, reads, files.Resolve)
	a.Actions = make([]ActionView, n)
	for i := range reads {
		a.Actions[i].Reads = reads[i]
	}
	lm := files.linesMemo()
	if lm != nil {
		defer lm.mu.Unlock()
	}
	observedLines := a.observedLines(reads, lm)
	obsPred, stepsAt, standIn := memo.Lens(run, obsSteps, stepsAt)

	var finals [2]StepContext
	var made [2]bool
	var cbContexts StepContexts
	var cb, obs model.Result
	cb, cbContexts, finals[model.LensContextBench], made[model.LensContextBench] = sc.score(g, &run.Prediction, a.Gold, model.LensContextBench, true)
	if cb.Error == ErrNoContext && run.Prediction.Final.Empty() && run.ExitStatus != "" && !model.Submitted(run.ExitStatus) {
		cb.Reason = fmt.Sprintf("the run never submitted (it ended with %q), so it declared no final context", run.ExitStatus)
	}
	a.Lenses[model.LensContextBench] = lensData(cb, len(run.Prediction.Steps), contextBenchStepsDone(run), a.contextBenchLines(observedLines, lm), goldShown, lm.count(model.LensContextBench, a))
	a.Lenses[model.LensContextBench].Final = run.Prediction.Final
	// The observed lens scores what the actions displayed (observed.Lens,
	// as convert writes it); a run that declares no final context is
	// scored on the union of what it saw rather than rejected.
	a.stepContexts = cbContexts
	obs, _, finals[model.LensObserved], made[model.LensObserved] = sc.score(g, &obsPred, a.Gold, model.LensObserved, false)
	a.Lenses[model.LensObserved] = lensData(obs, len(obsPred.Steps), stepsAt, observedLines, goldShown, lm.count(model.LensObserved, a))
	a.Lenses[model.LensObserved].Final, a.Lenses[model.LensObserved].FinalStandIn = obsPred.Final, standIn
	for l := range a.Lenses {
		// As scored; StepContext makes the same of a final that names no
		// file of the repository (an error row).
		a.Lenses[l].FinalContext = finals[l]
		if !made[l] {
			a.Lenses[l].FinalContext = a.StepContext(a.Lenses[l].Final)
		}
	}
	return a
}

// lensData counts, action by action, what each action put in view under a
// lens (lines) against the merged gold, and reads the lens's cumulative
// coverage after every action.
//
// k, when not nil, is what a cache that keeps steps kept of the last
// reading's counting under this lens: its actions' counters are taken for
// the actions whose lines are those of the last reading (by identity),
// against the same gold (prepared once: the same pointer), when nothing
// after them put lines in view; the counting goes on from there.
func lensData(res model.Result, numSteps int, stepsDone []int, lines [][]model.FileSpans, gold FileIntervals, k *keptCount) LensData {
	n := len(lines)
	ld := LensData{Result: res, StepsDone: stepsDone, Actions: make([]LensAction, n), NumSteps: numSteps}
	seen := newCumulative(gold)
	cumRead, cumReread := 0, 0
	from := 0
	if k != nil {
		kept := 0 // the first actions whose lines are the last reading's
		for kept < n && kept < len(k.actions) && same.Of(lines[kept]) == same.Of(k.actions[kept].Lines) {
			kept++
		}
		if k.seen != nil && k.of == k.want && (res.Error == "") == k.scored && k.lastLines < kept {
			// Nothing the last reading counted after its first same
			// actions put lines in view: its end state is theirs.
			from = kept
			copy(ld.Actions, k.actions[:kept])
			seen, cumRead, cumReread = k.seen, k.cumRead, k.cumReread
			ld.Reads, ld.GoldReads = k.reads, k.goldReads
		}
		defer func() {
			// The analysis's own: nothing changes them after (Refuse
			// copies them first).
			k.of, k.scored, k.seen, k.actions = k.want, res.Error == "", seen, ld.Actions
			k.reads, k.goldReads = ld.Reads, ld.GoldReads
			k.lastLines = -1
			for i, fls := range lines {
				if len(fls) > 0 {
					k.lastLines = i
				}
			}
			k.cumRead, k.cumReread = cumRead, cumReread
		}()
	}
	for i := from; i < n; i++ {
		fls := lines[i]
		v := &ld.Actions[i]
		v.Lines = fls
		reread, newGold := 0, 0
		gold := false
		for _, fl := range fls {
			again, n := seen.add(fl.File, fl.Spans)
			cumRead += model.TotalLength(fl.Spans)
			reread += again
			newGold += n
			gold = gold || n > 0 || model.IntersectLength(seen.file(fl.File).gold, fl.Spans) > 0
		}
		if len(fls) > 0 {
			ld.Reads++
			if gold {
				ld.GoldReads++
			}
		}
		// An action shows at most every line of the files it names: more
		// than 2^31 would be a file of gigabytes of empty lines.
		v.Reread, v.NewGold = model.Clamp32(reread), model.Clamp32(newGold)
		if res.Error != "" {
			v.NewGold = 0 // no gold is "new" where the evaluator scored nothing
		}
		cumReread += reread
		v.CumRead, v.CumReread = cumRead, cumReread
	}
	return ld
}

// linkSteps ties a prediction's steps to the actions that made them when
// the run records none (an AgentStackBench page's predTrajectory beside
// its trace, a record paired with a run it was not extracted from), so the
// contextbench curve rises where the steps were taken, not at no action:
// step k goes to the first action after step k-1's that displayed lines
// the step names, else to the first such action anywhere, else to the
// first after step k-1's that displayed a file it names, else to the last
// action.
func linkSteps(run *model.Run, reads [][]model.FileSpans, resolve func(string) string) {
	if len(run.Prediction.Steps) == 0 || len(run.Actions) == 0 {
		return
	}
	for i := range run.Actions {
		if len(run.Actions[i].Steps) > 0 {
			return
		}
	}
	shown := make([][]model.FileSpans, len(reads))
	for i, fls := range reads {
		for _, fl := range fls {
			shown[i] = append(shown[i], model.FileSpans{File: fl.File, Spans: model.MergeIntervals(slices.Clone(fl.Spans))})
		}
	}
	// find is the first action in [from, to) that displayed lines of the
	// step (lines) or, with lines false, any of its files.
	find := func(names map[string][]model.Interval, from, to int, lines bool) int {
		for i := from; i < to; i++ {
			for _, fl := range shown[i] {
				if ivs, ok := names[fl.File]; ok && (!lines || model.IntersectLength(ivs, fl.Spans) > 0) {
					return i
				}
			}
		}
		return -1
	}
	prev := -1
	for k, st := range run.Prediction.Steps {
		names := map[string][]model.Interval{}
		for _, f := range st.Files {
			names[resolve(f)] = nil
		}
		for _, fs := range st.Spans {
			f := resolve(fs.File)
			names[f] = append(names[f], fs.Spans...)
		}
		delete(names, "")
		for f, ivs := range names {
			names[f] = model.MergeIntervals(ivs)
		}
		n := len(shown)
		at := find(names, prev+1, n, true)
		if at < 0 {
			at = find(names, 0, n, true)
		}
		if at < 0 {
			at = find(names, prev+1, n, false)
		}
		if at < 0 {
			at = n - 1
		}
		prev = max(prev, at)
		run.Actions[at].Steps = append(run.Actions[at].Steps, k)
	}
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

// Coverage returns the lens's cumulative coverage after action i (zero
// before its first step).
func (a *Analysis) Coverage(l model.Lens, i int) model.ByGranularity[float64] {
	return a.Lenses[l].coverage(i)
}

func (ld *LensData) coverage(i int) model.ByGranularity[float64] {
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
				ivs = append(ivs, fl.Spans...)
			}
		}
	}
	return model.MergeIntervals(ivs)
}

// GoldLines returns the gold line intervals of a file.
func (a *Analysis) GoldLines(file string) []model.Interval {
	ivs, _ := a.Gold.Lines.Get(file)
	return ivs
}

// GoldShown returns the gold lines of a file that the file has, in gold
// order: reversed spans (which hold no lines) dropped, the rest clipped to
// the file's lines. They are what NewGold counts and what the explorer marks
// gold; nil for a file that is not in the tree.
func (a *Analysis) GoldShown(file string) []model.Interval { return a.shown[a.original(file)] }

// Task is the task statement to show: the run's own, else the one its gold
// file carries; from says which ("run", "gold", "" for none).
func (a *Analysis) Task() (text, from string) {
	switch {
	case a.Run.Task != "":
		text, from = a.Run.Task, "run"
	case a.Gold != nil && a.Gold.Task != "":
		text, from = a.Gold.Task, "gold"
	}
	// Issues are often written with CRLF line ends: lines, not escapes.
	return strings.ReplaceAll(text, "\r\n", "\n"), from
}

// StepActions is, for each step of run's prediction, the number (1-based)
// of the action that made it, as Analyze links them: the actions' own
// links, else linked by what each action displayed (read against files).
// nil for a run without steps or actions.
func StepActions(run *model.Run, files *FileCache) []int {
	if len(run.Prediction.Steps) == 0 || len(run.Actions) == 0 {
		return nil
	}
	r := *run
	r.Actions = slices.Clone(run.Actions)
	linkSteps(&r, observed.Reads(r.Actions, files), files.Resolve)
	out := make([]int, len(r.Prediction.Steps))
	for i := len(r.Actions) - 1; i >= 0; i-- {
		for _, k := range r.Actions[i].Steps {
			if k >= 0 && k < len(out) {
				out[k] = i + 1 // the first action that lists it
			}
		}
	}
	for k := range out {
		if out[k] == 0 || k > 0 && out[k] < out[k-1] {
			return nil // a step no action made, or made before the one before it
		}
	}
	return out
}
