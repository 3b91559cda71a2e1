package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/report"
)

// Downstream impact: resolved runs that read more show a positive
// difference with an interval and a positive point-biserial r; a side of
// one run says it is too few; the slices without extras stay empty; CSV
// and JSON carry the same figures.
func TestDownstreamImpact(t *testing.T) {
	var specs []spec
	for i, c := range []counts{{4, 4, 4}, {3, 4, 4}, {4, 4, 5}, {1, 4, 4}, {0, 4, 4}, {1, 4, 8}} {
		specs = append(specs, spec{id: fmt.Sprint("t", i), file: counts{1, 1, 1}, sym: counts{1, 1, 1}, span: counts{1, 1, 1}, line: c,
			steps: [][4]float64{{1, 1, 1, 0.5}}, auc: [4]float64{1, 1, 1, 0.5}})
	}
	path := write(t, "r.jsonl", specs...)
	resolved := map[string]bool{"t0": true, "t1": true, "t2": true}
	r, err := report.BuildFiles([]string{path}, report.Options{Resolved: resolved, Harness: "harness.json", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Impact == nil || len(r.Impact.Runs) != 1 {
		t.Fatalf("impact %+v", r.Impact)
	}
	ri := r.Impact.Runs[0]
	if ri.Resolved != 3 || ri.Unresolved != 3 {
		t.Fatalf("resolved %d, unresolved %d; want 3, 3", ri.Resolved, ri.Unresolved)
	}
	var line *report.ImpactMetric
	for k := range ri.Metrics {
		if ri.Metrics[k].Metric == "line recall" {
			line = &ri.Metrics[k]
		}
	}
	// Line recall: resolved 1, 0.75, 1 (mean 0.9167), unresolved 0.25, 0, 0.25 (0.1667).
	if line == nil || line.Diff == nil || *line.Diff < 0.74 || *line.Diff > 0.76 || *line.DiffLow <= 0 || *line.DiffHigh > 1 ||
		line.PointBiserial == nil || *line.PointBiserial < 0.9 || *line.RLow > *line.PointBiserial {
		t.Fatalf("line recall: %+v", line)
	}
	var md bytes.Buffer
	r.WriteMarkdown(&md)
	for _, want := range []string{"## Downstream impact: retrieval and resolution (association, not cause)", "3 resolved, 3 unresolved",
		"| line recall | 3 | 3 | 0.917 | 0.167 | +0.750 |", "an **association**, not a cause", "too few runs (n=0)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var csv bytes.Buffer
	r.WriteCSV(&csv)
	if !strings.HasPrefix(csv.String(), "run,metric,n_resolved") || !strings.Contains(csv.String(), "r,line recall,3,3,") {
		t.Errorf("CSV:\n%s", csv.String())
	}
	var js bytes.Buffer
	r.WriteJSON(&js)
	var doc struct {
		Impact struct {
			Runs []struct {
				Metrics []struct {
					Metric string   `json:"metric"`
					Diff   *float64 `json:"difference"`
				} `json:"metrics"`
			} `json:"runs"`
		} `json:"downstream_impact"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Impact.Runs) != 1 || doc.Impact.Runs[0].Metrics[1].Diff == nil {
		t.Errorf("JSON impact: %v %s", err, js.String())
	}
	// One resolved run: too few to compare, said instead of a number.
	r, _ = report.BuildFiles([]string{path}, report.Options{Resolved: map[string]bool{"t0": true}, Harness: "h", Seed: 1})
	if m := r.Impact.Runs[0].Metrics[1]; m.Diff != nil || !strings.Contains(m.Note, "too few runs") {
		t.Errorf("one resolved run: %+v", m)
	}
	// The same seed, the same figures.
	r2, _ := report.BuildFiles([]string{path}, report.Options{Resolved: resolved, Harness: "harness.json", Seed: 1})
	var md2 bytes.Buffer
	r2.WriteMarkdown(&md2)
	if md2.String() != md.String() {
		t.Error("the same seed gave different figures")
	}
}
