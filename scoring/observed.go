package scoring

import (
	"slices"
	"sort"

	"github.com/trajscope/trajscope/model"
)

// observedSteps resolves every action's reads against the repository and
// gives the observed lens's steps from them: one step per action that
// displayed lines of a repository file, naming its files in first-seen
// order with each file's lines clipped to the file and merged. views[i].Reads
// are action i's resolved reads; at[i] counts the steps once action i has
// run. The steps are made when read (see stepList), each from its action's
// reads.
func (sc scorer) observedSteps(actions []model.Action) (views []ActionView, steps stepList, at []int) {
	views = sc.resolveAll(actions)
	at = make([]int, len(actions))
	n := 0
	for i := range views {
		if len(views[i].Reads) > 0 {
			n++
		}
		at[i] = n
	}
	// from[k] is the action of step k.
	from := make([]int32, 0, n)
	for i := range views {
		if len(views[i].Reads) > 0 {
			from = append(from, int32(i))
		}
	}
	return views, stepList{n, func(k int) model.Step { return stepOf(views[from[k]].Reads) }}, at
}

// resolveAll is resolveReads for every action, its lists cut from two
// blocks (a long run has a read or more per action: small lists each of
// their own would be millions of objects).
func (sc scorer) resolveAll(actions []model.Action) []ActionView {
	total := 0
	for i := range actions {
		total += len(actions[i].Reads)
	}
	views := make([]ActionView, len(actions))
	// A read resolves to at most one interval of one file.
	lines := make([]FileLines, 0, total)
	ivs := make([]model.Interval, 0, total)
	// One action's resolved reads, the file of each as an index into
	// files (first-seen order): reused from action to action.
	var spans []model.Interval
	var group []int
	var files []string
	for i := range actions {
		spans, group, files = spans[:0], group[:0], files[:0]
		for _, r := range actions[i].Reads {
			file := sc.files.Resolve(r.File)
			if file == "" {
				continue
			}
			if span, ok := r.Resolve(sc.files.LineCount(file)); ok {
				// An action names few files: a scan finds them faster
				// than a map.
				g := slices.Index(files, file)
				if g < 0 {
					g, files = len(files), append(files, file)
				}
				spans, group = append(spans, span), append(group, g)
			}
		}
		first := len(lines)
		for g, file := range files {
			start := len(ivs)
			for k, sp := range spans {
				if group[k] == g {
					ivs = append(ivs, sp)
				}
			}
			lines = append(lines, FileLines{File: file, Lines: ivs[start:len(ivs):len(ivs)]})
		}
		if len(lines) > first {
			views[i].Reads = lines[first:len(lines):len(lines)]
		}
	}
	return views
}

// stepOf is the observed step of an action's resolved reads. Lines already
// merged (one range, as most reads are) are shared rather than copied.
func stepOf(reads []FileLines) model.Step {
	step := model.Step{Files: make([]string, len(reads)), Spans: make([]model.FileSpans, len(reads))}
	for k, fl := range reads {
		merged := fl.Lines
		if !model.Merged(merged) {
			merged = model.MergeIntervals(append([]model.Interval(nil), fl.Lines...))
		}
		step.Files[k] = fl.File
		step.Spans[k] = model.FileSpans{File: fl.File, Spans: merged}
	}
	return step
}

// withObserved is p scored through the observed lens: its steps are the
// observed ones, and its final context stays its own. A prediction whose
// final context names no file (a format the reference evaluator reads
// nothing from, such as a mini-swe-agent v2 run) gets the union of the
// observed steps instead, so a run that displayed files is scored on them
// rather than rejected as having no context.
// The steps themselves are left to the caller (out.Steps is nil): scoring
// reads them through steps; nothing displayed (no steps) scores the final
// context alone, as upstream does.
func withObserved(p *model.Prediction, steps stepList) model.Prediction {
	out := *p
	out.Steps = nil
	if out.Final.Empty() {
		out.Final = unionOf(steps)
	}
	return out
}

// unionOf is the union of steps: files sorted, each file's spans merged.
func unionOf(steps stepList) model.Step {
	spans := map[string][]model.Interval{}
	for _, st := range steps.all() {
		for _, f := range st.Files {
			if _, ok := spans[f]; !ok {
				spans[f] = nil
			}
		}
		for _, fs := range st.Spans {
			ivs := append(spans[fs.File], fs.Spans...)
			if len(ivs) >= 64 && len(ivs) == cap(ivs) {
				// Merge before the list grows again: a long run re-reads
				// the same lines, so the union stays small while the
				// spans it is made of do not.
				ivs = model.MergeIntervals(ivs)
			}
			spans[fs.File] = ivs
		}
	}
	var u model.Step
	for f := range spans {
		u.Files = append(u.Files, f)
	}
	sort.Strings(u.Files)
	for _, f := range u.Files {
		if m := model.MergeIntervals(spans[f]); len(m) > 0 {
			u.Spans = append(u.Spans, model.FileSpans{File: f, Spans: m})
		}
	}
	return u
}

// ObservedPrediction is run's prediction with the steps of the observed
// lens: what each action displayed, read against the repository files holds
// (paths resolved to repository files, whole-file, head, tail and
// to-the-end views resolved to the file's lines, ranges clipped to the
// file). It is the prediction Analyze scores for the observed lens, so
// scoring it gives that lens's result. A run without a timeline (unified
// records) displayed nothing anyone saw: its declared steps stand in, as
// Analyze's synthetic actions do.
func ObservedPrediction(run *model.Run, files *Files) model.Prediction {
	actions := run.Actions
	if len(actions) == 0 {
		actions = syntheticActions(&run.Prediction)
	}
	_, steps, _ := scorer{files: files}.observedSteps(actions)
	p := withObserved(&run.Prediction, steps)
	if steps.n > 0 {
		p.Steps = steps.collect()
	}
	return p
}

// Observer builds the observed predictions of runs one after another, each
// read against its repository at its commit (for conversion). The checkout
// of one run stays open while the runs after it share it, as the runs of one
// repository and commit usually follow one another.
type Observer struct {
	Checkouts Checkouts
	// Cache, when set, keeps file facts across processes.
	Cache model.FactStore
	// Gold, when set, gives the gold of an instance, whose repository and
	// commit stand in for those the run does not record; nil: none.
	Gold func(instanceID string) *model.Gold

	key   string
	held  bool
	files *Files
}

// Prediction is ObservedPrediction for run, against its checkout; the
// error says why the checkout could not be named or opened.
func (o *Observer) Prediction(run *model.Run) (model.Prediction, error) {
	p := &run.Prediction
	var goldURL, goldCommit string
	if o.Gold != nil {
		if g := o.Gold(p.InstanceID); g != nil {
			goldURL, goldCommit = g.RepoURL, g.Commit
		}
	}
	key, err := o.Checkouts.Key(p.RepoURL, goldURL, p.Commit, goldCommit, p.InstanceID)
	if err != nil {
		return model.Prediction{}, err
	}
	if o.held && key == o.key && o.files != nil {
		// Key announced one more use; this one, of the open checkout.
		o.Checkouts.Release(key)
		return ObservedPrediction(run, o.files), nil
	}
	// The new key is announced before the old one is released, so a
	// repository both share stays open between them.
	o.Close()
	o.key, o.held = key, true
	tree, err := o.Checkouts.Open(key)
	if err != nil {
		return model.Prediction{}, err
	}
	o.files = NewCachedFiles(tree, o.Cache)
	return ObservedPrediction(run, o.files), nil
}

// Close releases the open checkout, keeping what its files learnt.
func (o *Observer) Close() {
	if !o.held {
		return
	}
	if o.files != nil {
		o.files.Flush()
	}
	o.Checkouts.Release(o.key)
	o.held, o.files = false, nil
}
