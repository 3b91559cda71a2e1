package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// TestPatchGoldAsTheDiffNamesIt: a reference patch's paths are kept as the
// diff names them (".gitignore", not upstream's lstrip "gitignore"); a
// patch whose changes are not in the repository says how many and at
// which commit, not that the gold names nothing; and --commit names the
// commit the patch applies to, for view and score alike (issue 47 #5).
func TestPatchGoldAsTheDiffNamesIt(t *testing.T) {
	repo, commits := testkit.GitRepoCommits(t,
		map[string]string{".gitignore": "node_modules\n*.log\nbuild/\n", "a.py": "def f():\n    return 1\n"},
		map[string]string{".gitignore": "node_modules\n*.tmp\nbuild/\n", "a.py": "def f():\n    return 7\n"})
	dir := t.TempDir()
	patch := write(t, filepath.Join(dir, "fix.diff"), "diff --git a/.gitignore b/.gitignore\n--- a/.gitignore\n+++ b/.gitignore\n@@ -1,3 +1,3 @@\n node_modules\n-*.log\n+*.out\n build/\n"+
		"diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 3\n")
	session := write(t, filepath.Join(dir, "s.jsonl"), strings.Join([]string{
		`{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"fix the ignores"}}`,
		`{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":".gitignore"}}]}}`,
		`{"type":"user","uuid":"u2","sessionId":"s","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"     1\tnode_modules\n     2\t*.log\n     3\tbuild/\n"}]}}`,
	}, "\n")+"\n")
	type doc struct {
		Gold []struct {
			File       string `json:"file"`
			Start, End int
			Diagnosis  map[string]string `json:"diagnosis"`
		} `json:"gold"`
		NotFound int    `json:"changes_not_found"`
		Sought   string `json:"changes_sought"`
		Lenses   map[string]struct {
			Error, Reason string
		} `json:"lenses"`
	}
	view := func(args ...string) (doc, string) {
		t.Helper()
		out, errs, code := run(t, append([]string{"view", "--json", "--no-cache", session, "--gold", patch, "--repo", repo}, args...)...)
		if code != 0 {
			t.Fatalf("view %v: exit %d: %s", args, code, errs)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d, out
	}

	// At the commit the patch applies to, both changes are placed, under
	// the paths the diff gives.
	d, out := view("--commit", commits[0])
	if len(d.Gold) != 2 || d.Gold[0].File != ".gitignore" || d.Gold[0].Start != 2 || d.Gold[1].File != "a.py" || d.NotFound != 0 {
		t.Fatalf("gold at the patch's commit:\n%s", out)
	}
	if d.Gold[0].Diagnosis["contextbench"] != "found" {
		t.Errorf(".gitignore read at action 1 is %q", d.Gold[0].Diagnosis["contextbench"])
	}
	// At HEAD (the run records no commit) neither is there: said so.
	d, out = view()
	short := commits[1][:8]
	if len(d.Gold) != 0 || d.NotFound != 2 || d.Sought != "at "+short ||
		d.Lenses["contextbench"].Error != "changes_not_found" || d.Lenses["contextbench"].Reason != "2 changes not found at "+short {
		t.Fatalf("gold at HEAD:\n%s", out)
	}
	text, _, _ := run(t, "view", "--no-cache", session, "--gold", patch, "--repo", repo)
	if strings.Contains(text, "names nothing") || !strings.Contains(text, "gold from the patch: 2 changes not found at "+short) {
		t.Errorf("summary at HEAD:\n%s", text)
	}

	// score reads at --commit too.
	scored, errs, code := run(t, "score", "--no-cache", "--gold", patch, "--pred", session, "--repo", repo, "--commit", commits[0])
	if code != 0 || !strings.Contains(scored, `"file": 0.5`) {
		t.Errorf("score --commit: exit %d\n%s\n%s", code, scored, errs)
	}

	// --commit without a repository to read at it is a usage error.
	_, errs, code = run(t, "view", session, "--gold", patch, "--commit", commits[0])
	if code != 2 || !strings.Contains(errs, fmt.Sprintf("--commit %s needs a repository", commits[0])) {
		t.Errorf("--commit alone: exit %d: %s", code, errs)
	}
}

// First contact (issue 50 #15): --gold's help names the patch form and
// what happens without gold; export site refuses an --instance it would
// ignore, and does not list it.
func TestFirstContactHelp(t *testing.T) {
	for _, cmd := range []string{"view", "export", "score"} {
		out, _, _ := run(t, cmd, "--help")
		if !strings.Contains(out, "reference patch (PATCH.diff)") {
			t.Errorf("%s --help says nothing of a patch as gold:\n%s", cmd, out)
		}
	}
	if out, _, _ := run(t, "export", "site", "--help"); strings.Contains(out, "--instance") {
		t.Errorf("export site --help lists --instance:\n%s", out)
	}
	if _, errs, code := run(t, "export", "site", "x", "--instance", "a", "-o", t.TempDir()); code != 2 || !strings.Contains(errs, "--instance picks none") {
		t.Errorf("export site --instance: exit %d: %s", code, errs)
	}
}
