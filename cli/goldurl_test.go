package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// A gold file is data, maybe someone else's: its repo_url must not copy a
// local repository into the cache or score against it (file://, a path to
// a work tree, a path to a .git directory). Each instance fails to check
// out, says why, and the cache stays empty.
func TestGoldURLNeverReachesLocalRepositories(t *testing.T) {
	repo, commit := testkit.GitRepo(t, map[string]string{"secret.py": "KEY = 'hunter2'\n"})
	dir := t.TempDir()
	urls := []string{"file://" + filepath.ToSlash(repo), repo, filepath.Join(repo, ".git")}
	var gold, pred strings.Builder
	for i, u := range urls {
		fmt.Fprintf(&gold, `{"inst_id": "x%d", "repo_url": %q, "commit": %q, "gold_context": "[{\"file\": \"secret.py\", \"start_line\": 1, \"end_line\": 1, \"content\": \"KEY\"}]"}`+"\n", i, u, commit)
		fmt.Fprintf(&pred, `{"instance_id": "x%d", "traj_data": {"pred_steps": [{"files": ["secret.py"], "spans": {}}], "pred_files": ["secret.py"], "pred_spans": {}}, "model_patch": ""}`+"\n", i)
	}
	goldPath, predPath, cache := filepath.Join(dir, "gold.jsonl"), filepath.Join(dir, "preds.jsonl"), filepath.Join(dir, "cache")
	os.WriteFile(goldPath, []byte(gold.String()), 0o644)
	os.WriteFile(predPath, []byte(pred.String()), 0o644)
	_, stdout, stderr := exec(t, "score", "--gold", goldPath, "--pred", predPath, "--cache", cache)
	rows := resultRows(t, stdout)
	for i, u := range urls {
		id := fmt.Sprintf("x%d", i)
		if rows[id]["error"] != "checkout_failed" {
			t.Errorf("%s (repo_url %s): row %v, want checkout_failed", id, u, rows[id])
		}
		if !strings.Contains(stderr, id+": checkout_failed: repository URL") {
			t.Errorf("%s: stderr does not say why:\n%s", id, stderr)
		}
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("the cache holds %d entries copied from local repositories", len(ents))
	}
	// The same repository typed by the user with --repo is read.
	_, stdout, _ = exec(t, "score", "--gold", goldPath, "--pred", predPath, "--repo", repo)
	if rows := resultRows(t, stdout); rows["x0"]["error"] != nil {
		t.Errorf("--repo: row %v, want a score", rows["x0"])
	}
}
