package observed

import (
	"slices"

	"github.com/trajscope/trajscope/internal/same"
	"github.com/trajscope/trajscope/model"
)

// Memo keeps what Reads, Steps and Union made of a followed run at its
// last reading, so the next reading, which holds the same actions and a
// few more, costs what its new actions show. What one action showed
// depends on its reads and the files alone, so it is kept by action and
// checked against the action's list of reads by identity (a followed
// reader's actions are not changed after it gives them: it makes new
// ones); the union of the steps is kept for the steps it was
// made of, and goes on when they begin the next reading's steps. A memo
// reads against the files it was made for; a nil Memo keeps nothing.
type Memo struct {
	files Files
	acts  []memoAction
	kept  memoUnion
	given []model.Step // the steps Reads gave last (only appended to after)
}

// memoAction is what one action showed: its reads (the list as given,
// compared by identity: a followed reader's actions keep their reads'
// list while they are unchanged, and make a new one where a reading
// changes them), what they showed (Reads) and the step that made (stepOf;
// none when nothing).
type memoAction struct {
	in    same.List[model.ObservedRead]
	shown []model.FileSpans
	step  model.Step
	// declared is the action's Steps as Declare gave them, when one.
	declared []int
}

// declared is []int{k}, action i's one step as Declare gives it; a memo's
// is the list it gave last while the step is the same.
func (m *Memo) declared(i, k int) []int {
	if m == nil {
		return []int{k}
	}
	ma := &m.acts[i]
	if len(ma.declared) != 1 || ma.declared[0] != k {
		ma.declared = []int{k}
	}
	return ma.declared
}

// memoUnion is the union of steps, per file its merged lines (nil for a
// file named without lines). The steps are the memo's own (Reads made
// them, and nothing changes them), so they are kept as they are.
type memoUnion struct {
	steps []model.Step
	spans map[string][]model.Interval
}

// NewMemo is an empty memo of reads against files (nil: the run alone,
// as Declare reads it).
func NewMemo(files Files) *Memo { return &Memo{files: files} }

// Reads is Reads(actions, files) of the memo's files, and Steps of it; a
// nil memo reads against files.
func (m *Memo) Reads(actions []model.Action, files Files) (reads [][]model.FileSpans, steps []model.Step, at []int) {
	if m == nil {
		reads = Reads(actions, files)
		steps, at = Steps(reads)
		return reads, steps, at
	}
	files = m.files
	reads, at = make([][]model.FileSpans, len(actions)), make([]int, len(actions))
	// An entry never made is that of an action without reads: it showed
	// nothing.
	kept := min(len(m.acts), len(actions))
	m.acts = slices.Grow(m.acts[:kept], len(actions)-kept)[:len(actions)]
	// The steps given last, while these begin as they did (by identity):
	// the new ones are appended after them, past what was given.
	given, k := m.given, 0
	for i := range actions {
		ma := &m.acts[i]
		if in := actions[i].Reads; ma.in != same.Of(in) {
			ma.in, ma.shown, ma.step = same.Of(in), shownBy(in, files), model.Step{}
			if len(ma.shown) > 0 {
				ma.step = stepOf(ma.shown)
			}
		}
		reads[i] = ma.shown
		if len(ma.shown) > 0 {
			if given != nil && k < len(given) && given[k].Identical(ma.step) {
				k++
			} else {
				if given != nil {
					steps = given[:k]
					if k < len(given) {
						steps = append(make([]model.Step, 0, len(actions)), given[:k]...)
					}
					given = nil
				}
				steps = append(steps, ma.step)
			}
		}
		at[i] = len(steps)
		if given != nil {
			at[i] = k
		}
	}
	if given != nil {
		steps = given[:k]
		if k < len(given) {
			steps = slices.Clone(steps) // fewer: the next are appended to a list of their own
		}
	}
	m.given = steps
	if len(steps) == 0 {
		return reads, nil, at // as Steps gives none
	}
	return reads, steps[:len(steps):len(steps)], at // appended to by the memo alone
}

// union is Union(steps) of steps the memo made (Reads), going on from the
// union kept when its steps begin these.
func (m *Memo) union(steps []model.Step) model.Step {
	if m == nil {
		return Union(steps)
	}
	u := &m.kept
	if u.spans == nil || len(u.steps) > len(steps) || !slices.EqualFunc(u.steps, steps[:len(u.steps)], model.Step.SameLines) {
		u.steps, u.spans = nil, map[string][]model.Interval{}
	}
	for _, st := range steps[len(u.steps):] {
		for _, fs := range st.Spans {
			if !model.Merged(fs.Spans) {
				// Not as the lens makes steps: merged whole, nothing kept
				// (only well-formed lines merge a step at a time as all
				// at once).
				m.kept = memoUnion{}
				return Union(steps)
			}
		}
		for _, f := range st.Files {
			if _, ok := u.spans[f]; !ok {
				u.spans[f] = nil
			}
		}
		for _, fs := range st.Spans {
			u.spans[fs.File] = model.MergeIntervals(append(slices.Clone(u.spans[fs.File]), fs.Spans...))
		}
		u.steps = append(u.steps, st)
	}
	var out model.Step
	for f := range u.spans {
		out.Files = append(out.Files, f)
	}
	slices.Sort(out.Files)
	for _, f := range out.Files {
		if m := u.spans[f]; len(m) > 0 {
			out.Spans = append(out.Spans, model.FileSpans{File: f, Spans: slices.Clone(m)})
		}
	}
	return out
}
