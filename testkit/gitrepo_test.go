package testkit

import (
	"os"
	"path/filepath"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

func TestGitRepoDeterministicAndContent(t *testing.T) {
	files := map[string]string{
		"a.txt":         "alpha\n",
		"pkg/sub/b.go":  "package sub\n",
		"pkg/link":      "symlink:sub/b.go",
		"pkg-other.txt": "x",
	}
	dir1, c1 := GitRepo(t, files)
	_, c2 := GitRepo(t, files)
	if c1 != c2 {
		t.Fatalf("hash not deterministic: %s vs %s", c1, c2)
	}
	if len(c1) != 40 {
		t.Fatalf("hash %q: want 40 hex", c1)
	}
	repo, err := git.PlainOpen(dir1)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	if head.Hash().String() != c1 {
		t.Fatalf("HEAD %s, want %s", head.Hash(), c1)
	}
	c, err := repo.CommitObject(plumbing.NewHash(c1))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, content string
		mode          filemode.FileMode
	}{
		{"a.txt", "alpha\n", filemode.Regular},
		{"pkg/sub/b.go", "package sub\n", filemode.Regular},
		{"pkg/link", "sub/b.go", filemode.Symlink},
		{"pkg-other.txt", "x", filemode.Regular},
	}
	for _, tc := range tests {
		f, err := tree.File(tc.path)
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		got, _ := f.Contents()
		if got != tc.content || f.Mode != tc.mode {
			t.Errorf("%s: got %q mode %v, want %q mode %v", tc.path, got, f.Mode, tc.content, tc.mode)
		}
	}
	// The worktree is checked out too.
	b, err := os.ReadFile(filepath.Join(dir1, "pkg", "sub", "b.go"))
	if err != nil || string(b) != "package sub\n" {
		t.Fatalf("worktree file: %q, %v", b, err)
	}
	if target, err := os.Readlink(filepath.Join(dir1, "pkg", "link")); err != nil || target != "sub/b.go" {
		t.Fatalf("worktree symlink: %q, %v", target, err)
	}
}

func TestGitRepoCommits(t *testing.T) {
	dir, hashes := GitRepoCommits(t,
		map[string]string{"a.txt": "v1", "gone.txt": "bye"},
		map[string]string{"a.txt": "v2", "new/n.txt": "n"},
		map[string]string{}, // an empty tree is allowed
	)
	if len(hashes) != 3 || hashes[0] == hashes[1] || hashes[1] == hashes[2] {
		t.Fatalf("hashes %v", hashes)
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := repo.CommitObject(plumbing.NewHash(hashes[1]))
	if err != nil {
		t.Fatal(err)
	}
	if len(c2.ParentHashes) != 1 || c2.ParentHashes[0].String() != hashes[0] {
		t.Fatalf("parent of second commit: %v, want %s", c2.ParentHashes, hashes[0])
	}
	tests := []struct {
		commit, path, want string
		exists             bool
	}{
		{hashes[0], "a.txt", "v1", true},
		{hashes[0], "gone.txt", "bye", true},
		{hashes[0], "new/n.txt", "", false},
		{hashes[1], "a.txt", "v2", true},
		{hashes[1], "gone.txt", "", false},
		{hashes[1], "new/n.txt", "n", true},
	}
	for _, tc := range tests {
		c, err := repo.CommitObject(plumbing.NewHash(tc.commit))
		if err != nil {
			t.Fatal(err)
		}
		f, err := c.File(tc.path)
		if (err == nil) != tc.exists {
			t.Errorf("%s:%s exists=%v, want %v", tc.commit[:7], tc.path, err == nil, tc.exists)
			continue
		}
		if tc.exists {
			if got, _ := f.Contents(); got != tc.want {
				t.Errorf("%s:%s = %q, want %q", tc.commit[:7], tc.path, got, tc.want)
			}
		}
	}
	c3, err := repo.CommitObject(plumbing.NewHash(hashes[2]))
	if err != nil {
		t.Fatal(err)
	}
	if tree, err := c3.Tree(); err != nil || len(tree.Entries) != 0 {
		t.Errorf("third commit tree: %v entries, %v; want empty", tree, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); !os.IsNotExist(err) {
		t.Errorf("worktree should be at the last (empty) commit; a.txt stat: %v", err)
	}
}
