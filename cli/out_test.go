package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutNeverDestroysInput: --out naming the gold or the predictions (by
// path, symlink or hard link) is a usage error before any work, and the
// input is left as it was.
func TestOutNeverDestroysInput(t *testing.T) {
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "g.jsonl"), mustRead(t, exGold))
	pred := write(t, filepath.Join(dir, "p.jsonl"), mustRead(t, exPreds))
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(gold, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{gold, pred, link, filepath.Join(dir, ".", "p.jsonl")} {
		_, errs, code := run(t, "score", "--gold", gold, "--pred", pred, "--repo", exRepo, "--out", out)
		if code != exitUsage || !strings.Contains(errs, "names the input") {
			t.Errorf("--out %s: exit %d, stderr %q; want a usage error", out, code, errs)
		}
	}
	if got := mustRead(t, gold); got != mustRead(t, exGold) {
		t.Error("gold was modified")
	}
	if got := mustRead(t, pred); got != mustRead(t, exPreds) {
		t.Error("predictions were modified")
	}
}

// TestOutWrittenAtomically: an unwritable --out fails before scoring (no
// summary on stderr, nothing created); a good one leaves no temporary file.
func TestOutWrittenAtomically(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", filepath.Join(dir, "missing", "r.jsonl"))
	if code != exitRuntime || !strings.Contains(errs, "--out") || strings.Contains(errs, "instances") {
		t.Errorf("unwritable --out: exit %d, stderr %q; want one early error", code, errs)
	}
	out := filepath.Join(dir, "r.jsonl")
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "r.jsonl" {
		t.Errorf("dir holds %v, want only r.jsonl", ents)
	}
	if b := mustRead(t, out); strings.Count(b, "\n") < 2 {
		t.Errorf("results file too short: %q", b)
	}
}

// TestBatchErrorsInInputOrder: error lines of a parallel batch come in the
// order of the predictions, the same on every run.
func TestBatchErrorsInInputOrder(t *testing.T) {
	dir := t.TempDir()
	var preds []string
	for i := range 40 {
		// Half the ids have no gold (missing_gold), interleaved with good rows.
		id := "owner__repo-1"
		if i%2 == 1 {
			id = fmt.Sprintf("nogold__x-%d", i)
		}
		preds = append(preds, predRow(id, "pkg/mod.py", 1, 3))
	}
	pred := write(t, filepath.Join(dir, "p.jsonl"), strings.Join(preds, "\n")+"\n")
	gold := write(t, filepath.Join(dir, "g.jsonl"), goldRow("owner__repo-1", "pkg/mod.py", 1, 5)+"\n")
	var want []string
	for i := 1; i < 40; i += 2 {
		want = append(want, fmt.Sprintf("nogold__x-%d", i))
	}
	for range 3 {
		_, errs, code := run(t, "score", "--gold", gold, "--pred", pred, "--repo", exRepo, "--workers", "8")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got []string
		for _, line := range strings.Split(errs, "\n") {
			if rest, ok := strings.CutPrefix(line, "trajscope: nogold__x-"); ok {
				n, _, _ := strings.Cut(rest, ":")
				got = append(got, "nogold__x-"+n)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("error lines out of input order:\n%s", strings.Join(got, ","))
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
