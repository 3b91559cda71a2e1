package filefacts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
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
	good := func() []byte { return encode(s.ns+"\x00k", []byte("value")) }
	tests := []struct {
		name  string
		entry func() []byte
	}{
		{"flipped byte", func() []byte { b := good(); b[len(magic)+5] ^= 1; return b }},
		{"flipped checksum", func() []byte { b := good(); b[len(b)-1] ^= 1; return b }},
		{"truncated", func() []byte { b := good(); return b[:len(b)-7] }},
		{"empty file", func() []byte { return nil }},
		{"other key (hash collision or moved file)", func() []byte { return encode(s.ns+"\x00other", []byte("value")) }},
		{"other build", func() []byte { return encode("exe:elsewhere\x00k", []byte("value")) }},
		{"other layout", func() []byte { b := good(); b[0] = 'X'; return b }},
		{"garbage", func() []byte { return bytes.Repeat([]byte("trajscope"), 20) }},
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
