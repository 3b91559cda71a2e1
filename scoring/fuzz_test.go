package scoring

import (
	"math"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzDeletedLines: any text parses without panic into merged, positive
// line runs, under both semantics.
func FuzzDeletedLines(f *testing.F) {
	for _, s := range []string{
		"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n",
		"+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
		"@@ -999999999999999999999,1 +1 @@\n-x\n",
		"--- a/q\n+++ b/q\n@@ -1,4 +1,3 @@\n x\n---- y\n-z\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, patch string) {
		defer testkit.FuzzBudget(t)()
		for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
			for _, df := range DeletedLines(patch, sem) {
				for i, iv := range df.Lines {
					if iv.End < iv.Start {
						t.Fatalf("%v: reversed run %v", sem, iv)
					}
					if i > 0 && iv.Start <= df.Lines[i-1].End+1 {
						t.Fatalf("%v: runs not merged: %v", sem, df.Lines)
					}
				}
			}
		}
	})
}

// TestHostileLineNumbers: negative, zero, reversed and huge line numbers
// score without panicking and keep every measure in range.
func TestHostileLineNumbers(t *testing.T) {
	files := NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte("def f():\n    return 1\n")}}))
	g := &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "a.py", Start: 1, End: 2}, {File: "a.py", Start: 5, End: math.MaxInt32}}}
	spans := []model.Interval{{Start: -5, End: -1}, {Start: 0, End: 0}, {Start: 9, End: 2}, {Start: 1, End: 1 << 40}, {Start: 1 << 40, End: 1 << 41}}
	pred := &model.Prediction{InstanceID: "x", Final: model.Step{Files: []string{"a.py"}, Spans: []model.FileSpans{{File: "a.py", Spans: spans}}}}
	for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
		r := Score(g, pred, files, sem)
		if r.Error != "" {
			t.Fatalf("%v: error %q", sem, r.Error)
		}
		for _, name := range model.Granularities {
			m := r.Final.At(name)
			if math.IsNaN(m.Coverage) || math.IsNaN(m.Precision) {
				t.Errorf("%v %s: NaN in %+v", sem, name, m)
			}
		}
		if sem == model.Fixed {
			// Clamped to the 2-line file: pred lines {1,2}, gold {1,2}.
			if got := r.Final.Line; got.PredSize != 2 || got.GoldSize != 2 || got.Coverage != 1 {
				t.Errorf("fixed line = %+v, want 2/2/2", got)
			}
		}
	}
}
