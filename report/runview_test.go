package report_test

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// demoAnalysis loads the embedded demo task.
func demoAnalysis(t *testing.T) *scoring.Analysis {
	t.Helper()
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// golden compares got with testdata/<name>.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./report -run %s -update to accept):\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

// The plain summary `view` prints when stdout is not a terminal.
func TestRunSummaryGolden(t *testing.T) {
	a := demoAnalysis(t)
	for _, l := range model.Lenses {
		var b strings.Builder
		if err := report.WriteRunSummary(&b, story.Tell(a), l); err != nil {
			t.Fatal(err)
		}
		golden(t, "summary_"+l.String(), b.String())
	}
}

// A run whose text tries terminal tricks: the plain summary and the JSON
// form carry none of them as control bytes.
func TestRunSummaryIsInert(t *testing.T) {
	hostile := "ok\x1b[2J\x1b]52;c;ZXZpbA==\x07 clip\rover\bwrite \x9b31m c1 \u202eevil\u202c \x1b]0;title\x1b\\ \x07bell \xff bad"
	repo := fstest.MapFS{"pkg/a.py": {Data: []byte("x = 1\ny = 2\n")}}
	step := model.Step{Files: []string{"pkg/a.py"}, Spans: []model.FileSpans{{File: "pkg/a.py", Spans: []model.Interval{{Start: 1, End: 2}}}}}
	run := &model.Run{
		InstanceID: "id\x1b]0;pwn\x07", Format: "fmt\u202e", Agent: "a\x9b",
		Actions: []model.Action{{
			Command:  "cat \x1b[31mred\x1b[0m\rfile" + hostile,
			Category: model.CategoryRead, Steps: []int{0},
			Reads: []model.ObservedRead{{File: "pkg/a.py", Kind: model.ReadWhole}},
		}},
		Observations: model.TextList{hostile}, Thoughts: model.TextList{hostile},
		Prediction: model.Prediction{Steps: []model.Step{step}, Final: step},
	}
	g := &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "pkg/a.py", Start: 1, End: 1}, {File: "pkg/\x1b[2Jevil.py", Start: 1, End: 1}}}
	a := scoring.Analyze(run, g, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
	var b strings.Builder
	if err := report.WriteRunSummary(&b, story.Tell(a), model.LensContextBench); err != nil {
		t.Fatal(err)
	}
	if bad := controlByte(b.String()); bad != "" {
		t.Errorf("summary: control sequence %q", bad)
	}
	b.Reset()
	if err := report.WriteRunJSON(&b, story.Tell(a)); err != nil {
		t.Fatal(err)
	}
	if bad := controlByte(b.String()); bad != "" {
		t.Errorf("json: control sequence %q", bad)
	}
	if !strings.Contains(b.String(), `\u202e`) || !strings.Contains(b.String(), `\u001b`) {
		t.Errorf("json lost the escaped runes:\n%s", b.String())
	}
}

// controlByte returns the first control character (or bidirectional
// override) in s with some context, or "".
func controlByte(s string) string {
	for i, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return s[max(0, i-10):min(len(s), i+10)]
		}
	}
	return ""
}

// Rows that share an instance id are told apart in the list: by their
// files' paths from where those part, or by their place in one file.
func TestLabels(t *testing.T) {
	rows := []story.Row{
		{ID: "a__b-1", Path: "runs/a__b-1.traj", Loaded: true},
		{ID: "a__b-1", Path: "runs/a__b-1.checkpoints.jsonl", Loaded: true},
		{ID: "c__d-2", Path: "runs/page.json", Index: 0, Loaded: true},
		{ID: "c__d-2", Path: "runs/page.json", Index: 1, Loaded: true},
		{ID: "e__f-3", Path: "x/again/e__f-3.traj.json", Loaded: true},
		{ID: "e__f-3", Path: "x/e__f-3.traj.json", Loaded: true},
		{ID: "g__h-4", Path: "runs/g.traj", Loaded: true},
		{ID: "z.jsonl", Path: "runs/z.jsonl"}, {ID: "z.jsonl", Path: "other/z.jsonl"}, // not read yet: as they are
	}
	want := []string{"a__b-1 (a__b-1.traj)", "a__b-1 (a__b-1.checkpoints.jsonl)", "c__d-2 (#1 in file)", "c__d-2 (#2 in file)",
		"e__f-3 (again/e__f-3.traj.json)", "e__f-3 (e__f-3.traj.json)", "g__h-4", "z.jsonl", "z.jsonl"}
	if got := story.Labels(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("Labels = %q\nwant %q", got, want)
	}
}

// The summary lists actions as the explorer does: agents that ran side by
// side each under the call that started them, named on their first row.
func TestRunSummaryGroupsAgents(t *testing.T) {
	a := demoAnalysis(t)
	if !demotask.Interleave(a.Run) {
		t.Skipf("the demo has %d actions", len(a.Run.Actions))
	}
	var b strings.Builder
	if err := report.WriteRunSummary(&b, story.Tell(a), model.LensContextBench); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, line := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.HasPrefix(line, "  ") && len(f[0]) == 1 && f[0] >= "1" && f[0] <= "8" {
			order = append(order, f[0])
		}
	}
	if got := strings.Join(order, " "); !strings.HasPrefix(got, "1 2 4 6 3 5 7 8") {
		t.Errorf("summary rows %s, want 1 2 4 6 3 5 7 8 first:\n%s", got, b.String())
	}
}
