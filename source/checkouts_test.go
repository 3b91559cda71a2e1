package source

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// users reports how many holders the shared handle of the repository at
// dir has (0 when it is closed).
func users(t *testing.T, dir string) int {
	t.Helper()
	gitDir, err := findGitDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := filepath.EvalSymlinks(gitDir)
	repos.mu.Lock()
	defer repos.mu.Unlock()
	if r := repos.m[key]; r != nil {
		return r.users
	}
	return 0
}

// TestRepositoryHandleIsShared: trees of one repository at any commit, and
// through any path to it (a work tree, its .git, a .git file naming it),
// share one handle, closed after the last tree.
func TestRepositoryHandleIsShared(t *testing.T) {
	dir, hashes := testkit.GitRepoCommits(t, map[string]string{"a": "1"}, map[string]string{"a": "2"})
	linked := t.TempDir()
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+filepath.Join(dir, ".git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t1, err := openGit(dir, hashes[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := openGit(filepath.Join(dir, ".git"), hashes[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	t3, err := openGit(linked, hashes[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if t1.repo != t2.repo || t2.repo != t3.repo {
		t.Fatal("trees of one repository have different handles")
	}
	if n := users(t, dir); n != 3 {
		t.Fatalf("%d users, want 3", n)
	}
	for i, g := range []*GitTree{t1, t2, t3} {
		if b, err := g.ReadFile("a"); err != nil || string(b) != map[bool]string{true: "1", false: "2"}[i == 0] {
			t.Errorf("tree %d: a = %q, %v", i, b, err)
		}
	}
	t1.Close()
	t1.Close() // twice is once
	if n := users(t, dir); n != 2 {
		t.Fatalf("after one close: %d users, want 2", n)
	}
	if _, err := t1.ReadFile("a"); err == nil || t1.IsFile("a") {
		t.Error("a closed tree still reads")
	}
	t2.Close()
	t3.Close()
	if n := users(t, dir); n != 0 {
		t.Fatalf("after the last close: %d users, want 0 (closed)", n)
	}
	// Reopening after the last close opens a fresh handle.
	t4, err := openGit(dir, hashes[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer t4.Close()
	if t4.repo == t1.repo {
		t.Error("a closed handle was reused")
	}
}

// TestCheckoutsShareAndRelease: instances of one commit share a tree;
// instances at other commits of the same repository share its handle,
// which stays open between them and closes after the last.
func TestCheckoutsShareAndRelease(t *testing.T) {
	dir, hashes := testkit.GitRepoCommits(t, map[string]string{"a": "1"}, map[string]string{"a": "2"})
	c := NewCheckouts(CheckoutOptions{Repo: dir})
	k1, err := c.Key("", "", hashes[0], "", "i1")
	if err != nil {
		t.Fatal(err)
	}
	k1b, _ := c.Key("", "", "", hashes[0], "i2") // the gold's commit: same checkout
	k2, _ := c.Key("", "", hashes[1], "", "i3")
	if k1 != k1b || k1 == k2 {
		t.Fatalf("keys %q %q %q: want the first two equal", k1, k1b, k2)
	}
	tr1, err := c.Open(k1)
	if err != nil {
		t.Fatal(err)
	}
	tr1b, _ := c.Open(k1b)
	if tr1 != tr1b {
		t.Fatal("one commit, two trees")
	}
	c.Release(k1)
	if b, err := tr1b.ReadFile("a"); err != nil || string(b) != "1" {
		t.Fatalf("tree closed while an instance still uses it: %q, %v", b, err)
	}
	c.Release(k1b) // the commit's last instance: its tree closes
	if n := users(t, dir); n != 1 {
		t.Fatalf("%d users after the first commit's last instance, want 1 (held for the next commit)", n)
	}
	tr2, err := c.Open(k2)
	if err != nil {
		t.Fatal(err)
	}
	if tr2.(*GitTree).repo != tr1.(*GitTree).repo {
		t.Error("the next commit did not reuse the held handle")
	}
	c.Release(k2)
	if n := users(t, dir); n != 0 {
		t.Fatalf("%d users after the last instance, want 0", n)
	}
}

func TestCheckoutsErrors(t *testing.T) {
	dir, _ := testkit.GitRepo(t, map[string]string{"a": "1"})
	c := NewCheckouts(CheckoutOptions{Cache: t.TempDir(), NoClone: true})
	if _, err := c.Key("", "", "", "", "no-id"); !errors.Is(err, ErrUnresolved) {
		t.Errorf("no URL: err %v, want ErrUnresolved", err)
	}
	k, err := c.Key("https://github.com/o/r", "", strings.Repeat("a", 40), "", "o__r-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open(k); !errors.Is(err, ErrNotCached) {
		t.Errorf("not cached: err %v, want ErrNotCached", err)
	}
	c.Release(k)
	if _, err := c.Open("unknown"); err == nil {
		t.Error("Open of a key never announced succeeded")
	}
	c.Release("unknown") // harmless

	r := NewCheckouts(CheckoutOptions{Repo: dir})
	k, _ = r.Key("", "", strings.Repeat("b", 40), "", "x")
	if _, err := r.Open(k); !errors.Is(err, ErrCommitNotFound) {
		t.Errorf("missing commit: err %v", err)
	}
	r.Release(k)
	if n := users(t, dir); n != 0 {
		t.Errorf("a failed open left %d users", n)
	}
}

// TestCheckoutsConcurrent: many goroutines opening and releasing the same
// keys end with every handle closed.
func TestCheckoutsConcurrent(t *testing.T) {
	dir, hashes := testkit.GitRepoCommits(t, map[string]string{"a": "1"}, map[string]string{"a": "2"})
	c := NewCheckouts(CheckoutOptions{Repo: dir})
	var keys []string
	for i := range 40 {
		k, err := c.Key("", "", hashes[i%2], "", "x")
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Go(func() {
			defer c.Release(k)
			tr, err := c.Open(k)
			if err != nil {
				t.Error(err)
				return
			}
			if !tr.IsFile("a") {
				t.Error("a is not a file")
			}
		})
	}
	wg.Wait()
	if n := users(t, dir); n != 0 {
		t.Errorf("%d users left", n)
	}
}

// memFacts is an in-memory model.FactStore.
type memFacts struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (f *memFacts) Get(k string) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m[k]
	return v, ok
}

func (f *memFacts) Put(k string, v []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[k] = v
}

// TestPathFactsPersist: answers learnt at a commit are saved on Close and
// answer the next tree of that commit without walking; a corrupt entry is
// ignored.
func TestPathFactsPersist(t *testing.T) {
	dir, commit := testkit.GitRepo(t, map[string]string{"a.txt": "A", "pkg/b.go": "B", "link": "symlink:a.txt"})
	facts := &memFacts{m: map[string][]byte{}}
	g, err := openGit(dir, commit, facts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a.txt": true, "pkg/b.go": true, "link": true, "pkg": false, "nope": false}
	for p, ok := range want {
		if g.IsFile(p) != ok {
			t.Fatalf("%s: IsFile != %v", p, ok)
		}
	}
	g.Close()
	if len(facts.m) != 1 {
		t.Fatalf("%d entries, want 1 per commit", len(facts.m))
	}
	g2, err := openGit(dir, commit, facts)
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Close()
	if len(g2.paths) != len(want) {
		t.Fatalf("%d answers loaded, want %d", len(g2.paths), len(want))
	}
	// Answers come from the entry: make the trees unreachable to prove it.
	g2.root[0] ^= 0xff
	for p, ok := range want {
		if g2.IsFile(p) != ok {
			t.Errorf("%s from the entry: IsFile != %v", p, ok)
		}
	}
	if b, err := g2.ReadFile("link"); err != nil || string(b) != "A" {
		t.Errorf("link from the entry: %q, %v", b, err)
	}

	// A corrupt entry loads nothing.
	for k, v := range facts.m {
		facts.m[k] = v[:len(v)-3]
	}
	g3, err := openGit(dir, commit, facts)
	if err != nil {
		t.Fatal(err)
	}
	defer g3.Close()
	if len(g3.paths) != 0 {
		t.Errorf("%d answers loaded from a corrupt entry", len(g3.paths))
	}
	if !g3.IsFile("pkg/b.go") {
		t.Error("walk after a corrupt entry failed")
	}
}

func TestPathsEncoding(t *testing.T) {
	m := map[string]pathFact{"a": {file: true, blob: [20]byte{1, 2}}, "d/e": {}}
	got, ok := decodePaths(encodePaths(m))
	if !ok || len(got) != 2 || got["a"] != m["a"] || got["d/e"] != m["d/e"] {
		t.Fatalf("round trip: %v, %v", got, ok)
	}
	for _, bad := range [][]byte{
		{5, 'a'},                   // short path
		{1, 'a', 2},                // bad flag
		{1, 'a', 1, 0},             // short hash
		{4, '.', '.', '/', 'a', 0}, // climbing path
		{1, 'a'},                   // missing flag
	} {
		if _, ok := decodePaths(bad); ok {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestDecodersNeverPanic: tree objects and persisted answers come from disk
// and may be anything.
func TestDecodersNeverPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	valid := encodePaths(map[string]pathFact{"a/b": {file: true}, "c": {}})
	tree := []byte("100644 a.txt\x00" + strings.Repeat("\x01", 20) + "40000 d\x00" + strings.Repeat("\x02", 20))
	for range 20000 {
		for _, base := range [][]byte{valid, tree} {
			b := append([]byte(nil), base...)
			for range 1 + rng.IntN(4) {
				switch rng.IntN(3) {
				case 0:
					if len(b) > 0 {
						b[rng.IntN(len(b))] = byte(rng.Uint32())
					}
				case 1:
					b = b[:rng.IntN(len(b)+1)]
				default:
					b = append(b, byte(rng.Uint32()))
				}
			}
			decodePaths(b)
			parseTree(b)
		}
	}
	if e, err := parseTree(tree); err != nil || len(e.entries) != 2 || e.entries[1].name != "d" {
		t.Errorf("parseTree = %v, %v", e, err)
	}
}

// TestPresentCommitNeverFetches: FetchCommit finds a present commit through
// the shared handle, without opening the repository with go-git (which a
// fetch needs) and without a remote to fetch from.
func TestPresentCommitNeverFetches(t *testing.T) {
	dir, commit := testkit.GitRepo(t, map[string]string{"a": "1"})
	g, err := openGit(dir, commit, nil) // keeps the handle open to inspect it
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := FetchCommit(dir, commit, nil); err != nil {
		t.Fatalf("present commit: %v", err)
	}
	if g.repo.goGit != nil {
		t.Error("FetchCommit opened the repository with go-git for a present commit")
	}
	// An absent one needs the remote, which this repository does not have.
	if err := FetchCommit(dir, strings.Repeat("e", 40), nil); err == nil {
		t.Error("absent commit without a remote: no error")
	}
}
