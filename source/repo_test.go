package source

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/testkit"
)

// repoKeyCases and friends were checked against the upstream Python.
var repoKeyCases = []struct{ in, want string }{
	{"https://github.com/django/django.git", "github.com__django__django"},
	{"https://github.com/django/django", "github.com__django__django"},
	{"http://github.com/django/django/", "github.com__django__django"},
	{"git@github.com:mui/material-ui.git", "github.com__mui__material-ui"},
	{"  https://github.com/o/r.git\n", "github.com__o__r"},
	{"https://github.com/o/r.github.io.git", "github.com__o__rhub.io"}, // every ".git" goes
	{"https://host:8443/a b/c~d.git", "host__8443__a_b__c_d"},
	{"ssh://git@host/x/y", "ssh______git_host__x__y"}, // ":" became "/" first
	{"https://h/é/ü", "h______"},
	{"", "repo"},
	{"https://", "repo"},
	{"/", "repo"},
}

var slugCases = []struct{ in, want string }{
	{"https://github.com/Django/Django.git", "django/django"},
	{"https://github.com/django/django/", "django/django"},
	{"github.com/o/r", "o/r"},
	{"git@github.com:o/r.git", "git@github.com:o/r"}, // no git@ handling in slug
	{"/cache/github.com__o__r", "cache/github.com__o__r"},
	{"r.git", "r"},
	{"", ""},
}

var instanceCases = []struct {
	in, owner, repo string
	ok              bool
}{
	{"django__django-12419", "django", "django", true},
	{"mui__material-ui-20252", "mui", "material-ui", true},
	{"a__b__c-1", "a__b", "c", true}, // greedy: the last "__" splits
	{"o__r-1-2", "o", "r-1", true},
	{" sympy__sympy-1 ", "sympy", "sympy", true},
	{"o__r-١٢", "o", "r", true}, // Python's \d is Unicode
	{"instance_ansible__ansible-0123abc-v1", "", "", false},
	{"SWE-Bench-Verified__django__django-12419__16c72e4c", "", "", false},
	{"django-12419", "", "", false},
	{"o__r-", "", "", false},
	{"o__r-12\n3", "", "", false},
	{"", "", "", false},
}

func TestRepoKeySlugInstance(t *testing.T) {
	for _, tc := range repoKeyCases {
		if got := RepoKey(tc.in); got != tc.want {
			t.Errorf("RepoKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range slugCases {
		if got := Slug(tc.in); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range instanceCases {
		o, r, ok := RepoFromInstanceID(tc.in)
		if o != tc.owner || r != tc.repo || ok != tc.ok {
			t.Errorf("RepoFromInstanceID(%q) = %q, %q, %v; want %q, %q, %v", tc.in, o, r, ok, tc.owner, tc.repo, tc.ok)
		}
	}
}

func TestResolveRepo(t *testing.T) {
	cache := t.TempDir()
	// A cached clone for django/django, and a local clone used as a URL.
	cachedDjango := filepath.Join(cache, "github.com__django__django")
	if err := os.MkdirAll(filepath.Join(cachedDjango, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	localClone := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(filepath.Join(localClone, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	const c1, c2 = "aaaa", "bbbb"
	tests := []struct {
		name                                     string
		predURL, goldURL, predCommit, goldCommit string
		id, cacheDir                             string
		wantURL, wantCommit                      string
		wantErr                                  bool
	}{
		{"pred wins over gold", "https://github.com/o/r", "https://github.com/x/y", c1, c2, "", cache,
			"https://github.com/o/r", c1, false},
		{"gold fills empty pred", "", "https://github.com/x/y", "", c2, "", cache,
			"https://github.com/x/y", c2, false},
		{"id gives URL when none", "", "", c1, "", "sympy__sympy-20590", cache,
			"https://github.com/sympy/sympy.git", c1, false},
		{"id gives cached clone path", "", "", "", c2, "django__django-12419", cache,
			cache + "/github.com__django__django", c2, false},
		{"mismatched slug overridden by id", "https://github.com/fork/sympy", "", c1, "", "sympy__sympy-1", cache,
			"https://github.com/sympy/sympy.git", c1, false},
		{"matching slug kept (case-insensitive)", "https://github.com/SymPy/SymPy/", "", c1, "", "sympy__sympy-1", cache,
			"https://github.com/SymPy/SymPy/", c1, false},
		{"local clone kept despite mismatch", localClone, "", c1, "", "sympy__sympy-1", cache,
			localClone, c1, false},
		{"unmatched id keeps URL", "https://github.com/a/b", "", c1, "", "instance_ansible__ansible-abc-vdef", cache,
			"https://github.com/a/b", c1, false},
		{"cached path compared by slug overrides pred", "https://github.com/django/django.git", "", c1, "", "django__django-1", cache,
			cache + "/github.com__django__django", c1, false},
		{"empty cache dir joins relative", "", "", c1, "", "o__r-1", "",
			"https://github.com/o/r.git", c1, false},
		{"no URL at all", "", "", c1, c2, "SWE-Bench-Verified__x__y__16c72e4c", cache, "", c1, true},
		{"no commit", "https://github.com/o/r", "", "", "", "o__r-1", cache, "https://github.com/o/r", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url, commit, err := ResolveRepo(tc.predURL, tc.goldURL, tc.predCommit, tc.goldCommit, tc.id, tc.cacheDir)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if err != nil {
				if !errors.Is(err, ErrUnresolved) || !strings.Contains(err.Error(), tc.id) {
					t.Errorf("error %q should wrap ErrUnresolved and name the instance", err)
				}
			}
			if url != tc.wantURL || commit != tc.wantCommit {
				t.Errorf("got %q %q, want %q %q", url, commit, tc.wantURL, tc.wantCommit)
			}
		})
	}
}

func TestOpenAndOpenCached(t *testing.T) {
	dir, hashes := testkit.GitRepoCommits(t,
		map[string]string{"a.txt": "v1"},
		map[string]string{"a.txt": "v2"},
	)
	plain := t.TempDir()
	writeFiles(t, plain, map[string]string{"a.txt": "plain"})
	bare := bareCopy(t, dir)

	cache := t.TempDir()
	url := "https://github.com/o/r.git"
	copyDir(t, bare, filepath.Join(cache, RepoKey(url))) // bare layout in the cache

	open := func(repo, commit string) func() (model.Tree, error) {
		return func() (model.Tree, error) { return Open(repo, commit, nil) }
	}
	cached := func(cacheDir, url, commit string) func() (model.Tree, error) {
		return func() (model.Tree, error) { return openCached(cacheDir, url, commit, nil) }
	}
	tests := []struct {
		name     string
		open     func() (model.Tree, error)
		wantType string
		want     string // content of a.txt; "" when an error is expected
		errIs    error
		mention  string
	}{
		{"git dir at old commit", open(dir, hashes[0]), "*source.GitTree", "v1", nil, ""},
		{"git dir HEAD", open(dir, ""), "*source.GitTree", "v2", nil, ""},
		{"bare repo", open(bare, hashes[0][:10]), "*source.GitTree", "v1", nil, ""},
		{"plain dir ignores commit", open(plain, hashes[0]), "*source.DirTree", "plain", nil, ""},
		{"missing dir", open(filepath.Join(plain, "nope"), ""), "", "", fs.ErrNotExist, "nope"},
		{"git dir, missing commit", open(dir, "cafebabe"), "", "", ErrCommitNotFound, "cafebabe"},
		{"cached bare clone", cached(cache, url, hashes[1]), "*source.GitTree", "v2", nil, ""},
		{"cached, URL spelled differently", cached(cache, "git@github.com:o/r.git", hashes[0]), "*source.GitTree", "v1", nil, ""},
		{"local clone URL inside the cache", cached(filepath.Dir(dir), dir, hashes[0]), "*source.GitTree", "v1", nil, ""},
		// A gold file naming a local repository elsewhere must not bring it
		// into results: that takes --repo.
		{"local clone URL outside the cache", cached(t.TempDir(), dir, hashes[0]), "", "", ErrUnresolved, "outside the cache"},
		{"not cached", cached(cache, "https://github.com/x/y", hashes[0]), "", "", ErrNotCached, "github.com__x__y"},
		{"cached, commit absent", cached(cache, url, strings.Repeat("1", 40)), "", "", ErrCommitNotFound, strings.Repeat("1", 40)},
		{"empty URL", cached(cache, "", hashes[0]), "", "", ErrUnresolved, "empty URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := tc.open()
			if tc.errIs != nil {
				if err == nil {
					t.Fatalf("got a tree, want error %v", tc.errIs)
				}
				if tree != nil {
					t.Errorf("non-nil tree %T with error", tree)
				}
				if !errors.Is(err, tc.errIs) || !strings.Contains(err.Error(), tc.mention) {
					t.Errorf("error %q: want it to wrap %v and mention %q", err, tc.errIs, tc.mention)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := typeName(tree); got != tc.wantType {
				t.Errorf("type %s, want %s", got, tc.wantType)
			}
			b, err := tree.ReadFile("a.txt")
			if err != nil || string(b) != tc.want {
				t.Errorf("a.txt = %q, %v; want %q", b, err, tc.want)
			}
		})
	}
}

func typeName(t model.Tree) string {
	switch t.(type) {
	case *GitTree:
		return "*source.GitTree"
	case *DirTree:
		return "*source.DirTree"
	case *FSTree:
		return "*source.FSTree"
	}
	return "?"
}

// needGit skips when the git binary is missing: go-git's file:// transport
// runs git-upload-pack.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found; go-git's file:// transport needs git-upload-pack")
	}
}

func TestCloneAndEnsureCached(t *testing.T) {
	needGit(t)
	src, hashes := testkit.GitRepoCommits(t,
		map[string]string{"a.txt": "v1", "pkg/b.go": "b"},
		map[string]string{"a.txt": "v2"},
	)
	url := "file://" + filepath.ToSlash(src)
	cache := t.TempDir()

	// A URL from a data file is cloned only from https or ssh: file://
	// would copy any repository the user can read into the cache.
	if _, err := EnsureCached(cache, url, nil); err == nil || !strings.Contains(err.Error(), "clones only https://") {
		t.Fatalf("EnsureCached(file://) = %v, want a refusal", err)
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Fatalf("the refused URL left %d cache entries", len(ents))
	}
	// The clone itself, as EnsureCached makes it for https.
	var progress bytes.Buffer
	dir := filepath.Join(cache, RepoKey(url))
	if err := Clone(url, dir, &progress); err != nil {
		t.Fatal(err)
	}
	if !isDir(filepath.Join(dir, ".git")) {
		t.Errorf("clone at %s has no .git directory (upstream layout)", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("clone checked out files (stat a.txt: %v); want no checkout", err)
	}
	// Leftover temporary directories would pollute the cache.
	if ents, _ := os.ReadDir(cache); len(ents) != 1 {
		t.Errorf("cache holds %d entries, want 1", len(ents))
	}
	for i, want := range []string{"v1", "v2"} {
		tree, err := openCached(cache, url, hashes[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := tree.ReadFile("a.txt"); err != nil || string(b) != want {
			t.Errorf("commit %d a.txt = %q, %v; want %q", i, b, err, want)
		}
	}

	// A second call reuses the clone: a marker file survives.
	marker := filepath.Join(dir, ".git", "trajscope-marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := EnsureCached(cache, url, nil); err != nil || again != dir {
		t.Fatalf("second EnsureCached = %s, %v", again, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("second EnsureCached re-cloned: %v", err)
	}

	// A local clone URL is used in place inside the cache, refused outside.
	if got, err := EnsureCached(cache, dir, nil); err != nil || got != dir {
		t.Errorf("EnsureCached(local clone in the cache) = %s, %v; want %s", got, err, dir)
	}
	if got, err := EnsureCached(cache, src, nil); err == nil {
		t.Errorf("EnsureCached(local clone outside the cache) = %s, want a refusal", got)
	}
}

func TestCloneErrors(t *testing.T) {
	needGit(t)
	src, _ := testkit.GitRepo(t, map[string]string{"a": "a"})
	base := t.TempDir()
	missing := "file://" + filepath.ToSlash(filepath.Join(base, "does-not-exist"))
	occupied := filepath.Join(base, "occupied")
	if err := os.Mkdir(occupied, 0o755); err != nil {
		t.Fatal(err)
	}
	notRepo := filepath.Join(base, "cache", RepoKey("https://github.com/x/y"))
	if err := os.MkdirAll(notRepo, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		run     func() error
		mention []string
		absent  string // must not exist afterwards
	}{
		{"unreachable URL", func() error { return Clone(missing, filepath.Join(base, "c1"), nil) },
			[]string{"clone", missing}, filepath.Join(base, "c1")},
		{"unreachable via EnsureCached", func() error {
			_, err := EnsureCached(filepath.Join(base, "cache2"), "https://127.0.0.1:1/o/r.git", nil)
			return err
		}, []string{"https://127.0.0.1:1/o/r.git"}, filepath.Join(base, "cache2", RepoKey("https://127.0.0.1:1/o/r.git"))},
		{"destination exists", func() error { return Clone("file://"+src, occupied, nil) },
			[]string{occupied, "already exists"}, ""},
		{"empty URL", func() error { return Clone("", filepath.Join(base, "c3"), nil) },
			[]string{"empty URL"}, filepath.Join(base, "c3")},
		{"cache entry not a repo", func() error {
			_, err := EnsureCached(filepath.Join(base, "cache"), "https://github.com/x/y", nil)
			return err
		}, []string{notRepo, "not a git repository"}, ""},
		{"no cache dir", func() error {
			_, err := EnsureCached("", "https://github.com/x/y", nil)
			return err
		}, []string{"no cache directory"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil {
				t.Fatal("no error")
			}
			for _, m := range tc.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			if tc.absent != "" {
				if _, err := os.Stat(tc.absent); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s left behind (stat: %v)", tc.absent, err)
				}
			}
		})
	}
}

func TestFetchCommit(t *testing.T) {
	needGit(t)
	src, hashes := testkit.GitRepoCommits(t,
		map[string]string{"a.txt": "v1"},
		map[string]string{"a.txt": "v2"},
	)
	// Move the branch back so v2 is only reachable from a pull ref, which a
	// clone does not fetch.
	repo, err := git.PlainOpen(src)
	if err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]string{
		"refs/heads/" + testkit.Branch: hashes[0],
		"refs/pull/1/head":             hashes[1],
	} {
		ref := plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.NewHash(h))
		if err := repo.Storer.SetReference(ref); err != nil {
			t.Fatal(err)
		}
	}
	// git upload-pack refuses wants by hash unless allowed (GitHub allows).
	cfg, err := repo.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Raw.Section("uploadpack").SetOption("allowReachableSHA1InWant", "true")
	if err := repo.SetConfig(cfg); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	url := "file://" + filepath.ToSlash(src)
	dir := filepath.Join(cache, RepoKey(url))
	if err := Clone(url, dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := openCached(cache, url, hashes[1], nil); !errors.Is(err, ErrCommitNotFound) {
		t.Fatalf("before fetch: err %v, want ErrCommitNotFound", err)
	}
	tests := []struct {
		name, commit string
		wantErr      string
	}{
		{"fetch unreached commit", hashes[1], ""},
		{"already present is a no-op", hashes[0], ""},
		{"short hash refused", hashes[1][:7], "full 40-hex"},
		{"commit unknown upstream", strings.Repeat("2", 40), strings.Repeat("2", 40)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := FetchCommit(dir, tc.commit, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want mention of %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tree, err := openCached(cache, url, tc.commit, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tree.ReadFile("a.txt"); err != nil {
				t.Errorf("a.txt at %s: %v", tc.commit, err)
			}
		})
	}
}

// A repository URL whose cache key is "." or ".." would name the cache or
// its parent: it is refused, as an unresolved repository, and nothing there
// is opened or cloned into; names that merely contain dots are ordinary.
// Only https, ssh and git@ URLs are cloned; whatever would make git copy
// a local repository or run a helper is refused before git sees it.
func TestRemoteURLs(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://github.com/o/r.git", true},
		{"https://github.com/o/r", true},
		{"ssh://git@github.com/o/r.git", true},
		{"git@github.com:o/r.git", true},
		{"file:///home/u/private", false},
		{"/home/u/private/.git", false},
		{"../private", false},
		{"http://github.com/o/r.git", false},
		{"ext::sh -c touch% /tmp/pwned", false},
		{"ssh://-oProxyCommand=touch%20x/o/r", false},
		{"git@-oProxyCommand=x:o/r", false},
		{"git@github.com", false},
		{"https://", false},
		{"", false},
	} {
		if err := remote(tc.url); (err == nil) != tc.ok {
			t.Errorf("remote(%q) = %v, want ok %v", tc.url, err, tc.ok)
		}
	}
}

func TestCachePathRefusesDotKeys(t *testing.T) {
	cache := t.TempDir()
	for _, url := range []string{".", "./", "..", "../", " .. ", "https://..", "git@.."} {
		if dir, err := CachePath(cache, url); !errors.Is(err, ErrUnresolved) || dir != "" {
			t.Errorf("CachePath(%q) = %q, %v; want ErrUnresolved", url, dir, err)
		}
		if _, err := openCached(cache, url, "abc", nil); !errors.Is(err, ErrUnresolved) {
			t.Errorf("openCached(%q, nil): %v", url, err)
		}
		if _, err := EnsureCached(cache, url, nil); !errors.Is(err, ErrUnresolved) {
			t.Errorf("EnsureCached(%q): %v", url, err)
		}
	}
	for url, key := range map[string]string{"a/..": "a__..", "...": "...", "https://github.com/o/r.git": "github.com__o__r"} {
		if dir, err := CachePath(cache, url); err != nil || dir != filepath.Join(cache, key) {
			t.Errorf("CachePath(%q) = %q, %v; want %q", url, dir, err, key)
		}
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache was written to: %v", entries)
	}
}
