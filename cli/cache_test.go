package cli

import (
	"crypto/sha256"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/internal/filefacts"
	"github.com/trajscope/trajscope/testkit"
)

// TestMain points the user cache directory at a temporary one, so no test
// of this package reads or writes the real cache.
func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) != "" {
		// This test binary, started by a test as the trajscope command
		// (asMain): the command line is cli's, as main gives it.
		os.Exit(Execute(os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Demo: demo.FS()}))
	}
	dir, err := os.MkdirTemp("", "trajscope-cli-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// asMainEnv set makes the test binary run as the trajscope command.
const asMainEnv = "TRAJSCOPE_CLI_AS_MAIN"

// asMain is a command running this test binary as trajscope with args:
// what main does, without building the binary.
func asMain(args ...string) *osexec.Cmd {
	cmd := osexec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	return cmd
}

// useCache gives a test its own empty user cache directory and returns
// where trajscope's cache will be.
func useCache(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", base)
	return filepath.Join(base, "trajscope")
}

// gitVectorRepo is the vector repository committed to git, so scoring reads
// it by blob and the cache holds every kind of fact (paths, lines,
// definitions), and the example gold at that commit.
func gitVectorRepo(t *testing.T) (repo, goldFile string) {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(exRepo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(exRepo, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir, commit := testkit.GitRepo(t, files)
	b, err := os.ReadFile(exGold)
	if err != nil {
		t.Fatal(err)
	}
	goldFile = filepath.Join(t.TempDir(), "gold.jsonl")
	b = []byte(strings.ReplaceAll(string(b), strings.Repeat("c", 40), commit))
	if err := os.WriteFile(goldFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, goldFile
}

// TestScoreCacheGivesIdenticalResults: a cold run fills the cache, a warm run
// reads it, --no-cache bypasses it; all three give the same bytes, on
// stdout and in --out, under both semantics.
func TestScoreCacheGivesIdenticalResults(t *testing.T) {
	cacheDir := useCache(t)
	repo, gold := gitVectorRepo(t)
	dir := t.TempDir()
	for _, sem := range []string{"contextbench", "fixed"} {
		var outs, files []string
		for i, extra := range [][]string{nil, nil, {"--no-cache"}} {
			out := filepath.Join(dir, sem+string(rune('a'+i))+".jsonl")
			args := append([]string{"score", "--gold", gold, "--pred", exPreds, "--repo", repo, "--semantics", sem, "--out", out, "--format", "jsonl"}, extra...)
			stdout, stderr, code := run(t, args...)
			if code != 0 {
				t.Fatalf("%s run %d: exit %d: %s", sem, i, code, stderr)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "checkout_failed") || !strings.Contains(string(b), `"final"`) {
				t.Fatalf("%s run %d scored nothing:\n%s", sem, i, b)
			}
			outs, files = append(outs, stdout), append(files, string(b))
		}
		for i := 1; i < 3; i++ {
			if outs[i] != outs[0] || files[i] != files[0] {
				t.Errorf("%s: run %d differs from the cold run", sem, i)
			}
		}
	}
	// One commit: what its paths name, and its contents' facts.
	if _, n, _ := filefacts.Usage(cacheDir); n != 2 {
		t.Errorf("the cache holds %d entries, want 2 (the commit's paths and its files' facts)", n)
	}
}

func TestCacheCommand(t *testing.T) {
	cacheDir := useCache(t)
	out, _, code := run(t, "cache")
	if code != 0 || !strings.HasPrefix(out, cacheDir+"\n0 B in 0 entries") {
		t.Fatalf("empty cache: exit %d, %q", code, out)
	}
	repo, gold := gitVectorRepo(t)
	if _, errs, code := run(t, "score", "--gold", gold, "--pred", exPreds, "--repo", repo, "--out", filepath.Join(t.TempDir(), "o.jsonl")); code != 0 {
		t.Fatalf("score: %s", errs)
	}
	out, _, _ = run(t, "cache")
	if strings.Contains(out, " 0 entries") {
		t.Fatalf("after a score: %q", out)
	}
	out, _, code = run(t, "cache", "clean")
	if code != 0 || !strings.HasPrefix(out, "removed ") {
		t.Fatalf("clean: exit %d, %q", code, out)
	}
	out, _, _ = run(t, "cache")
	if !strings.Contains(out, "0 B in 0 entries") {
		t.Fatalf("after clean: %q", out)
	}
	if _, errs, code := run(t, "cache", "purge"); code != exitUsage || !strings.Contains(errs, "clean") {
		t.Errorf("cache purge: exit %d, %q; want a usage error", code, errs)
	}
}

// TestScoreNoCacheWritesNothing: --no-cache leaves the cache untouched.
func TestScoreNoCacheWritesNothing(t *testing.T) {
	cacheDir := useCache(t)
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--no-cache"); code != 0 {
		t.Fatalf("score: %s", errs)
	}
	if _, err := os.Stat(cacheDir); !os.IsNotExist(err) {
		t.Errorf("--no-cache created %s (%v)", cacheDir, err)
	}
}

// Faults in the cache never change results: entries another user planted
// (well formed, but not signed with this cache's secret), and a cache
// directory others may write to (refused with a warning, scored without
// it), both give the bytes --no-cache gives.
func TestCacheFaultsLeaveResultsAlone(t *testing.T) {
	cacheDir := useCache(t)
	repo, gold := gitVectorRepo(t)
	args := []string{"score", "--gold", gold, "--pred", exPreds, "--repo", repo}
	want, _, code := run(t, append(args, "--no-cache")...)
	if code != 0 {
		t.Fatal("score --no-cache failed")
	}
	if got, _, _ := run(t, args...); got != want {
		t.Fatal("the cold run differs from --no-cache")
	}
	// Plant: every entry's value bytes changed, its checksum recomputed as
	// anyone could without the secret (the unkeyed SHA-256 of the old layout).
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "v1", "*"))
	if len(entries) == 0 {
		t.Fatal("the cold run wrote no entries")
	}
	for _, p := range entries {
		b, _ := os.ReadFile(p)
		body := append([]byte(nil), b[:len(b)-sha256.Size]...)
		body[len(body)-1] ^= 0xff
		sum := sha256.Sum256(body)
		os.WriteFile(p, append(body, sum[:]...), 0o600)
	}
	if got, _, _ := run(t, args...); got != want {
		t.Errorf("planted entries changed results:\n%s\nwant\n%s", got, want)
	}
	os.Chmod(cacheDir, 0o777)
	got, stderr, _ := run(t, args...)
	if got != want {
		t.Errorf("a world-writable cache changed results")
	}
	if !strings.Contains(stderr, "writable by other users") || !strings.Contains(stderr, "scoring without it") {
		t.Errorf("no warning about the world-writable cache: %s", stderr)
	}
}

// view (and so export and compare) reads and fills the same cache as
// score: a cold view fills it, a warm one and one with --no-cache print the
// same bytes, and --no-cache writes nothing. The demo caches its
// definitions too.
func TestViewUsesTheCache(t *testing.T) {
	cacheDir := useCache(t)
	repo, gold := gitVectorRepo(t)
	args := []string{"view", exPreds, "--gold", gold, "--repo", repo, "--instance", "owner__repo-1", "--json"}
	var outs []string
	for i, extra := range [][]string{nil, nil, {"--no-cache"}} {
		code, out, errs := viewExec(t, append(args, extra...)...)
		if code != exitOK || !strings.Contains(out, `"symbol"`) {
			t.Fatalf("run %d: exit %d: %s\n%.300s", i, code, errs, out)
		}
		outs = append(outs, out)
		if i == 0 {
			if _, n, _ := filefacts.Usage(cacheDir); n != 2 {
				t.Errorf("after a cold view the cache holds %d entries, want 2 (the commit's paths and its files' facts)", n)
			}
		}
	}
	if outs[1] != outs[0] || outs[2] != outs[0] {
		t.Errorf("warm or --no-cache view differs from the cold one")
	}

	fresh := useCache(t)
	if code, _, errs := viewExec(t, append(args, "--no-cache")...); code != exitOK {
		t.Fatalf("--no-cache: %s", errs)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("view --no-cache created %s (%v)", fresh, err)
	}

	demoCache := useCache(t)
	_, cold, _ := viewExec(t, "view", "--json")
	if _, n, _ := filefacts.Usage(demoCache); n == 0 {
		t.Errorf("the demo left nothing in the cache")
	}
	if _, warm, _ := viewExec(t, "view", "--json"); warm != cold || !strings.Contains(cold, "pricebook") {
		t.Errorf("the demo read from the cache differs from the demo parsed")
	}
}
