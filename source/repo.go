package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
)

var (
	// ErrNotCached: the repository has no clone in the cache directory.
	ErrNotCached = errors.New("repository not in cache")
	// ErrUnresolved: no repository URL or no commit could be determined for
	// an instance (upstream's checkout_failed).
	ErrUnresolved = errors.New("repository or commit unresolved")
)

var (
	reScheme = lazyre.New(`^https?://`)
	reGitAt  = lazyre.New(`^git@`)
	reUnsafe = lazyre.New(`[^A-Za-z0-9_.-]+`)
	// Python's \d is any Unicode decimal digit, hence \p{Nd}. Both groups are
	// greedy, so the last "__" and the last "-<digits>" win, as upstream.
	reInstance = lazyre.New(`^([A-Za-z0-9_.-]+)__([A-Za-z0-9_.-]+)-\p{Nd}+$`)
)

// RepoKey is upstream _normalize_url: the directory name of a repository's
// clone inside the cache, e.g. "https://github.com/django/django.git" →
// "github.com__django__django".
func RepoKey(url string) string {
	s := reScheme().ReplaceAllLiteralString(python.StripSpace(url), "")
	s = reGitAt().ReplaceAllLiteralString(s, "")
	s = strings.ReplaceAll(s, ":", "/")
	s = strings.TrimRight(s, "/")
	s = strings.ReplaceAll(s, "/", "__")
	s = strings.ReplaceAll(s, ".git", "")
	s = reUnsafe().ReplaceAllLiteralString(s, "_")
	if s == "" {
		return "repo"
	}
	return s
}

// Slug is upstream _normalize_repo_slug: the lower-cased last two path parts
// of a URL without scheme, trailing "/" and ".git" ("owner/repo").
func Slug(url string) string {
	s := reScheme().ReplaceAllLiteralString(python.StripSpace(url), "")
	s = strings.TrimRight(s, "/")
	s = strings.TrimSuffix(s, ".git")
	parts := strings.Split(s, "/")
	if len(parts) >= 2 {
		return strings.ToLower(strings.Join(parts[len(parts)-2:], "/"))
	}
	return strings.ToLower(s)
}

// RepoFromInstanceID extracts owner and repo from a SWE-bench style id
// "owner__repo-1234" (upstream _resolve_repo_from_original_id). Pro ids and
// new-style ids do not match.
func RepoFromInstanceID(id string) (owner, repo string, ok bool) {
	m := reInstance().FindStringSubmatch(python.StripSpace(id))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// ResolveRepo chooses the repository URL and commit for an instance exactly
// as upstream evaluate_instance does:
//
//  1. url = predURL or goldURL; commit = predCommit or goldCommit;
//  2. the instance id gives <cacheDir>/github.com__<owner>__<repo> when that
//     has a .git directory, else https://github.com/<owner>/<repo>.git;
//  3. an empty url takes the id's; a url that is not a local clone is
//     overridden by the id's when their slugs differ;
//  4. an empty url or commit is an error (upstream checkout_failed).
//
// The returned url may be a local clone path.
func ResolveRepo(predURL, goldURL, predCommit, goldCommit, instanceID, cacheDir string) (url, commit string, err error) {
	url = predURL
	if url == "" {
		url = goldURL
	}
	commit = predCommit
	if commit == "" {
		commit = goldCommit
	}
	resolved := ""
	if owner, repo, ok := RepoFromInstanceID(instanceID); ok {
		local := pyJoin(cacheDir, "github.com__"+owner+"__"+repo)
		if isDir(filepath.Join(local, ".git")) {
			resolved = local
		} else {
			resolved = "https://github.com/" + owner + "/" + repo + ".git"
		}
	}
	if url == "" {
		url = resolved
	} else if !isLocalClone(url) && resolved != "" && Slug(url) != Slug(resolved) {
		url = resolved
	}
	switch {
	case url == "":
		return "", commit, fmt.Errorf("instance %q: no repository URL (prediction and gold give none, and the id is not owner__repo-N): %w", instanceID, ErrUnresolved)
	case commit == "":
		return url, "", fmt.Errorf("instance %q: repository %s: no commit (prediction and gold give none): %w", instanceID, url, ErrUnresolved)
	}
	return url, commit, nil
}

// pyJoin is os.path.join(a, b) for a relative b, so the local path string
// ResolveRepo returns is the one upstream would print.
func pyJoin(a, b string) string {
	if a == "" || strings.HasSuffix(a, "/") {
		return a + b
	}
	return a + "/" + b
}

// Open opens repoDir at commit: a git repository (work tree, linked worktree
// or bare) is read from its object store at commit ("" means HEAD); any
// other directory is read as is and commit is ignored. A git tree holds its
// repository open until closed (see Close); facts, when set, keep what
// paths name at the commit across processes.
func Open(repoDir, commit string, facts model.FactStore) (model.Tree, error) {
	st, err := os.Stat(repoDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("repository %s: no such directory: %w", repoDir, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("repository %s: %w", repoDir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("repository %s: not a directory", repoDir)
	}
	if looksLikeGit(repoDir) {
		g, err := openGit(repoDir, commit, facts)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
	d, err := OpenDir(repoDir)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Close releases what a tree holds open: a *GitTree's repository. Other
// trees hold nothing.
func Close(t model.Tree) error {
	if c, ok := t.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// CachePath is where the clone of url lives in cacheDir: url itself when it
// is a local clone (a directory with .git) inside cacheDir, else
// <cacheDir>/<RepoKey(url)>. A local clone elsewhere is refused: a URL comes
// from a gold or prediction file, maybe someone else's, and must not bring
// any repository the user can read into results (a local repository is
// opened only through --repo, which the user types).
// A url whose key is "." or ".." (a repo_url of "." or "./") would name the
// cache itself or its parent, so it is refused (upstream would open or
// clone into them).
func CachePath(cacheDir, url string) (string, error) {
	key := RepoKey(url)
	if key == "." || key == ".." {
		// Checked first: "." or "../" is also a local clone whenever the
		// working directory or its parent is one, which a dataset's
		// repo_url cannot mean.
		return "", fmt.Errorf("repository URL %q names no repository (its cache entry would be %q): %w", termsafe.Line(url), key, ErrUnresolved)
	}
	if isLocalClone(url) {
		if !inCache(cacheDir, url) {
			return "", fmt.Errorf("repository URL %q is a local repository outside the cache; a local repository is opened only with --repo: %w", termsafe.Line(url), ErrUnresolved)
		}
		return url, nil
	}
	return filepath.Join(cacheDir, key), nil
}

// openCached opens the clone of url at commit: url itself when it is a
// local clone, else <cacheDir>/<RepoKey(url)>, a normal or bare repository.
// It does not clone; see EnsureCached.
func openCached(cacheDir, url, commit string, facts model.FactStore) (model.Tree, error) {
	if url == "" {
		return nil, fmt.Errorf("open cached repository: empty URL: %w", ErrUnresolved)
	}
	dir, err := CachePath(cacheDir, url)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("repository %s: not in cache %s (no %s): %w", url, cacheDir, dir, ErrNotCached)
	}
	g, err := openGit(dir, commit, facts)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Clone clones url into dir (which must not exist) without checking out
// files: dir gets a .git directory, as upstream's `git clone --no-checkout`.
// The clone is made in a temporary sibling and renamed into place, so an
// interrupted clone never leaves a half repository at dir. Progress, if not
// nil, receives the server's progress messages.
func Clone(url, dir string, progress io.Writer) error {
	if url == "" {
		return fmt.Errorf("clone into %s: empty URL", dir)
	}
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("clone %s: destination %s already exists", url, dir)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("clone %s: %w", url, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".clone-")
	if err != nil {
		return fmt.Errorf("clone %s: %w", url, err)
	}
	_, err = git.PlainClone(tmp, false, &git.CloneOptions{URL: url, NoCheckout: true, Progress: progress})
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("clone %s into %s: %w", url, dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if looksLikeGit(dir) { // another process cloned it meanwhile
			return nil
		}
		return fmt.Errorf("clone %s: move into %s: %w", url, dir, err)
	}
	return nil
}

// cloneLocks serialises EnsureCached per destination within this process.
var cloneLocks sync.Map // dir → *sync.Mutex

// EnsureCached returns the clone of url in cacheDir (see CachePath), cloning
// it first when absent. An existing cache entry that is not a git
// repository is an error rather than being overwritten.
func EnsureCached(cacheDir, url string, progress io.Writer) (string, error) {
	if url == "" {
		return "", fmt.Errorf("ensure cached repository: empty URL: %w", ErrUnresolved)
	}
	dir, err := CachePath(cacheDir, url)
	switch {
	case err != nil:
		return "", err
	case isLocalClone(url):
		return url, nil
	case cacheDir == "":
		return "", fmt.Errorf("repository %s: no cache directory given", url)
	}
	mu, _ := cloneLocks.LoadOrStore(dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	if looksLikeGit(dir) {
		return dir, nil
	}
	if _, err := os.Lstat(dir); err == nil {
		return "", fmt.Errorf("repository %s: cache entry %s exists but is not a git repository", url, dir)
	}
	if err := remote(url); err != nil {
		return "", err
	}
	if err := Clone(url, dir, progress); err != nil {
		return "", err
	}
	return dir, nil
}

// FetchCommit fetches a full 40-hex commit from the repository's "origin"
// remote when the repository lacks it, as upstream's `git fetch origin
// COMMIT` does for commits no branch reaches. A commit already present is
// found through the shared repository handle, without a second open.
func FetchCommit(repoDir, commit string, progress io.Writer) error {
	if !plumbing.IsHash(commit) {
		return fmt.Errorf("repository %s: fetch commit %q: want a full 40-hex hash", repoDir, commit)
	}
	r, err := acquireRepository(repoDir)
	if err != nil {
		return err
	}
	defer r.release()
	h := plumbing.NewHash(strings.ToLower(commit))
	if _, err := r.commitTree(h); err == nil {
		return nil
	}
	repo, err := r.goGitRepo()
	if err != nil {
		if errors.Is(err, git.ErrRepositoryNotExists) {
			return fmt.Errorf("repository %s: %w", repoDir, ErrNotRepo)
		}
		return fmt.Errorf("repository %s: open: %w", repoDir, err)
	}
	spec := config.RefSpec(h.String() + ":refs/trajscope/" + h.String())
	err = repo.Fetch(&git.FetchOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}, Progress: progress})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("repository %s: fetch commit %s from origin: %w", repoDir, commit, err)
	}
	// The fetch wrote a new pack: a miss makes the store look for it.
	if _, err := r.commitTree(h); err != nil {
		return fmt.Errorf("repository %s: commit %s still absent after fetch: %w", repoDir, commit, ErrCommitNotFound)
	}
	return nil
}

// remote accepts the URLs trajscope clones from: https://host/path,
// ssh://host/path and git@host:path. Anything else (file://, a local path,
// ext::, a host that reads as an option) would make git copy or run
// something on this machine because a data file said so.
func remote(url string) error {
	u := strings.TrimSpace(url)
	host := ""
	switch {
	case strings.HasPrefix(u, "https://"):
		host = strings.TrimPrefix(u, "https://")
	case strings.HasPrefix(u, "ssh://"):
		host = strings.TrimPrefix(u, "ssh://")
	case strings.HasPrefix(u, "git@"):
		host = strings.TrimPrefix(u, "git@")
		if !strings.Contains(host, ":") {
			host = ""
		}
		host = strings.Replace(host, ":", "/", 1)
	}
	host, _, _ = strings.Cut(host, "/")
	if host == "" || strings.HasPrefix(host, "-") || strings.ContainsAny(host, " \t\n\\") {
		return fmt.Errorf("repository URL %q: trajscope clones only https://, ssh:// and git@host: URLs (a local repository is opened with --repo): %w", termsafe.Line(url), ErrUnresolved)
	}
	return nil
}

// inCache reports whether path lies inside the cache directory.
func inCache(cacheDir, path string) bool {
	if cacheDir == "" {
		return false
	}
	d, err1 := filepath.Abs(cacheDir)
	p, err2 := filepath.Abs(path)
	return err1 == nil && err2 == nil && within(d, p)
}

// isLocalClone is upstream's os.path.isdir(url) and isdir(url/.git).
func isLocalClone(url string) bool {
	return url != "" && isDir(url) && isDir(filepath.Join(url, ".git"))
}

// looksLikeGit reports whether dir is a git work tree (.git dir or file) or
// a bare repository (HEAD file plus objects dir).
func looksLikeGit(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return true
	}
	st, err := os.Stat(filepath.Join(dir, "HEAD"))
	return err == nil && st.Mode().IsRegular() && isDir(filepath.Join(dir, "objects"))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
