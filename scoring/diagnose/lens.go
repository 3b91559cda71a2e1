// Package diagnose explains why gold context was missed: a diagnosis of every
// gold file and gold line span under either lens (found, read then dropped,
// near miss, searched not read, never opened, each with the action that came
// closest), and the two published definitions of usage drop.
package diagnose

import (
	"sort"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// lensStep is one step of a lens, resolved to repository files.
type lensStep struct {
	// number is the lens's 1-based step number.
	number int
	// action is the index into Run.Actions that produced the step, or -1
	// when no action is known (upstream's final-as-step fallback, or a run
	// whose parser did not link steps to actions).
	action int
	// files are the files the step named (with or without lines), each
	// once; lines the merged line intervals it showed, per file. A step
	// names a few files: slices cost far less than maps over a long run.
	files []string
	lines []fileIvs
}

type fileIvs struct {
	file string
	ivs  []model.Interval
}

// linesOf returns the merged lines the step showed of a file.
func (st *lensStep) linesOf(f string) []model.Interval {
	for _, fl := range st.lines {
		if fl.file == f {
			return fl.ivs
		}
	}
	return nil
}

// name adds a file the step named, once.
func (st *lensStep) name(f string) {
	for _, g := range st.files {
		if g == f {
			return
		}
	}
	st.files = append(st.files, f)
}

// lensSteps lists a lens's steps. With fallback, a ContextBench run without
// steps gets its final context as the one step, as upstream's trajectory
// metrics do; the union usage drop asks for the steps alone.
func lensSteps(a *scoring.Analysis, lens model.Lens, fallback bool) []lensStep {
	var out []lensStep
	if lens == model.LensObserved {
		for i := range a.Actions {
			reads := a.Actions[i].Reads
			if len(reads) == 0 {
				continue
			}
			// Reads are grouped by file already: one entry each.
			st := lensStep{number: len(out) + 1, action: i}
			for _, fl := range reads {
				st.name(fl.File)
				st.lines = append(st.lines, fileIvs{fl.File, merge(fl.Lines)})
			}
			out = append(out, st)
		}
		return out
	}
	steps := a.Run.Prediction.Steps
	if len(steps) == 0 && fallback {
		steps = []model.Step{a.Run.Prediction.Final}
	}
	done := a.Lenses[model.LensContextBench].StepsDone
	for j, raw := range steps {
		ctx := a.StepContext(raw)
		st := lensStep{number: j + 1, action: -1, files: append([]string(nil), ctx.Files...)}
		lineFiles := make([]string, 0, len(ctx.Lines))
		for f := range ctx.Lines {
			lineFiles = append(lineFiles, f)
		}
		sort.Strings(lineFiles)
		for _, f := range lineFiles {
			st.name(f)
			// Upstream keeps reversed line ranges; they hold no lines.
			st.lines = append(st.lines, fileIvs{f, merge(ctx.Lines[f])})
		}
		if len(a.Run.Prediction.Steps) > 0 {
			// The step belongs to the first action after which it counts,
			// which is where the explorer's coverage curve takes it in.
			// done never decreases, so a binary search finds it (a scan
			// per step was quadratic in long runs).
			if i := sort.SearchInts(done, j+1); i < len(done) {
				st.action = i
			}
		}
		out = append(out, st)
	}
	return out
}

// merge sorts and merges a copy of ivs (reversed intervals dropped: they
// hold no lines).
func merge(ivs []model.Interval) []model.Interval {
	out := make([]model.Interval, 0, len(ivs))
	for _, iv := range ivs {
		if iv.Start <= iv.End {
			out = append(out, iv)
		}
	}
	return model.MergeIntervals(out)
}

// overlap counts the lines of the merged list ivs inside [s, e].
func overlap(ivs []model.Interval, s, e int) int {
	n := 0
	for _, iv := range ivs {
		a, b := max(iv.Start, s), min(iv.End, e)
		if a <= b {
			n += b - a + 1
		}
	}
	return n
}

// distance is how many lines separate [s, e] from [a, b]: 0 when they
// overlap, else the gap between the nearest ends (lines 1-5 and 7-9 are 2
// lines apart).
func distance(a, b, s, e int) int {
	switch {
	case b < s:
		return s - b
	case a > e:
		return a - e
	}
	return 0
}

// searchHit is a search action's hit on a repository file.
type searchHit struct {
	action int
	line   int // 0 when the hit named only the file
}

// searchHits maps each repository file to the search hits on it, in action
// order. Searches come from the timeline and count under both lenses.
func searchHits(a *scoring.Analysis) map[string][]searchHit {
	out := map[string][]searchHit{}
	for i := range a.Run.Actions {
		for _, h := range a.Run.Actions[i].Searches {
			if f := a.Files.Resolve(h.File); f != "" {
				out[f] = append(out[f], searchHit{i, h.Line})
			}
		}
	}
	return out
}
