package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// A gold with a repo column and no repo_url (the hub's verified parquet)
// names its repository for view and for score --semantics fixed; score
// --semantics contextbench keeps the reference's rule (repo_url, or the
// id's owner__repo), so an id of another shape there fails to check out.
func TestGoldRepoColumn(t *testing.T) {
	repo, commit := testkit.GitRepo(t, map[string]string{"pkg/mod.py": pyLines(20)})
	dir, cache := t.TempDir(), t.TempDir()
	if err := os.Rename(repo, filepath.Join(cache, "github.com__o__r")); err != nil {
		t.Fatal(err)
	}
	const id = "instance_o__r-abc123-v1"
	row := strings.Replace(withCommit(goldRow(id, "pkg/mod.py", 2, 5), commit), `"commit":`, `"repo": "o/r", "commit":`, 1)
	gold := write(t, filepath.Join(dir, "gold.jsonl"), row+"\n")
	pred := write(t, filepath.Join(dir, "preds.jsonl"), predRow(id, "pkg/mod.py", 1, 5)+"\n")
	for _, c := range []struct {
		sem    string
		scored bool
	}{{"contextbench", false}, {"fixed", true}} {
		_, out, _ := exec(t, "score", "--gold", gold, "--pred", pred, "--cache", cache, "--no-clone", "--semantics", c.sem)
		row := resultRows(t, out)[id]
		if cov, _ := lineCov(row); c.scored != (row["error"] == nil && cov == 1) {
			t.Errorf("score --semantics %s: %v", c.sem, row)
		}
	}
	code, out, errs := exec(t, "view", pred, "--gold", gold, "--cache", cache, "--no-clone")
	if code != 0 || strings.Contains(out+errs, "no repository") || !strings.Contains(out, "pkg/mod.py") {
		t.Errorf("view: exit %d\n%s\n%s", code, out, errs)
	}
}
