package source

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Benchmarks on a real repository: set TRAJSCOPE_BENCH_REPO to a git
// repository (a clone, a bare mirror, or one `go run ./cmd/benchgen bigrepo`
// made) and optionally TRAJSCOPE_BENCH_COMMIT (default HEAD). They skip
// otherwise. They use only OpenGit, IsFile and ReadFile, so the same file
// measures an older version of this package too.

// benchRepo returns the repository, its commit and a sample of its files:
// every k-th of `git ls-tree -r`, about n of them.
func benchRepo(b *testing.B, n int) (dir, commit string, files []string) {
	dir = os.Getenv("TRAJSCOPE_BENCH_REPO")
	if dir == "" {
		b.Skip("TRAJSCOPE_BENCH_REPO not set")
	}
	commit = os.Getenv("TRAJSCOPE_BENCH_COMMIT")
	if commit == "" {
		commit = "HEAD"
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", commit).Output()
	if err != nil {
		b.Fatalf("git rev-parse %s: %v", commit, err)
	}
	commit = strings.TrimSpace(string(out))
	out, err = exec.Command("git", "-C", dir, "ls-tree", "-r", "--name-only", commit).Output()
	if err != nil {
		b.Fatalf("git ls-tree: %v", err)
	}
	all := strings.Split(strings.TrimSpace(string(out)), "\n")
	step := max(1, len(all)/n)
	for i := 0; i < len(all) && len(files) < n; i += step {
		files = append(files, all[i])
	}
	return dir, commit, files
}

func closeTree(t any) {
	if c, ok := t.(interface{ Close() error }); ok {
		c.Close()
	}
}

// BenchmarkGitOpenRead opens the repository at the commit, as an instance's
// first use does, resolves 30 paths spread over the tree and reads them,
// then releases it: the whole cost of one instance on a cold process.
func BenchmarkGitOpenRead(b *testing.B) {
	dir, commit, files := benchRepo(b, 30)
	b.ReportAllocs()
	for b.Loop() {
		g, err := openGit(dir, commit, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			if !g.IsFile(f) {
				continue // a symlink or submodule
			}
			if _, err := g.ReadFile(f); err != nil {
				b.Fatal(err)
			}
		}
		closeTree(g)
	}
}

// BenchmarkGitOpen is the open alone: what a tree costs before it reads
// anything.
func BenchmarkGitOpen(b *testing.B) {
	dir, commit, _ := benchRepo(b, 1)
	b.ReportAllocs()
	for b.Loop() {
		g, err := openGit(dir, commit, nil)
		if err != nil {
			b.Fatal(err)
		}
		closeTree(g)
	}
}

// BenchmarkGitResolve opens the commit and resolves 200 paths spread over
// the tree (IsFile, as upstream's suffix resolution asks), reading no file.
func BenchmarkGitResolve(b *testing.B) {
	dir, commit, files := benchRepo(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		g, err := openGit(dir, commit, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			g.IsFile(f)
		}
		closeTree(g)
	}
}
