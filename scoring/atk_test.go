package scoring_test

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// Coverage at k follows the rank order: files as pred_files lists them,
// spans as the final context lists them; past the last prediction it is
// the final coverage.
func TestScoreAtK(t *testing.T) {
	ten := strings.Repeat("x = 1\n", 10)
	files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte(ten)}, "b.py": {Data: []byte(ten)}, "c.py": {Data: []byte(ten)}}))
	g := &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "b.py", Start: 1, End: 4}, {File: "c.py", Start: 5, End: 8}}}
	span := func(f string, a, b int) model.FileSpans {
		return model.FileSpans{File: f, Spans: []model.Interval{{Start: a, End: b}}}
	}
	final := model.Step{Files: []string{"a.py", "b.py", "c.py"}, Spans: []model.FileSpans{span("a.py", 1, 2), span("c.py", 5, 8), span("b.py", 1, 2)}}
	pred := &model.Prediction{InstanceID: "x", Final: final, Steps: []model.Step{final}}
	atk := scoring.ScoreAtK(g, pred, files, model.ContextBench, []int{1, 2, 3, 10})
	type fl struct{ file, line float64 }
	var got []fl
	for _, c := range atk.Coverage {
		got = append(got, fl{c.File, c.Line})
	}
	// Gold lines: 8. Files: a (no gold), then b, then c; spans: a 1-2 (none), c 5-8 (4), b 1-2 (2).
	want := []fl{{0, 0}, {0.5, 0.5}, {1, 0.75}, {1, 0.75}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("at k 1,2,3,10: %v, want %v", got, want)
	}
	res := scoring.Score(g, pred, files, model.ContextBench)
	last := atk.Coverage[len(atk.Coverage)-1]
	for _, gr := range model.Granularities {
		if *last.At(gr) != res.Final.At(gr).Coverage {
			t.Errorf("%s at 10: %v, final coverage %v", gr, *last.At(gr), res.Final.At(gr).Coverage)
		}
	}
	if _, err := scoring.ParseAtK("1,x"); err == nil {
		t.Error("--at-k 1,x accepted")
	}
	if ks, err := scoring.ParseAtK("10, 1,5,5"); err != nil || !reflect.DeepEqual(ks, []int{1, 5, 10}) {
		t.Errorf("--at-k '10, 1,5,5': %v %v", ks, err)
	}
}
