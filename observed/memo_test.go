package observed

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// A memo's readings of a run that grows, whose actions' reads change now
// and then (a result arriving, a rewrite), are what reading each from
// nothing gives: Reads and Steps, Lens and its union, Declare.
func TestMemoIsAReading(t *testing.T) {
	files := repo{"pkg/a.py": 100, "b.py": 10}
	names := []string{"pkg/a.py", "/testbed/pkg/a.py", "b.py", "gone.py"}
	kinds := []model.ReadKind{model.ReadRange, model.ReadWhole, model.ReadHead, model.ReadTail, model.ReadFrom}
	for _, c := range []struct {
		name  string
		files Files
	}{{"repository", files}, {"run alone", nil}} {
		for seed := range uint64(20) {
			t.Run(fmt.Sprint(c.name, "/", seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 1))
				action := func() model.Action {
					var a model.Action
					for range r.IntN(3) {
						s := 1 + r.IntN(120)
						a.Reads = append(a.Reads, rd(names[r.IntN(len(names))], kinds[r.IntN(len(kinds))], s, s+r.IntN(30)))
					}
					return a
				}
				memo, declared := NewMemo(c.files), NewMemo(nil)
				var acts []model.Action
				// What the memo gave before stays as it was given: the
				// memo appends its next steps to its own list.
				var given [][]model.Step
				var givenCopy []string
				for reading := range 30 {
					switch k := r.IntN(4); {
					case k == 0 && len(acts) > 0:
						acts[len(acts)-1] = action() // its result arrived
					case k == 1 && len(acts) > 0:
						acts = acts[:r.IntN(len(acts))] // read again from a rewrite
					}
					for range r.IntN(4) {
						acts = append(acts, action())
					}
					reads, steps, at := memo.Reads(acts, c.files)
					wantReads := Reads(acts, c.files)
					wantSteps, wantAt := Steps(wantReads)
					if !reflect.DeepEqual(reads, wantReads) || !equalSteps(steps, wantSteps) || !reflect.DeepEqual(at, wantAt) {
						t.Fatalf("reading %d: Reads\n got %v %v %v\nwant %v %v %v", reading, reads, steps, at, wantReads, wantSteps, wantAt)
					}
					run := &model.Run{Actions: acts}
					p, _, standIn := memo.Lens(run, steps, at)
					wp, _, wantIn := Lens(run, wantReads)
					if !reflect.DeepEqual(p.Final, wp.Final) || standIn != wantIn {
						t.Fatalf("reading %d: Lens's final\n got %v\nwant %v", reading, p.Final, wp.Final)
					}
					given, givenCopy = append(given, steps), append(givenCopy, fmt.Sprint(steps))
					for k := range given {
						if fmt.Sprint(given[k]) != givenCopy[k] {
							t.Fatalf("reading %d: the steps given at reading %d changed:\n got %v\nwant %s", reading, k, given[k], givenCopy[k])
						}
					}
					ds, df := declared.Declare(clone(acts))
					wds, wdf := Declare(clone(acts))
					if !equalSteps(ds, wds) || !reflect.DeepEqual(df, wdf) {
						t.Fatalf("reading %d: Declare\n got %v %v\nwant %v %v", reading, ds, df, wds, wdf)
					}
				}
			})
		}
	}
}

// equalSteps compares steps, no steps (nil) and an empty list apart.
func equalSteps(x, y []model.Step) bool { return reflect.DeepEqual(x, y) }

func clone(acts []model.Action) []model.Action { return append([]model.Action(nil), acts...) }
