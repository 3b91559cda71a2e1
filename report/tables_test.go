package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// inst is a valid instance with final line coverage cov (and every other
// granularity the same), or an error row when err is set.
func inst(id string, cov float64, err string) report.Instance {
	in := report.Instance{}
	in.Result.InstanceID, in.Result.Error = id, err
	f := &in.Result.Final
	f.File.Coverage, f.Symbol.Coverage, f.Span.Coverage, f.Line.Coverage = cov, cov, cov, cov
	return in
}

func withTask(in report.Instance, lang, source string) report.Instance {
	in.Extras = &report.Extras{Language: lang, Source: source}
	return in
}

// TestGroupBy: per-run rows per language, from the extras first, the
// lookup second, "unknown" last; macro means per group count error rows.
func TestGroupBy(t *testing.T) {
	runs := []*report.ResultFile{
		{Label: "A", Instances: []report.Instance{
			withTask(inst("p1", 0.5, ""), "python", "Verified"),
			withTask(inst("p2", 0, "checkout_failed"), "python", "Verified"),
			inst("g1", 1, ""), // language from the lookup
			inst("x1", 0.25, ""),
			withTask(inst("r1", 0.75, ""), "rust", "Multi"),
		}},
		{Label: "B", Instances: []report.Instance{inst("g1", 0.5, "")}},
	}
	tasks := func(id string) (report.TaskInfo, bool) {
		if id == "g1" {
			return report.TaskInfo{Language: "go", Source: "Multi"}, true
		}
		return report.TaskInfo{}, false
	}
	type row struct {
		run, group string
		n, valid   int
		lineR      float64
	}
	cases := []struct {
		by   string
		want []row
	}{
		// python: (0.5 + 0)/2 with the error row counting 0.
		{report.ByLanguage, []row{{"A", "go", 1, 1, 1}, {"A", "python", 2, 1, 0.25}, {"A", "rust", 1, 1, 0.75}, {"A", "unknown", 1, 1, 0.25}, {"B", "go", 1, 1, 0.5}}},
		// Multi: rust .75 and g1 1.0.
		{report.BySource, []row{{"A", "Multi", 2, 2, 0.875}, {"A", "Verified", 2, 1, 0.25}, {"A", "unknown", 1, 1, 0.25}, {"B", "Multi", 1, 1, 0.5}}},
	}
	for _, c := range cases {
		t.Run(c.by, func(t *testing.T) {
			g := build(t, runs, report.Options{By: c.by, Tasks: tasks}).Groups
			if g.By != c.by || len(g.Rows) != len(c.want) {
				t.Fatalf("got %d rows by %q", len(g.Rows), g.By)
			}
			for i, w := range c.want {
				r := g.Rows[i]
				got := row{r.Run, r.Group, r.Row.Instances, r.Row.Valid, r.Row.Final.Line.RecallMacro}
				if got != w {
					t.Errorf("row %d = %+v, want %+v", i, got, w)
				}
			}
		})
	}
	// The markdown table and the CSV (the --by table when no more
	// specific one is asked for) show the groups.
	rep, err := report.Build(runs, report.Options{By: "language", Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	var md, csv bytes.Buffer
	rep.WriteMarkdown(&md)
	rep.WriteCSV(&csv)
	if !strings.Contains(md.String(), "| A | python | 2 | 1 | checkout_failed=1 | 0.250 | 0.250 | 0.250 | 0.250 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	lines := strings.Split(csv.String(), "\n")
	if !strings.HasPrefix(lines[0], "run,language,path,instances,") || !strings.HasPrefix(lines[2], "A,python,,2,1,checkout_failed=1,0.25,") {
		t.Errorf("csv:\n%s", csv.String())
	}
	if _, err := report.Build(runs, report.Options{By: "colour"}); err == nil || !strings.Contains(err.Error(), `unknown --by "colour"`) {
		t.Errorf("err = %v", err)
	}
}

// diagnosed gives an instance a diagnosis: spans of a.py as (start, end,
// category) and the file's own category.
func diagnosed(id string, file diagnose.Category, spans ...[3]int) report.Instance {
	in := inst(id, 0, "")
	d := &diagnose.Diagnosis{Lens: "contextbench", Files: []diagnose.File{{File: "a.py", Category: file}}}
	for _, s := range spans {
		d.Spans = append(d.Spans, diagnose.Span{File: "a.py", Start: s[0], End: s[1], Category: diagnose.Category(s[2])})
	}
	in.Extras = &report.Extras{}
	in.Extras.Lenses.ContextBench = &report.LensExtras{Diagnosis: d}
	return in
}

// TestMissed: spans ranked by how many runs missed them, with the
// diagnosis counts across runs.
func TestMissed(t *testing.T) {
	const (
		never   = int(diagnose.NeverOpened)
		near    = int(diagnose.NearMiss)
		dropped = int(diagnose.ReadThenDropped)
		found   = int(diagnose.Found)
	)
	runs := []*report.ResultFile{
		{Label: "r1", Instances: []report.Instance{diagnosed("t1", diagnose.Found, [3]int{1, 5, never}, [3]int{10, 12, found}), diagnosed("t2", diagnose.NeverOpened, [3]int{3, 4, never})}},
		{Label: "r2", Instances: []report.Instance{diagnosed("t1", diagnose.Found, [3]int{1, 5, near}, [3]int{10, 12, found}), diagnosed("t2", diagnose.Found, [3]int{3, 4, found})}},
		{Label: "r3", Instances: []report.Instance{diagnosed("t1", diagnose.ReadThenDropped, [3]int{1, 5, dropped}, [3]int{10, 12, dropped})}},
		{Label: "jsonl", Instances: []report.Instance{inst("t1", 0, "")}},
	}
	m := build(t, runs, report.Options{Missed: true, Top: 2}).Missed
	if m.Diagnosed != 3 || len(m.Undiagnosed) != 1 || m.Undiagnosed[0] != "jsonl" || m.TotalSpans != 3 || m.TotalFiles != 2 {
		t.Fatalf("header %+v", m)
	}
	// t1 1-5 missed by all 3 (never, near, dropped); t1 10-12 by 1 of 3
	// and t2 3-4 by 1 of 2: the larger share comes first.
	type item struct {
		id           string
		start, runs  int
		missed       int
		never, found int
	}
	var got []item
	for _, it := range m.Spans {
		got = append(got, item{it.InstanceID, it.Start, it.Runs, it.Missed, it.Counts[diagnose.NeverOpened], it.Counts[diagnose.Found]})
	}
	want := []item{{"t1", 1, 3, 3, 1, 0}, {"t2", 3, 2, 1, 1, 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("spans = %+v, want %+v (top 2)", got, want)
	}
	if s := m.Spans[0]; s.Counts[diagnose.NearMiss] != 1 || s.Counts[diagnose.ReadThenDropped] != 1 || s.End != 5 {
		t.Errorf("t1 1-5 counts %+v", s)
	}
	// Files: t1 a.py missed by r3 only, t2 a.py by r1 (1 of 2 each; t1
	// has 3 runs, so t2's share is larger).
	if len(m.Files) != 2 || m.Files[0].InstanceID != "t2" || m.Files[1].InstanceID != "t1" || m.Files[1].Missed != 1 {
		t.Errorf("files = %+v", m.Files)
	}

	rep, err := report.Build(runs, report.Options{Missed: true, Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	var md, csv bytes.Buffer
	rep.WriteMarkdown(&md)
	rep.WriteCSV(&csv)
	for _, want := range []string{
		"Over 3 runs with a diagnosis (without: jsonl): 3 distinct gold spans and 2 gold files.",
		"| t1 | a.py | 1-5 | 3 | 3 | 0 | 1 | 1 | 0 | 1 |",
		"at most 1 of each",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q\n%s", want, md.String())
		}
	}
	if want := "kind,instance_id,file,start,end,runs,missed,found,read_then_dropped,near_miss,searched_not_read,never_opened\nspan,t1,a.py,1,5,3,3,0,1,1,0,1\nfile,t2,a.py,,,2,1,1,0,0,0,1\n"; csv.String() != want {
		t.Errorf("csv:\n%s\nwant\n%s", csv.String(), want)
	}

	// Upstream JSONL only: the table says there is no diagnosis.
	rep, _ = report.Build(runs[3:], report.Options{Missed: true})
	md.Reset()
	rep.WriteMarkdown(&md)
	if !strings.Contains(md.String(), "No input carries a gold diagnosis") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// costRun is a run of two instances with final line coverage cov, each
// costing cost dollars and using tokens tokens (0: not recorded).
func costRun(label string, cost float64, tokens int, cov float64) *report.ResultFile {
	r := &report.ResultFile{Label: label}
	for _, id := range []string{"a", "b"} {
		in := inst(id, cov, "")
		in.Extras = &report.Extras{CostUSD: cost}
		if tokens > 0 {
			in.Extras.Tokens = &report.Tokens{Input: tokens - 10, Output: 10}
		}
		r.Instances = append(r.Instances, in)
	}
	return r
}

// TestParetoFront: the runs no other run beats on both cost and coverage.
func TestParetoFront(t *testing.T) {
	cases := []struct {
		name  string
		runs  []*report.ResultFile
		axis  string
		front []bool
	}{
		{"by cost", []*report.ResultFile{
			costRun("A", 1, 0, 0.5),
			costRun("B", 2, 0, 0.4),   // A is cheaper and better
			costRun("C", 3, 0, 0.8),   // the best coverage
			costRun("D", 1, 0, 0.5),   // the same point as A: both stay
			costRun("E", 0.5, 0, 0.1), // the cheapest
			costRun("F", 1, 0, 0.3),   // A costs the same and covers more
			costRun("G", 3, 0, 0.8),   // ties C
			costRun("H", 4, 0, 0.8),   // C covers as much for less
		}, report.AxisCost, []bool{true, false, true, true, true, false, true, false}},
		// No run records a cost: the front is by tokens.
		{"by tokens", []*report.ResultFile{costRun("A", 0, 100, 0.5), costRun("B", 0, 50, 0.5), costRun("F", 0, 200, 0.9)},
			report.AxisTokens, []bool{false, true, true}},
		// One run records a cost: the front is by cost, and the run with
		// tokens only is left out of it, however good.
		{"mixed", []*report.ResultFile{costRun("A", 1, 0, 0.5), costRun("B", 0, 50, 0.9), costRun("C", 2, 10, 0.4)}, report.AxisCost, []bool{true, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := build(t, c.runs, report.Options{}).Cost
			if tbl == nil || tbl.Axis != c.axis || len(tbl.Rows) != len(c.front) {
				t.Fatalf("table %+v", tbl)
			}
			for i, w := range c.front {
				if tbl.Rows[i].Front != w {
					t.Errorf("%s: front %v, want %v", tbl.Rows[i].Run, tbl.Rows[i].Front, w)
				}
			}
		})
	}
	if tbl := build(t, []*report.ResultFile{{Label: "x", Instances: []report.Instance{inst("a", 1, "")}}}, report.Options{}).Cost; tbl != nil {
		t.Errorf("no cost recorded, table %+v", tbl)
	}
	// Means: cost over instances that record it; coverage over all, the
	// error row counting 0.
	r := costRun("A", 0.25, 1000, 0.5)
	r.Instances = append(r.Instances, inst("c", 0, "checkout_failed"))
	tbl := build(t, []*report.ResultFile{r}, report.Options{}).Cost
	row := tbl.Rows[0]
	if *row.MeanCostUSD != 0.25 || row.CostN != 2 || *row.MeanTokens != 1000 || row.TokensN != 2 || row.LineCoverage != 1.0/3 || !row.Front {
		t.Errorf("row %+v", row)
	}
	rep, _ := report.Build([]*report.ResultFile{r}, report.Options{})
	var md, csv, js bytes.Buffer
	rep.WriteMarkdown(&md)
	rep.WriteCSV(&csv)
	rep.WriteJSON(&js)
	if !strings.Contains(md.String(), "| A | 3 | 0.2500 | 2 | 1000 | 2 | 0.333 | ★ |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if !strings.HasSuffix(strings.TrimSpace(csv.String()), ",2,0.25,2,1000.0,true") {
		t.Errorf("csv:\n%s", csv.String())
	}
	var doc struct {
		Cost *report.CostTable `json:"cost_vs_coverage"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Cost == nil || doc.Cost.Axis != report.AxisCost || !doc.Cost.Rows[0].Front {
		t.Errorf("json cost = %+v (%v)", doc.Cost, err)
	}
}

// build is report.Build, failing the test on an error.
func build(t *testing.T, runs []*report.ResultFile, o report.Options) *report.Report {
	t.Helper()
	rep, err := report.Build(runs, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
