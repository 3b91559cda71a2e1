package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
)

// counts is (intersection, gold size, pred size) of one granularity.
type counts [3]int

func cov(inter, n int) float64 {
	if n > 0 {
		return float64(inter) / float64(n)
	}
	return 1
}

// spec describes a result row compactly; row() writes it as upstream would.
type spec struct {
	id                    string
	err                   string
	file, sym, span, line counts
	steps                 [][4]float64 // per step: file, symbol, span, line coverage
	auc, red              [4]float64
	editloc               *[3]int // hits, gold, pred
}

func (s spec) row() string {
	if s.err != "" {
		return fmt.Sprintf(`{"instance_id": %q, "error": %q}`, s.id, s.err)
	}
	g := func(c counts) string {
		return fmt.Sprintf(`{"coverage": %v, "precision": %v, "intersection": %d, "gold_size": %d, "pred_size": %d}`, cov(c[0], c[1]), cov(c[0], c[2]), c[0], c[1], c[2])
	}
	four := func(v [4]float64) string {
		return fmt.Sprintf(`{"file": %v, "symbol": %v, "span": %v, "line": %v}`, v[0], v[1], v[2], v[3])
	}
	var steps []string
	for i, st := range s.steps {
		steps = append(steps, fmt.Sprintf(`{"step": %d, "coverage": %s}`, i+1, four(st)))
	}
	out := fmt.Sprintf(`{"instance_id": %q, "num_steps": %d, "final": {"file": %s, "symbol": %s, "span": %s, "line": %s}, "trajectory": {"steps": [%s], "auc_coverage": %s, "redundancy": %s}`,
		s.id, len(s.steps), g(s.file), g(s.sym), g(s.span), g(s.line), strings.Join(steps, ", "), four(s.auc), four(s.red))
	if e := s.editloc; e != nil {
		p := cov(e[0], e[2])
		out += fmt.Sprintf(`, "editloc": {"recall": %v, "precision": %v, "intersection": %d, "gold_size": %d, "pred_size": %d}`, p, p, e[0], e[1], e[2])
	}
	return out + "}"
}

func write(t *testing.T, name string, specs ...spec) string {
	t.Helper()
	var b strings.Builder
	for _, s := range specs {
		b.WriteString(s.row() + "\n")
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runA: two valid instances and a missing_gold row.
var runA = []spec{
	{id: "a1", file: counts{1, 2, 1}, sym: counts{1, 1, 2}, span: counts{10, 40, 20}, line: counts{2, 4, 8},
		steps: [][4]float64{{0.5, 1, 0.25, 0.25}, {0.5, 1, 0.25, 0.75}}, auc: [4]float64{0.5, 1, 0.25, 0.5}, red: [4]float64{0, 0, 0, 0.2},
		editloc: &[3]int{1, 4, 2}},
	{id: "a2", file: counts{2, 2, 4}, sym: counts{0, 2, 3}, span: counts{30, 30, 30}, line: counts{4, 4, 4},
		steps: [][4]float64{{1, 0.5, 1, 1}}, auc: [4]float64{1, 0.5, 1, 1}},
	{id: "a3", err: "missing_gold"},
}

// runB scores a1 and a2 again.
var runB = []spec{
	{id: "a1", file: counts{2, 2, 2}, sym: counts{1, 1, 1}, span: counts{40, 40, 40}, line: counts{4, 4, 4},
		steps: [][4]float64{{1, 1, 1, 1}}, auc: [4]float64{1, 1, 1, 1}},
	{id: "a2", file: counts{0, 2, 1}, sym: counts{0, 2, 0}, span: counts{0, 30, 0}, line: counts{0, 4, 0},
		steps: [][4]float64{{0, 0, 0, 0}}},
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestSummarizeHandComputed checks every aggregate definition of run A
// against arithmetic done by hand.
func TestSummarizeHandComputed(t *testing.T) {
	run, err := report.ReadFile(write(t, "A.jsonl", runA...), "")
	if err != nil {
		t.Fatal(err)
	}
	row := report.Summarize(run, "contextbench")
	if row.Label != "A" || row.Instances != 3 || row.Valid != 2 || row.Errors["missing_gold"] != 1 {
		t.Fatalf("row header = %+v", row)
	}
	type want struct {
		rMacro, pMacro, f1Mean, f1Macro, rMicro, pMicro, f1Micro, auc, red, drop, recallDrop float64
	}
	cases := []struct {
		g string
		w want
	}{
		// R̄ = (1/2 + 1 + 0)/3 = 1/2; P̄ = (1 + 1/2 + 0)/3 = 1/2;
		// per-instance F1 2/3, 2/3, 0 → 4/9; F1(R̄,P̄) = 1/2.
		// Micro: Σ∩ 3, Σgold 4, Σpred 5 → 3/4, 3/5; F1 = 2·.75·.6/1.35 = 2/3.
		// AUC (0.5 + 1)/2; redundancy 0. Drop: a1 seen .5·2 = 1, kept 1 → 0;
		// a2 seen 2, kept 2 → 0; a3 error → 1: 1/3. Recall drop 0, 0 → 0.
		{"file", want{0.5, 0.5, 4.0 / 9, 0.5, 0.75, 0.6, 2.0 / 3, 0.75, 0, 1.0 / 3, 0}},
		// R̄ = (1 + 0)/3; P̄ = (1/2 + 0)/3; F1 2/3, 0 → 2/9;
		// F1(1/3, 1/6) = 2·(1/18)/(1/2) = 2/9. Micro ∩1 gold 3 pred 5 →
		// 1/3, 1/5; F1 = (2/15)/(8/15) = 1/4. AUC (1 + .5)/2 = .75.
		// Drop: a1 seen 1, kept 1 → 0; a2 seen .5·2 = 1, kept 0 → 1;
		// a3 → 1: 2/3. Recall drop a1 0, a2 .5 − 0 = .5 → .25.
		{"symbol", want{1.0 / 3, 1.0 / 6, 2.0 / 9, 2.0 / 9, 1.0 / 3, 0.2, 0.25, 0.75, 0, 2.0 / 3, 0.25}},
		// R̄ = (1/4 + 1)/3 = 5/12; P̄ = (1/2 + 1)/3 = 1/2; F1 1/3, 1 → 4/9;
		// F1(5/12, 1/2) = (5/12)/(11/12) = 5/11. Micro ∩40 gold 70 pred
		// 50 → 4/7, 4/5; F1 = (32/35)/(48/35) = 2/3. AUC (.25+1)/2.
		// Drop: a1 seen .25·40 = 10, kept 10 → 0; a2 0; a3 1 → 1/3.
		{"span", want{5.0 / 12, 0.5, 4.0 / 9, 5.0 / 11, 4.0 / 7, 0.8, 2.0 / 3, 0.625, 0, 1.0 / 3, 0}},
		// R̄ = (1/2 + 1)/3 = 1/2; P̄ = (1/4 + 1)/3 = 5/12; F1 1/3, 1 → 4/9;
		// F1(1/2, 5/12) = 5/11. Micro ∩6 gold 8 pred 12 → 3/4, 1/2; F1 3/5.
		// AUC (.5 + 1)/2; redundancy (.2 + 0)/2. Drop: a1 seen .75·4 = 3,
		// kept 2 → 1/3; a2 0; a3 1 → (4/3)/3 = 4/9. Recall drop
		// a1 .75 − .5 = .25, a2 0 → .125.
		{"line", want{0.5, 5.0 / 12, 4.0 / 9, 5.0 / 11, 0.75, 0.5, 0.6, 0.75, 0.1, 4.0 / 9, 0.125}},
	}
	for _, c := range cases {
		g := model.Granularity(slices.Index([]string{"file", "symbol", "span", "line"}, c.g))
		s := row.Final.At(g)
		got := want{s.RecallMacro, s.PrecisionMacro, s.F1Mean, s.F1OfMacro, s.RecallMicro, s.PrecisionMicro, s.F1OfMicro, s.AUC, s.Redundancy, s.DropLastStep.Mean, s.RecallDrop.Mean}
		gv, wv := []float64{got.rMacro, got.pMacro, got.f1Mean, got.f1Macro, got.rMicro, got.pMicro, got.f1Micro, got.auc, got.red, got.drop, got.recallDrop},
			[]float64{c.w.rMacro, c.w.pMacro, c.w.f1Mean, c.w.f1Macro, c.w.rMicro, c.w.pMicro, c.w.f1Micro, c.w.auc, c.w.red, c.w.drop, c.w.recallDrop}
		for i := range gv {
			if !near(gv[i], wv[i]) {
				t.Errorf("%s: got %+v\nwant %+v", c.g, got, c.w)
				break
			}
		}
	}
	// Drop counts all 3 rows, recall drop only the 2 valid ones.
	if row.Final.Line.DropLastStep.N != 3 || row.Final.Line.RecallDrop.N != 2 {
		t.Errorf("drop n = %d, recall drop n = %d", row.Final.Line.DropLastStep.N, row.Final.Line.RecallDrop.N)
	}
	// EditLoc micro: only a1 has a patch: 1 hit of 4 gold lines, 2 deleted.
	if row.EditLoc == nil || row.EditLoc.Recall != 0.25 || row.EditLoc.Precision != 0.5 {
		t.Errorf("editloc = %+v", row.EditLoc)
	}
	// Upstream JSONL carries no trajscope analysis.
	if row.UnionDrop != nil || row.IR != nil || row.SpanDiagnosis != nil {
		t.Errorf("extras from JSONL: %+v", row)
	}
}

// TestReportMarkdownSeveralRuns: the markdown table for two runs shows the
// hand-computed per-instance means.
func TestReportMarkdownSeveralRuns(t *testing.T) {
	a, err := report.ReadFile(write(t, "A.jsonl", runA...), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := report.ReadFile(write(t, "b.jsonl", runB...), "bee")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build([]*report.ResultFile{a, b}, report.Options{PerInstance: true, Compare: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"| A | " + a.Path + " | jsonl | 3 | 2 | missing_gold=1 |",
		// Run A, file: see TestSummarizeHandComputed.
		"| A | file | 0.500 | 0.500 | 0.444 | 0.500 | 0.750 | 0.600 | 0.667 | 0.750 | 0.000 |",
		"| A | line | 0.500 | 0.417 | 0.444 | 0.455 | 0.750 | 0.500 | 0.600 | 0.750 | 0.100 |",
		// Run B, file: R̄ = (1 + 0)/2, P̄ = (1 + 0)/2, F1 (1 + 0)/2;
		// micro ∩2 gold 4 pred 3 → .5, .667, F1 = (2/3)/(7/6) = 4/7.
		"| bee | file | 0.500 | 0.500 | 0.500 | 0.500 | 0.500 | 0.667 | 0.571 | 0.500 | 0.000 |",
		// Run B, symbol: R̄ (1 + 0)/2; P̄ (1 + 1)/2 (pred 0 → 1.0);
		// F1 1 and F1(0, 1) = 0 → .5; F1(.5, 1) = 2/3; micro ∩1 gold 3
		// pred 1 → 1/3, 1, F1 .5.
		"| bee | symbol | 0.500 | 1.000 | 0.500 | 0.667 | 0.333 | 1.000 | 0.500 | 0.500 | 0.000 |",
		// Usage drop, run A: file 1/3, symbol 2/3, line 4/9; recall drop .125.
		"| A | 0.250 | 0.500 | 0.333 | 0.667 | 0.444 | 0.125 | – |",
		// Compare, file F1: a1 2/3 → 1 (+1/3), a2 2/3 → 0 (−2/3): mean A
		// 2/3, mean B 1/2, mean Δ −1/6, median −1/6, IQR 1/3 − (−2/3) = 1.
		// Bootstrap means of two pairs: −2/3 (1/4), −1/6 (1/2), +1/3 (1/4),
		// so the 2.5 % and 97.5 % points are −2/3 and +1/3. Sign flips of
		// {1/3, −2/3} sum to ±1/3 or ±1, all reaching |−1/3|: p = 4/4.
		"| file F1 | 2 | 0.667 | 0.500 | -0.167 | [-0.667, +0.333] | 1.000 | -0.167 | 1.000 | 1 / 1 / 0 |",
		"Matched (valid in both): 2. Only in A: 1; only in bee: 0.",
		// Per-instance rows.
		"| A | a1 |  | 0.500 | 1.000 | 0.667 |",
		"| A | a3 | missing_gold | – | – | – |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q\n%s", want, md)
		}
	}
}

func TestReportCSVAndJSON(t *testing.T) {
	a, err := report.ReadFile(write(t, "A.jsonl", runA...), "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build([]*report.ResultFile{a}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "run,path,instances,valid,errors,file_recall_macro,file_precision_macro,file_f1_mean,") {
		t.Fatalf("csv = %s", buf.String())
	}
	// file: R̄ .5, P̄ .5, F1 mean 4/9 in full precision.
	if !strings.Contains(lines[1], ",3,2,missing_gold=1,0.5,0.5,0.4444444444444444,0.5,0.75,0.6,") {
		t.Errorf("csv row = %s", lines[1])
	}
	buf.Reset()
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"f1_mean": 0.4444444444444444`) {
		t.Errorf("json = %s", buf.String())
	}
}

// TestParseErrors: malformed result files fail with the file, the place and
// what was expected, never a panic.
func TestParseErrors(t *testing.T) {
	good := runA[0].row()
	cases := []struct {
		name, content, want string
	}{
		{"empty", "  \n", "x.jsonl: empty file"},
		{"not json", "hello\n", `x.jsonl:1: expected a JSON object per line`},
		{"bad second line", good + "\n{\"instance_id\": \"b\", \n", "x.jsonl:2: "},
		{"no instance id", good + "\n" + `{"final": {}}`, `x.jsonl:2: expected a result row with "instance_id"`},
		{"wrong type", `{"instance_id": 7}`, `x.jsonl:1: instance_id: expected string, found a JSON number`},
		{"no final", `{"instance_id": "a"}`, `x.jsonl:1: instance "a": expected "final" (or "error")`},
		{"missing granularity", strings.Replace(good, `"symbol": {`, `"symbolx": {`, 1), `x.jsonl:1: instance "a1": expected "final"."symbol"`},
		{"coverage as string", strings.Replace(good, `"coverage": 0.5`, `"coverage": "0.5"`, 1), `x.jsonl:1: final.file.coverage: expected float64, found a JSON string`},
		{"document bad row", `{"results": [` + good + `, {"instance_id": "z", "final": 3}], "aggregate": {}}`, "x.jsonl:1: result 2 (byte "},
		{"document not array", `{"results": 5}`, `"results" is not a JSON array`},
		{"report output as input", "{\n  \"lens\": \"contextbench\",\n  \"runs\": []\n}\n", `x.jsonl:1: a JSON object with neither "results" nor "instance_id"`},
		{"truncated array", `[` + good, "unterminated array"},
		// Values no evaluator writes: they would sum past int64 or average
		// into nonsense ("P micro -0.062"), so the row is refused.
		{"negative coverage", strings.Replace(good, `"coverage": 0.5`, `"coverage": -3.5`, 1), `x.jsonl:1: instance "a1": final.file.coverage is -3.5; expected a fraction between 0 and 1`},
		{"coverage above one", strings.Replace(good, `"coverage": 0.5`, `"coverage": 1.5`, 1), `final.file.coverage is 1.5`},
		{"huge gold size", good + "\n" + strings.Replace(good, `"gold_size": `, `"gold_size": 9223372036854775807, "x": `, 1), `x.jsonl:2: instance "a1": final.file.gold_size is 9223372036854775807; expected a size between 0 and`},
		{"negative size", strings.Replace(good, `"pred_size": `, `"pred_size": -1, "x": `, 1), `final.file.pred_size is -1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := report.Parse([]byte(c.content), "x.jsonl")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestParseFormats(t *testing.T) {
	good := runA[0].row()
	cases := []struct {
		name, content, format string
		n                     int
	}{
		{"jsonl with blank lines", "\n" + good + "\n\n" + runA[2].row() + "\n", "jsonl", 2},
		{"document", `{"results": [` + good + `, ` + runA[2].row() + `], "aggregate": {"num_valid": 1}}`, "json", 2},
		{"array", `[` + good + `]`, "json", 1},
		{"bom", "\xef\xbb\xbf" + good, "jsonl", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ins, format, err := report.Parse([]byte(c.content), "x")
			if err != nil || format != c.format || len(ins) != c.n {
				t.Fatalf("got %d rows, format %q, err %v", len(ins), format, err)
			}
			if ins[0].Result.Final.Line.Intersection != 2 || ins[0].Result.Trajectory.Steps[1].Coverage.Line != 0.75 || ins[0].Result.EditLoc.GoldSize != 4 {
				t.Errorf("row 0 = %+v", ins[0].Result)
			}
		})
	}
}

// TestParseDocuments: a document is read in one pass when it can be, and
// means what encoding/json makes of it either way: "results" after other
// members, "results" twice (the last wins), members after it checked.
func TestParseDocuments(t *testing.T) {
	a1, a2, err := runA[0].row(), runA[1].row(), runA[2].row()
	cases := []struct {
		name, content string
		ids           []string
		err           string
	}{
		{"results first", `{"results": [` + a1 + `, ` + a2 + `], "aggregate": {"n": 2}}`, []string{"a1", "a2"}, ""},
		{"results last", `{"aggregate": {"n": [1, {"x": "]"}]}, "results": [` + a1 + `]}`, []string{"a1"}, ""},
		{"spaced", "{\n  \"results\" :\n [ " + a1 + " ]\n}\n", []string{"a1"}, ""},
		{"twice", `{"results": [` + a1 + `], "results": [` + err + `, ` + a2 + `]}`, []string{"a3", "a2"}, ""},
		{"escaped key", `{"res\u0075lts": [` + a2 + `]}`, []string{"a2"}, ""},
		{"bad member after", `{"results": [` + a1 + `], "aggregate": {"n": }}`, nil, `x:1: invalid JSON at byte`},
		{"cut after the array", `{"results": [` + a1 + `]`, nil, "x:1: invalid JSON at byte"},
		{"bad row", `{"results": [` + a1 + `, {"instance_id": 3}]}`, nil, `result 2 (byte `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ins, _, err := report.Parse([]byte(c.content), "x")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			var ids []string
			for _, in := range ins {
				ids = append(ids, in.Result.InstanceID)
			}
			if err != nil || !slices.Equal(ids, c.ids) {
				t.Errorf("got %v, %v; want %v", ids, err, c.ids)
			}
		})
	}
}

func TestCompareRejectsDuplicates(t *testing.T) {
	a, err := report.ReadFile(write(t, "A.jsonl", runA[0], runA[0]), "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := report.ReadFile(write(t, "B.jsonl", runB...), "")
	if _, err := report.Pair(a, b, "contextbench", report.DefaultSeed); err == nil || !strings.Contains(err.Error(), `instance "a1" appears twice (line 1 and line 2)`) {
		t.Errorf("err = %v", err)
	}
}

func TestStats(t *testing.T) {
	cases := []struct {
		in                          []float64
		mean, std, median, p50, p90 float64
	}{
		{nil, 0, 0, 0, 0, 0},
		{[]float64{0.5}, 0.5, 0, 0.5, 0.5, 0.5},
		// mean 2.5; sample std sqrt(((1.5²+.5²)·2)/3) = sqrt(5/3);
		// median (2+3)/2; p90 at 3·0.9 = 2.7: 3 + 0.7·(4−3) = 3.7.
		{[]float64{4, 1, 3, 2}, 2.5, math.Sqrt(5.0 / 3), 2.5, 2.5, 3.7},
	}
	for _, c := range cases {
		s := report.NewStats(c.in)
		if s.N != len(c.in) || !near(s.Mean, c.mean) || !near(s.Std, c.std) || !near(s.Median, c.median) || !near(s.P50, c.p50) || !near(s.P90, c.p90) {
			t.Errorf("NewStats(%v) = %+v", c.in, s)
		}
	}
}

func TestGroupByModel(t *testing.T) {
	in := func(id, agent, mdl string) report.Instance {
		i := report.Instance{}
		i.Result.InstanceID = id
		if agent != "" || mdl != "" {
			i.Extras = &report.Extras{Agent: agent, Model: mdl}
		}
		return i
	}
	runs := []*report.ResultFile{
		{Label: "verified", Path: "v.json", Format: "json", Instances: []report.Instance{in("1", "miniswe", "gpt-5"), in("2", "miniswe", "claude")}},
		{Label: "pro", Path: "p.jsonl", Format: "jsonl", Instances: []report.Instance{in("3", "miniswe", "gpt-5"), in("4", "", "")}},
	}
	rep := build(t, runs, report.Options{ByModel: true})
	type g struct {
		label, path, format string
		n                   int
	}
	want := []g{{"miniswe/gpt-5", "v.json, p.jsonl", "mixed", 2}, {"miniswe/claude", "v.json", "json", 1}, {"pro", "p.jsonl", "jsonl", 1}}
	if len(rep.Runs) != len(want) || len(rep.Rows) != len(want) {
		t.Fatalf("got %d groups", len(rep.Runs))
	}
	for i, w := range want {
		got := rep.Runs[i]
		if x := (g{got.Label, got.Path, got.Format, rep.Rows[i].Instances}); x != w {
			t.Errorf("group %d = %+v, want %+v", i, x, w)
		}
	}
}

// TestF1Definitions: per-instance F1, the mean of per-instance F1, and F1 of
// the macro and of the micro aggregates, on the file granularity.
func TestF1Definitions(t *testing.T) {
	file := func(id string, c counts) spec {
		return spec{id: id, file: c, sym: c, span: c, line: c, steps: [][4]float64{{}}}
	}
	cases := []struct {
		name                             string
		rows                             []spec
		f1Mean, f1Macro, f1Micro, rMicro float64
	}{
		// Empty gold: coverage 1.0, precision 0/2 = 0 → F1 0 everywhere;
		// micro R = 0/0 → 1.0 as upstream, P = 0/2.
		{"empty gold", []spec{file("g", counts{0, 0, 2})}, 0, 0, 0, 1},
		// Empty prediction: coverage 0/4, precision 1.0 → F1 0.
		{"empty prediction", []spec{file("p", counts{0, 4, 0})}, 0, 0, 0, 0},
		// Both empty: 1.0 and 1.0 → F1 1.
		{"both empty", []spec{file("b", counts{0, 0, 0})}, 1, 1, 1, 1},
		// F1 2/3 and .6 → mean 19/30; macro R .625, P .75 → 15/22;
		// micro 4/6, 4/7 → (16/21)/(26/21) = 8/13.
		{"two instances", []spec{file("m1", counts{1, 2, 1}), file("m2", counts{3, 4, 6})}, 19.0 / 30, 15.0 / 22, 8.0 / 13, 2.0 / 3},
		// An error row counts 0 in the macro means, not in micro: R̄ .25,
		// P̄ .5, F1 mean (2/3)/2; F1(.25, .5) = 1/3; micro .5, 1 → 2/3.
		{"error row", []spec{file("e1", counts{1, 2, 1}), {id: "e2", err: "checkout_failed"}}, 1.0 / 3, 1.0 / 3, 2.0 / 3, 0.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			for _, s := range c.rows {
				b.WriteString(s.row() + "\n")
			}
			ins, _, err := report.Parse([]byte(b.String()), "x")
			if err != nil {
				t.Fatal(err)
			}
			s := report.Summarize(&report.ResultFile{Label: "x", Instances: ins}, "contextbench").Final.File
			if !near(s.F1Mean, c.f1Mean) || !near(s.F1OfMacro, c.f1Macro) || !near(s.F1OfMicro, c.f1Micro) || !near(s.RecallMicro, c.rMicro) {
				t.Errorf("got F1 mean %v, of macro %v, of micro %v, R micro %v; want %v %v %v %v", s.F1Mean, s.F1OfMacro, s.F1OfMicro, s.RecallMicro, c.f1Mean, c.f1Macro, c.f1Micro, c.rMicro)
			}
			row := report.NewInstanceRow("x", &ins[0], "contextbench")
			if ins[0].Result.Error == "" && len(c.rows) == 1 && !near(row.F1.File, c.f1Mean) {
				t.Errorf("per-instance F1 = %v, want %v", row.F1.File, c.f1Mean)
			}
		})
	}
}

// TestAllErrorsRun: with no valid instance the micro and trajectory columns
// are blank, the macro ones 0, and every usage drop 1.0.
func TestAllErrorsRun(t *testing.T) {
	ins, _, err := report.Parse([]byte(runA[2].row()+"\n"), "e.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	run := &report.ResultFile{Label: "E", Path: "e.jsonl", Format: "jsonl", Instances: ins}
	rep, err := report.Build([]*report.ResultFile{run}, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.WriteMarkdown(&buf)
	for _, want := range []string{"| E | file | 0.000 | 0.000 | 0.000 | 0.000 | – | – | – | – | – |", "| E | – | – | 1.000 | 1.000 | 1.000 | – | – |"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("markdown lacks %q\n%s", want, buf.String())
		}
	}
}

// exampleDoc is report/testdata/examples.json (`trajscope score --format
// json` of testdata/examples: trajscope extras, diagnoses, IR) with each
// instance's run information set by info(k, extras) and written to name.
func exampleDoc(t *testing.T, name string, info func(k int, extras map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile("testdata/examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for k, r := range doc["results"].([]any) {
		if ex, ok := r.(map[string]any)["trajscope"].(map[string]any); ok {
			info(k, ex)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// BuildFiles (one file at a time, keeping none) writes what Build over
// every file read writes: every section, format and lens, with colliding
// default labels, a repeated argument, rows per agent/model across files
// and --compare of the last two arguments.
func TestBuildFilesIsBuild(t *testing.T) {
	dir := t.TempDir()
	a, b := write(t, "A.jsonl", runA...), write(t, "B.jsonl", runB...)
	v1 := exampleDoc(t, "v1.json", func(k int, ex map[string]any) {
		ex["agent"], ex["model"] = "ag", []string{"x", "y"}[k%2]
		ex["language"], ex["source"] = []string{"python", "go"}[k%2], "Verified"
		ex["cost_usd"] = 0.5 * float64(k)
	})
	v2 := exampleDoc(t, "v2.json", func(k int, ex map[string]any) {
		ex["agent"], ex["model"] = "ag", []string{"y", "z"}[k%2]
		ex["language"] = "rust"
		ex["tokens"] = map[string]any{"input": 100 * k, "output": 7}
	})
	var same []string
	for i, src := range []string{a, b} {
		p := filepath.Join(dir, []string{"x", "y"}[i], "all.jsonl")
		data, _ := os.ReadFile(src)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
		same = append(same, p)
	}
	noExt := func(p string) string { return strings.TrimSuffix(filepath.ToSlash(p), ".jsonl") }
	// Each case: the arguments, and the runs they name (label, path).
	cases := []struct {
		args []string
		runs [][2]string
	}{
		{[]string{a, "bee=" + b}, [][2]string{{"A", a}, {"bee", b}}},
		{[]string{same[0], same[1], a}, [][2]string{{noExt(same[0]), same[0]}, {noExt(same[1]), same[1]}, {"A", a}}},
		{[]string{a, a, b}, [][2]string{{"A", a}, {"B", b}}},
		{[]string{v1, a, v2}, [][2]string{{"v1", v1}, {"A", a}, {"v2", v2}}},
	}
	options := []report.Options{
		{},
		{PerInstance: true},
		{Missed: true},
		{Missed: true, Top: 1, By: report.ByLanguage},
		{ByModel: true, PerInstance: true, Missed: true, By: report.BySource},
		{Compare: true, PerInstance: true, Seed: 3},
	}
	for _, c := range cases {
		var runs []*report.ResultFile
		for _, r := range c.runs {
			run, err := report.ReadFile(r[1], r[0])
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, run)
		}
		for _, o := range options {
			for _, lens := range []string{"contextbench", "observed"} {
				o.Lens = lens
				whole, err := report.Build(runs, o)
				if err != nil {
					t.Fatal(err)
				}
				each, err := report.BuildFiles(c.args, o)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range []func(*report.Report, *bytes.Buffer) error{
					func(r *report.Report, b *bytes.Buffer) error { return r.WriteMarkdown(b) },
					func(r *report.Report, b *bytes.Buffer) error { return r.WriteCSV(b) },
					func(r *report.Report, b *bytes.Buffer) error { return r.WriteJSON(b) },
				} {
					var x, y bytes.Buffer
					if err := errors.Join(w(whole, &x), w(each, &y)); err != nil {
						t.Fatal(err)
					}
					if x.String() != y.String() || x.Len() == 0 {
						t.Errorf("%v %+v: BuildFiles wrote\n%s\nBuild wrote\n%s", c.args, o, y.String(), x.String())
					}
				}
				if !reflect.DeepEqual(whole.Curves, each.Curves) {
					t.Errorf("%v: curves differ", c.args)
				}
				for _, r := range each.Runs {
					if r.Instances != nil {
						t.Errorf("BuildFiles kept %s's rows", r.Label)
					}
				}
			}
		}
	}
	// The documents' sections are there to compare: agent/model rows
	// across files (the error row, without extras, under its file's
	// label), groups, diagnoses.
	rep, err := report.BuildFiles([]string{v1, v2}, report.Options{ByModel: true, Missed: true, By: report.ByLanguage})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, r := range rep.Runs {
		labels = append(labels, r.Label+" "+r.Path)
	}
	if want := []string{"ag/x " + v1, "ag/y " + v1 + ", " + v2, "v1 " + v1, "ag/z " + v2, "v2 " + v2}; !slices.Equal(labels, want) {
		t.Errorf("rows %q, want %q", labels, want)
	}
	var groups []string
	for _, g := range rep.Groups.Rows {
		groups = append(groups, fmt.Sprintf("%s %s %d", g.Run, g.Group, g.Row.Instances))
	}
	if want := []string{"ag/x python 1", "ag/y go 1", "ag/y rust 1", "v1 unknown 1", "ag/z rust 1", "v2 unknown 1"}; !slices.Equal(groups, want) {
		t.Errorf("groups %q, want %q", groups, want)
	}
	if m := rep.Missed; m.Diagnosed != 3 || !slices.Equal(m.Undiagnosed, []string{"v1", "v2"}) || m.Spans[0].Runs != 2 {
		t.Errorf("missed %d diagnosed, %q not, top span %+v", m.Diagnosed, m.Undiagnosed, m.Spans[0])
	}
}

// A row's coverage curve, built one instance at a time, is bit for bit the
// mean a single pass over all of them computes: instances longer and
// shorter than the longest so far, each holding its last value.
func TestCurveIsOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	run := &report.ResultFile{}
	var lines [][]float64
	for i := range 200 {
		line := make([]float64, 1+rng.IntN(40))
		for k := range line {
			line[k] = rng.Float64()
		}
		lines = append(lines, line)
		run.Instances = append(run.Instances, stepped(fmt.Sprint(i), line...))
	}
	longest := 0
	for _, l := range lines {
		longest = max(longest, len(l))
	}
	want := make([]float64, longest)
	for _, l := range lines {
		for k := range want {
			want[k] += l[min(k, len(l)-1)]
		}
	}
	for k := range want {
		want[k] /= float64(len(lines))
	}
	got := build(t, []*report.ResultFile{run}, report.Options{}).Curves[0]
	if got.N != len(lines) || !slices.Equal(got.Mean, want) {
		t.Errorf("curve over %d instances:\n%v\nwant\n%v", got.N, got.Mean, want)
	}
}
