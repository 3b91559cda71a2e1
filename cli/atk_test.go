package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// score --at-k adds "at_k" and "initial_recall" after the evaluator's
// keys and changes nothing before them; at a rank past every prediction
// it is the final coverage; report reads it back into its table and plot.
func TestScoreAtKRows(t *testing.T) {
	base := []string{"score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo}
	plain, errs, code := run(t, base...)
	if code != 0 {
		t.Fatal(errs)
	}
	out := filepath.Join(t.TempDir(), "atk.jsonl")
	if _, errs, code := run(t, append(base, "--at-k", "1,3,1000", "--out", out)...); code != 0 {
		t.Fatal(errs)
	}
	data, _ := os.ReadFile(out)
	rows, ranked := strings.Split(strings.TrimSpace(plain), "\n"), strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(rows) != len(ranked) {
		t.Fatalf("%d rows, %d with --at-k", len(rows), len(ranked))
	}
	with, multi := 0, 0
	for i := range rows {
		head, _, found := strings.Cut(ranked[i], `, "at_k": `)
		if !found {
			if ranked[i] != rows[i] {
				t.Errorf("row %d differs without at_k:\n%s\n%s", i, ranked[i], rows[i])
			}
			continue // an error row
		}
		with++
		if head+"}" != rows[i] {
			t.Errorf("row %d: the evaluator's keys changed:\n%s\n%s", i, head, rows[i])
		}
		var r struct {
			NumSteps int `json:"num_steps"`
			Final    map[string]struct {
				Coverage float64 `json:"coverage"`
			} `json:"final"`
			AtK     map[string]map[string]float64 `json:"at_k"`
			Initial map[string]float64            `json:"initial_recall"`
		}
		if err := json.Unmarshal([]byte(ranked[i]), &r); err != nil {
			t.Fatal(err)
		}
		for g, m := range r.Final {
			if r.AtK[g]["1000"] != m.Coverage || r.AtK[g]["1"] > r.AtK[g]["3"] {
				t.Errorf("row %d %s: at k %v, final %v", i, g, r.AtK[g], m.Coverage)
			}
		}
		// Initial recall is of runs of several steps (model.Result.InitialRecall).
		if r.NumSteps > 1 {
			multi++
		}
		if (len(r.Initial) == 4) != (r.NumSteps > 1) {
			t.Errorf("row %d: %d steps, initial_recall %v", i, r.NumSteps, r.Initial)
		}
	}
	if with == 0 || multi == 0 {
		t.Fatalf("%d rows with at_k, %d of several steps", with, multi)
	}
	plots := filepath.Join(t.TempDir(), "plots")
	md, errs, code := run(t, "report", out, "--plot", plots)
	if code != 0 || !strings.Contains(md, "## Coverage at k") || !strings.Contains(md, "| @1 | @3 | @1000 | n | initial recall | n (initial) |") {
		t.Errorf("report: exit %d %s\n%s", code, errs, md)
	}
	csv, _, _ := run(t, "report", out, "--format", "csv")
	if !strings.Contains(csv, ",line_at_1,line_at_3,line_at_1000,line_initial_recall") {
		t.Errorf("report --format csv has no at-k columns:\n%.300s", csv)
	}
	if _, err := os.Stat(filepath.Join(plots, "coverage_at_k.svg")); err != nil {
		t.Errorf("no at-k plot: %v", err)
	}
	// score's text and CSV show what --at-k asked for, not only its JSONL.
	text, _, _ := run(t, append(base, "--at-k", "1,3", "--format", "text")...)
	if !strings.Contains(text, "  first 1 predictions: file ") || !strings.Contains(text, "  first 3 predictions: ") || !strings.Contains(text, "  initial recall (after step 1): ") {
		t.Errorf("score --format text --at-k:\n%s", text)
	}
	scsv, _, _ := run(t, append(base, "--at-k", "1,3", "--format", "csv")...)
	if head := strings.SplitN(scsv, "\n", 2)[0]; !strings.HasSuffix(head, ",at3_line,initial_recall_file,initial_recall_symbol,initial_recall_span,initial_recall_line") || !strings.Contains(head, ",at1_file,") {
		t.Errorf("score --format csv --at-k header: %s", head)
	}
	if _, errs, code := run(t, append(base, "--at-k", "0")...); code != exitUsage || !strings.Contains(errs, "--at-k") {
		t.Errorf("--at-k 0: exit %d: %s", code, errs)
	}
}
