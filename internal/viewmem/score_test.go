package viewmem

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/internal/benchgen"
	"github.com/trajscope/trajscope/internal/memcap"
)

// TestScoreLongRunMemory: scoring a long mini-swe-agent run (40,000
// actions, about 90 MB) peaks within 3 × the file + 150 MB: the run's text
// is decoded in place over the bytes read, and the collector is held to a
// limit set from the input's size.
func TestScoreLongRunMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 90 MB run and scores it in a capped child")
	}
	bin := memcap.Binary(t)
	dir := t.TempDir()
	task := benchgen.New(benchgen.Options{Actions: 40000, GoldFiles: 5, Lines: 2000, OtherFiles: 3})
	for p, c := range task.Files {
		p = filepath.Join(dir, "repo", filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		mustWrite(t, p, c)
	}
	gold := filepath.Join(dir, "gold.json")
	mustWrite(t, gold, string(task.GoldJSON()))
	traj := filepath.Join(dir, task.ID+".traj.json")
	mustWrite(t, traj, string(task.Traj))
	size := int64(len(task.Traj))
	task = nil
	r := memcap.Run(t, 4<<30, []string{"XDG_CACHE_HOME=" + t.TempDir()}, bin,
		"score", "--gold", gold, "--pred", traj, "--repo", filepath.Join(dir, "repo"), "--format", "jsonl")
	if r.Code != 0 {
		t.Fatalf("exit %d: %.1000s", r.Code, r.Stderr)
	}
	t.Logf("input %d MB, peak RSS %d MB (%.2f × input)", size>>20, r.PeakRSS>>20, float64(r.PeakRSS)/float64(size))
	if limit := 3*size + 150<<20; r.PeakRSS > limit {
		t.Errorf("peak RSS %d MB, want at most %d MB", r.PeakRSS>>20, limit>>20)
	}
}
