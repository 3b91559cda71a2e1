package observed

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// Files is what reading reads against a repository needs: the repository
// file a path names ("" for none, as the evaluator resolves it) and a
// file's length in lines.
type Files interface {
	Resolve(path string) string
	LineCount(file string) int
}

// Reads is what each action displayed, read against files: per action, its
// files in first-seen order, each with the lines its reads gave (in order,
// not merged). With files, paths are repository files (a read of a path the
// repository lacks is dropped) and every view is lines clipped to the file.
// Without (files nil), paths are as the run gave them (NormPath), a view
// keeps only the lines it pins down itself (a range, a head count) and a
// view whose lines depend on the file's length names its file with none.
func Reads(actions []model.Action, files Files) [][]model.FileSpans {
	out := make([][]model.FileSpans, len(actions))
	for i := range actions {
		out[i] = shownBy(actions[i].Reads, files)
	}
	return out
}

// shownBy is what one action's reads displayed (Reads).
func shownBy(reads []model.ObservedRead, files Files) []model.FileSpans {
	var shown []model.FileSpans
	for _, r := range reads {
		file, span, ok := resolve(r, files)
		if file == "" {
			continue
		}
		k := slices.IndexFunc(shown, func(fs model.FileSpans) bool { return fs.File == file })
		if k < 0 {
			if !ok && files != nil {
				continue
			}
			k, shown = len(shown), append(shown, model.FileSpans{File: file})
		}
		if ok {
			shown[k].Spans = append(shown[k].Spans, span)
		}
	}
	return shown
}

// resolve is one read's file and lines; ok is false when it pins no lines.
func resolve(r model.ObservedRead, files Files) (file string, span model.Interval, ok bool) {
	if files == nil {
		file = NormPath(r.File)
		if rel, ok := underRoot(slashes(r.File)); ok {
			// A container's checkout (/repo/, /workspace/, /app/): the
			// repository's path, as the rebuilt tree names it.
			file = rel
		}
		switch r.Kind {
		case model.ReadRange:
			span = model.Interval{Start: r.Start, End: r.End}
		case model.ReadHead:
			span = model.Interval{Start: 1, End: r.End}
		default:
			return file, span, false
		}
		return file, span, span.Start >= 1 && span.End >= span.Start
	}
	if file = files.Resolve(r.File); file == "" {
		return "", span, false
	}
	span, ok = r.Resolve(files.LineCount(file))
	return file, span, ok
}

// NormPath turns a path as an agent wrote it into the form predictions
// carry: "/testbed/" and a leading "./" or "/" removed, as the upstream
// extractors do (mini-swe-agent, OpenHands). Everything else (a
// workspace or repository prefix) is left for the evaluator's suffix
// resolution, which drops paths outside the repository.
func NormPath(p string) string {
	p = strings.TrimSpace(p)
	p = strings.Trim(p, `"'`)
	p = strings.ReplaceAll(p, "\\", "/")
	if rest, ok := strings.CutPrefix(p, "/testbed/"); ok {
		p = rest
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return strings.TrimLeft(p, "/")
}

// Steps are the lens's steps: one per action that displayed something (a
// file, with or without lines), its files sorted and each file's lines
// merged. at[i] counts the steps once action i has run.
func Steps(reads [][]model.FileSpans) (steps []model.Step, at []int) {
	at = make([]int, len(reads))
	for i, shown := range reads {
		if len(shown) > 0 {
			steps = append(steps, stepOf(shown))
		}
		at[i] = len(steps)
	}
	return steps, at
}

func stepOf(shown []model.FileSpans) model.Step {
	shown = slices.Clone(shown)
	slices.SortStableFunc(shown, func(a, b model.FileSpans) int { return strings.Compare(a.File, b.File) })
	var st model.Step
	for _, fs := range shown {
		st.Files = append(st.Files, fs.File)
		if m := model.MergeIntervals(slices.Clone(fs.Spans)); len(m) > 0 {
			st.Spans = append(st.Spans, model.FileSpans{File: fs.File, Spans: m})
		}
	}
	return st
}

// Union is the union of steps: files sorted, each file's lines merged. It
// stands in for the final context of a run that declares none.
func Union(steps []model.Step) model.Step {
	spans := map[string][]model.Interval{}
	for _, st := range steps {
		for _, f := range st.Files {
			if _, ok := spans[f]; !ok {
				spans[f] = nil
			}
		}
		for _, fs := range st.Spans {
			spans[fs.File] = append(spans[fs.File], fs.Spans...)
		}
	}
	var u model.Step
	for f := range spans {
		u.Files = append(u.Files, f)
	}
	slices.Sort(u.Files)
	for _, f := range u.Files {
		if m := model.MergeIntervals(spans[f]); len(m) > 0 {
			u.Spans = append(u.Spans, model.FileSpans{File: f, Spans: m})
		}
	}
	return u
}

// Prediction is run's prediction seen through the observed lens: its steps
// are what the actions displayed (read against files, or the run alone when
// files is nil), its final context stays its own, or is the union of the
// steps when the run declares none. A run without a timeline (unified
// records) recorded nothing displayed: its declared steps stand in
// (DeclaredActions).
func Prediction(run *model.Run, files Files) model.Prediction {
	actions := run.Actions
	if len(actions) == 0 {
		actions = DeclaredActions(&run.Prediction)
	}
	p, _, _ := Lens(run, Reads(actions, files))
	return p
}

// Lens is the observed lens of a run whose actions displayed reads (as
// Reads gives them): its prediction, the number of its steps made by each
// action, and whether its final context is the union of the steps standing
// in for a final the run did not declare. scoring.Analyze and Prediction
// (convert) both read a run through it.
func Lens(run *model.Run, reads [][]model.FileSpans) (p model.Prediction, at []int, standIn bool) {
	steps, at := Steps(reads)
	return (*Memo)(nil).Lens(run, steps, at)
}

// Lens is Lens(run, reads) of the steps Reads gave of them (m.Reads), the
// union standing in for the final context going on from m's.
func (m *Memo) Lens(run *model.Run, steps []model.Step, at []int) (p model.Prediction, _ []int, standIn bool) {
	p = run.Prediction
	p.Steps = steps
	p.StepActions = nil
	if len(run.Actions) > 0 {
		// Step k is made by the action that brought the count to k+1.
		for i := range at {
			if i == 0 && at[0] > 0 || i > 0 && at[i] > at[i-1] {
				p.StepActions = append(p.StepActions, i+1)
			}
		}
	} else if run.Prediction.ValidStepActions() && len(p.Steps) == len(run.Prediction.Steps) {
		p.StepActions = run.Prediction.StepActions // each declared step's action
	}
	if standIn = p.Final.Empty(); standIn {
		p.Final = m.union(p.Steps)
	}
	return p, at, standIn
}

// DeclaredActions gives a prediction without a timeline one action per
// declared step, reading the step's line spans, so it can be stepped
// through and seen through the observed lens.
func DeclaredActions(p *model.Prediction) []model.Action {
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
	// Each step at the action that made it, when the record says which
	// (convert writes it): the actions keep the run's numbers, and those
	// the record does not hold stand empty between them.
	at := func(k int) int { return k }
	n := len(p.Steps)
	if p.ValidStepActions() {
		at = func(k int) int { return p.StepActions[k] - 1 }
		n = p.StepActions[len(p.StepActions)-1]
	}
	acts := make([]model.Action, n)
	for i := range acts {
		acts[i] = model.Action{Index: int32(i), Category: model.CategoryOther,
			Command: fmt.Sprintf("action %d (the record keeps the actions that made its steps)", i+1)}
	}
	for k, st := range p.Steps {
		act := &acts[at(k)]
		if len(act.Steps) == 0 {
			act.Tool, act.Category = "step", model.CategoryRead
			act.Command = fmt.Sprintf("ContextBench step %d", k+1)
		} else {
			act.Command += fmt.Sprintf(", %d", k+1)
		}
		act.Steps = append(act.Steps, k)
		for _, fs := range st.Spans {
			for _, sp := range fs.Spans {
				act.Reads = append(act.Reads, model.ObservedRead{File: fs.File, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
			}
		}
	}
	return acts
}

// Declare is the ContextBench lens of a format the reference evaluator has
// no extractor for (Claude Code, Harbor ATIF, mini-swe-agent v2 under fixed
// semantics): the observed lens read without the repository, its steps
// linked from the actions that made them (Action.Steps), and their union as
// the final context, as upstream's OpenHands rule makes it. Whole-file,
// tail and to-the-end views name their file without lines: only the
// repository knows its length (upstream treats `cat f` the same way).
func Declare(actions []model.Action) (steps []model.Step, final model.Step) {
	return (*Memo)(nil).Declare(actions)
}

// Declare is Declare(actions), from what m kept of the last reading's (a
// memo of reads against the run alone: NewMemo(nil)).
func (m *Memo) Declare(actions []model.Action) (steps []model.Step, final model.Step) {
	if m != nil && m.files != nil {
		m = nil // read against a repository: not what Declare reads
	}
	_, steps, at := m.Reads(actions, nil)
	prev := 0
	for i := range actions {
		actions[i].Steps = nil
		if at[i] > prev {
			actions[i].Steps = m.declared(i, prev)
		}
		prev = at[i]
	}
	return steps, m.union(steps)
}
