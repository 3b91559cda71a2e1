//go:build promises

package gold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// A patch of a header and 20 million blank context lines (20 MB) is read
// within the memory promise (3 × the input + 150 MB): a hunk's text is
// kept as far as an edit's is shown, not as a string per line (issue 48
// #2: 1.6 GB).
func TestPromisePatchOfBlankLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir := t.TempDir()
	patch := filepath.Join(dir, "gold.diff")
	body := "--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n-x = 1\n+x = 2\n" + strings.Repeat("\n", 20_000_000)
	if err := os.WriteFile(patch, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\n"), 0o644)
	pred := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(pred, []byte(`{"instance_id": "a__b-1", "traj_data": {"pred_files": ["a.py"]}}`+"\n"), 0o644)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	r := testkit.RunCapped(t, 2<<30, env, bin, "score", "--gold", patch, "--pred", pred, "--repo", dir)
	t.Logf("peak RSS %d MiB", r.PeakRSS>>20)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if promise := int64(3*len(body)) + 150<<20; r.PeakRSS > promise {
		t.Errorf("peak RSS %d MiB, promise %d MiB", r.PeakRSS>>20, promise>>20)
	}
}
