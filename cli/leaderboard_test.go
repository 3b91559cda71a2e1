package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report --format leaderboard writes each run's leaderboard entry: on the
// demo's one instance each mean is that instance's figure, pass@1 comes
// from the harness report, lines per step and the agent from score's JSON
// extras; a report without resolved_ids is refused.
func TestLeaderboard(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "demo.json")
	if code, _, errs := exec(t, "score", "--gold", demoGold, "--repo", "../demo/task/repo", "--pred", demoTraj, "--format", "json", "--out", filepath.Join(dir, "o.jsonl")); code != 0 {
		t.Fatal(errs)
	}
	_, doc, _ := exec(t, "score", "--gold", demoGold, "--repo", "../demo/task/repo", "--pred", demoTraj, "--format", "json")
	os.WriteFile(res, []byte(doc), 0o644)
	var scored struct {
		Results []struct {
			NumSteps int `json:"num_steps"`
			Final    map[string]struct {
				Coverage, Precision float64
			} `json:"final"`
			Trajectory struct {
				AUC map[string]float64 `json:"auc_coverage"`
			} `json:"trajectory"`
			Trajscope struct {
				Agent, Model string
				Lenses       struct {
					ContextBench struct {
						Steps     int `json:"steps"`
						ReadLines int `json:"read_lines"`
					} `json:"contextbench"`
				} `json:"lenses"`
			} `json:"trajscope"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(doc), &scored); err != nil || len(scored.Results) != 1 {
		t.Fatalf("score --format json: %v\n%.300s", err, doc)
	}
	r := scored.Results[0]
	harness := write(t, filepath.Join(dir, "report.json"), `{"resolved_ids": ["pricebook__pricebook-42"], "unresolved_ids": []}`)
	code, out, errs := exec(t, "report", res, "--format", "leaderboard", "--resolved", harness)
	var entries []struct {
		Model       string
		Performance map[string]json.RawMessage
		Patterns    map[string]*float64
		Dynamics    map[string]float64
	}
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 1 {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	e := entries[0]
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.0006 }
	var line struct{ Recall, Precision, F1 float64 }
	json.Unmarshal(e.Performance["line"], &line)
	var pass float64
	json.Unmarshal(e.Performance["pass_at_1"], &pass)
	c, p := r.Final["line"].Coverage, r.Final["line"].Precision
	if !near(line.Recall, c) || !near(line.Precision, p) || !near(line.F1, 2*c*p/(c+p)) || pass != 1 {
		t.Errorf("performance %+v pass %v; want line %v/%v", line, pass, c, p)
	}
	if !strings.Contains(e.Model, filepath.Base(r.Trajscope.Model)) || e.Patterns["avg_steps_per_instance"] == nil || *e.Patterns["avg_steps_per_instance"] != float64(r.NumSteps) ||
		e.Patterns["avg_lines_per_step"] == nil || !near(*e.Patterns["avg_lines_per_step"], float64(r.Trajscope.Lenses.ContextBench.ReadLines)/float64(r.Trajscope.Lenses.ContextBench.Steps)) {
		t.Errorf("model %q patterns %v; scored %+v", e.Model, e.Patterns, r)
	}
	if !near(e.Dynamics["efficiency"], r.Trajectory.AUC["line"]) {
		t.Errorf("efficiency %v, line AUC %v", e.Dynamics["efficiency"], r.Trajectory.AUC["line"])
	}
	bad := write(t, filepath.Join(dir, "bad.json"), `{"resolved": 3}`)
	if code, _, errs := exec(t, "report", res, "--format", "leaderboard", "--resolved", bad); code != exitRuntime || !strings.Contains(errs, `no "resolved_ids" list`) {
		t.Errorf("a report without resolved_ids: exit %d %s", code, errs)
	}
}

// A results file of two models' runs is not entered under one model's
// name: its entry names both and says so, and --group model gives each its
// own (issue 50 #2). A model with no valid task has null figures, not 0
// (issue 50 #3).
func TestLeaderboardModels(t *testing.T) {
	dir := t.TempDir()
	_, doc, _ := exec(t, "score", "--gold", demoGold, "--repo", "../demo/task/repo", "--pred", demoTraj, "--format", "json")
	var scored struct{ Results []map[string]any }
	if err := json.Unmarshal([]byte(doc), &scored); err != nil || len(scored.Results) != 1 {
		t.Fatalf("%v", err)
	}
	row := func(model string, broken bool) string {
		r := map[string]any{}
		b, _ := json.Marshal(scored.Results[0])
		json.Unmarshal(b, &r)
		r["trajscope"].(map[string]any)["model"] = model
		if broken {
			r["error"], r["reason"] = "no_context_extracted", "nothing"
		}
		out, _ := json.Marshal(r)
		return string(out)
	}
	mixed := write(t, filepath.Join(dir, "mixed.jsonl"), row("qwen-a", false)+"\n"+row("qwen-a", false)+"\n"+row("qwen-b", false)+"\n")
	type entry struct {
		Model    string
		Patterns map[string]*float64
		Dynamics map[string]*float64
	}
	board := func(args ...string) ([]entry, string) {
		t.Helper()
		code, out, errs := exec(t, append([]string{"report", "--format", "leaderboard"}, args...)...)
		var es []entry
		if code != 0 || json.Unmarshal([]byte(out), &es) != nil {
			t.Fatalf("exit %d %s\n%s", code, errs, out)
		}
		return es, errs
	}
	es, errs := board(mixed)
	if len(es) != 1 || !strings.HasPrefix(es[0].Model, "2 models: ") || !strings.Contains(es[0].Model, "qwen-a (2 runs)") ||
		!strings.Contains(errs, "holds runs of 2 models") {
		t.Errorf("mixed file: %+v\n%s", es, errs)
	}
	if es, _ = board(mixed, "--group", "model"); len(es) != 2 || !strings.Contains(es[0].Model, "qwen-a") || !strings.Contains(es[1].Model, "qwen-b") {
		t.Errorf("--group model: %+v", es)
	}
	none := write(t, filepath.Join(dir, "none.jsonl"), row("qwen-c", true)+"\n")
	es, _ = board(none)
	if len(es) != 1 || es[0].Patterns["avg_steps_per_instance"] != nil || es[0].Dynamics["efficiency"] != nil || es[0].Dynamics["redundancy"] != nil {
		t.Errorf("no valid task: %+v", es)
	}
}
