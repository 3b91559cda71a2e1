package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// copyDir copies a directory tree (regular files, dirs and symlinks).
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, out)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(out, b, 0o644)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bareCopy makes a bare repository from a work tree repository by copying
// its .git directory, which is exactly a bare repository's layout.
func bareCopy(t testing.TB, dir string) string {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "bare.git")
	copyDir(t, filepath.Join(dir, ".git"), bare)
	return bare
}

func TestGitTreeCommitsAndRevisions(t *testing.T) {
	dir, hashes := testkit.GitRepoCommits(t,
		map[string]string{"a.txt": "old\n", "only-old.txt": "o", "pkg/m.go": "package pkg // v1\n"},
		map[string]string{"a.txt": "new\n", "pkg/m.go": "package pkg // v2\n", "pkg/n.go": "n"},
	)
	bare := bareCopy(t, dir)
	tests := []struct {
		name, repo, commit string
		wantCommit         string
		path, want         string // want "" means: not a file
	}{
		{"old commit, old content", dir, hashes[0], hashes[0], "a.txt", "old\n"},
		{"new commit, new content", dir, hashes[1], hashes[1], "a.txt", "new\n"},
		{"file deleted later exists at old commit", dir, hashes[0], hashes[0], "only-old.txt", "o"},
		{"file deleted later absent at new commit", dir, hashes[1], hashes[1], "only-old.txt", ""},
		{"file added later absent at old commit", dir, hashes[0], hashes[0], "pkg/n.go", ""},
		{"nested path", dir, hashes[0], hashes[0], "pkg/m.go", "package pkg // v1\n"},
		{"abbreviated hash (7)", dir, hashes[0][:7], hashes[0], "a.txt", "old\n"},
		{"abbreviated hash (odd length 9)", dir, hashes[0][:9], hashes[0], "a.txt", "old\n"},
		{"uppercase full hash", dir, strings.ToUpper(hashes[1]), hashes[1], "a.txt", "new\n"},
		{"empty commit means HEAD", dir, "", hashes[1], "a.txt", "new\n"},
		{"HEAD", dir, "HEAD", hashes[1], "a.txt", "new\n"},
		{"branch name", dir, testkit.Branch, hashes[1], "a.txt", "new\n"},
		{"HEAD~1", dir, "HEAD~1", hashes[0], "a.txt", "old\n"},
		{"bare repo, old commit", bare, hashes[0], hashes[0], "a.txt", "old\n"},
		{"bare repo, abbreviated", bare, hashes[1][:8], hashes[1], "pkg/n.go", "n"},
		{"directory is not a file", dir, hashes[0], hashes[0], "pkg", ""},
		{"root is not a file", dir, hashes[0], hashes[0], ".", ""},
		{"dot segments are cleaned", dir, hashes[0], hashes[0], "pkg/./m.go", "package pkg // v1\n"},
		{"file used as a directory", dir, hashes[0], hashes[0], "a.txt/x", ""},
		{"absolute path refused", dir, hashes[0], hashes[0], "/a.txt", ""},
		{"climbing path refused", dir, hashes[0], hashes[0], "../a.txt", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := openGit(tc.repo, tc.commit, nil)
			if err != nil {
				t.Fatalf("openGit(%s, %q, nil): %v", tc.repo, tc.commit, err)
			}
			if g.Commit() != tc.wantCommit {
				t.Errorf("Commit() = %s, want %s", g.Commit(), tc.wantCommit)
			}
			got, err := g.ReadFile(tc.path)
			isFile := g.IsFile(tc.path)
			if tc.want == "" {
				if err == nil || isFile {
					t.Fatalf("%q: got %q, IsFile=%v; want not a file", tc.path, got, isFile)
				}
				if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), tc.path) {
					t.Errorf("error %q should wrap fs.ErrNotExist and name the path", err)
				}
				return
			}
			if err != nil || string(got) != tc.want || !isFile {
				t.Fatalf("%q: got %q, %v, IsFile=%v; want %q", tc.path, got, err, isFile, tc.want)
			}
		})
	}
}

func TestOpenGitErrors(t *testing.T) {
	dir, commit := testkit.GitRepo(t, map[string]string{"a": "a"})
	plain := t.TempDir()
	file := filepath.Join(plain, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := strings.Repeat("0", 40)
	tests := []struct {
		name, repo, commit string
		is                 error
		mention            []string
	}{
		{"missing full hash", dir, missing, ErrCommitNotFound, []string{dir, missing, "commit"}},
		{"missing short hash", dir, "deadbee", ErrCommitNotFound, []string{dir, "deadbee"}},
		{"unknown ref", dir, "no-such-branch", ErrCommitNotFound, []string{"no-such-branch"}},
		{"tree hash is not a commit", dir, treeHash(t, dir, commit), ErrCommitNotFound, []string{"commit"}},
		{"no such directory", filepath.Join(plain, "nope"), commit, fs.ErrNotExist, []string{"nope", "no such directory"}},
		{"plain directory", plain, commit, ErrNotRepo, []string{plain, "not a git repository"}},
		{"a file, not a directory", file, commit, ErrNotRepo, []string{file, "not a directory"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := openGit(tc.repo, tc.commit, nil)
			if err == nil {
				t.Fatalf("OpenGit succeeded (%s), want error", g.Commit())
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %q does not wrap %v", err, tc.is)
			}
			for _, m := range tc.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

func treeHash(t *testing.T, dir, commit string) string {
	t.Helper()
	g, err := openGit(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	return g.root.String()
}

func TestGitTreeSymlinks(t *testing.T) {
	dir, commit := testkit.GitRepo(t, map[string]string{
		"a.txt":            "A",
		"pkg/b.go":         "B",
		"pkg/deep/c.go":    "C",
		"link":             "symlink:a.txt",
		"pkg/up":           "symlink:../a.txt",
		"pkg/dotted":       "symlink:./deep/../b.go",
		"alias":            "symlink:pkg",
		"pkg/self":         "symlink:.",
		"chain1":           "symlink:chain2",
		"chain2":           "symlink:pkg/up",
		"loop1":            "symlink:loop2",
		"loop2":            "symlink:loop1",
		"escape":           "symlink:../outside.txt",
		"pkg/escape2":      "symlink:../../a.txt",
		"abs":              "symlink:/etc/passwd",
		"dangling":         "symlink:nope.txt",
		"dirlink":          "symlink:pkg/deep",
		"pkg/deep/rootish": "symlink:../..",
	})
	g, err := openGit(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string // "" = not a file
	}{
		{"link", "A"},
		{"pkg/up", "A"},
		{"pkg/dotted", "B"},
		{"alias/b.go", "B"},
		{"alias/deep/c.go", "C"},
		{"pkg/self/self/b.go", "B"},
		{"chain1", "A"},
		{"dirlink/c.go", "C"},
		{"pkg/deep/rootish/a.txt", "A"},
		{"pkg/deep/rootish/pkg/deep/rootish/link", "A"},
		{"loop1", ""},
		{"escape", ""},
		{"pkg/escape2", ""},
		{"abs", ""},
		{"dangling", ""},
		{"dirlink", ""},
		{"alias", ""},
		{"pkg/deep/rootish", ""},
	}
	for _, tc := range tests {
		got, err := g.ReadFile(tc.path)
		if tc.want == "" {
			if err == nil || g.IsFile(tc.path) {
				t.Errorf("%q: read %q, IsFile=%v; want not a file", tc.path, got, g.IsFile(tc.path))
			}
			continue
		}
		if err != nil || string(got) != tc.want || !g.IsFile(tc.path) {
			t.Errorf("%q: got %q, %v, IsFile=%v; want %q", tc.path, got, err, g.IsFile(tc.path), tc.want)
		}
	}
}

func TestGitTreeConcurrentReads(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[filepath.ToSlash(filepath.Join("d", string(rune('a'+i))+".txt"))] = strings.Repeat(string(rune('a'+i)), 1000)
	}
	files["same1"] = "dup"
	files["same2"] = "dup" // same blob as same1
	dir, commit := testkit.GitRepo(t, files)
	g, err := openGit(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16*len(files))
	for range 16 {
		wg.Go(func() {
			for p, want := range files {
				got, err := g.ReadFile(p)
				if err != nil || string(got) != want {
					errs <- errors.New(p + ": wrong content")
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Every path was walked once however many goroutines asked for it.
	if n := len(g.paths); n != len(files) {
		t.Errorf("%d paths remembered, want %d", n, len(files))
	}
	// The returned slice is the caller's: changing it must not touch what
	// another read returns.
	b, _ := g.ReadFile("same1")
	b[0] = 'X'
	if again, _ := g.ReadFile("same2"); string(again) != "dup" {
		t.Errorf("cache corrupted by caller: %q", again)
	}
}

func BenchmarkGitTreeReadFile(b *testing.B) {
	content := strings.Repeat("line of source code\n", 5000) // ~100 KB
	dir, commit := testkit.GitRepo(b, map[string]string{"big.go": content})
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			g, err := openGit(dir, commit, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := g.ReadFile("big.go"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		g, err := openGit(dir, commit, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.ReadFile("big.go"); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			if _, err := g.ReadFile("big.go"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
