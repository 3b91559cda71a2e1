package scoring

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/source"
)

// TestResolveAll: every action's reads resolved in bulk (lists cut from two
// blocks) equal them resolved one action at a time as the analysis did
// before, grouped by file in first-seen order with each file's intervals in
// read order; and appending to one action's list never writes into the
// next's.
func TestResolveAll(t *testing.T) {
	src := []byte(strings.Repeat("x = 1\n", 40))
	files := NewFiles(source.NewFS(fstest.MapFS{"a.py": {Data: src}, "pkg/b.py": {Data: src}, "c.js": {Data: src[:60]}}))
	sc := scorer{files: files}
	names := []string{"a.py", "pkg/b.py", "/testbed/pkg/b.py", "c.js", "missing.py", "../a.py"}
	kinds := []model.ReadKind{model.ReadRange, model.ReadWhole, model.ReadHead, model.ReadTail, model.ReadFrom, model.ReadWindow}
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 100 {
		actions := make([]model.Action, rng.IntN(30))
		for i := range actions {
			for range rng.IntN(7) {
				s := rng.IntN(50) - 5
				actions[i].Reads = append(actions[i].Reads, model.ObservedRead{File: names[rng.IntN(len(names))],
					Kind: kinds[rng.IntN(len(kinds))], Start: s, End: s + rng.IntN(20) - 3})
			}
		}
		got := sc.resolveAll(actions)
		for i := range actions {
			if want := oneByOne(sc, actions[i].Reads); !reflect.DeepEqual(got[i].Reads, want) {
				t.Fatalf("trial %d action %d %+v:\n got %+v\nwant %+v", trial, i, actions[i].Reads, got[i].Reads, want)
			}
		}
		for i := range got {
			n := len(got[i].Reads)
			if n == 0 {
				continue
			}
			before := deepViews(got)
			_ = append(got[i].Reads, FileLines{File: "x"})
			for k := range got[i].Reads {
				_ = append(got[i].Reads[k].Lines, model.Interval{Start: -7, End: -7})
			}
			if !reflect.DeepEqual(before, deepViews(got)) {
				t.Fatalf("trial %d: appending to action %d's lists changed another's", trial, i)
			}
		}
	}
}

func deepViews(views []ActionView) [][]FileLines {
	out := make([][]FileLines, len(views))
	for i, v := range views {
		for _, fl := range v.Reads {
			out[i] = append(out[i], FileLines{fl.File, append([]model.Interval(nil), fl.Lines...)})
		}
	}
	return out
}

// oneByOne is how an action's reads were resolved before resolveAll: a
// list per action, grouped by file in first-seen order.
func oneByOne(sc scorer, reads []model.ObservedRead) []FileLines {
	var out byFile
	for _, r := range reads {
		file := sc.files.Resolve(r.File)
		if file == "" {
			continue
		}
		if span, ok := r.Resolve(sc.files.LineCount(file)); ok {
			out.add(file, span)
		}
	}
	return out.list
}
