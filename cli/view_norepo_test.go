package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	demoTraj = "../demo/task/pricebook__pricebook-42.traj.json"
	demoGold = "../demo/task/gold.json"
)

// editDemo writes the demo trajectory changed by edit into dir.
func editDemo(t *testing.T, dir string, edit func(doc map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, _ := json.Marshal(doc)
	p := filepath.Join(dir, filepath.Base(demoTraj))
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestViewWithoutRepository: without --repo or --cache, and with a cache
// that lacks the repository, view opens on what the run displayed: one
// stderr line and a banner say why, the file and line figures are the
// repository's, symbol and span are n/a, and no gold the run read is
// called "not in the repository".
func TestViewWithoutRepository(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	_, withRepo, _ := viewExec(t, "view", demoTraj, "--gold", demoGold, "--repo", "../demo/task/repo")
	empty := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		reason string
	}{
		{"no option", nil, ""}, // the advice to pass one is the reason
		{"cache without it", []string{"--cache", empty, "--no-clone"}, "not in the cache " + empty + ", and --no-clone forbids cloning"},
		{"broken cache entry", []string{"--cache", empty}, "repository https://github.com/pricebook/pricebook.git: cache entry " + filepath.Join(empty, "github.com__pricebook__pricebook") + " exists but is not a git repository"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "broken cache entry" {
				// Without --no-clone a missing repository is cloned, which
				// needs the network; a file where the clone belongs stops
				// it at once, as a failed clone does.
				key := filepath.Join(empty, "github.com__pricebook__pricebook")
				if err := os.WriteFile(key, []byte("not a repository"), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(key)
			}
			code, out, errs := viewExec(t, append([]string{"view", demoTraj, "--gold", demoGold}, c.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			want := "trajscope: no repository (" + c.reason + "): showing the lines the run displayed; pass --repo DIR or --cache DIR"
			if c.reason == "" {
				want = "trajscope: no repository: showing the lines the run displayed; pass --repo DIR or --cache DIR"
			}
			if len(lines) != 1 || lines[0] != want {
				t.Errorf("stderr %q: want the one line %q", errs, want)
			}
			if n := strings.Count(errs, "not in the cache"); n > 1 {
				t.Errorf("stderr repeats itself: %q", errs)
			}
			for _, want := range []string{
				strings.TrimPrefix(want, "trajscope: "),
				"no repository — file/line from line numbers; symbol and span need the repository",
				"  contextbench lens              0.40     n/a     n/a    0.53",
				"final context (coverage/precision): file 0.20/0.50 · symbol n/a · span n/a · line 0.15/0.44",
				"pricebook/discounts.py           49-62     read @4     found: first shown at action 4, 7 of 14 lines kept in the final context",
				"pricebook/money.py               45-53     never read  searched, not read: a search hit one of its lines (action 7)",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("summary lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "not in the repository") {
				t.Errorf("summary calls a file the run read absent:\n%s", out)
			}
			// The gold list is the repository's, line for line.
			if a, b := out[strings.Index(out, "\ngold ("):], withRepo[strings.Index(withRepo, "\ngold ("):]; a != b {
				t.Errorf("gold list without the repository:\n%s\nwith it:\n%s", a, b)
			}
		})
	}

	code, out, _ := viewExec(t, "view", "--json", demoTraj, "--gold", demoGold)
	var doc struct {
		Missing       string   `json:"repository_missing"`
		NotComputable []string `json:"not_computable"`
		Lenses        map[string]struct {
			Coverage []map[string]*float64 `json:"coverage"`
		} `json:"lenses"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil {
		t.Fatalf("--json: exit %d, %v", code, err)
	}
	last := doc.Lenses["contextbench"].Coverage[19]
	if doc.Missing != "no --repo or --cache given" || strings.Join(doc.NotComputable, ",") != "symbol,span" ||
		last["symbol"] != nil || last["span"] != nil || last["line"] == nil || *last["line"] != 0.5319148936170213 {
		t.Errorf("--json: missing %q, not computable %v, last coverage symbol %v span %v line %v",
			doc.Missing, doc.NotComputable, last["symbol"], last["span"], last["line"])
	}

	// A --repo that is not there is the user's mistake, not a fallback.
	if code, _, errs := viewExec(t, "view", demoTraj, "--gold", demoGold, "--repo", filepath.Join(empty, "nope")); code != exitUsage || !strings.Contains(errs, "--repo") {
		t.Errorf("missing --repo: exit %d, %s", code, errs)
	}
}

// TestViewSummaryTellsFailuresAndQuirks: the summary marks a failed command,
// says the evaluator still counts its step, and notes EditLoc scored on the
// gold patch for a run without one.
func TestViewSummaryTellsFailuresAndQuirks(t *testing.T) {
	dir := t.TempDir()
	failed := editDemo(t, filepath.Join(dir), func(doc map[string]any) {
		msgs := doc["messages"].([]any)
		bad := []any{
			map[string]any{"role": "assistant", "content": "THOUGHT: noting it.\n\n```bash\n<explore_context>\nFile: /testbed/pricebook/discounts.py\nLines: 41-75\n</explore_context>\n```"},
			map[string]any{"role": "user", "content": "<returncode>2</returncode>\n<output>\n/bin/sh: 2: Syntax error: newline unexpected\n</output>"},
		}
		doc["messages"] = append(msgs[:8:8], append(bad, msgs[8:]...)...)
	})
	code, out, errs := viewExec(t, "view", failed, "--gold", demoGold, "--repo", "../demo/task/repo")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		// bash ran none of the pasted block: no edit, a failed "other".
		"   4 · other  <explore_context> …                                                    ✗ +20",
		"failed commands (✗)\n  4 exit 2: /bin/sh: 2: Syntax error: newline unexpected\n" +
			"    the command failed, but the contextbench lens counts its step (35 lines, +20 new gold) as the evaluator does\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}

	sub := filepath.Join(dir, "nopatch")
	os.Mkdir(sub, 0o755)
	nopatch := editDemo(t, sub, func(doc map[string]any) { doc["info"].(map[string]any)["submission"] = "" })
	for _, c := range []struct {
		sem, want string
	}{
		{"contextbench", "  EditLoc (this run): recall 1.00 precision 1.00 (no patch: reference scores the gold patch)\n"},
		{"fixed", ""},
	} {
		code, out, errs := viewExec(t, "view", nopatch, "--gold", demoGold, "--repo", "../demo/task/repo", "--semantics", c.sem)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if c.want != "" && !strings.Contains(out, c.want) || c.want == "" && strings.Contains(out, "gold patch") {
			t.Errorf("%s: EditLoc lines %q, want %q", c.sem, grepLines(out, "EditLoc"), c.want)
		}
	}
}

func grepLines(s, sub string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return out
}
