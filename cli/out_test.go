package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// --out and -o never replace what is not a result file: a FIFO (as
// /dev/null, which the test leaves alone) stays a FIFO and its reader gets
// the results, a symbolic link stays a link (its target is written), and
// "-" is standard output.
func TestOutNeverReplacesWhatIsNotOurs(t *testing.T) {
	const gold, pred, repo = "../testdata/examples/gold.jsonl", "../testdata/examples/preds.jsonl", "../testdata/testvectors/repo"
	code, stdout, stderr := exec(t, "score", "--gold", gold, "--pred", pred, "--repo", repo)
	if code != 0 {
		t.Fatalf("plain score: exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if code, _, stderr := exec(t, "score", "--gold", gold, "--pred", pred, "--repo", repo, "--out", fifo); code != 0 {
		t.Fatalf("--out FIFO: exit %d: %s", code, stderr)
	}
	select {
	case s := <-got:
		if s != stdout {
			t.Errorf("the FIFO's reader got %q, want %q", s, stdout)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the FIFO's reader got nothing")
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", st.Mode())
	}
	target := filepath.Join(dir, "results.jsonl")
	os.WriteFile(target, []byte("old\n"), 0o644)
	link := filepath.Join(dir, "latest.jsonl")
	if err := os.Symlink("results.jsonl", link); err != nil {
		t.Skip(err)
	}
	if code, _, stderr := exec(t, "score", "--gold", gold, "--pred", pred, "--repo", repo, "--out", link); code != 0 {
		t.Fatalf("--out link: exit %d: %s", code, stderr)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != stdout {
		t.Errorf("the link's target holds %q, want the results %q", b, stdout)
	}
	code, out, stderr := exec(t, "score", "--gold", gold, "--pred", pred, "--repo", repo, "--out", "-")
	if code != 0 || out != stdout {
		t.Errorf("--out -: exit %d, stdout %q, want %q (%s)", code, out, stdout, stderr)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("--out - made a file named -")
	}
	code, out, _ = exec(t, "convert", pred, "-o", "-")
	if code != 0 || !strings.Contains(out, `"instance_id"`) {
		t.Errorf("convert -o -: exit %d, %q", code, out)
	}
}
