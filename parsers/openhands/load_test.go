package openhands

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

func loadAll(t *testing.T, path string) []model.Run {
	t.Helper()
	runs, err := load(path)
	if err != nil {
		t.Fatalf("load(%s): %v", path, err)
	}
	return runs
}

func stepsJSON(p model.Prediction) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, predtest.StepJSON(s))
	}
	return out
}

func TestOutputJSONLPrediction(t *testing.T) {
	runs := loadAll(t, "testdata/output.jsonl")
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	r := runs[0]
	wantSteps := []string{
		`{"files":["workspace/repo__0.1/pkg/mod.py"],"spans":{"workspace/repo__0.1/pkg/mod.py":[{"type":"line","start":4,"end":5}]}}`,
		`{"files":["pkg/util.py","workspace/x/pkg/mod.py"],"spans":{"workspace/x/pkg/mod.py":[{"type":"line","start":10,"end":20}]}}`,
		`{"files":["pkg/mod.py"],"spans":{"pkg/mod.py":[{"type":"line","start":4,"end":5}]}}`,
		`{"files":["workspace/repo__0.1"],"spans":{}}`,
		`{"files":["workspace/repo__0.1/pkg/mod.py"],"spans":{}}`,
		`{"files":["pkg/util.py"],"spans":{"pkg/util.py":[{"type":"line","start":3,"end":8}]}}`,
		`{"files":["pkg/mod.py"],"spans":{"pkg/mod.py":[{"type":"line","start":1,"end":30}]}}`,
		`{"files":["pkg/mod.py"],"spans":{"pkg/mod.py":[{"type":"line","start":25,"end":40}]}}`,
	}
	if got := stepsJSON(r.Prediction); !reflect.DeepEqual(got, wantSteps) {
		t.Errorf("steps:\n got %v\nwant %v", strings.Join(got, "\n"), strings.Join(wantSteps, "\n"))
	}
	// Union: sorted files; spans per file merged (1-30, 4-5, 25-40 -> 1-40).
	wantFinal := `{"files":["pkg/mod.py","pkg/util.py","workspace/repo__0.1","workspace/repo__0.1/pkg/mod.py","workspace/x/pkg/mod.py"],` +
		`"spans":{"workspace/repo__0.1/pkg/mod.py":[{"type":"line","start":4,"end":5}],"workspace/x/pkg/mod.py":[{"type":"line","start":10,"end":20}],` +
		`"pkg/mod.py":[{"type":"line","start":1,"end":40}],"pkg/util.py":[{"type":"line","start":3,"end":8}]}}`
	if got := predtest.StepJSON(r.Prediction.Final); got != wantFinal {
		t.Errorf("final:\n got %s\nwant %s", got, wantFinal)
	}
	if r.InstanceID != "owner__repo-1" || r.Prediction.ModelPatch != "diff --git a/pkg/mod.py b/pkg/mod.py\n" {
		t.Errorf("id %q patch %q", r.InstanceID, r.Prediction.ModelPatch)
	}
	if r.Agent != "openhands CodeActAgent" || r.Model != "litellm_proxy/claude-test" || r.Format != Name || r.Path != "testdata/output.jsonl" {
		t.Errorf("header: %q %q %q %q", r.Agent, r.Model, r.Format, r.Path)
	}
	// instance_id "" falls back to original_inst_id; history null is [].
	r2 := runs[1]
	if r2.InstanceID != "owner__repo-2" || r2.Prediction.OriginalInstID != "owner__repo-2" || len(r2.Actions) != 0 ||
		len(r2.Prediction.Steps) != 0 || !r2.Prediction.Final.Empty() {
		t.Errorf("history null record = %+v", r2)
	}
	r3 := runs[2]
	if r3.InstanceID != "owner__repo-3" || r3.Prediction.ModelPatch != "" ||
		!reflect.DeepEqual(stepsJSON(r3.Prediction), []string{`{"files":["src/a.py"],"spans":{}}`}) {
		t.Errorf("record 3 = %+v", r3.Prediction)
	}
}

func TestOutputJSONLTimeline(t *testing.T) {
	r := loadAll(t, "testdata/output.jsonl")[0]
	acts := r.Actions
	// Every event with an action but the system prompt and the user's
	// message, which set the run up.
	if len(acts) != 13 {
		t.Fatalf("%d actions, want 13", len(acts))
	}
	type want struct {
		tool  string
		cat   model.Category
		steps []int
		reads []model.ObservedRead
	}
	mod := "/workspace/repo__0.1/pkg/mod.py"
	checks := map[int]want{
		0:  {"str_replace_editor", model.CategoryRead, []int{0}, []model.ObservedRead{{File: mod, Kind: model.ReadRange, Start: 4, End: 5}}},
		1:  {"execute_bash", model.CategoryRead, []int{1}, nil},
		2:  {"execute_bash", model.CategoryRead, []int{2}, []model.ObservedRead{{File: "/testbed/pkg/mod.py", Kind: model.ReadRange, Start: 4, End: 5}}},
		3:  {"read", model.CategorySearch, []int{3}, nil},
		4:  {"read", model.CategoryRead, []int{4}, nil}, // the view failed
		5:  {"read", model.CategoryRead, []int{5}, []model.ObservedRead{{File: "/testbed/pkg/util.py", Kind: model.ReadRange, Start: 4, End: 8}}},
		6:  {"edit", model.CategoryEdit, nil, nil},
		7:  {"think", model.CategoryOther, nil, nil},
		9:  {"browse", model.CategoryOther, nil, nil},
		10: {"run", model.CategoryRead, []int{6}, nil},
		11: {"run", model.CategoryRead, []int{7}, nil},
		12: {"finish", model.CategorySubmit, nil, nil},
	}
	for i, w := range checks {
		a := acts[i]
		if a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Steps, w.steps) {
			t.Errorf("action %d: tool %q cat %s steps %v; want %q %s %v", i, a.Tool, a.Category, a.Steps, w.tool, w.cat, w.steps)
		}
		if w.reads != nil && !reflect.DeepEqual(a.Reads, w.reads) {
			t.Errorf("action %d reads = %+v, want %+v", i, a.Reads, w.reads)
		}
		if int(a.Index) != i {
			t.Errorf("action %d has Index %d", i, a.Index)
		}
	}
	if len(acts[4].Reads) != 0 || len(acts[3].Reads) != 0 {
		t.Errorf("failed view / listing reads = %+v / %+v", acts[4].Reads, acts[3].Reads)
	}
	if !reflect.DeepEqual(acts[6].Edits, []string{mod}) {
		t.Errorf("edit = %v", acts[6].Edits)
	}
	// Observations linked by cause, even out of order.
	if r.Observation(1) != "line 10\nline 11\n" || !strings.Contains(r.Observation(2), "def alpha") {
		t.Errorf("observations: %q / %q", r.Observation(1), r.Observation(2))
	}
	// The final agent_state_changed event has no cause: it answers nothing.
	if r.Observation(12) != "" || r.Observation(7) != "" {
		t.Errorf("uncaused observation attached: %q / %q", r.Observation(12), r.Observation(7))
	}
	if !strings.Contains(r.Observation(4), "Invalid `view_range`") {
		t.Errorf("error observation not linked: %q", r.Observation(4))
	}
	// Usage counted once per model response.
	if acts[0].Usage != (model.Usage{InputTokens: 100, OutputTokens: 10, CacheRead: 40}) ||
		acts[1].Usage != (model.Usage{InputTokens: 200, OutputTokens: 20}) || acts[2].Usage != (model.Usage{}) {
		t.Errorf("usage = %+v %+v %+v", acts[0].Usage, acts[1].Usage, acts[2].Usage)
	}
	wantTS := float64(time.Date(2025, 1, 20, 10, 0, 2, 500000000, time.UTC).UnixNano()) / 1e9
	if acts[0].Timestamp != wantTS {
		t.Errorf("timestamp = %v, want %v", acts[0].Timestamp, wantTS)
	}
	if r.Thought(0) != "look at mod" || r.Thought(1) != "thinking about execute_bash" {
		t.Errorf("thoughts = %q, %q", r.Thought(0), r.Thought(1))
	}
	if acts[0].Command != "view /workspace/repo__0.1/pkg/mod.py [4, 5]" || acts[7].Command != "Now verify." || acts[12].Command != "Fixed." {
		t.Errorf("commands = %q, %q, %q", acts[0].Command, acts[7].Command, acts[12].Command)
	}
}

func TestMultiAndPairs(t *testing.T) {
	runs := loadAll(t, "testdata/c.jsonl")
	if len(runs) != 1 || runs[0].InstanceID != "owner__repo-3" || len(runs[0].Actions) != 1 {
		t.Fatalf("c.jsonl = %+v", runs)
	}
	if a := runs[0].Actions[0]; !reflect.DeepEqual(a.Steps, []int{0}) || runs[0].Observation(0) != "     1\tA\n     2\tB\n" {
		t.Errorf("c.jsonl action = %+v", a)
	}
	p := loadAll(t, "testdata/pairs_output.jsonl")[0]
	if len(p.Actions) != 3 || len(p.Prediction.Steps) != 0 {
		t.Fatalf("pairs: %d actions, %d steps", len(p.Actions), len(p.Prediction.Steps))
	}
	if p.Observation(0) != "x\n" || p.Observation(1) != "y\n" || p.Actions[2].Category != model.CategorySubmit {
		t.Errorf("pairs actions = %+v", p.Actions)
	}
	if !reflect.DeepEqual(p.Actions[1].Reads, []model.ObservedRead{{File: "pkg/util.py", Kind: model.ReadWhole}}) {
		t.Errorf("pairs read = %+v", p.Actions[1].Reads)
	}
}

func TestBadLines(t *testing.T) {
	runs, err := load("testdata/bad_output.jsonl")
	if err == nil {
		t.Fatal("no error")
	}
	if len(runs) != 2 || runs[0].InstanceID != "owner__repo-3" || runs[1].InstanceID != "owner__repo-2" {
		t.Errorf("good records not kept: %d runs", len(runs))
	}
	for _, w := range []string{"bad_output.jsonl: line 2: invalid JSON", "line 3: test_result is null", "line 4: expected a JSON object"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if _, err := load("testdata/lfs/output.jsonl"); err == nil || !strings.Contains(err.Error(), "Git LFS pointer") {
		t.Errorf("LFS pointer error = %v", err)
	}
	if _, err := load("testdata/missing.jsonl"); err == nil {
		t.Error("missing file: no error")
	}
	if _, err := load("testdata/badcompl/owner__repo-8"); err == nil || !strings.Contains(err.Error(), "tool_calls is null") {
		t.Errorf("tool_calls null error = %v", err)
	}
}

func TestCompletionsInstance(t *testing.T) {
	runs := loadAll(t, "testdata/llm_completions/owner__repo-5")
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	r := runs[0]
	wantSteps := []string{
		`{"files":["django__django__3.0/django/forms/models.py"],"spans":{}}`,
		`{"files":["x/pkg/mod.py"],"spans":{"x/pkg/mod.py":[{"type":"line","start":12,"end":13}]}}`,
		`{"files":["x/pkg/mod.py"],"spans":{"x/pkg/mod.py":[{"type":"line","start":10,"end":20}]}}`,
		`{"files":["x/pkg/mod.py"],"spans":{"x/pkg/mod.py":[{"type":"line","start":11,"end":12}]}}`,
		`{"files":["x/pkg/util.py"],"spans":{}}`,
		`{"files":["x/pkg/mod.py"],"spans":{"x/pkg/mod.py":[{"type":"line","start":10,"end":20}]}}`,
	}
	if got := stepsJSON(r.Prediction); !reflect.DeepEqual(got, wantSteps) {
		t.Errorf("steps:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(wantSteps, "\n"))
	}
	wantFinal := `{"files":["django__django__3.0/django/forms/models.py","x/pkg/mod.py","x/pkg/util.py"],"spans":{"x/pkg/mod.py":[{"type":"line","start":10,"end":20}]}}`
	if got := predtest.StepJSON(r.Prediction.Final); got != wantFinal {
		t.Errorf("final:\n got %s\nwant %s", got, wantFinal)
	}
	if r.InstanceID != "owner__repo-5" || r.Prediction.ModelPatch != "" || r.Model != "claude-test" {
		t.Errorf("id %q patch %q model %q", r.InstanceID, r.Prediction.ModelPatch, r.Model)
	}
	// 9 tool calls in messages + the final response's finish.
	if len(r.Actions) != 10 {
		t.Fatalf("%d actions, want 10", len(r.Actions))
	}
	wantLinks := [][]int{{0}, {1}, {2}, {3}, {4}, nil, nil, nil, {5}, nil}
	for i, a := range r.Actions {
		if !reflect.DeepEqual(a.Steps, wantLinks[i]) {
			t.Errorf("action %d (%s) steps %v, want %v", i, a.Command, a.Steps, wantLinks[i])
		}
	}
	if a := r.Actions[1]; !reflect.DeepEqual(a.Reads, []model.ObservedRead{{File: "/workspace/x/pkg/mod.py", Kind: model.ReadRange, Start: 12, End: 13}}) || r.Observation(1) == "" {
		t.Errorf("editor view = %+v", a)
	}
	if a := r.Actions[4]; !reflect.DeepEqual(a.Reads, []model.ObservedRead{{File: "/workspace/x/pkg/util.py", Kind: model.ReadRange, Start: 1, End: 2}}) {
		t.Errorf("whole view confirmed by output = %+v", a.Reads)
	}
	// c4 has no tool result: the view range stands.
	if a := r.Actions[3]; !reflect.DeepEqual(a.Reads, []model.ObservedRead{{File: "/workspace/x/pkg/mod.py", Kind: model.ReadRange, Start: 11, End: 12}}) {
		t.Errorf("unanswered view = %+v", a.Reads)
	}
	if a := r.Actions[5]; a.Category != model.CategoryOther || a.Command != "{not json" {
		t.Errorf("bad arguments = %+v", a)
	}
	if a := r.Actions[7]; a.Category != model.CategoryEdit || !reflect.DeepEqual(a.Edits, []string{"/workspace/x/new.py"}) {
		t.Errorf("create = %+v", a)
	}
	if a := r.Actions[9]; a.Category != model.CategorySubmit || a.Command != "All done" {
		t.Errorf("finish = %+v", a)
	}
	if r.Thought(0) != "Look first." || r.Thought(2) != "More." {
		t.Errorf("thoughts %q %q", r.Thought(0), r.Thought(2))
	}
}

func TestCompletionsRoot(t *testing.T) {
	runs := loadAll(t, "testdata/llm_completions")
	if len(runs) != 2 || runs[0].InstanceID != "owner__repo-5" || runs[1].InstanceID != "owner__repo-6" {
		t.Fatalf("runs = %+v", runs)
	}
	if runs[0].Prediction.ModelPatch != "" {
		t.Errorf("repo-5 patch %q", runs[0].Prediction.ModelPatch)
	}
	if got := runs[1].Prediction.ModelPatch; got != "diff --git a/a.py b/a.py\n-x\n+y" {
		t.Errorf("repo-6 patch %q", got)
	}
	if got := stepsJSON(runs[1].Prediction); !reflect.DeepEqual(got, []string{`{"files":["src/a.py"],"spans":{"src/a.py":[{"type":"line","start":1,"end":5}]}}`}) {
		t.Errorf("repo-6 steps %v", got)
	}
	// A Verified output.jsonl kept in Git LFS loads the directory beside it.
	lfs := loadAll(t, "testdata/verified/output/output.jsonl")
	if len(lfs) != 1 || lfs[0].InstanceID != "owner__repo-7" ||
		predtest.StepJSON(lfs[0].Prediction.Final) != `{"files":["r/x.py"],"spans":{"r/x.py":[{"type":"line","start":1,"end":3}]}}` {
		t.Errorf("LFS fallback = %+v", lfs)
	}
	if !IsCompletionsDir("testdata/llm_completions") || !IsCompletionsDir("testdata/llm_completions/owner__repo-5") || IsCompletionsDir("testdata") {
		t.Error("IsCompletionsDir")
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name, file, head string
		want             bool
	}{
		{"runs/output.jsonl", "", "", true},
		{"x/llm_completions", "", "", true},
		{"c.jsonl", "c.jsonl", "", true},
		{"renamed.jsonl", "output.jsonl", "", true},
		{"x.jsonl", "", `{"instance_id": "a", "history": null}`, true},
		{"x.jsonl", "", `{"instance_id": "a", "traj_data": {"pred_steps": []}}`, false},
		{"x.traj", "", `{"trajectory": [{"action": "ls"}], "history": [{"action": "ls"}], "info": {}}`, false},
		{"x.checkpoints.jsonl", "", `{"tool": "open", "action": "open a.py", "observation": "x"}`, false},
		{"x.json", "", `[{"history": []}]`, false},
		{"x.txt", "", "", false},
	}
	for _, tt := range tests {
		predtest.CheckSniff(t, Sniff, "testdata", tt.name, tt.file, tt.head, tt.want)
	}
}

// The real OpenHands sample uses the older flat event format (no "args",
// no ids). Counts come straight from the JSON, not from the parser.
func TestRealOutputJSONL(t *testing.T) {
	const path = "../../../shared/data/formats/openhands/output.jsonl"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("real sample not available:", err)
	}
	var want []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			History []map[string]any `json:"history"`
		}
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range rec.History {
			if _, ok := e["action"]; ok {
				n++
			}
		}
		want = append(want, n)
	}
	head := data
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	if !Sniff("renamed.jsonl", head) {
		t.Error("the real sample is not recognised by content")
	}
	runs := loadAll(t, path)
	if len(runs) != len(want) || len(want) != 2 {
		t.Fatalf("%d runs, file has %d records", len(runs), len(want))
	}
	for i, r := range runs {
		if len(r.Actions) != want[i] {
			t.Errorf("record %d: %d actions, file has %d", i, len(r.Actions), want[i])
		}
		// Upstream reads args.command / args.path, which this format lacks:
		// no steps; no instance_id and no test_result either.
		if len(r.Prediction.Steps) != 0 || !r.Prediction.Final.Empty() || r.InstanceID != "" || r.Prediction.ModelPatch != "" {
			t.Errorf("record %d prediction = %+v", i, r.Prediction)
		}
	}
	if want[0] != 5 || want[1] != 23 {
		t.Errorf("action counts %v, expected [5 23]", want)
	}
	a := runs[0].Actions
	// Hand-checked against the file:
	//  record 0, history[5]: run "cat LICENSE" shows the whole LICENSE.
	if a[3].Command != "cat LICENSE" || a[3].Category != model.CategoryRead ||
		!reflect.DeepEqual(a[3].Reads, []model.ObservedRead{{File: "LICENSE", Kind: model.ReadWhole}}) ||
		!strings.HasPrefix(runs[0].Observation(3), "MIT License") {
		t.Errorf("cat LICENSE = %+v", a[3])
	}
	//  history[3]: Python code writing LICENSE is a run.
	if a[0].Tool != "message" || a[2].Category != model.CategoryRun || a[4].Category != model.CategorySubmit {
		t.Errorf("record 0 = %q / %s / %s", a[0].Tool, a[2].Category, a[4].Category)
	}
	b := runs[1].Actions
	//  record 1, history[3]: open_file('/workspace/src/App.css') shows 1|..42|.
	if b[2].Tool != "run_ipython" || !reflect.DeepEqual(b[2].Reads, []model.ObservedRead{{File: "/workspace/src/App.css", Kind: model.ReadRange, Start: 1, End: 42}}) {
		t.Errorf("open_file App.css = %+v", b[2].Reads)
	}
	//  history[7]: open_file('/workspace/src/App.tsx') shows lines 1-14.
	if !reflect.DeepEqual(b[4].Reads, []model.ObservedRead{{File: "/workspace/src/App.tsx", Kind: model.ReadRange, Start: 1, End: 14}}) {
		t.Errorf("open_file App.tsx = %+v", b[4].Reads)
	}
	//  history[9]: a rejected edit (syntax error) changed nothing; history[37]
	//  edited PullRequestViewer.tsx.
	if b[5].Category != model.CategoryEdit || b[5].Edits != nil {
		t.Errorf("rejected edit = %s %v", b[5].Category, b[5].Edits)
	}
	if !strings.HasPrefix(b[19].Command, "edit_file_by_replace") || !reflect.DeepEqual(b[19].Edits, []string{"/workspace/src/PullRequestViewer.tsx"}) {
		t.Errorf("edit at history[37] = %q %v", b[19].Command, b[19].Edits)
	}
	//  history[1]: ls -R /workspace is a listing.
	if b[1].Command != "ls -R /workspace" || b[1].Category != model.CategorySearch {
		t.Errorf("ls -R = %q %s", b[1].Command, b[1].Category)
	}
	for i, act := range b[:len(b)-1] {
		if runs[1].Observation(i) == "" && act.Tool != "message" {
			t.Errorf("record 1 action %d (%s) has no observation", i, act.Tool)
		}
	}
}

// TestRunDirsAreNotCompletions: a directory of trajectory files that other
// formats claim by suffix (they hold "messages" too) is not an
// llm_completions directory, flat or one directory per instance.
func TestRunDirsAreNotCompletions(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"flat/a.traj.json", "flat/b_traj.json", "nested/o__r-1/o__r-1.traj.json", "ctx/o__r-2.context.json"} {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(`{"messages": []}`), 0o644)
	}
	for _, d := range []string{"flat", "nested", "ctx"} {
		if IsCompletionsDir(filepath.Join(root, d)) {
			t.Errorf("%s: taken for llm_completions", d)
		}
	}
	if !IsCompletionsDir("testdata/llm_completions") || !IsCompletionsDir("testdata/llm_completions/owner__repo-6") {
		t.Error("real llm_completions directories no longer recognised")
	}
}

// OpenHands V1 (software-agent-sdk) events: every ActionEvent an action,
// read through its tool call (execute_bash as a shell command, the file
// editor's view_range confirmed by the numbered output, str_replace an
// edit), its output from the ObservationEvent of its tool_call_id; a
// rejected call did not run, an agent error failed it; no ContextBench
// step, as the reference evaluator finds none in typed events.
func TestV1Events(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/v1-output.jsonl")
	if run.InstanceID != "o__r-1" || run.Model != "litellm_proxy/anthropic/claude-sonnet-4-5" || run.CostUSD != 0.25 || len(run.Prediction.Steps) != 0 {
		t.Errorf("run %q %q %v, %d steps", run.InstanceID, run.Model, run.CostUSD, len(run.Prediction.Steps))
	}
	type want struct {
		tool    string
		cat     model.Category
		reads   []model.ObservedRead
		edits   []string
		failure string
	}
	wants := []want{
		{"execute_bash", model.CategoryRead, predtest.Range("/workspace/pkg/mod.py", 10, 20), nil, ""},
		{"str_replace_editor", model.CategoryRead, predtest.Range("/workspace/pkg/mod.py", 40, 44), nil, ""},
		{"str_replace_editor", model.CategoryEdit, nil, []string{"/workspace/pkg/mod.py"}, ""},
		{"execute_bash", model.CategoryEdit, nil, nil, "not run: rejected (too dangerous)"},
		{"execute_bash", model.CategoryRead, nil, nil, "sandbox crashed"},
		{"finish", model.CategoryOther, nil, nil, ""},
	}
	if len(run.Actions) != len(wants) {
		t.Fatalf("%d actions, want %d", len(run.Actions), len(wants))
	}
	for i, w := range wants {
		a := run.Actions[i]
		if a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) || !reflect.DeepEqual(a.Edits, w.edits) ||
			(w.failure == "") != (a.Failure == "") || !strings.Contains(a.Failure, w.failure) {
			t.Errorf("action %d: %q %v reads %v edits %v failure %q; want %+v", i, a.Tool, a.Category, a.Reads, a.Edits, a.Failure, w)
		}
	}
	if run.Observation(0) != "x = 10\n" || run.Thought(0) != "Look at the module." || run.Actions[0].Timestamp == 0 {
		t.Errorf("action 1: output %q, thought %q, time %v", run.Observation(0), run.Thought(0), run.Actions[0].Timestamp)
	}
}

// The real V1 output of ../shared (skipped without it): two safety tasks
// of shell calls, none "other" with an empty command as before.
func TestSharedV1(t *testing.T) {
	const f = "../../../shared/data/formats/openhands-v1/openagentsafety_gpt-4o_output.jsonl"
	predtest.NeedFile(t, f)
	runs, err := load(f)
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	for _, run := range runs {
		if run.Model != "litellm_proxy/neulab/gpt-4o-2024-08-06" || len(run.Actions) != 9 {
			t.Errorf("%s: model %q, %d actions", run.InstanceID, run.Model, len(run.Actions))
		}
		for i, a := range run.Actions {
			if a.Command == "" || a.Tool == "" {
				t.Errorf("%s action %d: tool %q command %q", run.InstanceID, i, a.Tool, a.Command)
			}
		}
	}
	if a := runs[0].Actions[0]; a.Tool != "execute_bash" || !strings.HasPrefix(a.Command, `chat_npc "David"`) || a.Category != model.CategoryRun {
		t.Errorf("first action %q %q %v", a.Tool, a.Command, a.Category)
	}
}

// The UI's export, a bare JSON list of events, is one run named by its
// file; a renamed V1 output is found by its events.
func TestUIExport(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/ui-export.json")
	// The user's message is the task, not an action.
	if run.InstanceID != "ui-export" || run.Model != "gpt-5-2025-08-07" || len(run.Actions) != 1 {
		t.Fatalf("run %q %q, %d actions", run.InstanceID, run.Model, len(run.Actions))
	}
	if a := run.Actions[0]; a.Category != model.CategoryRead || !reflect.DeepEqual(a.Reads, predtest.Range("/workspace/pkg/mod.py", 40, 44)) {
		t.Errorf("the read: %v %v", a.Category, a.Reads)
	}
	for _, c := range []struct {
		name string
		file string
		want bool
	}{{"export", "testdata/ui-export.json", true}, {"v1 renamed", "testdata/v1-output.jsonl", true}} {
		if got := Sniff("renamed.json", predtest.ReadFile(t, c.file)); got != c.want {
			t.Errorf("%s: Sniff = %v", c.name, got)
		}
	}
	const shared = "../../../shared/data/formats/openhands-export/openhands_trajectory.json"
	if _, err := os.Stat(shared); err == nil {
		run := predtest.LoadOne(t, load, shared)
		// The system prompt, the user's message and the recall are not
		// the agent's actions: the command and the finish are.
		if run.Model != "gpt-5-2025-08-07" || len(run.Actions) != 2 || run.Actions[0].Tool != "execute_bash" || run.Actions[1].Category != model.CategorySubmit ||
			!strings.Contains(run.Task, "Create a file called hello.txt") {
			t.Errorf("the shared export: model %q, %d actions %+v", run.Model, len(run.Actions), run.Actions)
		}
	}
}

// An OpenHands V1 conversation folder is one run: its events in order, its
// sub-agents' folders (subagents/<id>/, one nested) as agents tied to the
// task and delegate calls that started them, in time order; a corrupt event
// file skipped with a warning, what the reader does not know counted.
func TestConversationFolder(t *testing.T) {
	runs, err := LoadAnyDir("testdata/conv/c0ffee")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	run := runs[0]
	if run.InstanceID != "c0ffee" || run.Model != "claude-sonnet-5" || run.Task != "Find the leak in pool.py" || run.Format != Name {
		t.Errorf("run %q %q %q %q", run.InstanceID, run.Model, run.Task, run.Format)
	}
	var got []string
	for _, a := range run.Actions {
		got = append(got, fmt.Sprintf("%s/%d", a.Tool, a.Agent))
	}
	if want := "file_editor/0 task/0 file_editor/1 delegate/1 terminal/2 frobnicate/1 terminal/0"; strings.Join(got, " ") != want {
		t.Errorf("actions %s, want %s", strings.Join(got, " "), want)
	}
	agents := []model.Agent{{Parent: -1, Call: -1}, {ID: "sub1", Type: "explorer", Parent: 0, Call: 1, Depth: 1},
		{ID: "sub2", Type: "delegate", Parent: 1, Call: 3, Depth: 2}}
	if !reflect.DeepEqual(run.Agents, agents) {
		t.Errorf("agents %+v", run.Agents)
	}
	if want := map[string]int{"event:WormholeEvent": 1, "tool:frobnicate": 1}; !reflect.DeepEqual(run.Unread, want) || len(run.Warnings) != 1 {
		t.Errorf("unread %v warnings %q", run.Unread, run.Warnings)
	}
}

// A record line of many megabytes is read where it lies: not copied into
// a growing scanner buffer, nor copied again to check it is blank.
func TestLongLineNotCopied(t *testing.T) {
	line := `{"instance_id": "o__r-1", "history": [{"id": 1, "action": "run", "source": "agent", "args": {"command": "cat x"}}, ` +
		`{"id": 2, "observation": "run", "cause": 1, "content": "` + strings.Repeat("y", 8<<20) + `"}]}`
	data := []byte(line + "\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	runs, err := loadJSONL("big.jsonl", data)
	runtime.ReadMemStats(&after)
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 3*uint64(len(data)) {
		t.Errorf("%d MB allocated reading a line of %d MB", grown>>20, len(data)>>20)
	}
}
