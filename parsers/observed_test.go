package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// handCheck is one action whose observed step was worked out by reading
// its command and its output: the step it adds to an observed prediction
// made without the repository ("" for none).
type handCheck struct {
	run, action int
	command     string // how the action begins, to name it
	step        string
}

// line is the step JSON of one file read at spans (predtest.StepJSON's
// form).
func line(file string, spans ...[2]int) string {
	var parts []string
	for _, sp := range spans {
		parts = append(parts, fmt.Sprintf(`{"type":"line","start":%d,"end":%d}`, sp[0], sp[1]))
	}
	return fmt.Sprintf(`{"files":[%q],"spans":{%q:[%s]}}`, file, file, strings.Join(parts, ","))
}

func fileOnly(file string) string { return `{"files":["` + file + `"],"spans":{}}` }

// TestObservedHandChecks: for three named actions of each format, the exact
// step the observed lens gives without the repository, each checked by hand
// against what the action displayed. Real samples under ../shared are
// skipped when absent; formats whose real sample reads nothing (Claude Code
// sessions, Agentless) are checked on the project's fixtures.
func TestObservedHandChecks(t *testing.T) {
	const v1 = shared + "/formats/mini-swe-agent-v1/pydata__xarray-4075.traj.json"
	const v2 = shared + "/formats/mini-swe-agent-v2/astropy__astropy-12907.traj.json"
	const tmp = "tmp/claude-0/-repo/a3b10bae-3ebd-4b8e-8779-3d21ce098521/tasks/"
	cases := []struct {
		format, path string
		checks       []handCheck
	}{
		{"mini-swe-agent v1", v1, []handCheck{
			// The numbered output shows 160-210.
			{0, 1, "nl -ba /testbed/xarray/core/weighted.py | sed -n '160,210p'", line("xarray/core/weighted.py", [2]int{160, 210})},
			// grep -n printed three matching lines.
			{0, 4, `grep -n "_sum_of_weights"`, line("xarray/core/weighted.py", [2]int{137, 137}, [2]int{172, 172}, [2]int{187, 187})},
			{0, 13, "nl -ba /testbed/xarray/core/dtypes.py | sed -n '39,43p'", line("xarray/core/dtypes.py", [2]int{39, 43})},
		}},
		{"mini-swe-agent v2", v2, []handCheck{
			// cat shows the whole file, unnumbered: as long as what it
			// printed, 317 lines (issue 47 #2).
			{0, 1, "cd /testbed && cat astropy/modeling/separable.py", line("astropy/modeling/separable.py", [2]int{1, 317})},
			{0, 23, "cd /testbed && sed -n '1525,1545p' astropy/modeling/core.py", line("astropy/modeling/core.py", [2]int{1525, 1545})},
			{0, 24, `cd /testbed && grep -n "class CompoundModel"`, line("astropy/modeling/core.py", [2]int{2894, 2894})},
		}},
		{"SWE-agent 1.x", shared + "/formats/swe-agent/pallets__flask-5014.checkpoints.jsonl", []handCheck{
			{0, 3, "str_replace_editor view /testbed/src/flask/blueprints.py  --view_range 160 210", line("src/flask/blueprints.py", [2]int{160, 210})},
			{0, 7, "str_replace_editor view /testbed/tests/test_blueprints.py  --view_range 240 300", line("tests/test_blueprints.py", [2]int{240, 300})},
			// A usage error: nothing displayed.
			{0, 9, "str_replace_editor view /testbed/src/flask/blueprints.py [169, 206]", ""},
		}},
		{"SWE-agent 0.x", "sweagent/testdata/windows-0x.traj", []handCheck{
			// The output was omitted: line 30+34 in a file of unknown length,
			// a window only the repository resolves.
			{0, 0, "open src/big.py 30", fileOnly("src/big.py")},
			// The recorded window.
			{0, 1, "scroll_down", line("src/big.py", [2]int{113, 212})},
			// Omitted again: 162+98 kept at 300-50, so 201-300.
			{0, 2, "scroll_down", line("src/big.py", [2]int{201, 300})},
		}},
		{"SWE-agent 0.x (real output)", "sweagent/testdata/instance_owner__repo-7/instance_owner__repo-7.traj", []handCheck{
			{0, 1, "open src/mod.py", line("src/mod.py", [2]int{1, 100})},
			{0, 2, "goto 110", line("src/mod.py", [2]int{21, 120})},
			{0, 3, "search_file alpha", line("src/mod.py", [2]int{4, 4})},
		}},
		{"OpenHands", shared + "/formats/openhands/output.jsonl", []handCheck{
			{0, 3, "cat LICENSE", fileOnly("LICENSE")},
			{1, 2, "open_file('/workspace/src/App.css')", line("src/App.css", [2]int{1, 42})},
			{1, 13, "open_file('/workspace/src/PullRequestViewer.tsx')", line("src/PullRequestViewer.tsx", [2]int{1, 100})},
		}},
		{"Claude Code", "claudecode/testdata/stream.jsonl", []handCheck{
			{0, 0, `Read file_path="/workspace/pkg/a.py" limit=3 offset=10`, line("pkg/a.py", [2]int{10, 12})},
			{0, 1, `Grep path="/workspace" pattern="foo"`, ""},
			{0, 5, "nl -ba pkg/a.py | sed -n '1,5p'", line("pkg/a.py", [2]int{1, 5})},
		}},
		{"Claude Code (real session)", shared + "/formats/claude-code/d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl", []handCheck{
			{0, 0, `Write file_path="/app/hello.txt"`, ""},
		}},
		{"ATIF", shared + "/formats/claude-code/trajectory_pass.json", []handCheck{
			// Read of the whole file, trimmed by the recorder: the lines
			// its numbered output pins down, under the checkout's path.
			{0, 0, `Read file_path="/repo/maas-controller/pkg/controller/maas/providers_llmisvc.go"`, line("maas-controller/pkg/controller/maas/providers_llmisvc.go", [2]int{1, 6})},
			// "shorter than the provided offset": nothing shown.
			{0, 9, `Read file_path="/tmp/claude-0/`, ""},
			// Numbered from 0 and trimmed: the requested 60 lines.
			{0, 10, `Read file_path="/tmp/claude-0/`, line(tmp+"by6pa6fvt.output", [2]int{1, 60})},
		}},
		{"Agentless localization", "agentlessloc/testdata/loc_outputs.jsonl", []handCheck{
			{0, 0, "found_files", ""},
			{0, 1, "found_related_locs", ""},
			{0, 2, "found_edit_locs", `{"files":["a.py","b.py"],"spans":{"a.py":[{"type":"line","start":12,"end":13}],"b.py":[{"type":"line","start":30,"end":40}]}}`},
		}},
		{"Agentless", "agentless/testdata/edge-1_traj.json", []handCheck{
			{0, 0, "localize", `{"files":["pkg/a.py","pkg/x.py"],"spans":{"pkg/a.py":[{"type":"line","start":5,"end":9},{"type":"line","start":12,"end":13},{"type":"line","start":20,"end":21}],"pkg/x.py":[{"type":"line","start":30,"end":31},{"type":"line","start":40,"end":40}]}}`},
		}},
	}
	for _, c := range cases {
		if strings.HasPrefix(c.path, shared) {
			if _, err := os.Stat(c.path); err != nil {
				t.Logf("%s: %s absent, skipped", c.format, c.path)
				continue
			}
		}
		runs, err := Load(c.path, "")
		if err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		for _, h := range c.checks {
			if h.run >= len(runs) || h.action >= len(runs[h.run].Actions) {
				t.Fatalf("%s: no action %d of run %d", c.format, h.action, h.run)
			}
			a := runs[h.run].Actions[h.action]
			if !strings.HasPrefix(a.Command, h.command) {
				t.Fatalf("%s: action %d is %q, want one beginning %q", c.format, h.action, a.Command, h.command)
			}
			// The step the action adds: the prediction of a run of it alone.
			p := observed.Prediction(&model.Run{Actions: []model.Action{a}}, nil)
			got := ""
			if len(p.Steps) > 0 {
				got = predtest.StepJSON(p.Steps[0])
			}
			if len(p.Steps) > 1 || got != h.step {
				t.Errorf("%s: action %d %q:\n got %s\nwant %s", c.format, h.action, h.command, got, h.step)
			}
		}
	}
}

// TestConvertObservedRealSamples: convert --lens observed on every real
// sample of every format gives a record per run whose steps are non-empty
// exactly when the run displayed file lines; the default lens gives none
// for the mini-swe-agent v2 run, which upstream reads no context from.
func TestConvertObservedRealSamples(t *testing.T) {
	dir := shared + "/formats"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/data not present")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*"))
		for _, f := range files {
			if ok, _ := walkable(f); !ok {
				continue
			}
			var buf bytes.Buffer
			n, errs := Convert([]string{f}, ConvertOptions{Lens: model.LensObserved}, &buf)
			errs = slices.DeleteFunc(errs, func(e error) bool { _, warn := e.(Warning); return warn })
			if len(errs) > 0 {
				t.Fatalf("%s: %v", f, errs)
			}
			runs, _ := Load(f, "")
			recs := records(t, buf.Bytes())
			if n != len(recs) || len(recs) != len(runs) {
				t.Fatalf("%s: %d records written, %d read back, %d runs", f, n, len(recs), len(runs))
			}
			for i, run := range runs {
				read := false
				for _, a := range run.Actions {
					read = read || len(a.Reads) > 0
				}
				if steps := len(recs[i].Steps); read != (steps > 0) {
					t.Errorf("%s run %d: %d observed steps, displayed file lines: %v", f, i, steps, read)
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d runs checked", checked)
	}
	v2 := filepath.Join(dir, "mini-swe-agent-v2", "astropy__astropy-12907.traj.json")
	var def, obs bytes.Buffer
	Convert([]string{v2}, ConvertOptions{}, &def)
	Convert([]string{v2}, ConvertOptions{Lens: model.LensObserved}, &obs)
	d, o := records(t, def.Bytes()), records(t, obs.Bytes())
	if len(d[0].Steps) != 0 || len(o[0].Steps) != 22 || len(o[0].Files) != 4 {
		t.Errorf("v2: default %d steps, observed %d steps and %d final files; want 0, 22 and 4", len(d[0].Steps), len(o[0].Steps), len(o[0].Files))
	}
}

// record is what the tests read back of a written unified record.
type record struct {
	Steps []json.RawMessage
	Files []string
}

// records reads written JSONL back (as JSON: records without an id, which
// the real OpenHands sample has, are skipped by the unified reader).
func records(t *testing.T, b []byte) []record {
	t.Helper()
	var out []record
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			Traj struct {
				Steps []json.RawMessage `json:"pred_steps"`
				Files []string          `json:"pred_files"`
			} `json:"traj_data"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, record{r.Traj.Steps, r.Traj.Files})
	}
	return out
}

// observedOf is the observed prediction of run, whose record is p, read
// without the repository (as convert does).
func observedOf(run *model.Run, p model.Prediction) model.Prediction {
	r := *run
	r.Prediction = p
	return observed.Prediction(&r, nil)
}

// TestObservedPredictionFinal: the final context stays the record's own;
// an empty one becomes the union of the observed steps; a run without a
// timeline observes its declared spans.
func TestObservedPredictionFinal(t *testing.T) {
	run := &model.Run{Actions: []model.Action{
		{Reads: []model.ObservedRead{{File: "/testbed/b.py", Kind: model.ReadRange, Start: 5, End: 9}}},
		{Reads: []model.ObservedRead{{File: "a.py", Kind: model.ReadWhole}}},
		{Reads: []model.ObservedRead{{File: "/testbed/b.py", Kind: model.ReadHead, End: 6}}},
	}}
	own := model.Step{Files: []string{"c.py"}}
	got := observedOf(run, model.Prediction{InstanceID: "x", Final: own, ModelPatch: "p"})
	if !reflect.DeepEqual(got.Final, own) || got.ModelPatch != "p" || len(got.Steps) != 3 {
		t.Errorf("own final: %+v", got)
	}
	got = observedOf(run, model.Prediction{InstanceID: "x"})
	want := `{"files":["a.py","b.py"],"spans":{"b.py":[{"type":"line","start":1,"end":9}]}}`
	if s := predtest.StepJSON(got.Final); s != want {
		t.Errorf("union final = %s, want %s", s, want)
	}
	// No timeline: the declared steps' line spans stand in; a step without
	// spans and a reversed span show nothing.
	decl := model.Prediction{InstanceID: "y", Final: own, Steps: []model.Step{own, {Files: []string{"/testbed/c.py"},
		Spans: []model.FileSpans{{File: "/testbed/c.py", Spans: []model.Interval{{Start: 3, End: 9}, {Start: 9, End: 3}}}}}}}
	got = observedOf(&model.Run{}, decl)
	if len(got.Steps) != 1 || predtest.StepJSON(got.Steps[0]) != `{"files":["c.py"],"spans":{"c.py":[{"type":"line","start":3,"end":9}]}}` || !reflect.DeepEqual(got.Final, own) {
		t.Errorf("no timeline: %+v", got)
	}
}

// TestConvertObservedPairsRunsByPosition: the two real OpenHands runs have
// no instance id; each record still gets its own run's steps.
func TestConvertObservedPairsRunsByPosition(t *testing.T) {
	f := shared + "/formats/openhands/output.jsonl"
	if _, err := os.Stat(f); err != nil {
		t.Skip("../shared/data not present")
	}
	var buf bytes.Buffer
	Convert([]string{f}, ConvertOptions{Lens: model.LensObserved}, &buf)
	recs := records(t, buf.Bytes())
	if len(recs) != 2 || len(recs[0].Steps) != 1 || len(recs[1].Steps) != 5 {
		var n []int
		for _, r := range recs {
			n = append(n, len(r.Steps))
		}
		t.Errorf("steps per record = %v, want [1 5]", n)
	}
}
