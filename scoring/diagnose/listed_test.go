package diagnose_test

import (
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// The run's gold list shows the spans the gold has, nested, overlapping,
// adjacent or repeated, each diagnosed on its own; the diagnosis counts
// (what score, the run list and compare report) are the same spans.
func TestRunGoldListsSpansAsGiven(t *testing.T) {
	g := &model.Gold{ID: "t-1", Init: []model.GoldSpan{
		{File: "a.py", Start: 5, End: 25}, {File: "a.py", Start: 10, End: 12}, // nested
		{File: "a.py", Start: 10, End: 12}, // repeated
		{File: "a.py", Start: 26, End: 28}, // adjacent to 5-25
		{File: "b.py", Start: 3, End: 4},
	}}
	run := everyCategoryRun() // shows a.py 1-10 and 12-17, final a.py 6-7
	a := scoring.Analyze(run, g, testFiles(t), model.ContextBench)
	rg := diagnose.DiagnoseRun(a)
	type row struct {
		file       string
		start, end int
		cat        diagnose.Category
	}
	var got []row
	for _, s := range rg.Spans {
		got = append(got, row{s.File(), s.Start(), s.End(), s.Category(model.LensObserved)})
	}
	want := []row{
		{"a.py", 5, 25, diagnose.Found},            // final 6-7 inside
		{"a.py", 10, 12, diagnose.ReadThenDropped}, // shown (10, 12), not in the final
		{"a.py", 26, 28, diagnose.NearMiss},        // 17 was the closest line shown
		{"b.py", 3, 4, diagnose.ReadThenDropped},   // shown by b.py 1-5
	}
	if len(got) != len(want) {
		t.Fatalf("gold list %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// The counts are the list's: the spans every screen shows are the ones
	// score, the run list and compare count.
	c := rg.Diag[model.LensObserved].SpanCounts
	if c.Total() != len(want) || c[diagnose.Found] != 1 || c[diagnose.ReadThenDropped] != 2 || c[diagnose.NearMiss] != 1 {
		t.Errorf("diagnosis counts %v (%d spans), want the 4 listed: 1 found, 2 read then dropped, 1 near miss", c, c.Total())
	}
}
