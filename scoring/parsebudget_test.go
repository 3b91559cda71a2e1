package scoring

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trajscope/trajscope/model"
)

// TestParseBudget: files whose parse runs past the budget (a grammar loop
// found by fuzzing) are named in the result; the symbol figures keep
// upstream's numbers under contextbench and become null under fixed, where
// the aggregate leaves them out; the give-up is never cached, so the next
// run parses again; and the three slow files are parsed side by side.
func TestParseBudget(t *testing.T) {
	hang, err := os.ReadFile("symbols/testdata/hang/mutated_tsx.swift")
	if err != nil {
		t.Fatal(err)
	}
	repo := map[string]string{
		"a/hang1.swift": string(hang), "a/hang2.swift": string(hang), "a/hang3.swift": string(hang),
		"ok.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
	}
	span := func(f string, a, b int) model.GoldSpan { return model.GoldSpan{File: f, Start: a, End: b} }
	g := &model.Gold{ID: "o__r-1", Init: []model.GoldSpan{span("a/hang1.swift", 1, 3), span("a/hang2.swift", 1, 3), span("a/hang3.swift", 2, 4), span("ok.py", 1, 2)}}
	step := model.Step{Files: []string{"ok.py", "a/hang1.swift"}, Spans: []model.FileSpans{
		{File: "ok.py", Spans: []model.Interval{{Start: 1, End: 2}}}, {File: "a/hang1.swift", Spans: []model.Interval{{Start: 1, End: 2}}}}}
	p := &model.Prediction{InstanceID: "o__r-1", Steps: []model.Step{step}, Final: step}
	want := []string{"a/hang1.swift", "a/hang2.swift", "a/hang3.swift"}
	// The hang files never finish, whatever the budget; ok.py takes well
	// under a millisecond.
	const budget = 300 * time.Millisecond

	cache := &memCache{m: map[string][]byte{}}
	for run, sem := range []model.Semantics{model.ContextBench, model.Fixed, model.Fixed} {
		ResetDefsCache()
		files := NewFileCacheWithStore(newIDTree(repo), cache)
		files.ParseTimeout = budget
		res := Score(g, p, files, sem)
		files.Flush()
		if !reflect.DeepEqual(res.ParseGaveUp, want) || res.SymbolNA != (sem == model.Fixed) {
			t.Fatalf("run %d (%v): gave up on %v, symbol n/a %v", run, sem, res.ParseGaveUp, res.SymbolNA)
		}
		// ok.py's f is the one gold symbol that remains, and it was read.
		if m := res.Final.Symbol; m.GoldSize != 1 || m.Intersection != 1 {
			t.Errorf("run %d: symbol %+v, want ok.py's f alone", run, m)
		}
		out := string(AppendResultJSON(nil, &res, sem))
		nullSym := strings.Contains(out, `"symbol": {"coverage": null, "precision": null`) &&
			strings.Contains(out, `"auc_coverage": {"file": 0.5, "symbol": null`)
		if nullSym != (sem == model.Fixed) {
			t.Errorf("run %d (%v): symbol null = %v in %s", run, sem, nullSym, out)
		}
		if sem == model.Fixed {
			other := Score(g, &model.Prediction{InstanceID: "o__r-2", Final: step}, NewFileCache(newIDTree(map[string]string{"ok.py": repo["ok.py"]})), sem)
			agg := Summarize([]model.Result{res, other})
			if agg.NumValid != 2 || agg.Final.Symbol != other.Final.Symbol || agg.AUC.Symbol != other.Trajectory.AUCCoverage.Symbol {
				t.Errorf("aggregate symbol %+v auc %v: want the other instance's alone (%+v)", agg.Final.Symbol, agg.AUC.Symbol, other.Final.Symbol)
			}
		}
	}
}
