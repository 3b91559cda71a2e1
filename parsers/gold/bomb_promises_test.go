//go:build promises

package gold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// TestParquetBombUnderMemoryCap runs the binary on the bomb under a memory
// cap: it must fail with one line naming the file, not take the machine.
func TestPromiseParquetBombUnderMemoryCap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.parquet")
	writeBomb(t, bomb, maxParquetRows, 10<<10)
	pred := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(pred, []byte(`{"instance_id": "bomb__bomb-1", "traj_data": {"pred_files": ["a.py"]}}`+"\n"), 0o644)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	r := testkit.RunCapped(t, 2<<30, env, bin, "score", "--gold", bomb, "--pred", pred, "--repo", dir)
	if r.Code != 1 || !strings.HasPrefix(r.Stderr, "trajscope: "+bomb+": the gold columns decode to more than") || strings.Count(r.Stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", r.Code, r.Stderr)
	}
	t.Logf("peak RSS %d MiB", r.PeakRSS>>20)
	if r.PeakRSS > 400<<20 {
		t.Errorf("peak RSS %d MiB", r.PeakRSS>>20)
	}
}

// TestParquetManyRowsOneID: as many small rows as a file may hold under one instance id,
// within every bound, load, and the quarter million "id already named" warnings
// come out as a hundred lines and a count, not a million lines.
func TestPromiseParquetManyRowsOneID(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir := t.TempDir()
	many := filepath.Join(dir, "many.parquet")
	writeBomb(t, many, maxParquetRows, 60)
	pred := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(pred, []byte(`{"instance_id": "bomb__bomb-1", "traj_data": {"pred_files": ["a.py"]}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\ny = 2\n"), 0o644)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	r := testkit.RunCapped(t, 3<<30, env, bin, "score", "--gold", many, "--pred", pred, "--repo", dir, "--format", "text")
	t.Logf("peak RSS %d MiB", r.PeakRSS>>20)
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	warnings := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "trajscope: warning: "+many) {
			warnings++
		}
	}
	if r.Code != 0 || warnings != maxProblems+1 || !strings.Contains(r.Stderr, fmt.Sprintf("%d more problems not listed (0 of those rows skipped)", maxParquetRows-1-maxProblems)) {
		t.Errorf("exit %d, %d warnings, stderr ends %q", r.Code, warnings, r.Stderr[max(0, len(r.Stderr)-300):])
	}
	if !strings.Contains(r.Stdout, "bomb__bomb-1") {
		t.Errorf("the instance was not scored:\n%s", r.Stdout)
	}
	if r.PeakRSS > 400<<20 {
		t.Errorf("peak RSS %d MiB", r.PeakRSS>>20)
	}
}
