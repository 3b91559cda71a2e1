package cli

import (
	"encoding/json"
	"os"
	"testing"
)

// An AgentStackBench page's first variant, read through its
// predTrajectory, reproduces the line AUC and redundancy the page
// publishes for it, bit for bit (line figures need no repository). Its
// second variant's published evaluation has 11 steps where its
// predTrajectory has 6: it was scored on another trajectory, so only the
// first is checked. Skipped without ../shared.
func TestAgentStackBenchPublishedFigures(t *testing.T) {
	const page = "../../shared/data/formats/agentstackbench/codex-gpt-5.4__django__django-11163.json"
	const gold = "../../shared/data/contextbench/contextbench_verified_test.parquet"
	b, err := os.ReadFile(page)
	if err != nil {
		t.Skip("no ../shared")
	}
	if _, err := os.Stat(gold); err != nil {
		t.Skip("no gold parquet")
	}
	var p struct {
		Variants []struct {
			Evaluated struct {
				AUC        map[string]float64 `json:"aucCoverage"`
				Redundancy map[string]float64 `json:"redundancy"`
			} `json:"evaluatedTrajectory"`
		} `json:"variants"`
	}
	if err := json.Unmarshal(b, &p); err != nil || len(p.Variants) != 2 {
		t.Fatalf("page: %v", err)
	}
	code, out, errs := exec(t, "view", page, "--gold", gold, "--json")
	var rows []struct {
		Lenses map[string]struct {
			AUC        float64 `json:"line_auc"`
			Redundancy float64 `json:"line_redundancy"`
		} `json:"lenses"`
	}
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 {
		t.Fatalf("exit %d, %v: %s", code, err, errs)
	}
	got, want := rows[0].Lenses["contextbench"], p.Variants[0].Evaluated
	if got.AUC != want.AUC["line"] || got.Redundancy != want.Redundancy["line"] {
		t.Errorf("variant A: line AUC %v, redundancy %v; the page publishes %v, %v", got.AUC, got.Redundancy, want.AUC["line"], want.Redundancy["line"])
	}
}
