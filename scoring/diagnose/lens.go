// Package diagnose explains why gold context was missed: a diagnosis of every
// gold file and gold line span under either lens (found, read then dropped,
// near miss, searched not read, never opened, each with the action that came
// closest), and the two published definitions of usage drop.
package diagnose

import (
	"slices"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// stepLines is what one step of a lens showed of one file: its 1-based
// step number, the action that produced it (-1 when none is known:
// upstream's final-as-step fallback, or a run whose parser did not link
// steps to actions) and the merged lines (none when it named the file
// without lines).
type stepLines = scoring.FileStep

// fileSteps are the steps of a lens naming a file and their lines merged.
type fileSteps = scoring.FileSteps

// lensFiles lists, for each gold file (a file of the gold set, or one with
// gold lines), the steps of a lens that named it, in step order. Only gold
// files are ever asked about, so a long run costs nothing here for the
// files it read that are not gold. With fallback, a ContextBench run
// without steps gets its final context as the one step, as upstream's
// trajectory metrics do; the union usage drop asks for the steps alone.
func lensFiles(a *scoring.Analysis, lens model.Lens, fallback bool) map[string]fileSteps {
	if len(a.Gold.Files) == 0 && a.Gold.Lines.Len() == 0 {
		return map[string]fileSteps{} // no gold file to ask about: no step need be read
	}
	if lens == model.LensContextBench && len(a.Run.Prediction.Steps) == 0 && !fallback {
		return map[string]fileSteps{} // the steps alone: none
	}
	gold := slices.Clone(a.Gold.Files)
	for f := range a.Gold.Lines.All() {
		gold = append(gold, f)
	}
	slices.Sort(gold)
	return a.StepsOf(lens, slices.Compact(gold))
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
