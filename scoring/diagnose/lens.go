// Package diagnose explains why gold context was missed: a diagnosis of every
// gold file and gold line span under either lens (found, read then dropped,
// near miss, searched not read, never opened, each with the action that came
// closest), and the two published definitions of usage drop.
package diagnose

import (
	"slices"
	"sort"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// stepLines is what one step of a lens showed of one file.
type stepLines struct {
	// number is the lens's 1-based step number.
	number int32
	// action is the index into Run.Actions that produced the step, or -1
	// when no action is known (upstream's final-as-step fallback, or a run
	// whose parser did not link steps to actions).
	action int32
	// lines are the merged lines the step showed of the file; none when it
	// named the file without lines.
	lines []model.Interval
}

// lensFiles lists, for each gold file (a file of the gold set, or one with
// gold lines), the steps of a lens that named it, in step order. Only gold
// files are ever asked about, so a long run costs nothing here for the
// files it read that are not gold. With fallback, a ContextBench run
// without steps gets its final context as the one step, as upstream's
// trajectory metrics do; the union usage drop asks for the steps alone.
func lensFiles(a *scoring.Analysis, lens model.Lens, fallback bool) map[string][]stepLines {
	out := map[string][]stepLines{}
	files := a.Gold.Files
	if len(files) == 0 && a.Gold.Lines.Len() == 0 {
		return out // no gold file to ask about: no step need be read
	}
	if !sort.StringsAreSorted(files) {
		files = slices.Sorted(slices.Values(files))
	}
	gold := func(f string) bool {
		lines := a.Gold.Lines.Has(f)
		_, listed := slices.BinarySearch(files, f)
		return lines || listed
	}
	if lens == model.LensObserved {
		n := 0
		for i := range a.Actions {
			reads := a.Actions[i].Reads
			if len(reads) == 0 {
				continue
			}
			n++
			// Reads are grouped by file already: one entry each.
			for _, fl := range reads {
				if gold(fl.File) {
					out[fl.File] = append(out[fl.File], stepLines{int32(n), int32(i), merge(fl.Spans)})
				}
			}
		}
		return out
	}
	steps := a.Run.Prediction.Steps
	if len(steps) == 0 && fallback {
		steps = []model.Step{a.Run.Prediction.Final}
	}
	done := a.Lenses[model.LensContextBench].StepsDone
	for j, raw := range steps {
		ctx := a.ContextBenchStep(j, raw)
		action := -1
		if len(a.Run.Prediction.Steps) > 0 {
			// The step belongs to the first action after which it counts,
			// which is where the explorer's coverage curve takes it in.
			// done never decreases, so a binary search finds it (a scan
			// per step was quadratic in long runs).
			if i := sort.SearchInts(done, j+1); i < len(done) {
				action = i
			}
		}
		// The files the step named, each once: those without lines, then
		// those with lines (upstream keeps reversed line ranges; they hold
		// no lines).
		for _, f := range ctx.Files {
			if _, lines := ctx.Lines[f]; !lines && gold(f) {
				out[f] = append(out[f], stepLines{int32(j + 1), int32(action), nil})
			}
		}
		for f, ivs := range ctx.Lines {
			if gold(f) {
				out[f] = append(out[f], stepLines{int32(j + 1), int32(action), merge(ivs)})
			}
		}
	}
	return out
}

// union returns the lines steps showed of a file, merged (reversed
// intervals dropped: they hold no lines). It merges as it goes: a long run
// shows the same lines many times over, so the union stays small while the
// lines it is made of do not.
func union(steps []stepLines) []model.Interval {
	var all []model.Interval
	for _, st := range steps {
		for _, iv := range st.lines {
			if iv.Start <= iv.End {
				all = append(all, iv)
			}
		}
		if len(all) >= 64 && len(all) == cap(all) {
			all = model.MergeIntervals(all)
		}
	}
	return model.MergeIntervals(all)
}

// merge sorts and merges a copy of ivs (reversed intervals dropped: they
// hold no lines). Lines that are so already (one range, as most reads are)
// come back as they are: nothing here changes them.
func merge(ivs []model.Interval) []model.Interval {
	if model.Merged(ivs) {
		return ivs
	}
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
	action int32
	line   int // 0 when the hit named only the file
}

// searchHits maps each repository file to the search hits on it, in action
// order. Searches come from the timeline and count under both lenses.
func searchHits(a *scoring.Analysis) map[string][]searchHit {
	out := map[string][]searchHit{}
	for i := range a.Run.Actions {
		for _, h := range a.Run.Actions[i].Searches {
			if f := a.Files.Resolve(h.File); f != "" {
				out[f] = append(out[f], searchHit{int32(i), h.Line})
			}
		}
	}
	return out
}
