package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Execute(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

const (
	exGold  = "../testdata/examples/gold.jsonl"
	exPreds = "../testdata/examples/preds.jsonl"
	exRepo  = "../testdata/testvectors/repo"
)

// TestScoreJSONKeepsUpstreamRows: --format json adds trajscope's analysis
// under a last "trajscope" key of each row; with it removed, every row is
// the --out line byte for byte, and --out itself is the same file whether
// or not the analysis ran.
func TestScoreJSONKeepsUpstreamRows(t *testing.T) {
	dir := t.TempDir()
	plain, withJSON := filepath.Join(dir, "plain.jsonl"), filepath.Join(dir, "json.jsonl")
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", plain); code != 0 {
		t.Fatalf("score --out: exit %d: %s", code, errs)
	}
	doc, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", withJSON, "--format", "json")
	if code != 0 {
		t.Fatalf("score --format json: exit %d: %s", code, errs)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(withJSON)
	if !bytes.Equal(a, b) {
		t.Fatalf("--out differs when the analysis runs:\n%s\n%s", a, b)
	}
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	var parsed struct {
		Results []json.RawMessage          `json:"results"`
		Summary map[string]json.RawMessage `json:"summary"`
	}
	if err := json.Unmarshal([]byte(doc), &parsed); err != nil {
		t.Fatal(err)
	}
	if len(parsed.Results) != len(lines) || parsed.Summary["contextbench"] == nil || parsed.Summary["observed"] == nil {
		t.Fatalf("%d results for %d lines; summary keys %v", len(parsed.Results), len(lines), parsed.Summary)
	}
	withExtras := 0
	for i, raw := range parsed.Results {
		row := string(raw)
		if k := strings.Index(row, `, "trajscope": `); k >= 0 {
			withExtras++
			row = row[:k] + "}"
		}
		if row != lines[i] {
			t.Errorf("row %d differs from --out\n got %s\nwant %s", i, row, lines[i])
		}
	}
	// Two scored instances carry the analysis; the missing_gold row not.
	if withExtras != 2 {
		t.Errorf("%d rows with analysis, want 2", withExtras)
	}

	// The report reads the analysis back.
	docPath := filepath.Join(dir, "doc.json")
	os.WriteFile(docPath, []byte(doc), 0o644)
	out, errs, code := run(t, "report", docPath)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		// Union drop: owner__repo-1 steps show util.py 1 and mod.py 1-5,
		// 4-5 (3 gold lines), the final keeps mod.py 4-5 (2): 1/3;
		// owner__repo-3 has no steps: 1.0. Mean 2/3 over 2.
		"| 0.667 (n=2) |",
		// Spans: repo-1 mod 4-5 found, util 1-2 dropped; repo-3 (the final
		// 9-13 is its only step) 12-13 found, 4-5 a near miss 4 lines off.
		"| doc | gold spans | 2 | 1 | 1 | 0 | 0 | 4 |",
		"| doc | gold files | 2 | 1 | 0 | 0 | 0 | 3 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\n%s", want, out)
		}
	}
}

// TestScoreText shows the diagnosis of each gold span and the aggregate
// definitions.
func TestScoreText(t *testing.T) {
	out, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		// owner__repo-1: steps show util.py line 1 only; the final keeps
		// mod.py 4-5: util.py 1-2 was read then dropped.
		"pkg/util.py:1-2  read then dropped: 1 of 2 lines shown (first at action 1), none in the final context",
		"pkg/mod.py:4-5   found: first shown at action 3, kept in the final context",
		// Union drop: 3 gold lines seen (util 1, mod 4-5), 2 kept: 1 − 2/3.
		"lens contextbench: usage drop, union of steps → final (lines): 0.333 (3 gold lines seen, 2 in the final context)",
		"F1 mean",
		"2/3 instances scored, missing_gold=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q\n%s", want, out)
		}
	}
}

// resultsA and resultsB are hand-written upstream rows. Only the final
// coverage and precision matter for the table lines checked below.
const (
	rowTmpl = `{"instance_id": "ID", "num_steps": 1, "final": {"file": {"coverage": FC, "precision": FP, "intersection": 1, "gold_size": 2, "pred_size": 1}, "symbol": {"coverage": 1.0, "precision": 1.0, "intersection": 0, "gold_size": 0, "pred_size": 0}, "span": {"coverage": 1.0, "precision": 1.0, "intersection": 0, "gold_size": 0, "pred_size": 0}, "line": {"coverage": 1.0, "precision": 1.0, "intersection": 0, "gold_size": 0, "pred_size": 0}}, "trajectory": {"steps": [{"step": 1, "coverage": {"file": FC, "symbol": 1.0, "span": 1.0, "line": 0.0}}], "auc_coverage": {"file": FC, "symbol": 1.0, "span": 1.0, "line": 0.0}, "redundancy": {"file": 0.0, "symbol": 0.0, "span": 0.0, "line": 0.0}}}`
)

func row(id, fc, fp string) string {
	return strings.NewReplacer("ID", id, "FC", fc, "FP", fp).Replace(rowTmpl)
}

// TestReportCommand: `trajscope report` over three runs; the per-instance
// means in the table are checked against hand arithmetic.
func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, rows ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	x := write("x.jsonl", row("i1", "0.5", "1.0"), row("i2", "1.0", "0.25"), `{"instance_id": "i3", "error": "checkout_failed"}`)
	y := write("y.jsonl", row("i1", "1.0", "1.0"), row("i2", "0.0", "0.0"))
	z := write("z.jsonl", row("i1", "0.25", "0.5"))
	out, errs, code := run(t, "report", x, "why="+y, z, "--per-instance")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		// x, file: R̄ = (.5 + 1 + 0)/3 = .5; P̄ = (1 + .25 + 0)/3 = .41667;
		// F1: 2·.5·1/1.5 = 2/3, 2·1·.25/1.25 = .4, 0 → (2/3 + .4)/3 = .35556;
		// F1(R̄,P̄) = 2·.5·.41667/.91667 = .45455. Micro (counts 1/2/1 each):
		// R = 2/4, P = 2/2, F1 = 2/3. AUC (.5 + 1)/2 = .75.
		"| x | file | 0.500 | 0.417 | 0.356 | 0.455 | 0.500 | 1.000 | 0.667 | 0.750 | 0.000 |",
		// why (y), file: R̄ (1 + 0)/2 = .5, P̄ .5, F1 (1 + 0)/2 = .5.
		"| why | file | 0.500 | 0.500 | 0.500 | 0.500 | 0.500 | 1.000 | 0.667 | 0.500 | 0.000 |",
		// z, file: one instance, F1 = 2·.25·.5/.75 = 1/3.
		"| z | file | 0.250 | 0.500 | 0.333 | 0.333 | 0.500 | 1.000 | 0.667 | 0.250 | 0.000 |",
		// x, usage drop (last step): file i1 seen .5·2 = 1, kept 1 → 0;
		// i2 seen 1·2 = 2, kept 1 → .5; i3 error → 1: mean .5. Symbol and
		// line gold are empty, so seen = cov × 0 = 0: drop 1.0 everywhere.
		// Recall drop line: max(0, 0 − 1) = 0.
		"| x | – | – | 0.500 | 1.000 | 1.000 | 0.000 | – |",
		"| why | i2 |  | 0.000 | 0.000 | 0.000 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\n%s", want, out)
		}
	}

	out, errs, code = run(t, "report", "--format", "csv", "--compare", x, "why="+y)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	// Matched i1, i2. file F1 x: 2/3, .4; why: 1, 0. Δ = +1/3, −.4:
	// mean ((1 − 2/3) + (0 − .4))/2 = −1/30, −0.033333333333333326 in
	// float64; the median of two is the same.
	if !strings.Contains(out, "x,why,file F1,2,0.5333333333333333,0.5,-0.033333333333333326,-0.033333333333333326,") {
		t.Errorf("compare csv:\n%s", out)
	}
	// No instance in common: nothing measured, so no mean either (issue
	// 50 #3: the means read 0.0 beside empty intervals).
	apart := filepath.Join(t.TempDir(), "apart.jsonl")
	os.WriteFile(apart, []byte(row("i9", "0.5", "1.0")+"\n"), 0o644)
	out, _, _ = run(t, "report", "--format", "csv", "--compare", x, apart)
	if !strings.Contains(out, ",file F1,0,,,,,,,") {
		t.Errorf("compare csv of no matched instance:\n%s", out)
	}
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(row("i1", "0.5", "1.0")+"\n{\"instance_id\": \"i2\", \"final\": 7}\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", bad}, 1, "bad.jsonl:2: final: expected"},
		{[]string{"report", filepath.Join(dir, "none.jsonl")}, 1, "none.jsonl"},
		{[]string{"report", "--compare", bad}, 2, "--compare needs two result files"},
		{[]string{"report", "--format", "xml", bad}, 2, `unknown --format "xml"`},
		{[]string{"report", "--lens", "sideways", bad}, 2, "unknown lens"},
		{[]string{"report"}, 2, "report needs at least one results file"},
	}
	for _, c := range cases {
		_, errs, code := run(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d containing %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// langGold is the examples' gold with a language and split per task.
func langGold(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(exGold)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	tags := []string{`"language": "python", "source": "Verified", `, `"language": "go", "source": "Multi", `}
	for i := range lines {
		lines[i] = "{" + tags[i%2] + lines[i][1:]
	}
	p := filepath.Join(t.TempDir(), "gold.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReportByLanguage: score --format json records each task's language
// and split, and report --by reads them back; upstream rows get theirs
// from --gold.
func TestReportByLanguage(t *testing.T) {
	g := langGold(t)
	dir := t.TempDir()
	doc, out := filepath.Join(dir, "doc.json"), filepath.Join(dir, "up.jsonl")
	js, errs, code := run(t, "score", "--gold", g, "--pred", exPreds, "--repo", exRepo, "--format", "json", "--out", out)
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, errs)
	}
	os.WriteFile(doc, []byte(js), 0o644)
	if !strings.Contains(js, `"trajscope": {"semantics":"contextbench","language":"python","source":"Verified","f1":`) ||
		!strings.Contains(js, `"trajscope": {"semantics":"contextbench","language":"go","source":"Multi","f1":`) {
		t.Errorf("score json lacks the tasks:\n%.2000s", js)
	}
	// owner__repo-1 is python (line R 1/2 → its F1 2/3), owner__repo-3
	// go, owner__repo-9 has no gold: unknown, a missing_gold row.
	want := []string{
		"| doc | go | 1 | 1 | 0 |",
		"| doc | python | 1 | 1 | 0 |",
		"| doc | unknown | 1 | 0 | missing_gold=1 |",
		"| up | go | 1 | 1 | 0 |",
		"| up | unknown | 1 | 0 | missing_gold=1 |",
	}
	md, errs, code := run(t, "report", doc, up(out), "--by", "language", "--gold", g)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("report lacks %q\n%s", w, md)
		}
	}
	// Without --gold the upstream rows have no language.
	md, _, _ = run(t, "report", up(out), "--by", "source")
	if !strings.Contains(md, "| up | unknown | 3 | 2 | missing_gold=1 |") {
		t.Errorf("report without --gold:\n%s", md)
	}
	// --missed over the document: its diagnosis; over upstream rows: none.
	md, _, _ = run(t, "report", doc, "--missed")
	if !strings.Contains(md, "| owner__repo-1 | pkg/util.py | 1-2 | 1 | 1 | 0 | 1 | 0 | 0 | 0 |") {
		t.Errorf("missed table:\n%s", md)
	}
	md, _, _ = run(t, "report", up(out), "--missed")
	if !strings.Contains(md, "No input carries a gold diagnosis") {
		t.Errorf("missed table of upstream rows:\n%s", md)
	}
}

// up labels the upstream results file "up".
func up(path string) string { return "up=" + path }

// TestReportCompareSeeded: --seed makes the intervals reproducible, and
// the CSV carries them with the instance counts.
func TestReportCompareSeeded(t *testing.T) {
	dir := t.TempDir()
	var xs, ys []string
	for i := range 12 {
		id := fmt.Sprintf("i%d", i)
		xs = append(xs, row(id, fmt.Sprint(float64(i%4)/4), "1.0"))
		ys = append(ys, row(id, fmt.Sprint(float64((i*5)%7)/7), "0.5"))
	}
	x, y := filepath.Join(dir, "x.jsonl"), filepath.Join(dir, "y.jsonl")
	os.WriteFile(x, []byte(strings.Join(xs, "\n")), 0o644)
	os.WriteFile(y, []byte(strings.Join(ys, "\n")), 0o644)
	one, errs, code := run(t, "report", "--compare", x, y, "--format", "json", "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	two, _, _ := run(t, "report", "--compare", x, y, "--format", "json", "--seed", "7")
	other, _, _ := run(t, "report", "--compare", x, y, "--format", "json", "--seed", "8")
	if one != two || one == other || !strings.Contains(one, `"seed": 7`) || !strings.Contains(one, `"ci_low": `) {
		t.Errorf("seed 7 twice equal: %v; seed 8 differs: %v\n%s", one == two, one != other, one)
	}
	csv, _, _ := run(t, "report", "--compare", x, y, "--format", "csv")
	lines := strings.Split(csv, "\n")
	if !strings.HasSuffix(lines[0], ",ci_low,ci_high,confidence,p_value,test,seed,bootstrap_resamples,matched,only_a,only_b,error_a,error_b") ||
		!strings.HasSuffix(lines[1], ",sign-flip exact,1,10000,12,0,0,0,0") {
		t.Errorf("csv:\n%s", csv)
	}
}

// TestReportPlot: --plot writes the charts and says so on stderr.
func TestReportPlot(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x.jsonl")
	os.WriteFile(x, []byte(row("i1", "0.5", "1.0")+"\n"), 0o644)
	charts := filepath.Join(dir, "charts")
	_, errs, code := run(t, "report", x, "--plot", charts)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "trajscope: wrote " + filepath.Join(charts, "coverage_by_step.svg") + " and coverage_by_step.png\ntrajscope: no cost_vs_coverage.svg: no run records cost or tokens\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	if b, err := os.ReadFile(filepath.Join(charts, "coverage_by_step.svg")); err != nil || !bytes.Contains(b, []byte(">x (n=1)</text>")) {
		t.Errorf("chart: %v\n%s", err, b)
	}
}

func TestReportFlagErrors(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x.jsonl")
	os.WriteFile(x, []byte(row("i1", "0.5", "1.0")+"\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"report", x, "--by", "colour"}, `unknown --by "colour"`},
		{[]string{"report", x, "--gold", x}, "--gold names the groups of --by"},
		{[]string{"report", x, "--missed", "--top", "-1"}, "--top must be 0 (all) or more"},
		{[]string{"report", x, "--seed", "minus"}, "invalid argument"},
	}
	for _, c := range cases {
		_, errs, code := run(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 containing %q", c.args, code, errs, c.want)
		}
	}
}

// report --resolved HARNESS relates retrieval to resolution in every
// format, and still gives the leaderboard its pass@1.
func TestReportResolved(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--format", "json", "--out", filepath.Join(dir, "r.jsonl")); code != 0 {
		t.Fatal(errs)
	}
	doc, _, _ := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--format", "json")
	os.WriteFile(out, []byte(doc), 0o644)
	harness := filepath.Join(dir, "report.json")
	os.WriteFile(harness, []byte(`{"resolved_ids": ["owner__repo-1"], "unresolved_ids": ["owner__repo-3"]}`), 0o644)
	md, errs, code := run(t, "report", out, "--resolved", harness)
	if code != 0 || !strings.Contains(md, "## Downstream impact: retrieval and resolution (association, not cause)") ||
		!strings.Contains(md, "1 resolved, 1 unresolved") || !strings.Contains(md, "too few runs: at least 2 resolved and 2 unresolved") {
		t.Errorf("report --resolved: exit %d %s\n%s", code, errs, md)
	}
	csv, _, _ := run(t, "report", out, "--resolved", harness, "--format", "csv")
	if !strings.HasPrefix(csv, "run,metric,n_resolved,n_unresolved") {
		t.Errorf("csv:\n%s", csv)
	}
	js, _, _ := run(t, "report", out, "--resolved", harness, "--format", "json")
	if !strings.Contains(js, `"downstream_impact"`) {
		t.Errorf("json lacks the impact")
	}
	lb, _, code := run(t, "report", out, "--resolved", harness, "--format", "leaderboard")
	if code != 0 || !strings.Contains(lb, `"pass_at_1": 0.333`) {
		t.Errorf("leaderboard: %d %s", code, lb)
	}
}
