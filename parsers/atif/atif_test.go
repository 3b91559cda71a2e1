package atif

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// loadFile reads a file as the format table does.
var loadFile = predtest.Loader(ParseRuns, nil)

func load1(t *testing.T, path string) model.Run {
	t.Helper()
	return predtest.LoadOne(t, loadFile, path, predtest.CheckRun)
}

var rng = predtest.Range

// summary renders actions as "Tool[*]" (* = sidechain) for order checks.
func summary(run model.Run) string {
	var s []string
	for _, a := range run.Actions {
		x := a.Tool
		if a.Sidechain() {
			x += "*"
		}
		s = append(s, x)
	}
	return strings.Join(s, ",")
}

func TestV10(t *testing.T) {
	run := load1(t, "testdata/v1.0.json")
	if run.Format != Name || run.Agent != "claude-code" || run.InstanceID != "s10" || len(run.Actions) != 1 {
		t.Fatalf("run = %+v", run)
	}
	a := run.Actions[0]
	if !reflect.DeepEqual(a.Reads, rng("/workspace/a.py", 5, 7)) || run.Thought(0) != "Reading a.py" ||
		a.Usage != (model.Usage{InputTokens: 100, OutputTokens: 10}) || a.Timestamp != 1761991200 {
		t.Fatalf("action = %+v", a)
	}
}

// TestV12MetricsDedup: steps 2 and 3 repeat one API call's metrics; they
// are counted once, and the text-only step's usage goes to the next call.
func TestV12MetricsDedup(t *testing.T) {
	run := load1(t, "testdata/v1.2.json")
	if summary(run) != "Bash,mcp__sourcegraph__sg_list_files" {
		t.Fatalf("actions = %s", summary(run))
	}
	a, b := run.Actions[0], run.Actions[1]
	if a.Usage != (model.Usage{InputTokens: 8, OutputTokens: 4, CacheRead: 26874}) {
		t.Errorf("usage 0 = %+v (metrics counted twice?)", a.Usage)
	}
	if !reflect.DeepEqual(a.Reads, rng("src/x.py", 3, 9)) || run.Thought(0) != "Executed Bash toolu_1" {
		t.Errorf("action 0 = %+v", a)
	}
	if b.Usage != (model.Usage{InputTokens: 118, OutputTokens: 30, CacheRead: 26882}) || b.Category != model.CategorySearch ||
		!reflect.DeepEqual(b.Searches, []model.SearchHit{{File: "clients/src/A.java"}}) {
		t.Errorf("action 1 = %+v", b)
	}
}

// TestV15: a result without source_call_id pairs with the step's only call;
// Grep content hits carry lines, which it displayed; a zero-based read_file with bare output
// keeps its requested range.
func TestV15(t *testing.T) {
	run := load1(t, "testdata/v1.5.json")
	if summary(run) != "Grep,read_file" || run.Agent != "gemini-cli" || run.Model != "gemini-2.5-pro" {
		t.Fatalf("actions = %s", summary(run))
	}
	g := run.Actions[0]
	if run.Thought(0) != "search first" || !reflect.DeepEqual(g.Reads, append(rng("pkg/m.py", 12, 12), rng("pkg/n.py", 3, 3)...)) ||
		!reflect.DeepEqual(g.Searches, []model.SearchHit{{File: "pkg/m.py", Line: 12}, {File: "pkg/n.py", Line: 3}}) {
		t.Errorf("grep = %+v", g)
	}
	if r := run.Actions[1]; !reflect.DeepEqual(r.Reads, rng("/src/pkg/m.py", 10, 20)) {
		t.Errorf("read_file = %+v", r.Reads)
	}
}

// TestV16ContentParts: message and result content as content-part lists.
func TestV16ContentParts(t *testing.T) {
	run := load1(t, "testdata/v1.6.json")
	a := run.Actions[0]
	if len(run.Actions) != 1 || run.Thought(0) != "Reading." || !reflect.DeepEqual(a.Reads, rng("/repo/b.go", 1, 2)) ||
		run.Observation(0) != "1\tpackage b\n2\t" {
		t.Fatalf("action = %+v", a)
	}
}

// TestV17 covers ATIF-v1.7: a copied-context step skipped, two calls in one
// step, tool_result_metadata giving the Read range when the text is
// trimmed, the "[metadata]" suffix removed, an embedded sub-agent placed
// after the Task call that launched it, extra.is_sidechain, a failed edit,
// usage after the last call kept on the main trajectory, and an
// unreferenced sub-agent listed last.
func TestV17(t *testing.T) {
	run := load1(t, "testdata/v1.7.json")
	if got := summary(run); got != "Read,Task,Read*,Grep*,Edit,Glob*" {
		t.Fatalf("actions = %s", got)
	}
	a := run.Actions
	if !reflect.DeepEqual(a[0].Reads, rng("/repo/a.py", 1, 120)) || strings.Contains(run.Observation(0), "[metadata]") ||
		a[0].Usage != (model.Usage{InputTokens: 100, OutputTokens: 50, CacheRead: 900}) || run.Thought(0) != "two calls" {
		t.Errorf("action 0 = %+v", a[0])
	}
	if a[1].Category != model.CategoryOther || a[1].Usage != (model.Usage{}) {
		t.Errorf("task = %+v", a[1])
	}
	if !reflect.DeepEqual(a[2].Reads, rng("/repo/deep.py", 40, 44)) || a[2].Usage != (model.Usage{InputTokens: 100, OutputTokens: 5, CacheRead: 400}) {
		t.Errorf("sub read = %+v", a[2])
	}
	if !reflect.DeepEqual(a[3].Searches, []model.SearchHit{{File: "/repo/a.py"}}) {
		t.Errorf("grep = %+v", a[3])
	}
	// Step 5's own usage plus step 6 (text only, after the last call).
	if a[4].Edits != nil || a[4].Category != model.CategoryEdit ||
		a[4].Usage != (model.Usage{InputTokens: 200, OutputTokens: 15, CacheRead: 2300}) {
		t.Errorf("failed edit = %+v", a[4])
	}
	if !reflect.DeepEqual(a[5].Searches, []model.SearchHit{{File: "/repo/README.md"}}) || a[5].Usage != (model.Usage{}) {
		t.Errorf("unreferenced sub-agent = %+v", a[5])
	}
	if len(run.Prediction.Steps) != 2 || !reflect.DeepEqual(a[2].Steps, []int{1}) {
		t.Errorf("steps = %+v", run.Prediction.Steps)
	}
}

// TestSubagentFileRef: a sub-agent trajectory named by trajectory_path
// beside the file is loaded; a path leaving the directory is not.
func TestSubagentFileRef(t *testing.T) {
	run := load1(t, "testdata/refs/parent.json")
	if got := summary(run); got != "Task,Bash*" {
		t.Fatalf("actions = %s", got)
	}
	want := []model.ObservedRead{{File: "pkg/z.py", Kind: model.ReadHead, Start: 1, End: 7}}
	if !reflect.DeepEqual(run.Actions[1].Reads, want) {
		t.Fatalf("reads = %+v", run.Actions[1].Reads)
	}
}

func TestJSONLines(t *testing.T) {
	runs, err := loadFile("testdata/lines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].InstanceID != "l1" || runs[1].InstanceID != "l2" ||
		!reflect.DeepEqual(runs[1].Actions[0].Reads, rng("f.py", 2, 3)) {
		t.Fatalf("runs = %+v", runs)
	}
}

func TestErrors(t *testing.T) {
	predtest.LoadErrors(t, loadFile, "x.json", [][2]string{
		{`{"schema_version": "ATIF-v2.0", "agent": {}, "steps": []}`, `schema_version "ATIF-v2.0": expected ATIF-v1.0`},
		{`{"schema_version": 1.4, "steps": []}`, "schema_version: expected a string"},
		{`{"schema_version": "ATIF-v1.3", "steps": {}}`, "steps: expected a list"},
		{`{"schema_version": "ATIF-v1.3", "steps": [3]}`, "steps[0]: expected a step object"},
		{"{\"schema_version\": \"ATIF-v1.3\",\n \"steps\": [}", "x.json:2:12: invalid JSON: expected a value"},
		{`[1, 2]`, "expected an ATIF trajectory object"},
	})
}

func TestSniff(t *testing.T) {
	for _, p := range []string{"testdata/v1.0.json", "testdata/v1.7.json", "testdata/lines.jsonl"} {
		b, _ := os.ReadFile(p)
		if !Sniff("renamed", b) {
			t.Errorf("Sniff(%s) = false", p)
		}
	}
	for _, s := range []string{`{"type":"assistant","message":{}}`, `{"info": {}, "messages": []}`, `["schema_version": "ATIF-v1.2"]`} {
		if Sniff("trajectory.json", []byte(s)) {
			t.Errorf("Sniff(%s) = true", s)
		}
	}
}

const shared = "../../../shared/data/formats/claude-code/"

// TestRealTrajectoryPass loads Harbor's ATIF-v1.7 fixture of a Claude Code
// 2.1.178 run. Counted by hand in trajectory_pass.json: steps 2-11 carry
// tool calls, two each in steps 2 and 3 (Read+Bash, file lines 25 and 79
// for the Reads) and one in steps 4-11, so 12 actions. Observed reads:
//   - action 0 (step 2, line 25): Read providers_llmisvc.go with no
//     offset/limit; the output is numbered "1\t/*"… but cut by the fixture
//     ("...[trimmed]"), so the whole file, not lines 1-6;
//   - action 2 (step 3, line 79): Read providers_llmisvc_test.go, same case;
//   - action 9 (step 9, line 335): Read of a 1-line file answered with
//     "shorter than the provided offset (1)": nothing shown;
//   - action 10 (step 10, line 370): Read offset 0, limit 60, output numbered
//     from "0\t": lines 1-60.
func TestRealTrajectoryPass(t *testing.T) {
	predtest.NeedFile(t, shared+"trajectory_pass.json")
	run := load1(t, shared+"trajectory_pass.json")
	if len(run.Actions) != 12 || run.Model != "claude-opus-4-6" || run.InstanceID != "a3b10bae-3ebd-4b8e-8779-3d21ce098521" {
		t.Fatalf("%d actions, model %q, id %q", len(run.Actions), run.Model, run.InstanceID)
	}
	const dir = "/repo/maas-controller/pkg/controller/maas/"
	a := run.Actions
	// Whole reads cut short by the recorder: the file, and the numbered
	// lines kept (1-6).
	if !reflect.DeepEqual(a[0].Reads, []model.ObservedRead{{File: dir + "providers_llmisvc.go", Kind: model.ReadWhole}, {File: dir + "providers_llmisvc.go", Kind: model.ReadRange, Start: 1, End: 6}}) {
		t.Errorf("action 0 reads = %+v", a[0].Reads)
	}
	if !reflect.DeepEqual(a[2].Reads, []model.ObservedRead{{File: dir + "providers_llmisvc_test.go", Kind: model.ReadWhole}, {File: dir + "providers_llmisvc_test.go", Kind: model.ReadRange, Start: 1, End: 6}}) {
		t.Errorf("action 2 reads = %+v", a[2].Reads)
	}
	if a[9].Tool != "Read" || a[9].Reads != nil {
		t.Errorf("action 9 = %+v", a[9])
	}
	if !reflect.DeepEqual(a[10].Reads, rng("/tmp/claude-0/-repo/a3b10bae-3ebd-4b8e-8779-3d21ce098521/tasks/by6pa6fvt.output", 1, 60)) {
		t.Errorf("action 10 reads = %+v", a[10].Reads)
	}
	// Action 1 is the step-2 Bash `ls …; find … -name '*.go' | head -30`:
	// a search whose listing names annotations.go.
	found := false
	for _, h := range a[1].Searches {
		found = found || h.File == dir+"annotations.go"
	}
	if a[1].Category != model.CategorySearch || !found {
		t.Errorf("action 1 = %+v", a[1])
	}
	for _, i := range []int{4, 5, 6} {
		if !reflect.DeepEqual(a[i].Edits, []string{dir + "providers_llmisvc.go"}) {
			t.Errorf("action %d edits = %v", i, a[i].Edits)
		}
	}
	// Every step's metrics differ, so the per-action sums equal the
	// fixture's final_metrics: completion 3304, and prompt 485630 split
	// into uncached input and 461807 cached.
	var u model.Usage
	for _, x := range a {
		u = toolcall.SumUsage(u, x.Usage)
	}
	if u.OutputTokens != 3304 || u.CacheRead != 461807 || u.InputTokens+u.CacheRead+u.CacheWrite != 485630 {
		t.Errorf("usage total = %+v", u)
	}
}

// TestRealTrajectory: the ATIF export of the native session sample (one
// Write call in step 2); usage sums to its final_metrics.
func TestRealTrajectory(t *testing.T) {
	predtest.NeedFile(t, shared+"trajectory.json")
	run := load1(t, shared+"trajectory.json")
	if len(run.Actions) != 1 || run.Actions[0].Tool != "Write" || !reflect.DeepEqual(run.Actions[0].Edits, []string{"/app/hello.txt"}) {
		t.Fatalf("actions = %+v", run.Actions)
	}
	if u := run.Actions[0].Usage; u != (model.Usage{InputTokens: 4, OutputTokens: 107, CacheRead: 32693, CacheWrite: 5236}) {
		t.Fatalf("usage = %+v", u)
	}
}

// terminus-2: no tool calls, its commands are keystrokes in the reply's
// JSON (or XML); each typed command is a bash action, the batch's terminal
// output goes to its last command, an empty keystroke (a wait) is none; a
// continuation file (continued_trajectory_ref) joins its parent as one
// run, its copied context skipped.
func TestTerminusKeystrokesAndContinuation(t *testing.T) {
	run := predtest.LoadOne(t, loadFile, "testdata/terminus/trajectory.json")
	type want struct {
		cmd   string
		cat   model.Category
		reads []model.ObservedRead
	}
	wants := []want{
		{"nl -ba pkg/mod.py | sed -n '10,12p'", model.CategoryRead, predtest.Range("pkg/mod.py", 10, 12)},
		{"ls pkg", model.CategorySearch, nil},
		{"head -n 3 pkg/mod.py", model.CategoryRead, []model.ObservedRead{{File: "pkg/mod.py", Kind: model.ReadHead, Start: 1, End: 3}}},
	}
	if len(run.Actions) != len(wants) {
		t.Fatalf("%d actions: %+v", len(run.Actions), run.Actions)
	}
	for i, w := range wants {
		a := run.Actions[i]
		if a.Tool != "bash" || a.Command != w.cmd || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) {
			t.Errorf("action %d: %q %q %v %v; want %+v", i, a.Tool, a.Command, a.Category, a.Reads, w)
		}
	}
	if run.Thought(0) != "Look at the module.\n\nPrint lines 10-12 with numbers, then list." || run.Observation(0) != "" || !strings.Contains(run.Observation(1), "    10\tx = 10") {
		t.Errorf("thought %q, outputs %q / %q", run.Thought(0), run.Observation(0), run.Observation(1))
	}
	if run.Agent != "terminus-2" || run.Actions[0].Usage.InputTokens != 100 {
		t.Errorf("agent %q, usage %+v", run.Agent, run.Actions[0].Usage)
	}
}

// A list of ATIF trajectories is a run each.
func TestTrajectoryList(t *testing.T) {
	runs, err := loadFile("testdata/list.json")
	if err != nil || len(runs) != 2 || runs[0].InstanceID != "a__b-1" || runs[1].InstanceID != "a__b-2" || len(runs[0].Actions) != 2 {
		t.Fatalf("%d runs, %v: %+v", len(runs), err, runs)
	}
	if !Sniff("list.json", predtest.ReadFile(t, "testdata/list.json")) {
		t.Error("a list of trajectories is not sniffed as ATIF")
	}
}

// The real terminus-2 golden of ../shared (skipped without it): five
// commands over the trajectory and its continuation.
func TestSharedTerminus(t *testing.T) {
	const f = "../../../shared/data/formats/atif-terminus2/trajectory.json"
	predtest.NeedFile(t, f)
	run := predtest.LoadOne(t, loadFile, f)
	var cmds []string
	for _, a := range run.Actions {
		cmds = append(cmds, a.Command)
	}
	if want := []string{"mkdir test_dir", "echo 'test1' > test_dir/file1.txt", "echo 'test2' > test_dir/file2.txt", `printf 'Hello, world!\n' > hello.txt`, "cat hello.txt"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("commands %q, want %q", cmds, want)
	}
}

// A trajectory naming one 3 MB sub-agent file 64 times reads it once and
// walks it once; a continuation naming its own file is the one walk too.
func TestReferencesReadOnce(t *testing.T) {
	dir := t.TempDir()
	var steps []string
	for i := range 300 {
		steps = append(steps, fmt.Sprintf(`{"step_id": %d, "source": "agent", "message": %q, "tool_calls": [{"tool_call_id": "c%d", "function_name": "Bash", "arguments": {"command": "ls"}}]}`,
			i+1, strings.Repeat("x", 10_000), i))
	}
	child := `{"schema_version": "ATIF-v1.4", "session_id": "c", "agent": {"name": "sub"}, "steps": [` + strings.Join(steps, ",") + `]}`
	os.WriteFile(filepath.Join(dir, "child.json"), []byte(child), 0o644)
	var calls []string
	for i := range 64 {
		calls = append(calls, fmt.Sprintf(`{"step_id": %d, "source": "agent", "message": "", "tool_calls": [{"tool_call_id": "k%d", "function_name": "Task", "arguments": {}}],
			"observation": {"results": [{"source_call_id": "k%d", "content": "ok", "subagent_trajectory_ref": [{"session_id": "c%d", "trajectory_path": "child.json"}]}]}}`, i+1, i, i, i))
	}
	parent := `{"schema_version": "ATIF-v1.4", "session_id": "p", "agent": {"name": "lead"}, "continued_trajectory_ref": "parent.json", "steps": [` + strings.Join(calls, ",") + `]}`
	p := filepath.Join(dir, "parent.json")
	os.WriteFile(p, []byte(parent), 0o644)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run := load1(t, p)
	runtime.ReadMemStats(&after)
	if n := len(run.Actions); n != 64+300 {
		t.Errorf("%d actions, want 64 calls and the child's 300 once", n)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 200<<20 {
		t.Errorf("%d MB allocated for a 3 MB sub-agent file named 64 times", grown>>20)
	}
}
