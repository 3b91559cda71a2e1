package report_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring/ir"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// observedRows rewrites rows as score --lens observed writes them: each
// says its lens, and those named in standIn that the union of their steps
// stood in for a final.
func observedRows(t *testing.T, path string, standIn ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		tail := `, "lens": "observed"`
		for _, id := range standIn {
			if strings.Contains(line, `"instance_id": "`+id+`"`) {
				tail += `, "final_stand_in": true`
			}
		}
		out = append(out, strings.TrimSuffix(line, "}")+tail+"}")
	}
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReportStatesWhatItsFiguresRestOn: the lens rows were scored under,
// finals that are a union of steps, and repository failures are said in
// markdown and JSON; mixed lenses are a warning; --skip-infra leaves the
// failures out and says so; the paired table marks the same.
func TestReportStatesWhatItsFiguresRestOn(t *testing.T) {
	a := write(t, "cb.jsonl", append(append([]spec(nil), runA...), spec{id: "a4", err: "checkout_failed"})...)
	b := write(t, "obs.jsonl", runB...)
	observedRows(t, b, "a2")

	md := func(o report.Options, args ...string) string {
		r, err := report.BuildFiles(args, o)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := r.WriteMarkdown(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	only := md(report.Options{}, a)
	for _, want := range []string{
		"Scored under the contextbench lens: the evaluator's rows.",
		"## Final context (rows scored under the contextbench lens)",
		"Warning: 1 of 4 rows of cb failed for want of the repository (checkout_failed)",
		"report --skip-infra leaves them out.",
	} {
		if !strings.Contains(only, want) {
			t.Errorf("report of one contextbench file lacks %q", want)
		}
	}
	both := md(report.Options{Compare: true}, a, b)
	for _, want := range []string{
		"Warning: the runs were scored under different lenses (contextbench: cb; observed: obs); their figures are not comparable.",
		"obs: 1 of 2 rows declared no final context; the union of their steps stands in",
		"## Final context (rows scored under different lenses: see the warning above)",
		"**Warning**: cb was scored under the contextbench lens and obs under the observed lens",
		"**Marked**: 1 of obs's 2 matched instances declared no final context",
	} {
		if !strings.Contains(both, want) {
			t.Errorf("report of both lacks %q", want)
		}
	}
	skipped := md(report.Options{SkipInfra: true}, a)
	if !strings.Contains(skipped, "Left out (--skip-infra): 1 row of cb") || strings.Contains(skipped, "checkout_failed=") {
		t.Errorf("--skip-infra report:\n%s", skipped)
	}
	// Left out, the row no longer counts 0 in the macro means: 3 rows, not 4.
	r, err := report.BuildFiles([]string{a}, report.Options{SkipInfra: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows[0].Instances != 3 || r.Rows[0].LeftOut != 1 {
		t.Errorf("skip-infra row: %d instances, %d left out; want 3, 1", r.Rows[0].Instances, r.Rows[0].LeftOut)
	}
	r, err = report.BuildFiles([]string{a, b}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Notes []string `json:"notes"`
		Runs  []struct {
			ScoredUnder  string `json:"scored_under"`
			FinalStandIn int    `json:"final_stand_in"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Notes) != 3 || doc.Runs[0].ScoredUnder != "contextbench" || doc.Runs[1].ScoredUnder != "observed" || doc.Runs[1].FinalStandIn != 1 {
		t.Errorf("JSON notes %q runs %+v", doc.Notes, doc.Runs)
	}
}

// An empty comparison says there is nothing to compare, not a header over
// nothing and "no correction for testing 0 metrics".
func TestEmptyComparison(t *testing.T) {
	a := write(t, "a.jsonl", spec{id: "x1", err: "missing_gold"})
	b := write(t, "b.jsonl", spec{id: "x2", err: "missing_gold"})
	r, err := report.BuildFiles([]string{a, b}, report.Options{Compare: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "Nothing to compare: no matched instance has a metric in both a and b.") || strings.Contains(out, "testing 0 metrics") {
		t.Errorf("empty comparison:\n%s", out)
	}
}

// Tokens are counts: their mean prints whole, never "49682.111".
func TestTTFRTokensPrintWhole(t *testing.T) {
	run := &report.ResultFile{Label: "r"}
	for i, n := range []int{49682, 49682, 49683} {
		n := n
		in := report.Instance{Result: model.Result{InstanceID: fmt.Sprint("t", i)}, Extras: &report.Extras{}}
		in.Extras.Lenses.ContextBench = &report.LensExtras{IR: &ir.Metrics{Computable: true, TTFRTokens: &n}}
		run.Instances = append(run.Instances, in)
	}
	r, err := report.Build([]*report.ResultFile{run}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "| 49682 |") || strings.Contains(out, "49682.333") {
		t.Errorf("TTFR tokens not whole:\n%s", out)
	}
}

// Results rows are read a line at a time: a gzip'd results file reports
// as the plain one does, row for row.
func TestReportStreamsRows(t *testing.T) {
	a := write(t, "a.jsonl", runA...)
	plain, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(t.TempDir(), "a.jsonl.gz")
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(plain)
	w.Close()
	os.WriteFile(gz, b.Bytes(), 0o644)
	if !report.Streams(a) || !report.Streams(gz) {
		t.Fatal("upstream rows are not streamed")
	}
	md := func(path string) string {
		r, err := report.BuildFiles([]string{"a=" + path}, report.Options{PerInstance: true})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		r.WriteMarkdown(&buf)
		return strings.ReplaceAll(buf.String(), path, "PATH")
	}
	if got, want := md(gz), md(a); got != want {
		t.Errorf("gzip'd results report differently:\n%s\nwant\n%s", got, want)
	}
}
