package diagnose_test

import (
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// lineResult is a result whose line granularity has the given final
// coverage, intersection and gold size and whose last step's line coverage
// is last; steps=false leaves the trajectory empty.
func lineResult(last, finalCov float64, inter, gold int, steps bool) *model.Result {
	r := &model.Result{InstanceID: "x", NumSteps: 1}
	r.Final.Line = model.Measure{Coverage: finalCov, Intersection: inter, GoldSize: gold}
	if steps {
		var c model.ByGranularity[float64]
		c.Line = last
		r.Trajectory.Steps = []model.StepCoverage{{Step: 1}, {Step: 2, Coverage: c}}
	}
	return r
}

func TestLastStepToFinal(t *testing.T) {
	cases := []struct {
		name       string
		r          *model.Result
		seen, kept float64
		drop       float64
		recallDrop float64 // -1: absent
	}{
		// seen = 0.75 × 4 = 3; kept = min(2, 3) = 2; drop = 1 − 2/3;
		// recall drop = 0.75 − 0.5 = 0.25. In float64 (Python agrees):
		// 1 - 2/3 = 0.33333333333333337.
		{"dropped a third", lineResult(0.75, 0.5, 2, 4, true), 3, 2, 0.33333333333333337, 0.25},
		// seen = 0.5 × 4 = 2; the final holds 3 > 2, kept clamps to 2;
		// drop 0; recall drop max(0, 0.5 − 0.75) = 0.
		{"final holds more than seen", lineResult(0.5, 0.75, 3, 4, true), 2, 2, 0, 0},
		// seen = 0 × 4 = 0: drop 1.0; recall drop max(0, 0 − 0.25) = 0.
		{"nothing seen", lineResult(0, 0.25, 1, 4, true), 0, 0, 1, 0},
		// No steps: last coverage 0, as the script's "if steps else 0.0".
		{"no steps", lineResult(0, 0.5, 2, 4, false), 0, 0, 1, 0},
		// Empty gold: coverage is 1.0 but gold_size 0, so seen = 0: drop
		// 1.0; recall drop max(0, 1 − 1) = 0.
		{"empty gold", lineResult(1, 1, 0, 0, true), 0, 0, 1, 0},
		// An error row drops 1.0 and has no recall drop.
		{"error row", &model.Result{InstanceID: "x", Error: "checkout_failed"}, 0, 0, 1, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := diagnose.LastStepToFinal(c.r).Line
			if d.SeenLast != c.seen || d.Kept != c.kept || d.Drop != c.drop {
				t.Errorf("got seen %v kept %v drop %v, want %v %v %v", d.SeenLast, d.Kept, d.Drop, c.seen, c.kept, c.drop)
			}
			switch {
			case c.recallDrop < 0 && d.RecallDrop != nil:
				t.Errorf("recall drop = %v, want none", *d.RecallDrop)
			case c.recallDrop >= 0 && (d.RecallDrop == nil || *d.RecallDrop != c.recallDrop):
				t.Errorf("recall drop = %v, want %v", d.RecallDrop, c.recallDrop)
			}
		})
	}
}

func TestUnionToFinal(t *testing.T) {
	files := testFiles(t)
	cases := []struct {
		name       string
		run        *model.Run
		gold       *model.Gold
		lens       model.Lens
		seen, kept int
		drop       float64
	}{
		// CB steps show a.py 5-8 (4 gold lines), a.py 20-22 (3), b.py 1-5
		// (0 gold): G_seen = 7; final a.py 6-7 holds 2: drop 1 − 2/7,
		// 0.7142857142857143 in float64.
		{"contextbench", everyCategoryRun(), goldAll(), model.LensContextBench, 7, 2, 0.7142857142857143},
		// Observed reads a.py 1-10 (gold 5-8: 4), 12-17 (0), b.py 1-5 (0):
		// G_seen = 4; kept 2: drop 1 − 2/4 = 0.5.
		{"observed", everyCategoryRun(), goldAll(), model.LensObserved, 4, 2, 0.5},
		// Empty gold: G_seen empty, drop 1.0.
		{"empty gold", everyCategoryRun(), &model.Gold{ID: "t"}, model.LensContextBench, 0, 0, 1},
		// No steps: the union drop does not use upstream's final-as-step
		// fallback, so nothing was seen and drop is 1.0 although the final
		// holds 2 gold lines.
		{"no steps", &model.Run{Prediction: model.Prediction{Final: model.Step{Files: []string{"a.py"}, Spans: []model.FileSpans{span("a.py", 6, 7)}}}},
			goldAll(), model.LensContextBench, 0, 2, 1},
		// The step saw a.py 5-5 (1 gold line), the final declares 5-8 (4):
		// unclamped, drop = 1 − 4/1 = −3, as the script computes it.
		{"final holds unseen gold", &model.Run{Prediction: model.Prediction{
			Steps: []model.Step{{Files: []string{"a.py"}, Spans: []model.FileSpans{span("a.py", 5, 5)}}},
			Final: model.Step{Files: []string{"a.py"}, Spans: []model.FileSpans{span("a.py", 5, 8)}}}},
			goldAll(), model.LensContextBench, 1, 4, -3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := scoring.Analyze(c.run, c.gold, files, model.ContextBench)
			u := diagnose.UnionToFinal(a, c.lens)
			if u.Seen != c.seen || u.Kept != c.kept || u.Drop != c.drop {
				t.Errorf("got %+v, want seen %d kept %d drop %v", u, c.seen, c.kept, c.drop)
			}
		})
	}
}
