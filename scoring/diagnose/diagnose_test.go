package diagnose_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

// numbered is a file of n lines "line 1" … "line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// testFiles builds a real git repository: a.py 30 lines, b.py 20, c.py,
// d.py and e.py 10 each, notes.md 5. missing.py is deliberately absent.
func testFiles(t *testing.T) *scoring.FileCache {
	t.Helper()
	dir, commit := testkit.GitRepo(t, map[string]string{
		"a.py": numbered(30), "b.py": numbered(20), "c.py": numbered(10),
		"d.py": numbered(10), "e.py": numbered(10), "notes.md": numbered(5),
	})
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	return scoring.NewFileCache(tree)
}

func span(file string, a, b int) model.FileSpans {
	return model.FileSpans{File: file, Spans: []model.Interval{{Start: a, End: b}}}
}

func read(file string, a, b int) model.ObservedRead {
	return model.ObservedRead{File: file, Kind: model.ReadRange, Start: a, End: b}
}

// goldAll is the gold every diagnosis test uses. Init gives the line spans;
// e.py is Add-only, so under ContextBench semantics it is a gold file with
// no gold lines; missing.py is not in the repository.
func goldAll() *model.Gold {
	return &model.Gold{
		ID: "t-1",
		Init: []model.GoldSpan{
			{File: "a.py", Start: 5, End: 8},
			{File: "a.py", Start: 20, End: 22},
			{File: "b.py", Start: 10, End: 12},
			{File: "c.py", Start: 3, End: 4},
			{File: "d.py", Start: 1, End: 2},
			{File: "missing.py", Start: 1, End: 3},
		},
		Add: []model.GoldSpan{{File: "e.py", Start: 1, End: 1}},
	}
}

// everyCategoryRun produces every category under the ContextBench lens:
//
//	action 0 reads a.py 1-10        CB step 1: a.py 5-8
//	action 1 greps, hits c.py:9
//	action 2 reads a.py 12-17       CB step 2: a.py 20-22
//	action 3 reads b.py 1-5         CB step 3: b.py 1-5
//	action 4 edits a.py
//	final: a.py lines 6-7
func everyCategoryRun() *model.Run {
	return &model.Run{
		InstanceID: "t-1",
		Actions: []model.Action{
			{Command: "sed -n 1,10p a.py", Category: model.CategoryRead, Reads: []model.ObservedRead{read("a.py", 1, 10)}, Steps: []int{0}},
			{Command: "grep -n x .", Category: model.CategorySearch, Searches: []model.SearchHit{{File: "./c.py", Line: 9}, {File: "nowhere.py"}}},
			{Command: "sed -n 12,17p a.py", Category: model.CategoryRead, Reads: []model.ObservedRead{read("a.py", 12, 17)}, Steps: []int{1}},
			{Command: "head -5 b.py", Category: model.CategoryRead, Reads: []model.ObservedRead{read("b.py", 1, 5)}, Steps: []int{2}},
			{Command: "edit a.py", Category: model.CategoryEdit, Edits: []string{"a.py"}},
		},
		Prediction: model.Prediction{
			InstanceID: "t-1",
			Steps: []model.Step{
				{Files: []string{"a.py"}, Spans: []model.FileSpans{span("a.py", 5, 8)}},
				{Files: []string{"a.py"}, Spans: []model.FileSpans{span("a.py", 20, 22)}},
				{Files: []string{"b.py"}, Spans: []model.FileSpans{span("b.py", 1, 5)}},
			},
			Final: model.Step{Files: []string{"a.py"}, Spans: []model.FileSpans{span("a.py", 6, 7)}},
		},
	}
}

func TestDiagnoseSpans(t *testing.T) {
	files := testFiles(t)
	a := scoring.Analyze(everyCategoryRun(), goldAll(), files, model.ContextBench)
	type row struct {
		file               string
		start              int
		cat                diagnose.Category
		step, action, dist int
		seen, final        int
		missing            bool
	}
	cases := []struct {
		lens model.Lens
		want []row
	}{
		{model.LensContextBench, []row{
			// a.py 5-8: step 1 showed all 4 lines, final keeps 6-7 (2).
			{"a.py", 5, diagnose.Found, 1, 0, 0, 4, 2, false},
			// a.py 20-22: step 2 showed 3 lines, the final none.
			{"a.py", 20, diagnose.ReadThenDropped, 2, 2, 0, 3, 0, false},
			// b.py 10-12: step 3 showed 1-5; 10 − 5 = 5 lines away.
			{"b.py", 10, diagnose.NearMiss, 0, 3, 5, 0, 0, false},
			// c.py 3-4: only the grep hit at line 9; 9 − 4 = 5.
			{"c.py", 3, diagnose.SearchedNotRead, 0, 1, 5, 0, 0, false},
			{"d.py", 1, diagnose.NeverOpened, 0, -1, -1, 0, 0, false},
			{"missing.py", 1, diagnose.NeverOpened, 0, -1, -1, 0, 0, true},
		}},
		{model.LensObserved, []row{
			// Observed step 1 is action 0 (a.py 1-10): all 4 lines.
			{"a.py", 5, diagnose.Found, 1, 0, 0, 4, 2, false},
			// Actions 0 (1-10, 10 away) and 2 (12-17, 20 − 17 = 3 away)
			// read a.py but never lines 20-22: a near miss at action 2.
			{"a.py", 20, diagnose.NearMiss, 0, 2, 3, 0, 0, false},
			{"b.py", 10, diagnose.NearMiss, 0, 3, 5, 0, 0, false},
			{"c.py", 3, diagnose.SearchedNotRead, 0, 1, 5, 0, 0, false},
			{"d.py", 1, diagnose.NeverOpened, 0, -1, -1, 0, 0, false},
			{"missing.py", 1, diagnose.NeverOpened, 0, -1, -1, 0, 0, true},
		}},
	}
	for _, c := range cases {
		t.Run(c.lens.String(), func(t *testing.T) {
			d := diagnose.DiagnoseBoth(a)[c.lens]
			if len(d.Spans) != len(c.want) {
				t.Fatalf("got %d spans, want %d: %+v", len(d.Spans), len(c.want), d.Spans)
			}
			for i, w := range c.want {
				s := d.Spans[i]
				got := row{s.File, s.Start, s.Category, int(s.Step), int(s.Action), s.Distance, s.SeenLines, s.FinalLines, s.Missing}
				if got != w {
					t.Errorf("span %d:\n got %+v\nwant %+v", i, got, w)
				}
			}
		})
	}
}

func TestDiagnoseFiles(t *testing.T) {
	files := testFiles(t)
	a := scoring.Analyze(everyCategoryRun(), goldAll(), files, model.ContextBench)
	d := diagnose.DiagnoseBoth(a)[model.LensContextBench]
	type row struct {
		file         string
		cat          diagnose.Category
		step, action int
	}
	want := []row{
		{"a.py", diagnose.Found, 1, 0},
		{"b.py", diagnose.ReadThenDropped, 3, 3},
		{"c.py", diagnose.SearchedNotRead, 0, 1},
		{"d.py", diagnose.NeverOpened, 0, -1},
		{"e.py", diagnose.NeverOpened, 0, -1}, // Add-only: a file with no gold lines
		{"missing.py", diagnose.NeverOpened, 0, -1},
	}
	if len(d.Files) != len(want) {
		t.Fatalf("files = %+v", d.Files)
	}
	for i, w := range want {
		f := d.Files[i]
		if got := (row{f.File, f.Category, int(f.Step), int(f.Action)}); got != w {
			t.Errorf("file %d: got %+v, want %+v", i, got, w)
		}
	}
	// 6 files: 1 found, 1 dropped, 1 searched, 3 never opened; 6 spans:
	// 1 found, 1 dropped, 1 near miss, 1 searched, 2 never opened.
	if want := (diagnose.Counts{3, 1, 0, 1, 1}); d.FileCounts != want {
		t.Errorf("file counts = %v, want %v", d.FileCounts, want)
	}
	if want := (diagnose.Counts{2, 1, 1, 1, 1}); d.SpanCounts != want {
		t.Errorf("span counts = %v, want %v", d.SpanCounts, want)
	}
	if got := d.SpanCounts.Summary(); got != "1 found, 1 read then dropped, 1 near miss, 1 searched, not read, 2 never opened" {
		t.Errorf("summary = %q", got)
	}
	if got := d.ForFile("a.py"); len(got) != 2 || got[1].Start != 20 {
		t.Errorf("ForFile(a.py) = %+v", got)
	}
	if got := d.ForFile("zzz.py"); len(got) != 0 {
		t.Errorf("ForFile(zzz.py) = %+v", got)
	}
}

// TestDiagnoseEdgeCases: empty gold, an empty prediction, a final that
// declares lines no step showed, and a step naming a file without lines.
func TestDiagnoseEdgeCases(t *testing.T) {
	files := testFiles(t)
	cases := []struct {
		name  string
		gold  *model.Gold
		pred  model.Prediction
		lens  model.Lens
		check func(t *testing.T, d *diagnose.Diagnosis)
	}{
		{
			name: "empty gold", gold: &model.Gold{ID: "t"},
			pred: model.Prediction{Final: model.Step{Files: []string{"a.py"}}},
			check: func(t *testing.T, d *diagnose.Diagnosis) {
				if len(d.Files) != 0 || len(d.Spans) != 0 || d.FileCounts.Total() != 0 {
					t.Errorf("empty gold diagnosed %+v", d)
				}
			},
		},
		{
			// No steps and a final naming only a non-gold file: upstream
			// scores the final as the one step, so notes.md is "named" but
			// every gold span is still never opened.
			name: "empty prediction", gold: goldAll(),
			pred: model.Prediction{Final: model.Step{Files: []string{"notes.md"}}},
			check: func(t *testing.T, d *diagnose.Diagnosis) {
				if want := (diagnose.Counts{6, 0, 0, 0, 0}); d.SpanCounts != want {
					t.Errorf("span counts = %v, want %v", d.SpanCounts, want)
				}
				if want := (diagnose.Counts{6, 0, 0, 0, 0}); d.FileCounts != want {
					t.Errorf("file counts = %v, want %v", d.FileCounts, want)
				}
			},
		},
		{
			// The final names d.py 1-2 that no step showed: found, declared,
			// step 0. As the only step is the fallback final, the CB lens
			// has no action for it.
			name: "declared", gold: goldAll(),
			pred: model.Prediction{Final: model.Step{Files: []string{"d.py"}, Spans: []model.FileSpans{span("d.py", 1, 1)}}},
			lens: model.LensObserved,
			check: func(t *testing.T, d *diagnose.Diagnosis) {
				s := d.ForFile("d.py")[0]
				if s.Category != diagnose.Found || !s.Declared || s.Step != 0 || s.FinalLines != 1 || s.Lines() != 2 {
					t.Errorf("d.py = %+v", s)
				}
				if f := d.Files[3]; f.File != "d.py" || f.Category != diagnose.Found || !f.Declared {
					t.Errorf("file d.py = %+v", f)
				}
			},
		},
		{
			// A step that names b.py without lines: opened, distance unknown.
			name: "named without lines", gold: goldAll(),
			pred: model.Prediction{
				Steps: []model.Step{{Files: []string{"b.py"}}},
				Final: model.Step{Files: []string{"a.py"}},
			},
			check: func(t *testing.T, d *diagnose.Diagnosis) {
				s := d.ForFile("b.py")[0]
				if s.Category != diagnose.NearMiss || s.Distance != -1 || s.Step != 0 {
					t.Errorf("b.py = %+v", s)
				}
				if !strings.Contains(s.Describe(), "no lines of it were shown") {
					t.Errorf("describe = %q", s.Describe())
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := &model.Run{InstanceID: "t", Prediction: c.pred}
			a := scoring.Analyze(run, c.gold, files, model.ContextBench)
			c.check(t, diagnose.DiagnoseBoth(a)[c.lens])
		})
	}
}

func TestDescribe(t *testing.T) {
	cases := []struct {
		s    diagnose.Span
		want string
	}{
		{diagnose.Span{Start: 5, End: 8, Category: diagnose.Found, Action: 0, FinalLines: 2}, "found: first shown at action 1, 2 of 4 lines kept in the final context"},
		{diagnose.Span{Start: 5, End: 8, Category: diagnose.Found, Action: 2, FinalLines: 4}, "found: first shown at action 3, kept in the final context"},
		// No action produced the step (upstream's final-as-step fallback).
		{diagnose.Span{Start: 5, End: 8, Category: diagnose.Found, Step: 1, Action: -1, FinalLines: 4}, "found: first shown at step 1, kept in the final context"},
		{diagnose.Span{Start: 20, End: 22, Category: diagnose.ReadThenDropped, Action: 2, SeenLines: 3}, "read then dropped: 3 of 3 lines shown (first at action 3), none in the final context"},
		{diagnose.Span{Category: diagnose.NearMiss, Action: 3, Distance: 1}, "near miss: the file was read, the closest read was 1 line away (action 4)"},
		{diagnose.Span{Category: diagnose.SearchedNotRead, Action: 1, Distance: -1}, "searched, not read: a search listed the file (action 2)"},
		{diagnose.Span{Category: diagnose.SearchedNotRead, Action: 6, Distance: 0}, "searched, not read: a search hit one of its lines (action 7)"},
		{diagnose.Span{Category: diagnose.SearchedNotRead, Action: 6, Distance: 3}, "searched, not read: a search hit the file 3 lines away (action 7)"},
		{diagnose.Span{Category: diagnose.NeverOpened, Action: -1, Missing: true}, "never opened: the file is not in the repository"},
	}
	for _, c := range cases {
		if got := c.s.Describe(); got != c.want {
			t.Errorf("Describe(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestDiagnosisJSONRoundTrip(t *testing.T) {
	files := testFiles(t)
	a := scoring.Analyze(everyCategoryRun(), goldAll(), files, model.ContextBench)
	d := diagnose.DiagnoseBoth(a)[model.LensContextBench]
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"span_counts":{"never_opened":2,"searched_not_read":1,"near_miss":1,"read_then_dropped":1,"found":1}`) ||
		!strings.Contains(string(b), `"category":"read_then_dropped"`) {
		t.Errorf("json = %s", b)
	}
	var back diagnose.Diagnosis
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.SpanCounts != d.SpanCounts || back.Spans[2].Category != diagnose.NearMiss {
		t.Errorf("round trip: %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"span_counts": {"lost": 1}}`), &back); err == nil {
		t.Error("unknown category accepted")
	}
}

// DiagnoseBoth gives each lens what Diagnose gives it.
func TestDiagnoseBoth(t *testing.T) {
	files := testFiles(t)
	untouched := &model.Run{InstanceID: "t-1", Prediction: model.Prediction{InstanceID: "t-1",
		Final: model.Step{Files: []string{"z.py"}, Spans: []model.FileSpans{span("z.py", 1, 2)}}}}
	for _, c := range []struct {
		name string
		run  *model.Run
		// whether the lenses' file and span lists are equal
		files, spans bool
	}{
		// the lenses differ on spans (the grep is not a ContextBench step)
		// and agree on files
		{"every category", everyCategoryRun(), true, false},
		{"untouched", untouched, true, true},
	} {
		a := scoring.Analyze(c.run, goldAll(), files, model.ContextBench)
		both := diagnose.DiagnoseBoth(a)
		var want [2]*diagnose.Diagnosis
		for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
			if want[l] = diagnose.DiagnoseBoth(a)[l]; !reflect.DeepEqual(both[l], want[l]) {
				t.Errorf("%s %v:\n got  %+v\n want %+v", c.name, l, both[l], want[l])
			}
		}
		if equal := reflect.DeepEqual(want[0].Files, want[1].Files); equal != c.files {
			t.Errorf("%s: file lists equal %v, want %v", c.name, equal, c.files)
		}
		if equal := reflect.DeepEqual(want[0].Spans, want[1].Spans); equal != c.spans {
			t.Errorf("%s: span lists equal %v, want %v", c.name, equal, c.spans)
		}
	}
}

// A run that declares no final context: the observed lens scores the union
// of its steps in its place, and its diagnosis reads the same final, so a
// span it read is found there, not "read, then dropped" beside a final
// coverage of 1.00; the contextbench lens keeps the run's (empty) final,
// which the evaluator does not score (no_context_extracted): every span is
// NotScored there, none counted, nothing first read.
func TestStandInFinal(t *testing.T) {
	run := everyCategoryRun()
	run.Prediction.Final = model.Step{}
	a := scoring.Analyze(run, goldAll(), testFiles(t), model.ContextBench)
	obs := &a.Lenses[model.LensObserved]
	if !obs.FinalStandIn || a.Lenses[model.LensContextBench].FinalStandIn {
		t.Fatalf("stand-in flags: observed %v, contextbench %v", obs.FinalStandIn, a.Lenses[model.LensContextBench].FinalStandIn)
	}
	for _, s := range diagnose.DiagnoseBoth(a)[model.LensObserved].Spans {
		if s.File == "a.py" && s.Start == 5 && s.Category != diagnose.Found {
			t.Errorf("a.py 5-8, read by action 1 and in the stand-in final: %v", s.Category)
		}
	}
	cb := diagnose.DiagnoseBoth(a)[model.LensContextBench]
	if cb.Error != scoring.ErrNoContext || cb.SpanCounts != (diagnose.Counts{}) || cb.FileCounts != (diagnose.Counts{}) || len(cb.Spans) == 0 {
		t.Errorf("contextbench lens: error %q, counts %v %v, %d spans", cb.Error, cb.SpanCounts, cb.FileCounts, len(cb.Spans))
	}
	for _, s := range cb.Spans {
		if s.Category != diagnose.NotScored || s.Action != -1 {
			t.Errorf("contextbench lens: %s %d-%d is %v (action %d), want not scored", s.File, s.Start, s.End, s.Category, s.Action)
		}
	}
	for _, g := range diagnose.DiagnoseRun(a).Spans {
		if g.FoundAt(model.LensContextBench) != -1 || g.Label(model.LensContextBench) != "not scored" {
			t.Errorf("contextbench lens: %s %d: found at %d, %q", g.File(), g.Start(), g.FoundAt(model.LensContextBench), g.Label(model.LensContextBench))
		}
	}
}

// A span found but only partly kept in the final context says how much:
// "found 2/4 kept", not "found".
func TestFoundPartlyKeptLabel(t *testing.T) {
	a := scoring.Analyze(everyCategoryRun(), goldAll(), testFiles(t), model.ContextBench)
	for _, g := range diagnose.DiagnoseRun(a).Spans {
		if g.File() == "a.py" && g.Start() == 5 {
			if got := g.Label(model.LensContextBench); got != "found 2/4 kept" {
				t.Errorf("a.py 5-8 (final keeps 6-7): %q, want found 2/4 kept", got)
			}
			return
		}
	}
	t.Fatal("no a.py 5-8 span")
}
