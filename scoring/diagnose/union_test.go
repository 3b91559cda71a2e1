package diagnose

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// TestUnionMergesAsItGoes: the union merged while it is built equals
// concatenating every step's lines, dropping reversed ones and merging once,
// on random steps that overlap, touch, repeat and reverse.
func TestUnionMergesAsItGoes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for run := range 200 {
		var steps []stepLines
		for range r.IntN(600) {
			var lines []model.Interval
			for range r.IntN(4) {
				s := 1 + r.IntN(300)
				lines = append(lines, model.Interval{Start: s, End: s + r.IntN(12) - 2}) // some reversed
			}
			steps = append(steps, stepLines{Lines: lines})
		}
		var all []model.Interval
		for _, st := range steps {
			for _, iv := range st.Lines {
				if iv.Start <= iv.End {
					all = append(all, iv)
				}
			}
		}
		want := model.MergeIntervals(all)
		if got := union(steps); !slices.Equal(got, want) {
			t.Fatalf("run %d (%d steps): union %v, want %v", run, len(steps), got, want)
		}
	}
}
