package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareDifferentTasks: two runs of different tasks are a usage
// error, one line, exit 2.
func TestCompareDifferentTasks(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	other := renamedDemo(t, "other__task-7")
	data, _ := os.ReadFile(other)
	os.WriteFile(other, []byte(strings.Replace(string(data), `"instance_id": "pricebook__pricebook-42"`, `"instance_id": "other__task-7"`, 1)), 0o644)
	code, out, errs := viewExec(t, "compare", demoTraj, other, "--gold", demoGold, "--repo", "../demo/task/repo")
	if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `the runs are of different tasks: "pricebook__pricebook-42" and "other__task-7"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := viewExec(t, "compare", demoTraj); code != exitUsage {
		t.Errorf("one run: exit %d %s", code, errs)
	}
	// A renamed file of the same task (a model-prefixed name) is the same
	// task: the id it records matches the gold.
	renamed := renamedDemo(t, "qwen_8b__pricebook__pricebook-42")
	if code, out, errs := viewExec(t, "compare", demoTraj, renamed, "--gold", demoGold, "--repo", "../demo/task/repo"); code != exitOK ||
		!strings.Contains(out, "final cov/p B   not scored: missing_gold") {
		t.Errorf("a renamed run of the same task: exit %d %s\n%s", code, errs, out)
	}
}

// TestCompareRealPair: two real runs of one task by different agents and
// models — mini-swe-agent v2 with deepseek-chat, and Agentless — with gold
// on astropy's separable.py (the two functions the fix touches), and no
// repository: the comparison reads what each run displayed.
func TestCompareRealPair(t *testing.T) {
	v2 := filepath.Join(sharedData, "formats", "mini-swe-agent-v2", "astropy__astropy-12907.traj.json")
	agentless := filepath.Join(sharedData, "formats", "agentless", "loc_outputs-01.jsonl")
	if _, err := os.Stat(v2); err != nil {
		t.Skip("no shared data")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	gold := write(t, filepath.Join(t.TempDir(), "gold.jsonl"), `{"inst_id": "astropy__astropy-12907", "original_inst_id": "astropy__astropy-12907", `+
		`"commit": "d16bfe05a744909de4b27f5875fe0d4ed41ce607", "gold_ctx": [{"file": "astropy/modeling/separable.py", "start_line": 219, "end_line": 247}, `+
		`{"file": "astropy/modeling/separable.py", "start_line": 66, "end_line": 102}]}`+"\n")
	code, out, errs := viewExec(t, "compare", v2, agentless, "--gold", gold, "--lens", "observed")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// By hand from the runs: the v2 run's second action prints the whole
	// of separable.py (1-317); Agentless names the file and no lines. The
	// evaluator reads no final context from a v2 run (as score does), so
	// the observed lens's final is the union of what it displayed.
	for _, want := range []string{
		"A  mini-swe-agent · deepseek-chat · mini-swe-agent-v2 · 64 actions",
		"B  agentless · agentless-loc · 1 actions",
		"gold spans (2): found by both 0, only A 2, only B 0, neither 0",
		"astropy/modeling/separable.py:66-102   A @2 found · B never (searched, not read)",
		"astropy/modeling/separable.py:219-247  A @2 found · B never (searched, not read)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = viewExec(t, "compare", v2, agentless, "--gold", gold, "--json")
	var doc struct {
		InstanceID string `json:"instance_id"`
		Lens       string `json:"lens"`
		Runs       [2]struct {
			Format string `json:"format"`
			Found  int    `json:"spans_found"`
		} `json:"runs"`
		Spans []json.RawMessage `json:"spans"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil || doc.InstanceID != "astropy__astropy-12907" ||
		doc.Lens != "contextbench" || doc.Runs[0].Format != "mini-swe-agent-v2" || doc.Runs[1].Format != "agentless-loc" || len(doc.Spans) != 2 {
		t.Errorf("--json: exit %d, %v: %+v", code, err, doc)
	}
}

// renamedDemo copies the demo run under another name: a .traj.json's
// instance id is its file name.
func renamedDemo(t *testing.T, id string) string {
	t.Helper()
	data, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	return write(t, filepath.Join(t.TempDir(), id+".traj.json"), string(data))
}

// compare FILE compares the two runs of a file of exactly two (an
// AgentStackBench page's variants); a file of another count is a usage
// error naming it.
func TestCompareOneFileOfTwoRuns(t *testing.T) {
	code, out, errs := exec(t, "compare", "../parsers/agentstackbench/testdata/page.json", "--json")
	if code != 0 || !strings.Contains(out, `"instance_id": "o__r-1"`) || !strings.Contains(out, "Tuned") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := exec(t, "compare", "../testdata/examples/preds.jsonl"); code != exitUsage || !strings.Contains(errs, "compare FILE takes a file of exactly two runs") {
		t.Errorf("a file of three runs: exit %d, %s", code, errs)
	}
}
