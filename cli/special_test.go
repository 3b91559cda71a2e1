package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO named on the command line (a user's <(zcat runs.jsonl.gz)) gives
// its bytes once; detection, the parquet probe and the parser all read
// them, and every command gives what it gives for the regular file.
func TestNamedFIFOIsReadOnce(t *testing.T) {
	const gold, pred, repo = "../testdata/examples/gold.jsonl", "../testdata/examples/preds.jsonl", "../testdata/testvectors/repo"
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	if code, _, stderr := exec(t, "score", "--gold", gold, "--pred", pred, "--repo", repo, "--out", results); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	cases := []struct {
		name string
		feed string   // the file the FIFO gives
		args []string // FIFO stands for the FIFO's path
	}{
		{"score --pred", pred, []string{"score", "--gold", gold, "--pred", "FIFO", "--repo", repo}},
		{"score --gold", gold, []string{"score", "--gold", "FIFO", "--pred", pred, "--repo", repo}},
		{"convert", pred, []string{"convert", "FIFO", "-o", "-"}},
		{"view", pred, []string{"view", "FIFO", "--gold", gold, "--repo", repo}},
		{"compare", pred, []string{"compare", "FIFO", pred, "--gold", gold, "--repo", repo}},
		{"report", results, []string{"report", "FIFO"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fifo := filepath.Join(dir, "fifo"+string(rune('a'+i)))
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip(err)
			}
			args := make([]string, len(c.args))
			for j, a := range c.args {
				args[j] = strings.ReplaceAll(a, "FIFO", fifo)
				if a == "FIFO" {
					c.args[j] = c.feed
				}
			}
			wantCode, want, _ := exec(t, c.args...)
			go func() {
				data, _ := os.ReadFile(c.feed)
				if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					w.Write(data)
					w.Close()
				}
			}()
			type result struct {
				code        int
				out, stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, out, stderr := exec(t, args...)
				done <- result{code, out, stderr}
			}()
			select {
			case r := <-done:
				// Names differ (the FIFO's against the file's); the rest is equal.
				got := strings.ReplaceAll(r.out, fifo, c.feed)
				got = strings.ReplaceAll(got, filepath.Base(fifo), strings.TrimSuffix(filepath.Base(c.feed), ".jsonl"))
				if r.code != wantCode || got != want {
					t.Errorf("from a FIFO: exit %d, stdout\n%s\nfrom the file: exit %d, stdout\n%s\nstderr: %s", r.code, got, wantCode, want, r.stderr)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("blocked on the FIFO")
			}
		})
	}
}

// Inside folders only regular files are read: a FIFO, a link to a device
// and a link to nothing are listed as skipped, never opened (a FIFO would
// block, /dev/zero would never end), and the runs beside them still load.
func TestSpecialFilesInFolders(t *testing.T) {
	const gold, pred = "../testdata/examples/gold.jsonl", "../testdata/examples/preds.jsonl"
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	os.MkdirAll(filepath.Join(runs, "sub"), 0o755)
	data, _ := os.ReadFile(pred)
	os.WriteFile(filepath.Join(runs, "preds.jsonl"), data, 0o644)
	if err := syscall.Mkfifo(filepath.Join(runs, "sub", "z.json"), 0o600); err != nil {
		t.Skip(err)
	}
	os.Symlink("/dev/zero", filepath.Join(runs, "zero.traj.json"))
	os.Symlink("nowhere", filepath.Join(runs, "dangling.traj.json"))
	// An OpenHands llm_completions directory whose *.json are a FIFO and a
	// link to /dev/zero.
	comp := filepath.Join(dir, "llm_completions", "inst")
	os.MkdirAll(comp, 0o755)
	syscall.Mkfifo(filepath.Join(comp, "a.json"), 0o600)
	os.Symlink("/dev/zero", filepath.Join(comp, "b.json"))
	// A gold directory: one good annot.json, one FIFO, one link to /dev/zero.
	golds := filepath.Join(dir, "gold")
	for _, d := range []string{"good", "fifo", "zero"} {
		os.MkdirAll(filepath.Join(golds, d), 0o755)
	}
	line, _, _ := strings.Cut(string(mustRead(t, gold)), "\n")
	os.WriteFile(filepath.Join(golds, "good", "annot.json"), []byte(line), 0o644)
	syscall.Mkfifo(filepath.Join(golds, "fifo", "annot.json"), 0o600)
	os.Symlink("/dev/zero", filepath.Join(golds, "zero", "annot.json"))

	cases := []struct {
		name     string
		args     []string
		code     int
		stderr   []string // each must appear
		stdoutIn string   // must appear in stdout
	}{
		{"view a folder", []string{"view", runs}, 0,
			[]string{"sub/z.json: not a regular file (a FIFO), skipped", "zero.traj.json: not a regular file (a device), skipped", "dangling.traj.json: not a regular file (a link to nothing), skipped"}, "runs"},
		{"convert a folder", []string{"convert", "--recursive", runs, "-o", "-"}, 0,
			[]string{"sub/z.json: not a regular file (a FIFO), skipped", "zero.traj.json: not a regular file (a device), skipped"}, `"instance_id"`},
		{"view llm_completions", []string{"view", filepath.Join(dir, "llm_completions")}, 0, nil, "inst"},
		{"score a gold folder", []string{"score", "--gold", golds, "--pred", pred, "--repo", "../testdata/testvectors/repo"}, 0, nil, `"instance_id"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type result struct {
				code        int
				out, stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, out, stderr := exec(t, c.args...)
				done <- result{code, out, stderr}
			}()
			select {
			case r := <-done:
				if r.code != c.code || !strings.Contains(r.out, c.stdoutIn) {
					t.Errorf("exit %d (want %d), stdout %q (want it to hold %q), stderr %s", r.code, c.code, r.out, c.stdoutIn, r.stderr)
				}
				for _, s := range c.stderr {
					if !strings.Contains(r.stderr, s) {
						t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
					}
				}
			case <-time.After(60 * time.Second):
				t.Fatal("blocked or never ended on a special file")
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A run file in a folder that cannot be read is listed with its error, by
// view and by convert, not dropped without a word.
func TestUnreadableRunInFolderIsListed(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	dir := t.TempDir()
	data := mustRead(t, "../testdata/examples/preds.jsonl")
	os.WriteFile(filepath.Join(dir, "a.jsonl"), data, 0o644)
	locked := filepath.Join(dir, "o__r-1.traj.json")
	os.WriteFile(locked, []byte("{}"), 0o000)
	for _, args := range [][]string{{"view", dir}, {"convert", dir, "-o", "-"}} {
		_, _, stderr := exec(t, args...)
		if !strings.Contains(stderr, "o__r-1.traj.json") || !strings.Contains(stderr, "permission denied") {
			t.Errorf("%s: stderr does not list the unreadable file:\n%s", args[0], stderr)
		}
	}
}
