package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/source/internal/gitobj"
)

// repository is one git repository opened for reading. There is one per git
// directory per process, shared by every tree read from it at any commit,
// and closed after its last user releases it: its pack indexes are opened
// once, and trees and delta bases decoded for one commit serve the next
// (from caches shared by all repositories, within one memory budget).
type repository struct {
	key     string // real path of the git directory
	gitDir  string
	common  string // where objects and shared refs live (linked worktrees)
	objects *gitobj.Store
	users   int // guarded by repos.mu

	goGitOnce sync.Once
	goGit     *git.Repository
	goGitErr  error
}

var repos = struct {
	mu sync.Mutex
	m  map[string]*repository
}{m: map[string]*repository{}}

// acquireRepository returns the shared handle of the repository at dir (a
// work tree with .git, a linked worktree or a bare repository); release it
// when done.
func acquireRepository(dir string) (*repository, error) {
	if err := statDir("repository", dir, ErrNotRepo); err != nil {
		return nil, err
	}
	gitDir, err := findGitDir(dir)
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", dir, err)
	}
	key, err := filepath.EvalSymlinks(gitDir)
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", dir, err)
	}
	repos.mu.Lock()
	defer repos.mu.Unlock()
	if r := repos.m[key]; r != nil {
		r.users++
		return r, nil
	}
	common := gitDir
	if b, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	objects, err := gitobj.Open(filepath.Join(common, "objects"))
	if err != nil {
		return nil, fmt.Errorf("repository %s: open: %w", dir, err)
	}
	r := &repository{key: key, gitDir: gitDir, common: common, objects: objects, users: 1}
	repos.m[key] = r
	return r, nil
}

// release drops one user; the last one closes the pack files.
func (r *repository) release() {
	repos.mu.Lock()
	defer repos.mu.Unlock()
	if r.users--; r.users > 0 {
		return
	}
	if repos.m[r.key] == r {
		delete(repos.m, r.key)
	}
	r.objects.Close()
}

// findGitDir is git's discovery without walking up: dir/.git as a directory
// or as a "gitdir: PATH" file, else dir itself when it is bare.
func findGitDir(dir string) (string, error) {
	dotgit := filepath.Join(dir, ".git")
	if st, err := os.Stat(dotgit); err == nil {
		if st.IsDir() {
			return dotgit, nil
		}
		b, err := readSmall(dotgit)
		if err != nil {
			return "", err
		}
		line, _, _ := strings.Cut(string(b), "\n")
		target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return "", fmt.Errorf(".git file without a gitdir line: %w", ErrNotRepo)
		}
		target = strings.TrimSpace(target)
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		if !isDir(target) {
			return "", fmt.Errorf(".git names %s, which is not a directory: %w", target, ErrNotRepo)
		}
		return target, nil
	}
	if looksLikeGit(dir) {
		return dir, nil
	}
	return "", fmt.Errorf("%w (no .git and not a bare repository)", ErrNotRepo)
}

// resolve turns a revision into a commit hash: a full hash, a ref name
// (HEAD, a branch, a tag), or an abbreviated hash are read directly; any
// other revision expression (HEAD~1, v1^{commit}) goes through go-git.
func (r *repository) resolve(rev string) (plumbing.Hash, error) {
	if rev == "" {
		rev = "HEAD"
	}
	var h plumbing.Hash
	lower := strings.ToLower(rev)
	isHex := strings.Trim(lower, "0123456789abcdef") == ""
	switch {
	case len(rev) == 40 && isHex:
		h = plumbing.NewHash(lower)
	default:
		if ref, ok := r.ref(rev); ok {
			h = ref
			break
		}
		if isHex && len(rev) >= 4 {
			found, ok, _ := r.objects.Resolve(lower)
			if !ok {
				return h, ErrCommitNotFound
			}
			h = found
			break
		}
		g, err := r.goGitRepo()
		if err != nil {
			return h, err
		}
		p, err := g.ResolveRevision(plumbing.Revision(rev))
		if err != nil || p == nil {
			return h, ErrCommitNotFound
		}
		h = *p
	}
	return r.peelToCommit(h)
}

// peelToCommit follows annotated tags to the commit they name.
func (r *repository) peelToCommit(h plumbing.Hash) (plumbing.Hash, error) {
	for range 10 {
		t, data, err := r.objects.Read(h)
		if err != nil {
			return h, ErrCommitNotFound
		}
		switch t {
		case gitobj.Commit:
			return h, nil
		case gitobj.Tag:
			next, ok := headerHash(data, "object ")
			if !ok {
				return h, ErrCommitNotFound
			}
			h = next
		default:
			return h, ErrCommitNotFound
		}
	}
	return h, ErrCommitNotFound
}

// commitTree reads the root tree hash of a commit.
func (r *repository) commitTree(commit plumbing.Hash) (plumbing.Hash, error) {
	t, data, err := r.objects.Read(commit)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if t != gitobj.Commit {
		return plumbing.ZeroHash, ErrCommitNotFound
	}
	h, ok := headerHash(data, "tree ")
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("commit %s has no tree line", commit)
	}
	return h, nil
}

// headerHash reads "<field><40 hex>\n" at the start of a commit or tag.
func headerHash(data []byte, field string) (plumbing.Hash, bool) {
	s := string(data[:min(len(data), len(field)+41)])
	rest, ok := strings.CutPrefix(s, field)
	if !ok || len(rest) < 40 || !plumbing.IsHash(rest[:40]) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(rest[:40]), true
}

// ref reads a reference the way git's short names work: the name itself,
// then under refs/, refs/tags/, refs/heads/, refs/remotes/, following
// symbolic refs; loose refs win over packed-refs.
func (r *repository) ref(name string) (plumbing.Hash, bool) {
	if strings.Contains(name, "..") || strings.ContainsAny(name, "~^:@{}\\ ") {
		return plumbing.ZeroHash, false
	}
	for _, full := range []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"} {
		if h, ok := r.readRef(full, 0); ok {
			return h, true
		}
	}
	return plumbing.ZeroHash, false
}

func (r *repository) readRef(name string, depth int) (plumbing.Hash, bool) {
	if depth > 5 || (name != "HEAD" && !strings.HasPrefix(name, "refs/")) {
		return plumbing.ZeroHash, false
	}
	// HEAD is per worktree; the rest is shared.
	base := r.common
	if name == "HEAD" {
		base = r.gitDir
	}
	if b, err := readSmall(filepath.Join(base, filepath.FromSlash(name))); err == nil {
		s := strings.TrimSpace(string(b))
		if target, ok := strings.CutPrefix(s, "ref:"); ok {
			return r.readRef(strings.TrimSpace(target), depth+1)
		}
		if plumbing.IsHash(s) {
			return plumbing.NewHash(s), true
		}
		return plumbing.ZeroHash, false
	}
	b, err := readGitFile(filepath.Join(r.common, "packed-refs"), model.MaxFileBytes)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if h, ref, ok := strings.Cut(line, " "); ok && ref == name && plumbing.IsHash(h) {
			return plumbing.NewHash(h), true
		}
	}
	return plumbing.ZeroHash, false
}

// goGitRepo opens the repository with go-git, once, for what only it does:
// revision expressions and fetching.
func (r *repository) goGitRepo() (*git.Repository, error) {
	r.goGitOnce.Do(func() {
		r.goGit, r.goGitErr = git.PlainOpenWithOptions(r.gitDir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	})
	return r.goGit, r.goGitErr
}

// treeEntry is one entry of a git tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// tree returns the parsed tree object h, from the cache when a commit read
// earlier shares it.
func (r *repository) tree(h plumbing.Hash) (*tree, error) {
	if t, ok := trees.get(treeKey{r, h}); ok {
		return t, nil
	}
	typ, data, err := r.objects.Read(h)
	if err != nil {
		return nil, err
	}
	if typ != gitobj.Tree {
		return nil, fmt.Errorf("object %s is a %s, not a tree", h, typ)
	}
	entries, err := parseTree(data)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	trees.put(treeKey{r, h}, entries, len(data))
	return entries, nil
}

// tree is a parsed tree object. Git writes a tree's entries sorted (by
// name, a directory's name compared as if it ended in "/"); a tree that is
// is searched by halves, so a directory of a million files costs a path
// lookup some twenty comparisons, not a million. A tree written out of
// order (by hand) is scanned.
type tree struct {
	entries []treeEntry
	sorted  bool
}

// find returns the entry called name, or nil.
func (t *tree) find(name string) *treeEntry {
	if !t.sorted {
		for i := range t.entries {
			if t.entries[i].name == name {
				return &t.entries[i]
			}
		}
		return nil
	}
	// The entry sorts as name (a file) or as name+"/" (a directory).
	for _, dir := range [2]bool{false, true} {
		i, found := slices.BinarySearchFunc(t.entries, name, func(e treeEntry, k string) int {
			return gitCompare(e.name, e.mode == filemode.Dir, k, dir)
		})
		if found && t.entries[i].name == name {
			return &t.entries[i]
		}
	}
	return nil
}

// gitCompare orders two entry names as git sorts a tree: bytewise, a
// directory's name as if it ended in "/".
func gitCompare(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	at := func(s string, dir bool) int { // the byte after the common part
		switch {
		case len(s) > n:
			return int(s[n])
		case dir:
			return '/'
		}
		return -1
	}
	ca, cb := at(a, aDir), at(b, bDir)
	if ca != cb {
		return ca - cb
	}
	if len(a) == len(b) {
		return 0 // same name and kind
	}
	// One name ended in its "/", the other goes on after a "/".
	if len(a) < len(b) {
		return strings.Compare("/", b[n:])
	}
	return strings.Compare(a[n:], "/")
}

// parseTree decodes "<octal mode> <name>\0<20-byte hash>" entries.
func parseTree(data []byte) (*tree, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := strings.IndexByte(string(data[:min(len(data), 8)]), ' ')
		if sp < 0 {
			return nil, errors.New("bad entry mode")
		}
		mode, err := filemode.New(string(data[:sp]))
		if err != nil {
			return nil, err
		}
		data = data[sp+1:]
		nul := -1
		for i, c := range data {
			if c == 0 {
				nul = i
				break
			}
		}
		if nul < 0 || len(data) < nul+21 {
			return nil, errors.New("truncated entry")
		}
		var e treeEntry
		e.name, e.mode = string(data[:nul]), mode
		copy(e.hash[:], data[nul+1:nul+21])
		out = append(out, e)
		data = data[nul+21:]
	}
	t := &tree{entries: out, sorted: true}
	for i := 1; i < len(out) && t.sorted; i++ {
		t.sorted = gitCompare(out[i-1].name, out[i-1].mode == filemode.Dir, out[i].name, out[i].mode == filemode.Dir) < 0
	}
	return t, nil
}

// trees keeps parsed trees for every repository of the process, within one
// budget (by the size of the tree objects; the parsed form is about twice
// that), however many repositories are open. A key names its repository:
// one repository must not find trees only another holds.
var trees = treeCache{max: 16 << 20}

type treeKey struct {
	r *repository
	h plumbing.Hash
}

// treeCache keeps parsed trees in two generations: when the current one is
// full it becomes the old one and the previous old one is dropped, so
// recently used trees survive at a cost of one map move, and a closed
// repository's trees age out.
type treeCache struct {
	mu       sync.Mutex
	max      int
	cur, old map[treeKey]*tree
	bytes    int
}

func (c *treeCache) get(k treeKey) (*tree, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.cur[k]; ok {
		return t, true
	}
	t, ok := c.old[k]
	return t, ok
}

func (c *treeCache) put(k treeKey, t *tree, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur == nil || c.bytes+size > c.max/2 {
		c.old, c.cur, c.bytes = c.cur, map[treeKey]*tree{}, 0
	}
	c.cur[k] = t
	c.bytes += size
}
