package source

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/source/internal/gitobj"
)

// Sentinel errors, wrapped by the errors this package returns so callers can
// tell the failure apart with errors.Is.
var (
	// ErrNotRepo: the directory exists but holds no git repository.
	ErrNotRepo = errors.New("not a git repository")
	// ErrCommitNotFound: the repository does not contain the commit.
	ErrCommitNotFound = errors.New("commit not found")
)

// maxLinkHops bounds symlink chains (and breaks cycles); Linux uses 40 too.
const maxLinkHops = 40

// GitTree reads a repository's files at one commit straight from the git
// object store, with no checkout. Opening it reads only the commit; a path
// is resolved by walking the trees on it (trees are shared with every other
// commit of the repository read in this process), and each answer is
// remembered. Safe for concurrent use. Close releases the repository.
type GitTree struct {
	dir    string
	commit plumbing.Hash
	root   plumbing.Hash
	repo   *repository

	mu       sync.Mutex
	paths    map[string]pathFact // cleaned path → what it names
	facts    model.FactStore     // persists paths across processes; may be nil
	newFacts int                 // answers not yet persisted
	closed   bool
}

// pathFact is what a path names at the commit: a regular file with its
// blob, or nothing readable.
type pathFact struct {
	blob plumbing.Hash
	file bool
}

var _ model.Tree = (*GitTree)(nil)

// openGit opens the git repository at repoDir (a work tree with .git, a
// linked worktree, or a bare repository) at commit, which may be a full or
// abbreviated hash or a ref name; "" means HEAD.
func openGit(repoDir, commit string, facts model.FactStore) (*GitTree, error) {
	repo, err := acquireRepository(repoDir)
	if err != nil {
		return nil, err
	}
	rev := commit
	if rev == "" {
		rev = "HEAD"
	}
	h, err := repo.resolve(rev)
	if err != nil {
		repo.release()
		return nil, fmt.Errorf("repository %s: commit %s: %w", repoDir, rev, ErrCommitNotFound)
	}
	root, err := repo.commitTree(h)
	if err != nil {
		repo.release()
		if errors.Is(err, ErrCommitNotFound) {
			return nil, fmt.Errorf("repository %s: commit %s: %w", repoDir, rev, ErrCommitNotFound)
		}
		return nil, fmt.Errorf("repository %s: commit %s: %w", repoDir, h, err)
	}
	g := &GitTree{dir: repoDir, commit: h, root: root, repo: repo, paths: map[string]pathFact{}, facts: facts}
	g.loadFacts()
	return g, nil
}

// Commit returns the full hash of the commit the tree was read at.
func (g *GitTree) Commit() string { return g.commit.String() }

// TreeID names the tree's whole content: "git:" and the commit hash.
func (g *GitTree) TreeID() string { return "git:" + g.commit.String() }

// Dir returns the repository directory the tree was opened from.
func (g *GitTree) Dir() string { return g.dir }

// Close saves the answers learnt (with its FactStore) and releases the repository;
// the last tree of a repository closes its files. After Close nothing is a
// file.
func (g *GitTree) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	g.mu.Unlock()
	g.saveFacts()
	g.repo.release()
	return nil
}

// IsFile reports whether p is a regular (or executable) file in the tree,
// following symlinks while they stay inside it.
func (g *GitTree) IsFile(p string) bool {
	return g.fact(p).file
}

// ContentID names the content of the regular file at p without reading it:
// "git:" and its blob hash. ok is false when p is not a file or its blob is
// missing from the object store.
func (g *GitTree) ContentID(p string) (string, bool) {
	f := g.fact(p)
	if !f.file || !g.repo.objects.Has(f.blob) {
		return "", false
	}
	return "git:" + f.blob.String(), true
}

// ReadFile returns the content of the regular file at p. The slice is the
// caller's to modify.
func (g *GitTree) ReadFile(p string) ([]byte, error) {
	f := g.fact(p)
	if !f.file {
		return nil, fmt.Errorf("repository %s at %s: %q: no regular file inside the tree: %w",
			g.dir, g.commit, p, fs.ErrNotExist)
	}
	t, b, err := g.repo.objects.ReadOwned(f.blob)
	if err == nil && t != gitobj.Blob {
		err = fmt.Errorf("object %s is a %s, not a blob", f.blob, t)
	}
	if err != nil {
		if errors.Is(err, gitobj.ErrNotFound) {
			err = fmt.Errorf("blob %s missing from the object store (partial clone?): %w", f.blob, err)
		}
		return nil, fmt.Errorf("repository %s at %s: %q: %w", g.dir, g.commit, p, err)
	}
	return b, nil
}

// fact answers what p names, from memory or by walking the trees.
func (g *GitTree) fact(p string) pathFact {
	c, ok := cleanRel(p)
	if !ok || c == "." {
		return pathFact{}
	}
	g.mu.Lock()
	f, ok := g.paths[c]
	closed := g.closed
	g.mu.Unlock()
	if closed {
		return pathFact{}
	}
	if ok {
		return f
	}
	f = g.lookup(c)
	g.mu.Lock()
	if _, ok := g.paths[c]; !ok {
		g.paths[c] = f
		g.newFacts++
	}
	g.mu.Unlock()
	return f
}

// lookup resolves a clean path to a regular file, walking one component at
// a time from the root tree and following symlinks. A link target that is
// absolute or climbs above the root makes p not a file, as does a chain
// longer than maxLinkHops. A tree that cannot be read makes p not a file.
func (g *GitTree) lookup(rest string) pathFact {
	dir := g.root // the tree of cur
	cur := ""     // the link-free directory resolved so far
	hops := 0
	for rest != "" {
		var name string
		name, rest, _ = strings.Cut(rest, "/")
		t, err := g.repo.tree(dir)
		if err != nil {
			return pathFact{}
		}
		e := t.find(name)
		if e == nil {
			return pathFact{}
		}
		switch {
		case e.mode == filemode.Dir:
			dir = e.hash
			if cur == "" {
				cur = name
			} else {
				cur += "/" + name
			}
		case e.mode == filemode.Symlink:
			hops++
			if hops > maxLinkHops {
				return pathFact{}
			}
			t, target, err := g.repo.objects.Read(e.hash)
			if err != nil || t != gitobj.Blob || len(target) == 0 || target[0] == '/' {
				return pathFact{}
			}
			// The target is relative to the link's directory; cur holds no
			// links, so cleaning ".." against it lexically is exact.
			tp, ok := cleanRel(path.Join(cur, string(target)))
			if !ok {
				return pathFact{}
			}
			if tp == "." {
				tp = ""
			}
			rest = path.Join(tp, rest)
			if rest == "." {
				rest = ""
			}
			cur, dir = "", g.root
		case e.mode.IsFile():
			if rest != "" { // a file used as a directory
				return pathFact{}
			}
			return pathFact{blob: e.hash, file: true}
		default: // submodule
			return pathFact{}
		}
	}
	return pathFact{} // ended on a directory or the root
}
