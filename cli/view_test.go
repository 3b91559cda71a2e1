package cli

import (
	"bytes"
	"encoding/json"
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
