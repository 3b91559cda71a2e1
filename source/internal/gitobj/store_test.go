package gitobj

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/trajscope/trajscope/testkit"
)

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
}

func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	if dir != "" {
		cmd.Dir = dir
	}
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+os.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

var (
	packedOnce sync.Once
	packedDir  string // a pristine packed repository, copied per test
	packedTmp  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if packedTmp != "" {
		os.RemoveAll(packedTmp)
	}
	os.Exit(code)
}

// packedRepo returns a copy (the test may damage it) of a repository with
// many versions of a few files, packed with deep delta chains, so reads
// exercise both delta kinds' resolution.
func packedRepo(t *testing.T) string {
	needGit(t)
	packedOnce.Do(func() {
		packedTmp, _ = os.MkdirTemp("", "gitobj-test-")
		packedDir = makePackedRepo(t, packedTmp)
	})
	if packedDir == "" {
		t.Fatal("no packed repository")
	}
	dir := t.TempDir()
	run(t, "", "clone", "-q", "--bare", "--no-local", packedDir, filepath.Join(dir, ".git"))
	return dir
}

func makePackedRepo(t *testing.T, base string) string {
	var commits []map[string]string
	files := map[string]string{}
	for c := 0; c < 40; c++ {
		for f := 0; f < 6; f++ {
			name := fmt.Sprintf("dir%d/sub/file%d.txt", f%3, f)
			var b strings.Builder
			for l := 0; l < 200; l++ {
				if l == (c*7+f)%200 {
					fmt.Fprintf(&b, "changed in commit %d\n", c)
				} else {
					fmt.Fprintf(&b, "line %d of file %d\n", l, f)
				}
			}
			files[name] = b.String()
		}
		files[fmt.Sprintf("new/%d.txt", c)] = fmt.Sprint(c)
		snap := map[string]string{}
		for k, v := range files {
			snap[k] = v
		}
		commits = append(commits, snap)
	}
	src, _ := testkit.GitRepoCommits(t, commits...)
	dir := filepath.Join(base, "repo")
	run(t, "", "clone", "-q", "--no-local", src, dir)
	run(t, dir, "repack", "-adq", "--depth=50", "--window=50")
	run(t, dir, "prune-packed")
	return dir
}

// allObjects lists every object go-git sees, with its content.
func allObjects(t testing.TB, dir string) map[plumbing.Hash][]byte {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	iter, err := repo.Storer.IterEncodedObjects(plumbing.AnyObject)
	if err != nil {
		t.Fatal(err)
	}
	out := map[plumbing.Hash][]byte{}
	err = iter.ForEach(func(o plumbing.EncodedObject) error {
		r, err := o.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		var b bytes.Buffer
		if _, err := b.ReadFrom(r); err != nil {
			return err
		}
		out[o.Hash()] = b.Bytes()
		return nil
	})
	if err != nil && err != storer.ErrStop {
		t.Fatal(err)
	}
	return out
}

func TestReadMatchesGoGit(t *testing.T) {
	packed := packedRepo(t)
	loose, _ := testkit.GitRepoCommits(t, map[string]string{"a": "1", "d/b": "2"}, map[string]string{"a": "3"})
	for _, dir := range []string{packed, loose} {
		want := allObjects(t, dir)
		if len(want) < 5 {
			t.Fatalf("%s: only %d objects", dir, len(want))
		}
		s, err := Open(filepath.Join(dir, ".git", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		for h, content := range want {
			_, got, err := s.Read(h)
			if err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			if !bytes.Equal(got, content) {
				t.Fatalf("%s: content differs from go-git's", h)
			}
			if !s.Has(h) {
				t.Errorf("Has(%s) = false", h)
			}
		}
		// Read again from a warm base cache: still the same bytes.
		for h, content := range want {
			if _, got, err := s.ReadOwned(h); err != nil || !bytes.Equal(got, content) {
				t.Fatalf("%s (warm): %v", h, err)
			}
		}
		s.Close()
	}
}

func TestDeltaChainsAreResolvedAndCached(t *testing.T) {
	dir := packedRepo(t)
	s, err := Open(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	deltas := 0
	p := s.packs[0]
	for i := uint32(0); i < p.idx.count; i++ {
		h, _ := p.idx.name(i)
		off, _ := p.idx.offset(i)
		e, err := p.header(off)
		if err != nil {
			t.Fatal(err)
		}
		if e.typ == ofsDelta || e.typ == refDelta {
			deltas++
		}
		if _, _, err := s.Read(h); err != nil {
			t.Fatal(err)
		}
	}
	if deltas < 50 {
		t.Errorf("only %d deltas in the pack: the test does not exercise chains", deltas)
	}
	if bases.len() == 0 {
		t.Error("no delta base was cached")
	}
	s.Close()
	for _, e := range bases.m {
		if e.Value.(*lruEntry).key.p == p {
			t.Fatal("a closed store's objects stay cached")
		}
	}
}

func TestErrors(t *testing.T) {
	dir := packedRepo(t)
	objects := filepath.Join(dir, ".git", "objects")
	s, err := Open(objects)
	if err != nil {
		t.Fatal(err)
	}
	missing := plumbing.NewHash(strings.Repeat("ab", 20))
	if _, _, err := s.Read(missing); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing object: err %v, want ErrNotFound", err)
	}
	if s.Has(missing) {
		t.Error("Has(missing) = true")
	}
	s.Close()

	// A truncated pack is refused at open (its count is fine, the data is
	// not) or fails the read with an error, never a panic or wrong bytes.
	want := allObjects(t, dir)
	packs, _ := filepath.Glob(filepath.Join(objects, "pack", "*.pack"))
	st, _ := os.Stat(packs[0])
	if err := os.Truncate(packs[0], st.Size()/2); err != nil {
		t.Fatal(err)
	}
	s, err = Open(objects)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	failed := 0
	for h, content := range want {
		_, got, err := s.Read(h)
		if err != nil {
			failed++
			continue
		}
		if !bytes.Equal(got, content) {
			t.Fatalf("%s: wrong bytes from a truncated pack", h)
		}
	}
	if failed == 0 {
		t.Error("every read of a half-truncated pack succeeded")
	}
}

func TestResolvePrefix(t *testing.T) {
	dir := packedRepo(t)
	s, err := Open(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var some plumbing.Hash
	for h := range allObjects(t, dir) {
		some = h
		break
	}
	full := some.String()
	tests := []struct {
		prefix string
		ok     bool
	}{
		{full, true},
		{full[:12], true},
		{full[:9], true},
		{strings.ToUpper(full[:10]), true},
		{full[:3], false}, // too short
		{"zzzzzzz", false},
		{strings.Repeat("f", 39) + "e", false},
	}
	for _, tc := range tests {
		h, ok, _ := s.Resolve(tc.prefix)
		if ok != tc.ok || ok && h != some {
			t.Errorf("Resolve(%q) = %s, %v; want ok=%v", tc.prefix, h, ok, tc.ok)
		}
	}
	if _, ok, amb := s.Resolve("0000"); ok && amb {
		t.Error("ok and ambiguous together")
	}
}

func TestAlternates(t *testing.T) {
	dir := packedRepo(t)
	want := allObjects(t, dir)
	other := t.TempDir()
	objects := filepath.Join(other, "objects")
	if err := os.MkdirAll(filepath.Join(objects, "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	alt := filepath.Join(dir, ".git", "objects") + "\n"
	if err := os.WriteFile(filepath.Join(objects, "info", "alternates"), []byte(alt), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(objects)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for h, content := range want {
		if _, got, err := s.Read(h); err != nil || !bytes.Equal(got, content) {
			t.Fatalf("%s through an alternate: %v", h, err)
		}
	}
}

func TestLRUBound(t *testing.T) {
	c := newLRU(10 * (100 + entryOverhead))
	for i := 0; i < 50; i++ {
		c.put(baseKey{off: int64(i)}, Blob, make([]byte, 100))
	}
	if c.len() != 10 || c.bytes > c.max {
		t.Errorf("%d entries, %d bytes; want 10 within %d", c.len(), c.bytes, c.max)
	}
	if _, _, ok := c.get(baseKey{off: 49}); !ok {
		t.Error("most recent entry evicted")
	}
	if _, _, ok := c.get(baseKey{off: 0}); ok {
		t.Error("oldest entry kept")
	}
	c.put(baseKey{off: 100}, Blob, make([]byte, c.max)) // too big to keep
	if _, _, ok := c.get(baseKey{off: 100}); ok {
		t.Error("an object larger than a quarter of the budget was kept")
	}
}

// TestClosedStoreReadsNothing: after Close a read fails and no pack is
// opened again (the miss must not rescan the pack directory).
func TestClosedStoreReadsNothing(t *testing.T) {
	dir := packedRepo(t)
	s, err := Open(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	var some plumbing.Hash
	for h := range allObjects(t, dir) {
		some = h
		break
	}
	if _, _, err := s.Read(some); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, _, err := s.Read(some); err == nil {
		t.Error("read after Close succeeded")
	}
	if len(s.packs) != 0 {
		t.Errorf("%d packs reopened after Close", len(s.packs))
	}
}

// TestCorruptPackNeverLies: with bytes of the pack flipped, every read is
// either an error or the right content: zlib's checksum, exact sizes and
// bounds checks catch the damage, and nothing panics.
func TestCorruptPackNeverLies(t *testing.T) {
	dir := packedRepo(t)
	want := allObjects(t, dir)
	objects := filepath.Join(dir, ".git", "objects")
	packs, _ := filepath.Glob(filepath.Join(objects, "pack", "*.pack"))
	orig, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	failed := 0
	for round := range 20 {
		b := bytes.Clone(orig)
		for range 1 + round%4 {
			b[12+rng.IntN(len(b)-32)] ^= byte(1 + rng.IntN(255))
		}
		os.Chmod(packs[0], 0o644)
		if err := os.WriteFile(packs[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(objects)
		if err != nil {
			continue
		}
		for h, content := range want {
			_, got, err := s.Read(h)
			if err != nil {
				failed++
				continue
			}
			if !bytes.Equal(got, content) {
				t.Fatalf("round %d: %s: wrong bytes from a corrupt pack", round, h)
			}
		}
		s.Close()
	}
	if failed == 0 {
		t.Error("no read ever failed: the corruption was not exercised")
	}
}

// len reports the number of entries (for tests).
func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// header parses the entry header at off.
func (p *pack) header(off int64) (entry, error) {
	e, br, err := p.open(off)
	if err == nil {
		bufPool.Put(br)
	}
	return e, err
}
