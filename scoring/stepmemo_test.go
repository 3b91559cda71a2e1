package scoring

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/source"
)

// A run's two lenses can count steps of the same content (a Claude Code
// Read is a step of both). Followed, each goes on from its own trajectory,
// found by its steps given again, not from the other's (whose every step
// would be compared by content at every reading).
func TestEachLensGoesOnFromItsOwn(t *testing.T) {
	files := NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte(strings.Repeat("x = 1\n", 40))}}))
	files.RememberSteps()
	g := &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "a.py", Start: 3, End: 9}}}
	gold := scorer{files, model.ContextBench}.prepareGold(g)
	step := func(k int) model.Step {
		return model.Step{Files: []string{"a.py"}, Spans: []model.FileSpans{{File: "a.py", Spans: []model.Interval{{Start: k, End: k + 2}}}}}
	}
	var lenses [2][]model.Step // the same content, made apart
	for k := 1; k <= 12; k++ {
		for l := range lenses {
			lenses[l] = append(lenses[l], step(k))
			sc := scorer{files, model.ContextBench}
			tr, _ := sc.trajectory(lenses[l], gold, model.Lens(l), false)
			if len(tr.Steps) != k {
				t.Fatalf("reading %d, lens %d: %d steps", k, l, len(tr.Steps))
			}
		}
		for l := range lenses {
			found := false
			for _, u := range files.unions {
				if u.lens == model.Lens(l) && len(u.raw) == k && u.raw[0].Identical(lenses[l][0]) && u.raw[k-1].Identical(lenses[l][k-1]) {
					found = true
				}
			}
			if !found {
				t.Fatalf("reading %d: no trajectory of lens %d kept with its steps as given; kept: %s", k, l, keptLenses(files))
			}
		}
	}
}

func keptLenses(f *FileCache) string {
	var b strings.Builder
	for _, u := range f.unions {
		fmt.Fprintf(&b, "[lens %d, %d steps] ", u.lens, len(u.raw))
	}
	return b.String()
}
