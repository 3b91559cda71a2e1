package sweagent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// TV9: the checkpoints vector, compared with upstream's loaded_pred.
func TestTV9Checkpoints(t *testing.T) {
	var cases struct {
		Cases []struct {
			File   string          `json:"trajectory_file"`
			Loaded json.RawMessage `json:"loaded_pred"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(predtest.ReadFile(t, "../../testdata/testvectors/trajfile_cases.json"), &cases); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cases.Cases {
		if !strings.HasSuffix(c.File, ".checkpoints.jsonl") {
			continue
		}
		found = true
		run := predtest.LoadOne(t, load, "../../testdata/testvectors/traj/owner__repo-1.checkpoints.jsonl")
		if got, want := predtest.PredJSON(run.InstanceID, run.Prediction), predtest.Canon(t, c.Loaded); got != want {
			t.Errorf("TV9 loaded_pred:\n got %s\nwant %s", got, want)
		}
		// The timeline: all six tool lines, two of them linked to the steps.
		if len(run.Actions) != 6 {
			t.Fatalf("TV9: %d actions, want 6", len(run.Actions))
		}
		wantSteps := [][]int{{0}, nil, nil, nil, nil, {1}}
		for i, a := range run.Actions {
			if !reflect.DeepEqual(a.Steps, wantSteps[i]) {
				t.Errorf("TV9 action %d steps = %v, want %v", i, a.Steps, wantSteps[i])
			}
		}
		// `--view_range 9 -1`: no step, but the timeline shows lines 9..EOF.
		if got := run.Actions[2].Reads; !reflect.DeepEqual(got, []model.ObservedRead{{File: "/testbed/pkg/mod.py", Kind: model.ReadFrom, Start: 9}}) {
			t.Errorf("TV9 action 2 reads = %+v", got)
		}
		// Whole-file view: no step, whole file in the timeline.
		if got := run.Actions[1].Reads; !reflect.DeepEqual(got, []model.ObservedRead{{File: "/testbed/pkg/util.py", Kind: model.ReadWhole}}) {
			t.Errorf("TV9 action 1 reads = %+v", got)
		}
		// The observation's numbered lines confirm 4-5.
		if got := run.Actions[0].Reads; !reflect.DeepEqual(got, []model.ObservedRead{{File: "/testbed/pkg/mod.py", Kind: model.ReadRange, Start: 4, End: 5}}) {
			t.Errorf("TV9 action 0 reads = %+v", got)
		}
		if a := run.Actions[3]; a.Category != model.CategoryEdit || !reflect.DeepEqual(a.Edits, []string{"/testbed/pkg/mod.py"}) {
			t.Errorf("TV9 str_replace = %+v", a)
		}
		if a := run.Actions[4]; a.Category != model.CategorySearch || a.Tool != "search_file" {
			t.Errorf("TV9 search_file = %+v", a)
		}
		if run.Format != Name || run.InstanceID != "owner__repo-1" || run.Path == "" {
			t.Errorf("TV9 run header = %q %q %q", run.Format, run.InstanceID, run.Path)
		}
	}
	if !found {
		t.Fatal("no checkpoints case in trajfile_cases.json")
	}
}

func TestCheckpointsFixtures(t *testing.T) {
	tests := []struct {
		file  string
		steps []string // stepJSON of each step
		final string
		// reads per action index, checked when present
		reads map[int][]model.ObservedRead
		cats  map[int]model.Category
		links map[int][]int
		nacts int
	}{
		{
			file: "views.checkpoints.jsonl",
			steps: []string{
				`{"files":["a.py"],"spans":{"a.py":[{"type":"line","start":1,"end":20}]}}`,
				`{"files":["b.py"],"spans":{"b.py":[{"type":"line","start":9,"end":3}]}}`,
				`{"files":["lib/d.py"],"spans":{"lib/d.py":[{"type":"line","start":2,"end":4}]}}`,
			},
			// the empty patch_context is skipped, so the final is the last step
			final: `{"files":["lib/d.py"],"spans":{"lib/d.py":[{"type":"line","start":2,"end":4}]}}`,
			nacts: 11,
			links: map[int][]int{0: {0}, 1: nil, 2: nil, 3: nil, 4: nil, 5: {1}, 8: {2}},
			reads: map[int][]model.ObservedRead{
				0: {{File: "/testbed/a.py", Kind: model.ReadRange, Start: 1, End: 20}},
				1: {{File: "/testbed/a.py", Kind: model.ReadRange, Start: 30, End: 40}},
				2: {{File: "/testbed/a.py", Kind: model.ReadFrom, Start: 50}},
				// a double space still runs the view; only upstream misses it
				3: {{File: "/testbed/a.py", Kind: model.ReadRange, Start: 5, End: 6}},
				4: nil,
				5: {{File: "/testbed/b.py", Kind: model.ReadRange, Start: 9, End: 3}},
				6: {{File: "/testbed/a.py", Kind: model.ReadRange, Start: 60, End: 70}},
				7: {{File: "/testbed/c.py", Kind: model.ReadWhole}},
				// the observation shows 2-3 although 2-4 was asked
				8: {{File: "lib/d.py", Kind: model.ReadRange, Start: 2, End: 3}},
				// usage error: nothing displayed
				9:  nil,
				10: nil,
			},
			cats: map[int]model.Category{0: model.CategoryRead, 9: model.CategoryRead, 10: model.CategorySearch},
		},
		{
			file:  "lastpatch.checkpoints.jsonl",
			steps: []string{`{"files":["z.py"],"spans":{"z.py":[{"type":"line","start":3,"end":4}]}}`},
			final: `{"files":["z.py","a.py","zz.py"],"spans":{"z.py":[{"type":"line","start":30,"end":25},{"type":"line","start":10,"end":20},{"type":"line","start":1,"end":1}],"a.py":[],"zz.py":[{"type":"line","start":7,"end":7}]}}`,
			nacts: 1,
		},
		{
			file:  "nopatch.checkpoints.jsonl",
			final: `{"files":[],"spans":{}}`,
			nacts: 1,
			cats:  map[int]model.Category{0: model.CategorySearch},
		},
		{
			file: "tools.checkpoints.jsonl",
			// upstream ignores the observation: the failed view is a step
			steps: []string{`{"files":["repo/src/mod.py"],"spans":{"repo/src/mod.py":[{"type":"line","start":200,"end":210}]}}`},
			final: `{"files":["repo/src/mod.py"],"spans":{"repo/src/mod.py":[{"type":"line","start":200,"end":210}]}}`,
			links: map[int][]int{0: nil, 14: {0}},
			nacts: 15,
			reads: map[int][]model.ObservedRead{
				0:  {{File: "/repo/src/mod.py", Kind: model.ReadRange, Start: 1, End: 10}},
				1:  {{File: "/repo/src/mod.py", Kind: model.ReadRange, Start: 45, End: 54}},
				2:  {{File: "/repo/src/mod.py", Kind: model.ReadRange, Start: 55, End: 64}},
				3:  nil,
				7:  nil,
				14: nil,
			},
			cats: map[int]model.Category{
				0: model.CategoryRead, 1: model.CategoryRead, 2: model.CategoryRead, 3: model.CategoryRead,
				4: model.CategorySearch, 5: model.CategorySearch, 6: model.CategorySearch,
				7: model.CategoryEdit, 8: model.CategoryEdit, 9: model.CategoryEdit, 10: model.CategoryEdit,
				11: model.CategoryEdit, 12: model.CategoryEdit, 13: model.CategoryEdit, 14: model.CategoryRead,
			},
		},
	}
	for _, tt := range tests {
		run := predtest.LoadOne(t, load, "testdata/"+tt.file)
		var got []string
		for _, s := range run.Prediction.Steps {
			got = append(got, predtest.StepJSON(s))
		}
		if !reflect.DeepEqual(got, tt.steps) {
			t.Errorf("%s steps:\n got %v\nwant %v", tt.file, got, tt.steps)
		}
		if f := predtest.StepJSON(run.Prediction.Final); f != tt.final {
			t.Errorf("%s final:\n got %s\nwant %s", tt.file, f, tt.final)
		}
		if run.Prediction.ModelPatch != "" {
			t.Errorf("%s: model patch %q, want empty", tt.file, run.Prediction.ModelPatch)
		}
		if len(run.Actions) != tt.nacts {
			t.Fatalf("%s: %d actions, want %d", tt.file, len(run.Actions), tt.nacts)
		}
		for i, want := range tt.reads {
			if g := run.Actions[i].Reads; !reflect.DeepEqual(g, want) {
				t.Errorf("%s action %d (%s) reads = %+v, want %+v", tt.file, i, run.Actions[i].Command, g, want)
			}
		}
		for i, want := range tt.cats {
			if g := run.Actions[i].Category; g != want {
				t.Errorf("%s action %d (%s) category = %s, want %s", tt.file, i, run.Actions[i].Command, g, want)
			}
		}
		for i, want := range tt.links {
			if g := run.Actions[i].Steps; !reflect.DeepEqual(g, want) {
				t.Errorf("%s action %d steps = %v, want %v", tt.file, i, g, want)
			}
		}
		for i, a := range run.Actions {
			if int(a.Index) != i {
				t.Errorf("%s action %d has Index %d", tt.file, i, a.Index)
			}
		}
	}
}

func TestToolsTimeline(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/tools.checkpoints.jsonl")
	a := run.Actions
	wantHits := map[int][]model.SearchHit{
		4: {{File: "/repo/src/mod.py", Line: 4}, {File: "/repo/src/mod.py", Line: 40}},
		5: {{File: "/repo/src/mod.py"}, {File: "/repo/tests/test_mod.py"}},
		6: {{File: "/repo/src/util.py"}},
	}
	for i, want := range wantHits {
		if !reflect.DeepEqual(a[i].Searches, want) {
			t.Errorf("action %d searches = %+v, want %+v", i, a[i].Searches, want)
		}
	}
	wantEdits := map[int][]string{
		7: {"/repo/src/mod.py"}, 8: {"reproduce.py"}, 9: {"/repo/reproduce.py"},
		10: {"/repo/new.py"}, 11: {"/repo/src/mod.py"}, 12: {"/repo/src/mod.py"}, 13: {"/repo/src/mod.py"},
	}
	for i, want := range wantEdits {
		if !reflect.DeepEqual(a[i].Edits, want) {
			t.Errorf("action %d edits = %v, want %v", i, a[i].Edits, want)
		}
	}
	if a[0].Tool != "open" || a[14].Tool != "str_replace_editor" {
		t.Errorf("tools = %q, %q", a[0].Tool, a[14].Tool)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		file string
		want []string // substrings of the error
	}{
		{"badrange.checkpoints.jsonl", []string{"badrange.checkpoints.jsonl", "line 2", "1-2-3", "ValueError"}},
		{"badjson.checkpoints.jsonl", []string{"badjson.checkpoints.jsonl:2:39", "invalid JSON"}},
		{"notobject.checkpoints.jsonl", []string{"line 1", "expected a JSON object", "a list"}},
		{"badrange.traj", []string{"badrange.traj", "info.patch_context", "1-2-3"}},
		{"badinfo.traj", []string{"badinfo.traj", "info is null"}},
		{"badbound.context.json", []string{"badbound.context.json", "start is a string", "expected an integer"}},
		{"missing.checkpoints.jsonl", []string{"missing.checkpoints.jsonl"}},
		{"broken.traj", []string{"broken.traj:3:19", "invalid JSON"}},
		{"badutf8.checkpoints.jsonl", []string{"badutf8.checkpoints.jsonl", "byte 33", "invalid UTF-8"}},
		{"../../../testdata/testvectors/extractor_vectors.json", []string{"not a SWE-agent file"}},
	}
	for _, tt := range tests {
		_, err := load("testdata/" + tt.file)
		if err == nil {
			t.Errorf("load(%s): no error", tt.file)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("load(%s) error %q lacks %q", tt.file, err, w)
			}
		}
	}
}

func TestTrajFiles(t *testing.T) {
	tests := []struct {
		file, id, patch, model, final string
		nacts                         int
	}{
		{
			file: "owner__repo-1.traj", id: "owner__repo-1", patch: "diff --git a/pkg/mod.py b/pkg/mod.py\n", model: "openai/gpt-test",
			// sorted files; spans in patch_context order
			final: `{"files":["pkg/mod.py","pkg/util.py"],"spans":{"pkg/util.py":[{"type":"line","start":1,"end":2}],"pkg/mod.py":[{"type":"line","start":4,"end":5},{"type":"line","start":12,"end":13}]}}`,
			nacts: 7,
		},
		{
			file: "instance_owner__repo-7/instance_owner__repo-7.traj", id: "instance_owner__repo-7",
			patch: "diff --git a/src/mod.py b/src/mod.py\n", final: `{"files":[],"spans":{}}`, nacts: 7,
		},
		{file: "history-only.traj", id: "history-only", final: `{"files":[],"spans":{}}`, nacts: 2},
		{file: "list.traj", id: "list", final: `{"files":[],"spans":{}}`, nacts: 0},
		// renamed: detected by content; the id comes from replay_config
		{
			file: "renamed-v1.json", id: "owner__repo-1", patch: "diff --git a/pkg/mod.py b/pkg/mod.py\n", model: "openai/gpt-test",
			final: `{"files":["pkg/mod.py","pkg/util.py"],"spans":{"pkg/util.py":[{"type":"line","start":1,"end":2}],"pkg/mod.py":[{"type":"line","start":4,"end":5},{"type":"line","start":12,"end":13}]}}`,
			nacts: 7,
		},
		{
			file: "owner__repo-3.context.json", id: "owner__repo-3", patch: "diff --git a/x b/x\n",
			final: `{"files":["a/b.py","other/z.py","pkg/mod.py","pkg/util.py"],"spans":{"pkg/mod.py":[{"type":"line","start":4,"end":5},{"type":"line","start":1,"end":1}],"a/b.py":[{"type":"line","start":9,"end":2}],"pkg/util.py":[],"other/z.py":[]}}`,
		},
		{
			file: "renamed-context.json", id: "owner__repo-3", patch: "diff --git a/x b/x\n",
			final: `{"files":["a/b.py","other/z.py","pkg/mod.py","pkg/util.py"],"spans":{"pkg/mod.py":[{"type":"line","start":4,"end":5},{"type":"line","start":1,"end":1}],"a/b.py":[{"type":"line","start":9,"end":2}],"pkg/util.py":[],"other/z.py":[]}}`,
		},
		{
			// parent directory holds "__": it is the id; CRLF read as text
			file: "owner__repo-9/owner__repo-9.patch_context.txt", id: "owner__repo-9",
			final: `{"files":["a.py","pkg/mod.py","pkg/util.py"],"spans":{"pkg/mod.py":[{"type":"line","start":4,"end":5}],"pkg/util.py":[{"type":"line","start":2,"end":1}],"a.py":[]}}`,
		},
		{
			// parent without "__": basename minus suffix; "File: " registers ""
			file: "plain/owner__repo-8.patch_context.txt", id: "owner__repo-8",
			final: `{"files":["","z.py"],"spans":{"z.py":[{"type":"line","start":3,"end":4}],"":[]}}`,
		},
		{
			file: "renamed-patch.txt", id: "renamed-patch",
			final: `{"files":["pkg/mod.py"],"spans":{"pkg/mod.py":[{"type":"line","start":1,"end":2}]}}`,
		},
	}
	for _, tt := range tests {
		run := predtest.LoadOne(t, load, "testdata/"+tt.file)
		if run.InstanceID != tt.id || run.Prediction.InstanceID != tt.id {
			t.Errorf("%s: id %q / %q, want %q", tt.file, run.InstanceID, run.Prediction.InstanceID, tt.id)
		}
		if run.Prediction.ModelPatch != tt.patch {
			t.Errorf("%s: patch %q, want %q", tt.file, run.Prediction.ModelPatch, tt.patch)
		}
		if run.Model != tt.model {
			t.Errorf("%s: model %q, want %q", tt.file, run.Model, tt.model)
		}
		if len(run.Prediction.Steps) != 0 {
			t.Errorf("%s: %d steps, want none", tt.file, len(run.Prediction.Steps))
		}
		if f := predtest.StepJSON(run.Prediction.Final); f != tt.final {
			t.Errorf("%s final:\n got %s\nwant %s", tt.file, f, tt.final)
		}
		if len(run.Actions) != tt.nacts {
			t.Errorf("%s: %d actions, want %d", tt.file, len(run.Actions), tt.nacts)
		}
	}
}

func TestTrajTimelines(t *testing.T) {
	v1run := predtest.LoadOne(t, load, "testdata/owner__repo-1.traj")
	v1 := v1run.Actions
	type want struct {
		tool  string
		cat   model.Category
		reads []model.ObservedRead
		edits []string
	}
	checks := map[int]want{
		1: {"str_replace_editor", model.CategoryRead, []model.ObservedRead{{File: "/testbed/pkg/mod.py", Kind: model.ReadRange, Start: 4, End: 9}}, nil},
		2: {"str_replace_editor", model.CategoryRead, []model.ObservedRead{{File: "/testbed/pkg/util.py", Kind: model.ReadRange, Start: 1, End: 2}}, nil},
		4: {"str_replace_editor", model.CategoryEdit, nil, []string{"/testbed/pkg/mod.py"}},
		5: {"", model.CategoryOther, nil, nil},
		6: {"submit", model.CategorySubmit, nil, nil},
	}
	for i, w := range checks {
		a := v1[i]
		if a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) || !reflect.DeepEqual(a.Edits, w.edits) {
			t.Errorf("1.x action %d = tool %q cat %s reads %+v edits %v; want %+v", i, a.Tool, a.Category, a.Reads, a.Edits, w)
		}
	}
	if v1run.Thought(1) != "read mod" || !strings.Contains(v1run.Observation(1), "     4\tline 4") {
		t.Errorf("1.x action 1 thought/observation not kept: %q", v1run.Thought(1))
	}
	// cat -n goes through parsers/internal/shell; its numbered output confirms 1-2.
	if r := v1[3].Reads; !reflect.DeepEqual(r, []model.ObservedRead{{File: "/testbed/pkg/util.py", Kind: model.ReadRange, Start: 1, End: 2}}) {
		t.Errorf("1.x cat -n reads = %+v", r)
	}
	if v1[0].Tool != "bash" || v1[3].Tool != "bash" {
		t.Errorf("shell actions tools = %q, %q", v1[0].Tool, v1[3].Tool)
	}

	v0 := predtest.LoadOne(t, load, "testdata/instance_owner__repo-7/instance_owner__repo-7.traj").Actions
	checks = map[int]want{
		0: {"find_file", model.CategorySearch, nil, nil},
		1: {"open", model.CategoryRead, []model.ObservedRead{{File: "/repo/src/mod.py", Kind: model.ReadRange, Start: 1, End: 100}}, nil},
		2: {"goto", model.CategoryRead, []model.ObservedRead{{File: "/repo/src/mod.py", Kind: model.ReadRange, Start: 21, End: 120}}, nil},
		// search_file prints the matching lines: line 4 was displayed.
		3: {"search_file", model.CategorySearch, []model.ObservedRead{{File: "/repo/src/mod.py", Kind: model.ReadRange, Start: 4, End: 4}}, nil},
		4: {"edit", model.CategoryEdit, nil, []string{"/repo/src/mod.py"}},
		6: {"submit", model.CategorySubmit, nil, nil},
	}
	for i, w := range checks {
		a := v0[i]
		if a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) || !reflect.DeepEqual(a.Edits, w.edits) {
			t.Errorf("0.x action %d = tool %q cat %s reads %+v edits %v; want %+v", i, a.Tool, a.Category, a.Reads, a.Edits, w)
		}
	}
	if h := v0[3].Searches; !reflect.DeepEqual(h, []model.SearchHit{{File: "/repo/src/mod.py", Line: 4}}) {
		t.Errorf("0.x search_file hits = %+v", h)
	}

	histRun := predtest.LoadOne(t, load, "testdata/history-only.traj")
	hist := histRun.Actions
	if r := hist[0].Reads; !reflect.DeepEqual(r, []model.ObservedRead{{File: "/testbed/pkg/mod.py", Kind: model.ReadRange, Start: 1, End: 3}}) {
		t.Errorf("history action 0 reads = %+v", r)
	}
	if histRun.Observation(1) != "4:def alpha(x):\n" || histRun.Thought(1) != "grep" {
		t.Errorf("history action 1 = %+v", hist[1])
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		file string // testdata file for the head, "" for none
		head string
		want bool
	}{
		{"x.checkpoints.jsonl", "", "", true},
		{"x.traj", "", "", true},
		{"x.context.json", "", "", true},
		{"dir/patch_context.txt", "", "", true},
		{"x.traj.json", "", `{"messages": []}`, false},
		{"renamed.jsonl", "../../../testdata/testvectors/traj/owner__repo-1.checkpoints.jsonl", "", true},
		{"renamed.jsonl", "lastpatch.checkpoints.jsonl", "", true},
		{"renamed.json", "renamed-v1.json", "", true},
		{"renamed.json", "renamed-context.json", "", true},
		{"renamed.txt", "renamed-patch.txt", "", true},
		{"renamed.json", "../../../testdata/testvectors/extractor_vectors.json", "", false},
		{"x.jsonl", "", `{"instance_id": "a", "history": [{"action": "run", "observation": "x"}]}`, false},
		{"x.json", "", `{"trajectory": [{"action": "ls"}], "trajectory_format": "mini-swe-agent-1"}`, false},
		{"x.json", "", `{"instance_id": "a", "traj_data": {"pred_steps": []}}`, false},
		{"x.log", "", "--- BEGIN CONTEXT ---\nFile: a.py\n", false},
		{"x.txt", "", "", false},
	}
	for _, tt := range tests {
		predtest.CheckSniff(t, Sniff, "testdata", tt.name, tt.file, tt.head, tt.want)
	}
}

// The real SWE-agent sample (several attempts appended; many view
// spellings). Counts come straight from the JSON, not from the parser.
func TestRealCheckpoints(t *testing.T) {
	const path = "../../../shared/data/formats/swe-agent/pallets__flask-5014.checkpoints.jsonl"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("real sample not available:", err)
	}
	want := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		if _, ok := m["tool"]; ok {
			want++
		} else if _, ok := m["action"]; ok {
			want++
		}
	}
	if !Sniff("renamed.jsonl", data[:min(len(data), 64<<10)]) {
		t.Error("the real checkpoints file is not recognised by content")
	}
	run := predtest.LoadOne(t, load, path)
	if len(run.Actions) != want || want != 20 {
		t.Fatalf("%d actions, file has %d tool lines (expected 20)", len(run.Actions), want)
	}
	if run.InstanceID != "pallets__flask-5014" {
		t.Errorf("id %q", run.InstanceID)
	}
	// Steps: the seven views with two positive numbers after --view_range.
	var got []string
	for _, s := range run.Prediction.Steps {
		got = append(got, predtest.StepJSON(s))
	}
	span := func(f string, a, b int) string {
		return `{"files":["` + f + `"],"spans":{"` + f + `":[{"type":"line","start":` + itoa(a) + `,"end":` + itoa(b) + `}]}}`
	}
	wantSteps := []string{
		span("src/flask/blueprints.py", 160, 210), span("src/flask/blueprints.py", 206, 250),
		span("src/flask/blueprints.py", 172, 200), span("tests/test_blueprints.py", 240, 300),
		span("src/flask/blueprints.py", 169, 206), span("tests/test_blueprints.py", 1, 200),
		span("tests/test_blueprints.py", 240, 260),
	}
	if !reflect.DeepEqual(got, wantSteps) {
		t.Errorf("steps:\n got %v\nwant %v", got, wantSteps)
	}
	if f := predtest.StepJSON(run.Prediction.Final); f != wantSteps[6] {
		t.Errorf("final = %s, want the last step", f)
	}
	// Hand-checked against the file:
	//  line 4 (index 3) views 160-210; its observation shows 160..210.
	//  line 10 (index 9) "[169, 206]" failed with a usage error: nothing shown.
	//  line 18 (index 17) "--view_range 1049 -1" shows only line 1049.
	//  line 3 (index 2) whole-file view of blueprints.py was abbreviated: the
	//  first shown run is 1..N and "eliding lines" gaps split the rest.
	//  line 1 (index 0) is a directory listing.
	bp := "/testbed/src/flask/blueprints.py"
	if r := run.Actions[3].Reads; !reflect.DeepEqual(r, []model.ObservedRead{{File: bp, Kind: model.ReadRange, Start: 160, End: 210}}) {
		t.Errorf("action 3 reads = %+v", r)
	}
	if r := run.Actions[9].Reads; r != nil {
		t.Errorf("action 9 reads = %+v, want none", r)
	}
	if r := run.Actions[17].Reads; !reflect.DeepEqual(r, []model.ObservedRead{{File: "/testbed/tests/test_blueprints.py", Kind: model.ReadRange, Start: 1049, End: 1049}}) {
		t.Errorf("action 17 reads = %+v", r)
	}
	if a := run.Actions[0]; a.Category != model.CategorySearch || a.Reads != nil {
		t.Errorf("action 0 = %s %+v", a.Category, a.Reads)
	}
	r2 := run.Actions[2].Reads
	if len(r2) < 2 || r2[0].Start != 1 || r2[0].File != bp {
		t.Fatalf("action 2 reads = %+v", r2)
	}
	for _, r := range r2 {
		for _, gap := range [][2]int{{579, 585}, {591, 599}, {605, 611}, {615, 621}} {
			if r.Start <= gap[1] && r.End >= gap[0] {
				t.Errorf("action 2 read %+v covers elided lines %v", r, gap)
			}
		}
	}
	if last := r2[len(r2)-1]; last.End != 614 {
		t.Errorf("action 2 last shown run = %+v, want to end at 614", last)
	}
	links := 0
	for _, a := range run.Actions {
		links += len(a.Steps)
	}
	if links != 7 {
		t.Errorf("%d step links, want 7", links)
	}
}

func TestRealTraj(t *testing.T) {
	const path = "../../../shared/data/formats/swe-agent/pallets__flask-5014.traj"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("real sample not available:", err)
	}
	var doc struct {
		Trajectory []map[string]any `json:"trajectory"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if !Sniff("renamed.json", data[:min(len(data), 64<<10)]) {
		t.Error("the real .traj is not recognised by content")
	}
	run := predtest.LoadOne(t, load, path)
	if len(run.Actions) != len(doc.Trajectory) || len(doc.Trajectory) != 4 {
		t.Fatalf("%d actions, trajectory has %d entries", len(run.Actions), len(doc.Trajectory))
	}
	if run.Model != "openai/gpt-5" || run.InstanceID != "pallets__flask-5014" {
		t.Errorf("model %q id %q", run.Model, run.InstanceID)
	}
	// submission is null and there is no patch_context.
	if run.Prediction.ModelPatch != "" || !run.Prediction.Final.Empty() {
		t.Errorf("prediction = %+v", run.Prediction)
	}
	for i, a := range run.Actions {
		if a.Tool != "bash" || run.Thought(i) == "" || run.Observation(i) == "" {
			t.Errorf("action %d = tool %q thought %d bytes obs %d bytes", i, a.Tool, len(run.Thought(i)), len(run.Observation(i)))
		}
		// The model prefixed every command with "bash "; it is analysed
		// without it.
		if strings.HasPrefix(a.Command, "bash ") {
			continue
		}
		t.Errorf("action %d command %q lost its text", i, a.Command)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
