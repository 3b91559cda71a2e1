// GitRepo and GitRepoCommits build small, real git repositories for tests.
// Objects are written straight into the object store (blobs, trees, commit)
// with a fixed author and time, so the same files always give the same commit
// hash; the last commit is then checked out so the directory also works as a
// plain worktree.

package testkit

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// SymlinkPrefix marks a file value as a symlink: "symlink:../a.txt" makes a
// symlink whose target is "../a.txt".
const SymlinkPrefix = "symlink:"

// Branch is the branch the commits are made on; HEAD points to it.
const Branch = "master"

// when is the fixed author and committer time; any constant would do, it
// only has to be the same on every run.
var when = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

var sig = object.Signature{Name: "trajscope test", Email: "test@trajscope.invalid", When: when}

// GitRepo creates a git repository in t.TempDir() holding one commit with the
// given files (slash-separated paths, possibly nested) and returns the
// repository directory and the full 40-hex commit hash.
func GitRepo(t testing.TB, files map[string]string) (dir, commit string) {
	t.Helper()
	dir, hashes := GitRepoCommits(t, files)
	return dir, hashes[0]
}

// GitRepoCommits creates a git repository in t.TempDir() with one commit per
// map, each a child of the previous; every map is the full tree of its
// commit. It returns the directory and the commit hashes in order.
func GitRepoCommits(t testing.TB, commits ...map[string]string) (dir string, hashes []string) {
	t.Helper()
	if len(commits) == 0 {
		t.Fatalf("GitRepoCommits: need at least one commit")
	}
	dir = t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatalf("testkit: git init %s: %v", dir, err)
	}
	var parent plumbing.Hash
	for i, files := range commits {
		h, err := writeCommit(repo.Storer, files, parent, i)
		if err != nil {
			t.Fatalf("testkit: commit %d: %v", i, err)
		}
		hashes = append(hashes, h.String())
		parent = h
	}
	ref := plumbing.NewBranchReferenceName(Branch)
	if err := repo.Storer.SetReference(plumbing.NewHashReference(ref, parent)); err != nil {
		t.Fatalf("testkit: set %s: %v", ref, err)
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref)); err != nil {
		t.Fatalf("testkit: set HEAD: %v", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatalf("testkit: worktree: %v", err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: ref, Force: true}); err != nil {
		t.Fatalf("testkit: checkout %s: %v", ref, err)
	}
	return dir, hashes
}

// node is a directory being built: files map to blob entries, dirs to
// subtrees.
type node struct {
	files map[string]object.TreeEntry
	dirs  map[string]*node
}

func newNode() *node {
	return &node{files: map[string]object.TreeEntry{}, dirs: map[string]*node{}}
}

func writeCommit(s storer.EncodedObjectStorer, files map[string]string, parent plumbing.Hash, n int) (plumbing.Hash, error) {
	root := newNode()
	// Sorted so errors are reported deterministically.
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		content := files[p]
		parts := strings.Split(p, "/")
		if p == "" || path.Clean(p) != p || strings.HasPrefix(p, "/") {
			return plumbing.ZeroHash, fmt.Errorf("path %q: want a clean relative slash path", p)
		}
		for _, part := range parts {
			if part == ".." || part == "." || part == ".git" {
				return plumbing.ZeroHash, fmt.Errorf("path %q: component %q not allowed", p, part)
			}
		}
		mode := filemode.Regular
		if rest, ok := strings.CutPrefix(content, SymlinkPrefix); ok {
			mode, content = filemode.Symlink, rest
		}
		bh, err := writeBlob(s, []byte(content))
		if err != nil {
			return plumbing.ZeroHash, err
		}
		d := root
		for _, part := range parts[:len(parts)-1] {
			if _, clash := d.files[part]; clash {
				return plumbing.ZeroHash, fmt.Errorf("path %q: %q is both a file and a directory", p, part)
			}
			sub, ok := d.dirs[part]
			if !ok {
				sub = newNode()
				d.dirs[part] = sub
			}
			d = sub
		}
		name := parts[len(parts)-1]
		if _, clash := d.dirs[name]; clash {
			return plumbing.ZeroHash, fmt.Errorf("path %q: is both a file and a directory", p)
		}
		d.files[name] = object.TreeEntry{Name: name, Mode: mode, Hash: bh}
	}
	th, err := writeTree(s, root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	c := &object.Commit{
		Author:    sig,
		Committer: sig,
		Message:   fmt.Sprintf("commit %d\n", n),
		TreeHash:  th,
	}
	if !parent.IsZero() {
		c.ParentHashes = []plumbing.Hash{parent}
	}
	obj := s.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}

func writeBlob(s storer.EncodedObjectStorer, b []byte) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(b); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}

func writeTree(s storer.EncodedObjectStorer, n *node) (plumbing.Hash, error) {
	t := &object.Tree{}
	for _, e := range n.files {
		t.Entries = append(t.Entries, e)
	}
	for name, sub := range n.dirs {
		h, err := writeTree(s, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	// Git requires entries in its own order (directories compare as "name/").
	sort.Sort(object.TreeEntrySorter(t.Entries))
	obj := s.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}
