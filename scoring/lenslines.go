// The lines each action put in view under each lens: what it displayed,
// clipped to the files and merged, and what the ContextBench steps it
// made name.

package scoring

import (
	"github.com/trajscope/trajscope/internal/same"
	"github.com/trajscope/trajscope/model"
)

// inView is what reads put in view: each file's lines clipped to the file
// (a file without lines shows none) and merged. Reads that already are (one
// range of a file, as most are) come back as they are, not copied.
func (a *Analysis) inView(reads []model.FileSpans) []model.FileSpans {
	same := true
	for _, fl := range reads {
		same = same && isInView(fl.Spans, a.Files.LineCount(fl.File))
	}
	if same {
		return reads
	}
	var out []model.FileSpans
	for _, fl := range reads {
		if ivs := clipLines(fl.Spans, a.Files.LineCount(fl.File), true); len(ivs) > 0 {
			out = append(out, model.FileSpans{File: fl.File, Spans: model.MergeIntervals(ivs)})
		}
	}
	return out
}

// isInView reports whether ivs are non-empty, sorted, apart (not even
// adjacent) and inside lines 1..n: what clipping and merging would leave.
func isInView(ivs []model.Interval, n int) bool {
	last := 0
	for _, iv := range ivs {
		if iv.Start <= last+1 || iv.Start > iv.End || iv.End > n {
			return false
		}
		last = iv.End
	}
	return len(ivs) > 0
}

// clipLines clips line intervals to a file of n lines, in order, dropping
// what falls outside. A reversed interval is swapped when swap is set (a
// step's "10-5" names lines 5-10) and dropped otherwise (upstream gold keeps
// reversed spans, which hold no lines).
func clipLines(ivs []model.Interval, n int, swap bool) []model.Interval {
	var out []model.Interval
	for _, iv := range ivs {
		if iv.Start > iv.End {
			if !swap {
				continue
			}
			iv.Start, iv.End = iv.End, iv.Start
		}
		if s, e := max(1, iv.Start), min(n, iv.End); s <= e {
			out = append(out, model.Interval{Start: s, End: e})
		}
	}
	return out
}

// contextBenchLines turns each action's ContextBench steps into the lines
// they put in view: a step belongs to the first action that lists it. Where
// an action's lines equal what it displayed (observed[i]), the two lenses
// share them.
// A followed run's lines of an action that claims one step are taken from
// m when the step and the action's observed lines are those of the last
// reading (by identity: a followed reader's own).
func (a *Analysis) contextBenchLines(observed [][]model.FileSpans, m *linesMemo) [][]model.FileSpans {
	run := a.Run
	out := make([][]model.FileSpans, len(run.Actions))
	claimed := make([]bool, len(run.Prediction.Steps)) // a long run has a step per action
	var kept []memoLines
	if m != nil {
		kept, m.cb = m.cb, make([]memoLines, len(run.Actions))
	}
	for i := range run.Actions {
		var mine []int // the steps action i claims
		for _, s := range run.Actions[i].Steps {
			if s >= 0 && s < len(run.Prediction.Steps) && !claimed[s] {
				claimed[s] = true
				mine = append(mine, s)
			}
		}
		var id [2]same.List[model.FileSpans]
		if len(mine) == 1 && i < len(observed) {
			id = [2]same.List[model.FileSpans]{same.Of(run.Prediction.Steps[mine[0]].Spans), same.Of(observed[i])}
		}
		if !id[0].Empty() && i < len(kept) && kept[i].of == id {
			out[i] = kept[i].lines
		} else {
			var reads byFile
			for _, s := range mine {
				for _, fs := range run.Prediction.Steps[s].Spans {
					if f := a.Files.Resolve(fs.File); f != "" {
						reads.add(f, fs.Spans...)
					}
				}
			}
			out[i] = a.inView(reads.list)
			if i < len(observed) && model.EqualSpans(out[i], observed[i]) {
				out[i] = observed[i]
			}
		}
		if m != nil && !id[0].Empty() {
			m.cb[i] = memoLines{id, out[i]}
		}
	}
	return out
}

// byFile groups line intervals by file, files in first-seen order. An
// action names few files, so a scan finds them faster than a map.
type byFile struct{ list []model.FileSpans }

func (g *byFile) add(file string, ivs ...model.Interval) {
	for i := range g.list {
		if g.list[i].File == file {
			g.list[i].Spans = append(g.list[i].Spans, ivs...)
			return
		}
	}
	g.list = append(g.list, model.FileSpans{File: file, Spans: append([]model.Interval(nil), ivs...)})
}
