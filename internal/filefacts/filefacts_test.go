package filefacts

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/trajscope/trajscope/internal/atomicfile"
)

func open(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDirFollowsXDGCacheHome(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", base)
	t.Setenv("HOME", t.TempDir())
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(base, "trajscope"); d != want {
		t.Errorf("Dir() = %s, want %s", d, want)
	}
}

func TestRoundTrip(t *testing.T) {
	s := open(t)
	tests := []struct {
		key   string
		value []byte
	}{
		{"lines/v1/git:abc", []byte{1, 2, 3}},
		{"empty", nil},
		{"binary\x00key", bytes.Repeat([]byte{0, 255}, 5000)},
	}
	for _, tc := range tests {
		if _, ok := s.Get(tc.key); ok {
			t.Errorf("%q: hit before Put", tc.key)
		}
		s.Put(tc.key, tc.value)
		s.Flush()
		got, ok := s.Get(tc.key)
		if !ok || !bytes.Equal(got, tc.value) {
			t.Errorf("%q: Get = %v, %v; want %v", tc.key, got, ok, tc.value)
		}
	}
	// Overwriting replaces.
	s.Put("empty", []byte("x"))
	s.Flush()
	if got, _ := s.Get("empty"); string(got) != "x" {
		t.Errorf("after overwrite: %q", got)
	}
}

// entryPath is where key's entry lives.
func entryPath(s *Store, key string) string {
	_, p := s.path(s.ns + "\x00" + key)
	return p
}

func TestCorruptOrForeignEntriesAreIgnored(t *testing.T) {
	s := open(t)
	good := func() []byte { return encode(s.secret, s.ns+"\x00k", []byte("value")) }
	tests := []struct {
		name  string
		entry func() []byte
	}{
		{"flipped byte", func() []byte { b := good(); b[len(magic)+5] ^= 1; return b }},
		{"flipped checksum", func() []byte { b := good(); b[len(b)-1] ^= 1; return b }},
		{"truncated", func() []byte { b := good(); return b[:len(b)-7] }},
		{"empty file", func() []byte { return nil }},
		{"other key (hash collision or moved file)", func() []byte { return encode(s.secret, s.ns+"\x00other", []byte("value")) }},
		{"other build", func() []byte { return encode(s.secret, "exe:elsewhere\x00k", []byte("value")) }},
		{"other layout", func() []byte { b := good(); b[0] = 'X'; return b }},
		{"garbage", func() []byte { return bytes.Repeat([]byte("trajscope"), 20) }},
		// Well formed, but signed without this cache's secret: what anyone
		// else could plant (the old layout's unkeyed SHA-256 let them).
		{"another secret", func() []byte { return encode(bytes.Repeat([]byte{7}, 32), s.ns+"\x00k", []byte("evil")) }},
		{"unkeyed checksum", func() []byte {
			b := good()
			body := append([]byte(nil), b[:len(b)-sha256.Size]...)
			sum := sha256.Sum256(body)
			return append(body, sum[:]...)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := entryPath(s, "k")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tc.entry(), 0o644); err != nil {
				t.Fatal(err)
			}
			if v, ok := s.Get("k"); ok {
				t.Fatalf("trusted a bad entry: %q", v)
			}
			// Whoever recomputes it rewrites it.
			s.Put("k", []byte("value"))
			s.Flush()
			if v, ok := s.Get("k"); !ok || string(v) != "value" {
				t.Fatalf("after rewrite: %q, %v", v, ok)
			}
		})
	}
	if _, ok := s.Get("k"); !ok {
		t.Fatal("the good entry is not read")
	}
}

// TestConcurrentWritersAndReaders: a reader sees either no entry or a whole
// one, never a torn write, and no temporary file is left behind.
func TestConcurrentWritersAndReaders(t *testing.T) {
	s := open(t)
	values := [][]byte{bytes.Repeat([]byte("a"), 100_000), bytes.Repeat([]byte("b"), 50_000)}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for w := range 4 {
		wg.Go(func() {
			for i := range 30 {
				s.Put("shared", values[(w+i)%2])
			}
			s.Flush()
		})
		wg.Go(func() {
			for range 30 {
				if v, ok := s.Get("shared"); ok && !bytes.Equal(v, values[0]) && !bytes.Equal(v, values[1]) {
					errs <- fmt.Sprintf("torn read of %d bytes", len(v))
				}
			}
		})
	}
	wg.Wait()
	s.Close()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && atomicfile.IsTemp(d.Name()) {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func TestTrimRemovesOldestPastLimit(t *testing.T) {
	s := open(t)
	val := bytes.Repeat([]byte("x"), 1000)
	old := time.Now().Add(-48 * time.Hour)
	for i := range 20 {
		key := fmt.Sprintf("k%02d", i)
		s.Put(key, val)
		s.Flush()
		// k00 is the oldest, k19 the newest.
		at := old.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(entryPath(s, key), at, at); err != nil {
			t.Fatal(err)
		}
	}
	size, n, err := Usage(s.dir)
	if err != nil || n != 20 {
		t.Fatalf("Usage = %d, %d, %v", size, n, err)
	}
	per := size / 20
	left, err := s.Trim(10 * per)
	if err != nil {
		t.Fatal(err)
	}
	if left > 9*per {
		t.Errorf("%d bytes left, want at most 90%% of the limit (%d)", left, 9*per)
	}
	for i := range 20 {
		_, ok := s.Get(fmt.Sprintf("k%02d", i))
		if kept := i >= 11; ok != kept {
			t.Errorf("k%02d: present=%v, want %v (oldest go first)", i, ok, kept)
		}
	}
	// Under the limit, nothing goes.
	if left2, _ := s.Trim(1 << 30); left2 != left {
		t.Errorf("trim under the limit removed entries: %d → %d", left, left2)
	}
}

func TestReadRefreshesAge(t *testing.T) {
	s := open(t)
	s.Put("a", []byte("1"))
	s.Put("b", []byte("2"))
	s.Flush()
	old := time.Now().Add(-48 * time.Hour)
	for _, k := range []string{"a", "b"} {
		os.Chtimes(entryPath(s, k), old, old)
	}
	os.Chtimes(entryPath(s, "b"), old.Add(time.Minute), old.Add(time.Minute))
	s.Get("a") // a is now the most recently used
	size, _, _ := Usage(s.dir)
	s.Trim(size * 6 / 10) // room for one of the two

	if _, ok := s.Get("a"); !ok {
		t.Error("the entry just read was trimmed")
	}
	if _, ok := s.Get("b"); ok {
		t.Error("the least recently used entry survived")
	}
}

func TestCloseTrimsAfterWrites(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 4000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		s.Put(fmt.Sprint(i), bytes.Repeat([]byte("y"), 500))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if size, _, _ := Usage(filepath.Join(dir, entriesDir)); size > 4000 {
		t.Errorf("%d bytes after Close, limit 4000", size)
	}
}

func TestClean(t *testing.T) {
	s := open(t)
	s.Put("a", []byte("1"))
	s.Flush()
	other := filepath.Join(s.dir, "not-ours")
	os.WriteFile(other, []byte("keep"), 0o644)
	if err := Clean(s.dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("a"); ok {
		t.Error("entry survived Clean")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("Clean removed a file it did not write: %v", err)
	}
	// The store still works after a clean.
	s.Put("a", []byte("2"))
	s.Flush()
	if v, ok := s.Get("a"); !ok || string(v) != "2" {
		t.Errorf("after Clean: %q, %v", v, ok)
	}
}

// The cache is the user's own: an entry is read only when it is a regular
// file of bounded size, reached without a link; a planted FIFO does not
// block, a huge entry is not read, and the trim stamp is never written
// through a link.
func TestHostileEntries(t *testing.T) {
	s := open(t)
	s.Put("k", []byte("value"))
	s.Flush()
	p := entryPath(s, "k")
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "entry")
	os.WriteFile(elsewhere, good, 0o644)
	tests := []struct {
		name  string
		plant func() error
	}{
		{"FIFO", func() error { return syscall.Mkfifo(p, 0o600) }},
		{"link to a valid entry", func() error { return os.Symlink(elsewhere, p) }},
		{"entry past the bound", func() error {
			f, err := os.Create(p)
			if err == nil {
				err = errors.Join(f.Truncate(maxEntry+1), f.Close())
			}
			return err
		}},
		{"writable by others", func() error {
			if err := os.WriteFile(p, good, 0o600); err != nil {
				return err
			}
			return os.Chmod(p, 0o666)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(p)
			if err := tc.plant(); err != nil {
				t.Skip(err)
			}
			done := make(chan bool, 1)
			go func() { _, ok := s.Get("k"); done <- ok }()
			select {
			case ok := <-done:
				if ok {
					t.Error("the planted entry was read")
				}
			case <-time.After(60 * time.Second):
				t.Fatal("Get blocked")
			}
		})
	}
	// The stamp: a link to a file the next trim must not truncate.
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	if err := os.Symlink(victim, filepath.Join(s.dir, "trimmed")); err != nil {
		t.Skip(err)
	}
	s.Put("other", []byte("x"))
	s.Close()
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the stamp's link target holds %q", b)
	}
}

// A cache directory others may write to, or another user owns, is refused;
// a new one is made 0700.
func TestOpenRefusesADirectoryNotTheUsers(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "new", "trajscope")
	if _, err := Open(fresh, 0); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o700 {
		t.Errorf("a new cache is %v, want 0700", st.Mode().Perm())
	}
	open := t.TempDir()
	os.Chmod(open, 0o777)
	if _, err := Open(open, 0); err == nil || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("a world-writable cache: %v", err)
	}
	if os.Geteuid() == 0 {
		theirs := t.TempDir()
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Skip(err)
		}
		if _, err := Open(theirs, 0); err == nil || !strings.Contains(err.Error(), "owned by another user") {
			t.Errorf("another user's cache: %v", err)
		}
	}
	// A key that is not the user's own is refused too.
	withKey := t.TempDir()
	Open(withKey, 0)
	os.Chmod(filepath.Join(withKey, secretFile), 0o666)
	if _, err := Open(withKey, 0); err == nil {
		t.Error("a key others may write was accepted")
	}
}

// Two stores on one directory share the secret: one's entries are the
// other's hits.
func TestSecretIsShared(t *testing.T) {
	dir := t.TempDir()
	a, _ := Open(dir, 0)
	b, err := Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	a.Put("k", []byte("v"))
	a.Flush()
	if v, ok := b.Get("k"); !ok || string(v) != "v" {
		t.Errorf("a second store misses the first's entry: %q %v", v, ok)
	}
}
