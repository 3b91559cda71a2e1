package scoring_test

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// TestFixedSemantics scores vector cases under --semantics fixed. Each
// expectation was worked out by hand from the vector repo (line starts of
// pkg/mod.py: 0 10 11 12 26 43 44 45 57 78 95 96 117, EOF 134).
func TestFixedSemantics(t *testing.T) {
	files := vectorRepo(t)
	byName := map[string]vectorCase{}
	for _, c := range loadCases(t) {
		byName[c.Name] = c
	}
	m := func(cov, prec float64, inter, gold, pred int) model.Measure {
		return model.Measure{Coverage: cov, Precision: prec, Intersection: inter, GoldSize: gold, PredSize: pred}
	}
	cases := []struct {
		name  string
		quirk string
		check func(t *testing.T, r model.Result)
	}{
		{"TV3b", "no gold-patch EditLoc fallback", func(t *testing.T, r model.Result) {
			if r.EditLoc != nil {
				t.Errorf("editloc = %+v, want none (the prediction has no patch)", *r.EditLoc)
			}
		}},
		{"TV3", "EditLoc recall is hits/gold lines", func(t *testing.T, r model.Result) {
			want := model.EditLoc{Recall: 0.25, Precision: 1.0 / 3, Intersection: 1, GoldSize: 4, PredSize: 3}
			if r.EditLoc == nil || *r.EditLoc != want {
				t.Errorf("editloc = %+v, want %+v", r.EditLoc, want)
			}
		}},
		{"TV5", "lines clamped to the file, no phantom line after EOF", func(t *testing.T, r model.Result) {
			// util 1-100 is util's 2 lines; mod 14-20 is past mod's 13 lines.
			if got, want := r.Final.Line, m(1, 1, 2, 2, 2); got != want {
				t.Errorf("line = %+v, want %+v", got, want)
			}
			if got, want := r.Final.Span, m(1, 1, 12, 12, 12); got != want {
				t.Errorf("span = %+v, want %+v", got, want)
			}
		}},
		{"TV_reversed", "reversed ranges read as the range they name", func(t *testing.T, r model.Result) {
			// 10-4 is lines 4..10: bytes 12..94 (83), gold 4-5 bytes 12..42 (31).
			if got, want := r.Final.Line, m(1, 2.0/7, 2, 2, 7); got != want {
				t.Errorf("line = %+v, want %+v", got, want)
			}
			if got, want := r.Final.Span, m(1, 31.0/83, 31, 31, 83); got != want {
				t.Errorf("span = %+v, want %+v", got, want)
			}
		}},
		{"TV6", "dot paths kept; gold files missing from the repo dropped", func(t *testing.T, r model.Result) {
			// gold: .github/ci.yml 1-2 (18 B), pkg/util.py 1-1 (6 B); run_test.js is not in the repo.
			if got, want := r.Final.File, m(1, 1, 2, 2, 2); got != want {
				t.Errorf("file = %+v, want %+v", got, want)
			}
			if got, want := r.Final.Line, m(1, 0.75, 3, 3, 4); got != want {
				t.Errorf("line = %+v, want %+v", got, want)
			}
			if got, want := r.Final.Span, m(1, 0.8, 24, 24, 30); got != want {
				t.Errorf("span = %+v, want %+v", got, want)
			}
		}},
		{"TV_spans_nofiles", "files named only in spans count as files", func(t *testing.T, r model.Result) {
			if got, want := r.Final.File, m(0.5, 1, 1, 2, 1); got != want {
				t.Errorf("file = %+v, want %+v", got, want)
			}
		}},
		{"TV_emptygold", "empty gold: trajectory line coverage agrees with final", func(t *testing.T, r model.Result) {
			if got := r.Trajectory.Steps[0].Coverage.Line; got != 1.0 {
				t.Errorf("step line coverage = %v, want 1.0", got)
			}
		}},
		{"TV1", "a case without quirks scores as upstream", func(t *testing.T, r model.Result) {
			up := scoring.Score(loadGold(t, byName["TV1"].Gold), loadPred(t, byName["TV1"].Pred), files, model.ContextBench)
			if !reflect.DeepEqual(r, up) {
				t.Errorf("fixed %+v\nupstream %+v", r, up)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vc := byName[c.name]
			r := scoring.Score(loadGold(t, vc.Gold), loadPred(t, vc.Pred), files, model.Fixed)
			if r.Error != "" {
				t.Fatalf("error %q", r.Error)
			}
			c.check(t, r)
		})
	}
}

func TestFixedOutputAddsF1(t *testing.T) {
	r := model.Result{InstanceID: "x", NumSteps: 1}
	r.Final.File = model.Measure{Coverage: 0.5, Precision: 1, Intersection: 1, GoldSize: 2, PredSize: 1}
	got := string(scoring.AppendResultJSON(nil, &r, model.Fixed))
	want := `"file": {"coverage": 0.5, "precision": 1.0, "intersection": 1, "gold_size": 2, "pred_size": 1, "f1": 0.6666666666666666}`
	if !contains(got, want) {
		t.Errorf("fixed output lacks f1:\n%s", got)
	}
	if contains(string(scoring.AppendResultJSON(nil, &r, model.ContextBench)), `"f1"`) {
		t.Error("parity output must not carry f1")
	}
}

func contains(s, sub string) bool { return len(sub) <= len(s) && indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestFileLevelGold: file-only gold (ground truth without line ranges)
// counts at file granularity and nowhere else.
func TestFileLevelGold(t *testing.T) {
	files := vectorRepo(t)
	g := &model.Gold{ID: "x", Files: []string{"pkg/util.py"}, Init: []model.GoldSpan{{File: "pkg/mod.py", Start: 4, End: 5}}}
	st := model.Step{Files: []string{"pkg/mod.py"}, Spans: []model.FileSpans{{File: "pkg/mod.py", Spans: []model.Interval{{Start: 4, End: 5}}}}}
	for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
		r := scoring.Score(g, &model.Prediction{InstanceID: "x", Final: st}, files, sem)
		if r.Final.File.GoldSize != 2 || r.Final.File.Intersection != 1 {
			t.Errorf("%v: file = %+v, want gold 2, hit 1", sem, r.Final.File)
		}
		if r.Final.Line.GoldSize != 2 || r.Final.Span.GoldSize != 31 {
			t.Errorf("%v: line %+v span %+v: file-level gold must not add lines or bytes", sem, r.Final.Line, r.Final.Span)
		}
	}
}
