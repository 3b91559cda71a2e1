package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/internal/memcap"
)

// TestViewHugeGoldSpan: one gold row claiming a huge end line (1e11, 4e9,
// 2^62), in a file of the repository and in one it lacks, costs view what
// the files and the run hold, in every form (summary, --json, both lenses,
// both semantics), with the repository and without it. The run is capped:
// a size taken from the claim would kill it or exceed the bound.
func TestViewHugeGoldSpan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it capped")
	}
	bin := memcap.Binary(t)
	dir := t.TempDir()
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	for _, end := range []string{"100000000000", "4000000000", strconv.Itoa(1 << 62)} {
		gold := filepath.Join(dir, "gold-"+end+".jsonl")
		row := fmt.Sprintf(`{"inst_id": "pricebook__pricebook-42", "repo_url": "https://github.com/trajscope/pricebook.git", "commit": "c", "gold_ctx": [`+
			`{"file": "pricebook/discounts.py", "start_line": 1, "end_line": %s}, {"file": "pkg/nope.py", "start_line": 5, "end_line": %s}]}`, end, end)
		if err := os.WriteFile(gold, []byte(row+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, extra := range [][]string{
			nil, {"--json"}, {"--lens", "observed"}, {"--semantics", "fixed"},
			{"--repo", abs("../demo/task/repo")}, {"--repo", abs("../demo/task/repo"), "--json", "--semantics", "fixed"},
			{"--repo", abs("../demo/task/repo"), "--lens", "observed"},
		} {
			args := append([]string{"view", abs(demoTraj), "--gold", gold}, extra...)
			r := memcap.Run(t, 2<<30, []string{"XDG_CACHE_HOME=" + t.TempDir()}, bin, args...)
			name := end + " " + strings.Join(extra, " ")
			if r.Code != 0 || !strings.Contains(r.Stdout, "pricebook/discounts.py") {
				t.Errorf("%s: exit %d\n%.1500s\n%.1500s", name, r.Code, r.Stdout, r.Stderr)
				continue
			}
			if r.PeakRSS > 150<<20 {
				t.Errorf("%s: peak RSS %d MB, want under 150", name, r.PeakRSS>>20)
			}
		}
	}
}
