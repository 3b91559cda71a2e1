package observed

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// repo is a repository of two files for Reads: paths resolve by suffix as
// the evaluator's do, lengths are fixed.
type repo map[string]int

func (r repo) Resolve(p string) string {
	for f := range r {
		if p == f || (len(p) > len(f) && p[len(p)-len(f)-1:] == "/"+f) {
			return f
		}
	}
	return ""
}

func (r repo) LineCount(f string) int { return r[f] }

func rd(f string, k model.ReadKind, a, b int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: k, Start: a, End: b}
}

func fs(f string, ivs ...model.Interval) model.FileSpans { return model.FileSpans{File: f, Spans: ivs} }

func iv(a, b int) model.Interval { return model.Interval{Start: a, End: b} }

func TestReads(t *testing.T) {
	files := repo{"pkg/a.py": 100, "b.py": 10}
	for _, c := range []struct {
		name      string
		reads     []model.ObservedRead
		tree, raw []model.FileSpans // with and without the repository
	}{
		{"range", []model.ObservedRead{rd("/testbed/pkg/a.py", model.ReadRange, 5, 9)},
			[]model.FileSpans{fs("pkg/a.py", iv(5, 9))}, []model.FileSpans{fs("pkg/a.py", iv(5, 9))}},
		{"whole file: lines from the repository, only the name without",
			[]model.ObservedRead{rd("b.py", model.ReadWhole, 0, 0)},
			[]model.FileSpans{fs("b.py", iv(1, 10))}, []model.FileSpans{fs("b.py")}},
		{"head and tail", []model.ObservedRead{rd("b.py", model.ReadHead, 1, 3), rd("b.py", model.ReadTail, 0, 4)},
			[]model.FileSpans{fs("b.py", iv(1, 3), iv(7, 10))}, []model.FileSpans{fs("b.py", iv(1, 3))}},
		{"clipped to the file, unclipped without it", []model.ObservedRead{rd("b.py", model.ReadRange, 8, 40)},
			[]model.FileSpans{fs("b.py", iv(8, 10))}, []model.FileSpans{fs("b.py", iv(8, 40))}},
		{"files in first-seen order, lines in read order, not merged",
			[]model.ObservedRead{rd("b.py", model.ReadRange, 5, 6), rd("pkg/a.py", model.ReadRange, 1, 2), rd("b.py", model.ReadRange, 1, 6)},
			[]model.FileSpans{fs("b.py", iv(5, 6), iv(1, 6)), fs("pkg/a.py", iv(1, 2))},
			[]model.FileSpans{fs("b.py", iv(5, 6), iv(1, 6)), fs("pkg/a.py", iv(1, 2))}},
		{"a path the repository lacks, a range past the end", []model.ObservedRead{rd("nope.py", model.ReadRange, 1, 2), rd("b.py", model.ReadRange, 20, 30)},
			nil, []model.FileSpans{fs("nope.py", iv(1, 2)), fs("b.py", iv(20, 30))}},
		{"a reversed range shows nothing", []model.ObservedRead{rd("b.py", model.ReadRange, 5, 2)},
			nil, []model.FileSpans{fs("b.py")}},
	} {
		acts := []model.Action{{Reads: c.reads}}
		if got := Reads(acts, files)[0]; !reflect.DeepEqual(got, c.tree) {
			t.Errorf("%s, with the repository: %+v, want %+v", c.name, got, c.tree)
		}
		if got := Reads(acts, nil)[0]; !reflect.DeepEqual(got, c.raw) {
			t.Errorf("%s, without: %+v, want %+v", c.name, got, c.raw)
		}
	}
}

// Steps: one per action that showed a file, files sorted, lines merged;
// at counts them. Prediction keeps a declared final and stands the union in
// for a missing one.
func TestStepsAndPrediction(t *testing.T) {
	reads := [][]model.FileSpans{
		{fs("b.py", iv(5, 6), iv(1, 6)), fs("a.py")},
		nil,
		{fs("a.py", iv(3, 4))},
	}
	steps, at := Steps(reads)
	want := []model.Step{
		{Files: []string{"a.py", "b.py"}, Spans: []model.FileSpans{fs("b.py", iv(1, 6))}},
		{Files: []string{"a.py"}, Spans: []model.FileSpans{fs("a.py", iv(3, 4))}},
	}
	if !reflect.DeepEqual(steps, want) || !slices.Equal(at, []int{1, 1, 2}) {
		t.Fatalf("steps %+v at %v", steps, at)
	}
	if u := Union(steps); !reflect.DeepEqual(u, model.Step{Files: []string{"a.py", "b.py"},
		Spans: []model.FileSpans{fs("a.py", iv(3, 4)), fs("b.py", iv(1, 6))}}) {
		t.Errorf("union %+v", u)
	}
	run := &model.Run{Actions: []model.Action{{Reads: []model.ObservedRead{rd("a.py", model.ReadRange, 1, 2)}}}}
	if p := Prediction(run, nil); !reflect.DeepEqual(p.Final, model.Step{Files: []string{"a.py"}, Spans: []model.FileSpans{fs("a.py", iv(1, 2))}}) {
		t.Errorf("no final: %+v, want the union", p.Final)
	}
	run.Prediction.Final = model.Step{Files: []string{"c.py"}}
	if p := Prediction(run, nil); !slices.Equal(p.Final.Files, []string{"c.py"}) || len(p.Steps) != 1 {
		t.Errorf("declared final: %+v", p)
	}
	// Without a timeline the declared steps stand in.
	decl := &model.Run{Prediction: model.Prediction{Steps: []model.Step{{Files: []string{"x.py"}, Spans: []model.FileSpans{fs("x.py", iv(2, 3))}}, {Files: []string{"y.py"}}}}}
	if p := Prediction(decl, nil); len(p.Steps) != 1 || p.Steps[0].Files[0] != "x.py" {
		t.Errorf("declared steps: %+v", p.Steps)
	}
}

// Union merges what many steps read, equal to merging all their spans at
// once.
func TestUnionMerges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 50 {
		var steps []model.Step
		want := map[string][]model.Interval{}
		for range 1 + rng.IntN(400) {
			f := []string{"a.py", "b.py", "c.py"}[rng.IntN(3)]
			s := 1 + rng.IntN(300)
			sp := iv(s, s+rng.IntN(5))
			steps = append(steps, model.Step{Files: []string{f}, Spans: []model.FileSpans{fs(f, sp)}})
			want[f] = append(want[f], sp)
		}
		got := Union(steps)
		if len(got.Spans) != len(want) {
			t.Fatalf("trial %d: %d files, want %d", trial, len(got.Spans), len(want))
		}
		for _, s := range got.Spans {
			if w := model.MergeIntervals(want[s.File]); !slices.Equal(s.Spans, w) {
				t.Fatalf("trial %d: %s = %v, want %v", trial, s.File, s.Spans, w)
			}
		}
	}
}

// Declare: the ContextBench lens of a format without an upstream extractor
// is the observed lens without the repository, linked from its actions.
func TestDeclare(t *testing.T) {
	acts := []model.Action{
		{Reads: []model.ObservedRead{rd("/testbed/b.py", model.ReadRange, 10, 20), {File: "a.py", Kind: model.ReadWhole}}},
		{Searches: []model.SearchHit{{File: "c.py"}}},
		{Reads: []model.ObservedRead{rd("b.py", model.ReadRange, 21, 25), {File: "b.py", Kind: model.ReadHead, End: 3}, {File: "d.py", Kind: model.ReadTail, End: 5}}},
	}
	steps, final := Declare(acts)
	want := []model.Step{
		{Files: []string{"a.py", "b.py"}, Spans: []model.FileSpans{fs("b.py", iv(10, 20))}},
		{Files: []string{"b.py", "d.py"}, Spans: []model.FileSpans{fs("b.py", iv(1, 3), iv(21, 25))}},
	}
	if !reflect.DeepEqual(steps, want) {
		t.Fatalf("steps = %+v", steps)
	}
	wantFinal := model.Step{Files: []string{"a.py", "b.py", "d.py"}, Spans: []model.FileSpans{fs("b.py", iv(1, 3), iv(10, 25))}}
	if !reflect.DeepEqual(final, wantFinal) {
		t.Fatalf("final = %+v", final)
	}
	if !reflect.DeepEqual(acts[0].Steps, []int{0}) || acts[1].Steps != nil || !reflect.DeepEqual(acts[2].Steps, []int{1}) {
		t.Fatalf("links = %v %v %v", acts[0].Steps, acts[1].Steps, acts[2].Steps)
	}
}

// A record that says which actions made its steps keeps their numbers:
// each step at its action, the actions it does not hold empty between
// them, two steps of one action in one.
func TestDeclaredActionsKeepNumbers(t *testing.T) {
	p := &model.Prediction{Steps: []model.Step{
		{Files: []string{"a.py"}, Spans: []model.FileSpans{{File: "a.py", Spans: []model.Interval{{Start: 1, End: 2}}}}},
		{Files: []string{"b.py"}},
		{Files: []string{"c.py"}},
	}, StepActions: []int{2, 5, 5}}
	acts := DeclaredActions(p)
	if len(acts) != 5 {
		t.Fatalf("%d actions, want 5", len(acts))
	}
	for i, want := range [][]int{nil, {0}, nil, nil, {1, 2}} {
		if !slices.Equal(acts[i].Steps, want) {
			t.Errorf("action %d: steps %v, want %v", i+1, acts[i].Steps, want)
		}
	}
	if len(acts[1].Reads) != 1 || acts[0].Category != model.CategoryOther || acts[4].Category != model.CategoryRead {
		t.Errorf("actions %+v", acts)
	}
	p.StepActions = []int{2, 1, 5} // going back: not used
	if n := len(DeclaredActions(p)); n != 3 {
		t.Errorf("%d actions for unusable numbers, want one per step", n)
	}
}
