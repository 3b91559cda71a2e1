package miniswev2

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// load reads a file as the format table does.
var load = predtest.Loader(ParseRuns, nil)

func load1(t *testing.T, path string) model.Run {
	t.Helper()
	return predtest.LoadOne(t, load, path, predtest.CheckRun)
}

var rng = predtest.Range

// TestToolCalls covers chat-completions tool calls: extra.actions paired
// with role "tool" messages by tool_call_id (also out of order), the raw
// output fed to the shell analyser, parallel calls in one message, usage
// once per message with a text-only message's usage carried forward, and
// the submission as the patch.
func TestToolCalls(t *testing.T) {
	run := load1(t, "testdata/toolcalls.traj.json")
	if run.Format != Name || run.InstanceID != "owner__repo-7" || run.Model != "openai/gpt-5-mini" || len(run.Actions) != 4 {
		t.Fatalf("run = %q %q %q %d", run.Format, run.InstanceID, run.Model, len(run.Actions))
	}
	a := run.Actions
	if a[0].Command != "grep -rn 'def f' src" || !reflect.DeepEqual(a[0].Reads, rng("src/m.py", 12, 12)) ||
		a[0].Usage != (model.Usage{InputTokens: 20, OutputTokens: 10, CacheRead: 80}) || run.Thought(0) != "Find f first." ||
		a[0].Timestamp != 1780000001 || !strings.HasPrefix(run.Observation(0), "<returncode>0</returncode>") {
		t.Errorf("action 0 = %+v", a[0])
	}
	if !reflect.DeepEqual(a[1].Reads, rng("src/m.py", 10, 14)) || a[1].Usage != (model.Usage{InputTokens: 50, OutputTokens: 20, CacheRead: 150}) {
		t.Errorf("action 1 = %+v", a[1])
	}
	if !reflect.DeepEqual(a[2].Reads, rng("src/n.py", 1, 2)) || a[2].Usage != (model.Usage{}) {
		t.Errorf("action 2 = %+v", a[2])
	}
	if a[3].Category != model.CategoryEdit || !reflect.DeepEqual(a[3].Edits, []string{"src/m.py"}) ||
		a[3].Usage != (model.Usage{InputTokens: 150, OutputTokens: 35, CacheRead: 550}) {
		t.Errorf("action 3 = %+v", a[3])
	}
	p := run.Prediction
	if p.ModelPatch != "diff --git a/src/m.py b/src/m.py\n" || len(p.Steps) != 3 || !reflect.DeepEqual(a[2].Steps, []int{2}) {
		t.Fatalf("prediction = %+v", p)
	}
	wantFinal := model.Step{Files: []string{"src/m.py", "src/n.py"}, Spans: []model.FileSpans{{File: "src/m.py", Spans: []model.Interval{{Start: 10, End: 14}}},
		{File: "src/n.py", Spans: []model.Interval{{Start: 1, End: 2}}}}}
	if !reflect.DeepEqual(p.Final, wantFinal) {
		t.Fatalf("final = %+v", p.Final)
	}
}

// TestTextBased: v2 text mode (extra.actions without call ids, outputs in
// the following user messages, head/tail elision).
func TestTextBased(t *testing.T) {
	run := load1(t, "testdata/textbased.traj.json")
	if run.InstanceID != "textbased" || len(run.Actions) != 2 {
		t.Fatalf("run = %q %d", run.InstanceID, len(run.Actions))
	}
	want := []model.ObservedRead{{File: "src/a.py", Kind: model.ReadHead, Start: 1, End: 20}}
	if !reflect.DeepEqual(run.Actions[0].Reads, want) || run.Actions[0].Timestamp != 1780000100.5 {
		t.Errorf("action 0 = %+v", run.Actions[0])
	}
	// cat of a missing file showed nothing.
	if run.Actions[1].Reads != nil || !strings.Contains(run.Observation(1), "No such file") {
		t.Errorf("action 1 = %+v", run.Actions[1])
	}
}

// TestResponsesAPI: function_call output items and function_call_output
// messages.
func TestResponsesAPI(t *testing.T) {
	run := load1(t, "testdata/responses.traj.json")
	if len(run.Actions) != 1 || run.Model != "openai/gpt-5.5" {
		t.Fatalf("run = %+v", run)
	}
	a := run.Actions[0]
	if !reflect.DeepEqual(a.Reads, rng("pkg/q.py", 5, 9)) || run.Thought(0) != "I will inspect the workspace." ||
		a.Usage != (model.Usage{InputTokens: 75, OutputTokens: 40, CacheRead: 25}) || a.Timestamp != 1015 {
		t.Fatalf("action = %+v", a)
	}
}

func TestRefusesV1(t *testing.T) {
	_, err := load("testdata/v1.traj.json")
	if err == nil || !strings.Contains(err.Error(), "mini-swe-agent v1") {
		t.Fatalf("err = %v", err)
	}
	head, _ := os.ReadFile("testdata/v1.traj.json")
	if Sniff("v1.traj.json", head) {
		t.Fatal("Sniff claimed a v1 file")
	}
	// A head cut before "messages" (a large info.config): the version stamp
	// decides.
	if !Sniff("x", []byte(`{"info": {"mini_version": "2.3.0", "config": {"agent": {}}`)) ||
		Sniff("x", []byte(`{"info": {"mini_version": "1.17.3", "config": {"agent": {}}`)) {
		t.Error("version-stamp sniffing")
	}
	for _, p := range []string{"testdata/toolcalls.traj.json", "testdata/textbased.traj.json", "testdata/responses.traj.json"} {
		b, _ := os.ReadFile(p)
		if !Sniff("renamed.json", b) {
			t.Errorf("Sniff(%s) = false", p)
		}
	}
}

// TestSniffRealV1: the real v1 samples (and the ContextBench test vector)
// are not claimed, from their first 64 KiB as detection reads them.
func TestSniffRealV1(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/data/formats/mini-swe-agent-v1/*.traj.json")
	files = append(files, "../../../shared/data/contextbench/testvectors/traj/owner__repo-1.traj.json")
	n := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		n++
		if len(b) > 64<<10 {
			b = b[:64<<10]
		}
		if Sniff(p, b) {
			t.Errorf("Sniff(%s) = true", p)
		}
	}
	if n == 0 {
		t.Skip("shared data not available")
	}
}

func TestErrors(t *testing.T) {
	predtest.LoadErrors(t, load, "x.json", [][2]string{
		{`{"messages": {}}`, "messages: expected a list"},
		{`{"messages": [3]}`, "messages[0]: expected a message object"},
		{`{"trajectory_format": "swe-agent", "messages": []}`, `trajectory_format "swe-agent"`},
		{"{\"messages\": [\n{\"role\": }]}", "x.json:2:10: invalid JSON: expected a value"},
		{"{\"messages\": [", "x.json:1:15: invalid JSON: expected a value, found end of input"},
		{`[]`, "expected a JSON object"},
	})
}

// TestRealSample loads mini-swe-agent PR 854's example trajectory. Counted
// by hand (python over messages[]): 64 assistant messages each issue one
// bash tool call (extra.actions has one entry each) and 63 "tool" messages
// answer them; the last call's answer is the "exit" message. Observed
// reads checked against the file:
//   - action 1 (file line 192, messages[4]): `cat astropy/modeling/separable.py`
//     after `cd /testbed`: the whole file;
//   - action 23 (line 1930, messages[48]): `sed -n '1525,1545p'
//     astropy/modeling/core.py`: lines 1525-1545;
//   - action 25 (line 2088, messages[52]): `sed -n '2894,2950p'` of the same
//     file: lines 2894-2950;
//   - action 33 (line 2708, messages[68]): `sed -n '98,114p'
//     astropy/modeling/tests/test_separable.py`: lines 98-114.
func TestRealSample(t *testing.T) {
	path := "../../../shared/data/formats/mini-swe-agent-v2/astropy__astropy-12907.traj.json"
	predtest.NeedFile(t, path)
	head, _ := os.ReadFile(path)
	if !Sniff(path, head[:64<<10]) {
		t.Fatal("Sniff = false on the real v2 sample")
	}
	run := load1(t, path)
	if len(run.Actions) != 64 || run.InstanceID != "astropy__astropy-12907" {
		t.Fatalf("%d actions, id %q", len(run.Actions), run.InstanceID)
	}
	const dir = "/testbed/astropy/modeling/"
	checks := map[int][]model.ObservedRead{
		1:  rng(dir+"separable.py", 1, 317), // the whole file as printed
		23: rng(dir+"core.py", 1525, 1545),
		25: rng(dir+"core.py", 2894, 2950),
		33: rng(dir+"tests/test_separable.py", 98, 114),
	}
	for i, want := range checks {
		if got := run.Actions[i].Reads; !reflect.DeepEqual(got, want) {
			t.Errorf("action %d reads = %+v, want %+v", i, got, want)
		}
	}
	// messages[2]'s usage: prompt 1689 with 1664 cached, completion 76, and
	// the call's cost from extra.cost.
	if u := run.Actions[0].Usage; u != (model.Usage{InputTokens: 25, OutputTokens: 76, CacheRead: 1664, CostUSD: 8.551199999999999e-05}) {
		t.Errorf("usage 0 = %+v", u)
	}
	if !strings.HasPrefix(run.Prediction.ModelPatch, "--- a/astropy/modeling/separable.py") {
		t.Errorf("patch = %.60q", run.Prediction.ModelPatch)
	}
	if last := run.Actions[63]; last.Category != model.CategorySubmit {
		t.Errorf("last action = %s %q", last.Category, last.Command)
	}
}
