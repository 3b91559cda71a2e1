package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/demo"
)

// viewExec runs the command line with the demo from the source tree and
// captured (non-terminal) streams.
func viewExec(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Execute(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Demo: demo.FS()})
	return code, out.String(), errb.String()
}

func TestViewDemoSummaryOffTerminal(t *testing.T) {
	for _, args := range [][]string{nil, {"view"}} {
		code, out, errs := viewExec(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for _, want := range []string{
			"trajscope · pricebook__pricebook-42",
			"20 actions · 6 contextbench steps",
			"discounts.py:41-75",
			"pricebook/money.py               45-53     never read  searched, not read: a search hit one of its lines (action 7)",
			"pricebook/cart.py                45-49     read @6     read then dropped: 5 of 5 lines shown (first at action 6)",
			"pricebook/discounts.py           78-84     never read  near miss: the file was read, the closest read was 3 lines away (action 4)",
			"README.md                        12-14     never read  never opened",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: summary lacks %q:\n%s", args, want, out)
			}
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("%v: the plain summary has escape codes", args)
		}
	}
}

func TestViewJSON(t *testing.T) {
	code, out, errs := viewExec(t, "view", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		InstanceID string `json:"instance_id"`
		Actions    []struct {
			Index   int            `json:"index"`
			NewGold map[string]int `json:"new_gold"`
		} `json:"actions"`
		Gold []struct {
			File      string            `json:"file"`
			Diagnosis map[string]string `json:"diagnosis"`
			Closest   map[string]int    `json:"closest_action"`
		} `json:"gold"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json is not JSON: %v", err)
	}
	if doc.InstanceID != "pricebook__pricebook-42" || len(doc.Actions) != 20 || len(doc.Gold) != 7 {
		t.Fatalf("unexpected document: %s, %d actions, %d gold", doc.InstanceID, len(doc.Actions), len(doc.Gold))
	}
	if n := doc.Actions[3].NewGold["contextbench"]; n != 20 {
		t.Errorf("action 4 new gold = %d, want 20", n)
	}
	// Gold is sorted by file: money.py is last.
	if g := doc.Gold[6]; g.File != "pricebook/money.py" || g.Diagnosis["contextbench"] != "searched_not_read" || g.Closest["contextbench"] != 7 ||
		g.Diagnosis["observed"] != "read_then_dropped" {
		t.Errorf("money.py: %+v, want searched_not_read at action 7 (contextbench), read_then_dropped (observed)", g)
	}
}

// The same task loaded from files (--gold, --repo on a plain directory)
// gives the same summary as the embedded demo.
func TestViewFromFilesMatchesDemo(t *testing.T) {
	_, demo, _ := viewExec(t)
	code, out, errs := viewExec(t, "view", "../demo/task/pricebook__pricebook-42.traj.json",
		"--gold", "../demo/task/gold.json", "--repo", "../demo/task/repo")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if out != demo {
		t.Errorf("summary from files differs from the demo's:\n%s\n--- demo\n%s", out, demo)
	}
}

func TestViewErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"view", "--lens", "bogus"}, exitUsage, "unknown lens"},
		{[]string{"view", "--theme", "neon"}, exitUsage, "unknown theme"},
		{[]string{"view", "--step", "99"}, exitUsage, "the demo has 20 actions"},
		{[]string{"view", "--semantics", "x"}, exitUsage, "unknown semantics"},
		{[]string{"view", "--gold", "g.json"}, exitUsage, "need a RUN"},
		{[]string{"view", "../demo/task", "--step", "3"}, exitUsage, "pick one with --instance"},
		{[]string{"view", "../demo/task", "--input-format", "nope"}, exitUsage, "unknown format"},
		{[]string{"view", "../demo/task/gold.json", "no-such-dir/"}, exitRuntime, "no-such-dir"},
		{[]string{"view", "no-such-run.traj.json"}, exitRuntime, "no-such-run.traj.json"},
		{[]string{"view", "../demo/task/pricebook__pricebook-42.traj.json", "--repo", "x", "--cache", "y"}, exitUsage, "alternatives"},
		{[]string{"view", "../demo/task/pricebook__pricebook-42.traj.json", "--gold", "../demo/task/gold.json", "--instance", "nope"}, exitRuntime, `no instance "nope"`},
	}
	for _, c := range cases {
		code, _, errs := viewExec(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

func TestViewFormatFlag(t *testing.T) {
	run := "../demo/task/pricebook__pricebook-42.traj.json"
	if code, _, errs := viewExec(t, "view", run, "--input-format", "miniswe"); code != exitOK {
		t.Errorf("--format alias: exit %d: %s", code, errs)
	}
	if code, _, errs := viewExec(t, "view", run, "--input-format", "nope"); code != exitUsage || !strings.Contains(errs, "unknown format") {
		t.Errorf("--format nope: exit %d: %s", code, errs)
	}
}

// view DIR off a terminal prints the run list as a table (--json as JSON),
// every run scored with the gold and repository given; duplicates warn.
func TestViewRunList(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../demo/task/pricebook__pricebook-42.traj.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "pricebook__pricebook-42.traj.json"), data, 0o644)
	other := strings.Replace(string(data), `"instance_id": "pricebook__pricebook-42"`, `"instance_id": "other__run-1"`, 1)
	os.WriteFile(filepath.Join(dir, "other__run-1.traj.json"), []byte(other), 0o644)
	// A renamed copy: its file names it otherwise, its record finds the gold.
	os.WriteFile(filepath.Join(dir, "qwen_8b__pricebook__pricebook-42.traj.json"), data, 0o644)
	sub := filepath.Join(dir, "again")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "pricebook__pricebook-42.traj.json"), data, 0o644)
	args := []string{"view", dir, "--gold", "../demo/task/gold.json", "--repo", "../demo/task/repo"}
	code, out, errs := viewExec(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Columns are compared with their spacing collapsed: the instance
	// column's width follows its longest label.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"4 runs (contextbench lens)",
		// The two runs of one id say what tells them apart: their files.
		"1 pricebook__pricebook-42 (again/pricebook__pricebook-42.traj.json)",
		`2 other__run-1 `,
		`(no gold for instance "other__run-1")`,
		"3 pricebook__pricebook-42 (pricebook__pricebook-42.traj.json)",
		// The evaluator has no gold for the file's name (missing_gold).
		"4 qwen_8b__pricebook__pricebook-42 mini-swe-agent 1.17.3 · Qwen3-Coder-30B-A3B-Instruct 20 - - - - - - - -",
		`by its record: gold matched by the record's id`,
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, `warning: instance "pricebook__pricebook-42" appears 2 times: `+filepath.Join(sub, "pricebook__pricebook-42.traj.json")+" #1; ") {
		t.Errorf("no duplicate warning: %s", errs)
	}
	code, out, _ = viewExec(t, append(args, "--json", "--lens", "observed")...)
	var rows []struct {
		Position int    `json:"position"`
		ID       string `json:"instance_id"`
		Lenses   map[string]struct {
			Coverage  float64        `json:"final_line_coverage"`
			Diagnosis map[string]int `json:"diagnosis"`
		} `json:"lenses"`
	}
	if err := json.Unmarshal([]byte(out), &rows); code != exitOK || err != nil || len(rows) != 4 {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, out)
	}
	if r := rows[0]; r.ID != "pricebook__pricebook-42" || r.Lenses["contextbench"].Diagnosis["found"] != 1 || r.Lenses["observed"].Coverage == 0 {
		t.Errorf("first row: %+v", r)
	}
	// --instance takes a position in the list; the duplicate id warns.
	// (Position 2 is the run without gold: one run asked for by name must
	// have its gold.)
	code, _, errs = viewExec(t, append(args, "--instance", "2")...)
	if code != exitRuntime || !strings.Contains(errs, `gold.json: no gold for instance "other__run-1"`) {
		t.Errorf("--instance 2: exit %d %s", code, errs)
	}
	code, _, errs = viewExec(t, append(args, "--instance", "pricebook__pricebook-42")...)
	if code != exitOK || !strings.Contains(errs, `2 runs are instance "pricebook__pricebook-42": showing #1`) {
		t.Errorf("--instance with a duplicate id: exit %d %s", code, errs)
	}
	if code, _, errs = viewExec(t, append(args, "--instance", "3", "--step", "21")...); code != exitUsage || !strings.Contains(errs, "the run has 20 actions") {
		t.Errorf("--step past the end of the picked run: exit %d %s", code, errs)
	}
}

// A renamed run file is named by its file (the evaluator's rule) but finds
// its gold by the id it records, and view says so.
func TestViewRenamedRunFindsItsGold(t *testing.T) {
	data, err := os.ReadFile("../demo/task/pricebook__pricebook-42.traj.json")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "qwen_8b__pricebook__pricebook-42.traj.json")
	os.WriteFile(f, data, 0o644)
	code, out, errs := viewExec(t, "view", f, "--gold", "../demo/task/gold.json", "--repo", "../demo/task/repo")
	if code != exitOK || !strings.Contains(errs, `instance "qwen_8b__pricebook__pricebook-42" by its file name (the evaluator's rule), "pricebook__pricebook-42" by its record`) {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	// The evaluator has no gold for the file's name: the contextbench lens
	// is its missing_gold row; the observed lens reads the record's gold.
	if !strings.Contains(out, "contextbench lens not scored: missing_gold") || !strings.Contains(out, "observed lens                  0.60") {
		t.Errorf("the summary does not tell the two lenses apart:\n%s", out)
	}
	code, out, _ = viewExec(t, "view", f, "--gold", "../demo/task/gold.json", "--repo", "../demo/task/repo", "--lens", "observed")
	if code != exitOK || !strings.Contains(out, "gold (observed lens)") || !strings.Contains(out, "found: first shown") {
		t.Errorf("the observed lens has no gold:\n%s", out)
	}
}

// A run with no actions is shown as what it is: its summary, and why it is
// empty (how it ended), exit 0; --json too; only an export refuses it.
func TestViewEmptyRun(t *testing.T) {
	f := filepath.Join(t.TempDir(), "o__r-1.traj.json")
	os.WriteFile(f, []byte(`{"info": {"exit_status": "StepResponseTimeout", "submission": ""}, "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "t"}], "instance_id": "o__r-1"}`), 0o644)
	code, out, errs := viewExec(t, "view", f)
	if code != exitOK || !strings.Contains(out, "0 actions") || !strings.Contains(errs, `the run has no actions (it ended with "StepResponseTimeout")`) {
		t.Errorf("view: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = viewExec(t, "view", f, "--json")
	if code != exitOK || !strings.Contains(out, `"read_lines": 0`) {
		t.Errorf("view --json: exit %d\n%s", code, out)
	}
	if code, _, errs = viewExec(t, "export", f, "-o", filepath.Join(t.TempDir(), "x.html")); code != exitRuntime || !strings.Contains(errs, "no actions") {
		t.Errorf("export: exit %d, %s", code, errs)
	}
}

// Against no gold (an empty row, or a gold without the run's row) every
// coverage would read 1.00: the summary shows "–" instead, and the run list
// "-". Given no gold at all, the run's own edits are its target, and said
// to be.
func TestViewNoGoldShowsNoFigures(t *testing.T) {
	const run = "../demo/task/pricebook__pricebook-42.traj.json"
	other := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(other, []byte(`{"inst_id": "other__repo-1", "gold_ctx": [{"file": "x.py", "start_line": 1, "end_line": 2}]}`), 0o644)
	empty := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(empty, []byte(`{"inst_id": "pricebook__pricebook-42", "gold_ctx": []}`), 0o644)
	code, out, _ := viewExec(t, "view", run, "--repo", "../demo/task/repo", "--gold", empty)
	if code != exitOK || !strings.Contains(out, "contextbench lens                 –       –       –       –") || strings.Contains(out, "1.00    1.00") {
		t.Errorf("summary without its gold: exit %d\n%s", code, out)
	}
	code, out, _ = viewExec(t, "view", "../demo/task", "--repo", "../demo/task/repo", "--gold", other)
	if code != exitOK || !strings.Contains(out, "     -      -      -") {
		t.Errorf("run list without its gold: exit %d\n%s", code, out)
	}
	_, out, errs := viewExec(t, "view", run, "--repo", "../demo/task/repo")
	if !strings.Contains(errs, "no --gold: the code the run changed is the target") || !strings.Contains(out, "gold from edits: 1 edited region") ||
		!strings.Contains(out, "pricebook/discounts.py           60-60") {
		t.Errorf("without gold, the edits are not the target:\n%s\n%s", out, errs)
	}
	// With its gold, the figures are there.
	_, out, _ = viewExec(t, "view", run, "--repo", "../demo/task/repo", "--gold", "../demo/task/gold.json")
	if strings.Contains(out, "contextbench lens                 –") {
		t.Errorf("summary with gold shows no figures:\n%s", out)
	}
}

// Text-form gold under the reference semantics is empty gold, as upstream
// reads it: no figures, and a line saying --semantics fixed reads it.
func TestViewTextFormGoldSaysSo(t *testing.T) {
	gold := filepath.Join(t.TempDir(), "gold.jsonl")
	os.WriteFile(gold, []byte(`{"inst_id": "pricebook__pricebook-42", "gold_ctx": "context0：\nfile: pricebook/cart.py\nstart_line: 1\nend_line: 5\ncode\n"}`+"\n"), 0o644)
	args := []string{"view", "../demo/task/pricebook__pricebook-42.traj.json", "--repo", "../demo/task/repo", "--gold", gold}
	code, out, errs := viewExec(t, args...)
	if code != exitOK || !strings.Contains(errs, "is in the text form (context0：…), which the reference evaluator reads as empty; --semantics fixed reads it") ||
		!strings.Contains(out, "contextbench lens                 –") {
		t.Errorf("contextbench: exit %d\n%s\n%s", code, out, errs)
	}
	_, out, errs = viewExec(t, append(args, "--semantics", "fixed")...)
	if strings.Contains(errs, "text form") || !strings.Contains(out, "contextbench lens              1.00") {
		t.Errorf("fixed:\n%s\n%s", out, errs)
	}
}

// score keeps the evaluator's file-name rule under --semantics contextbench
// (a renamed run has no gold: missing_gold, as upstream); under fixed it
// scores the run as the instance its file records, and says so.
func TestScoreRenamedRunUnderFixedSemantics(t *testing.T) {
	f := renamedDemo(t, "qwen_8b__pricebook__pricebook-42")
	args := []string{"score", "--pred", f, "--gold", "../demo/task/gold.json", "--repo", "../demo/task/repo"}
	code, out, errs := viewExec(t, append(args, "--semantics", "contextbench")...)
	if code != exitOK || !strings.HasPrefix(out, `{"instance_id": "qwen_8b__pricebook__pricebook-42", "error": "missing_gold"}`) || strings.Contains(errs, "by its record") {
		t.Errorf("contextbench: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = viewExec(t, append(args, "--semantics", "fixed")...)
	if code != exitOK || !strings.HasPrefix(out, `{"instance_id": "pricebook__pricebook-42", "num_steps": `) ||
		!strings.Contains(errs, `by its record: scored as "pricebook__pricebook-42" (--semantics fixed)`) {
		t.Errorf("fixed: exit %d\n%s\n%s", code, out, errs)
	}
}

// view --json carries the task, the submitted patch with the gold lines it
// touches, and each action's recorded edits.
func TestViewJSONTaskAndPatch(t *testing.T) {
	code, out, errs := viewExec(t, "view", "../demo/task/pricebook__pricebook-42.traj.json", "--gold", "../demo/task/gold.json", "--repo", "../demo/task/repo", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Task     string `json:"task"`
		TaskFrom string `json:"task_from"`
		Patch    struct {
			Text        string `json:"text"`
			Removed     int    `json:"removed_lines"`
			GoldRemoved int    `json:"gold_lines_removed"`
			GoldLines   []struct {
				File    string `json:"file"`
				Line    int    `json:"line"`
				Removed bool   `json:"removed"`
			} `json:"gold_lines"`
		} `json:"patch"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.TaskFrom != "run" || !strings.HasPrefix(doc.Task, "Bulk discount is not applied when ordering exactly 10 units") {
		t.Errorf("task %q from %q", doc.Task, doc.TaskFrom)
	}
	removed := 0
	for _, l := range doc.Patch.GoldLines {
		if l.Removed {
			removed++
			if l.File != "pricebook/discounts.py" || l.Line != 60 {
				t.Errorf("gold line removed: %+v", l)
			}
		}
	}
	if !strings.Contains(doc.Patch.Text, "if quantity >= tier.min_qty:") || doc.Patch.Removed != 1 || doc.Patch.GoldRemoved != 1 || removed != 1 {
		t.Errorf("patch: %d removed, %d gold, %d gold lines removed", doc.Patch.Removed, doc.Patch.GoldRemoved, removed)
	}
}
