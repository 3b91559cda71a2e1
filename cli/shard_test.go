package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardsConcatenateToTheWhole: for every N, the --out files of shards
// 1/N … N/N concatenated in order are the unsharded --out, byte for byte.
func TestShardsConcatenateToTheWhole(t *testing.T) {
	dir := t.TempDir()
	score := func(out string, extra ...string) string {
		t.Helper()
		args := append([]string{"score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", out}, extra...)
		if _, errs, code := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	whole := score(filepath.Join(dir, "whole.jsonl"))
	rows := strings.Count(whole, "\n")
	if rows < 3 {
		t.Fatalf("only %d rows: the test needs several", rows)
	}
	for n := 1; n <= rows+2; n++ { // more shards than rows: some are empty
		var cat strings.Builder
		for k := 1; k <= n; k++ {
			cat.WriteString(score(filepath.Join(dir, fmt.Sprintf("s%d-%d.jsonl", k, n)), "--shard", fmt.Sprintf("%d/%d", k, n)))
		}
		if cat.String() != whole {
			t.Errorf("%d shards concatenated differ from the whole:\n%s\nwant\n%s", n, cat.String(), whole)
		}
	}
}

func TestShardFlagErrors(t *testing.T) {
	for _, v := range []string{"0/3", "4/3", "1/0", "3", "a/b", "1/2/3", "-1/2", "/2", "", "288230376151711745/288230376151711745", "1000001/1000001", "99999999999999999999/99999999999999999999"} {
		args := []string{"score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--shard", v}
		_, errs, code := run(t, args...)
		if v == "" {
			if code != 0 {
				t.Errorf("--shard '': exit %d (means the whole batch): %s", code, errs)
			}
			continue
		}
		if code != exitUsage || !strings.Contains(errs, "--shard") {
			t.Errorf("--shard %q: exit %d, %q; want a usage error", v, code, errs)
		}
	}
}
