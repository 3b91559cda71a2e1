// Package filefacts keeps facts about repository files on disk between
// runs: what a path names at a commit, a content's line offsets, its
// tree-sitter definitions. Each is fixed by what its key names (a commit, a
// content id) and costly to recompute, and a warm re-score reads them
// instead of opening repositories and parsing.
//
// Entries are small files in <dir>/v1, named by a hash of their key. An
// entry is written to a temporary file and renamed into place, so readers
// never see half of one; it repeats its key and ends with a checksum, so a
// corrupt, truncated or foreign file is ignored (and rewritten by whoever
// computes the value again), never trusted. Keys are scoped to the build of
// trajscope that wrote them: another version's entries are never read, and
// age out. The directory is kept under a size limit by removing the least
// recently used entries.
package filefacts

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trajscope/trajscope/internal/atomicfile"
)

// DefaultLimit bounds the cache directory's size.
const DefaultLimit = 1 << 30

// magic starts every entry; the version changes with the entry layout.
const magic = "trajscope-facts-1\n"

// entriesDir is the layout version's subdirectory.
const entriesDir = "v1"

// Dir is the default cache directory: trajscope under the user cache
// directory ($XDG_CACHE_HOME, else ~/.cache, on Linux).
func Dir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache directory: %w", err)
	}
	return filepath.Join(base, "trajscope"), nil
}

// Store is one cache directory. Safe for concurrent use by goroutines and
// by processes.
type Store struct {
	dir   string
	ns    string // the build's scope, prefixed to every key
	limit int64

	written atomic.Int64

	// Writes go through one background goroutine, so the disk's latency
	// overlaps the work that computes the next value.
	writeOnce sync.Once
	queue     chan put
	done      chan struct{}
	pending   sync.WaitGroup
	closed    atomic.Bool
}

type put struct {
	key   string
	value []byte
}

// Open opens (creating it if needed) the cache at dir, bounded by limit
// bytes (DefaultLimit when <= 0).
func Open(dir string, limit int64) (*Store, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	if err := os.MkdirAll(filepath.Join(dir, entriesDir), 0o755); err != nil {
		return nil, fmt.Errorf("cache %s: %w", dir, err)
	}
	return &Store{dir: dir, ns: buildID(), limit: limit}, nil
}

// Dir returns the cache directory.
func (s *Store) Dir() string { return s.dir }

// buildID scopes entries to the program that writes them: a released
// version by its module version, a development build by its executable's
// identity, so a rebuilt binary never reads what an older one computed.
var buildID = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		if v != "" && v != "(devel)" && !strings.HasSuffix(v, "+dirty") {
			return bi.Main.Path + "@" + v
		}
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			return fmt.Sprintf("exe:%s:%d:%d", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	// Unknown: a scope no other process shares, so nothing is reused.
	return fmt.Sprintf("pid:%d:%d", os.Getpid(), time.Now().UnixNano())
})

// path is where an entry lives: one flat directory, since creating the
// entries of a cold run is what costs, and every subdirectory would be one
// more inode to allocate (ext4 indexes large directories by hash).
func (s *Store) path(full string) (dir, file string) {
	sum := sha256.Sum256([]byte(full))
	dir = filepath.Join(s.dir, entriesDir)
	return dir, filepath.Join(dir, hex.EncodeToString(sum[:]))
}

// touchAfter is how stale an entry's time may get before a read refreshes
// it: trimming removes the least recently used, without a write per read.
const touchAfter = time.Hour

// Get returns the value stored under key, if a valid entry holds it.
func (s *Store) Get(key string) ([]byte, bool) {
	full := s.ns + "\x00" + key
	_, p := s.path(full)
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > 1<<30 {
		return nil, false
	}
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false
	}
	v, ok := decode(b, full)
	if !ok {
		return nil, false
	}
	if time.Since(st.ModTime()) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
	return v, true
}

// Put stores value under key, atomically, soon: the write happens in the
// background and is complete when Close returns. The caller must not modify
// value afterwards. Failures are ignored: the cache only saves work.
func (s *Store) Put(key string, value []byte) {
	if s.closed.Load() {
		return
	}
	s.writeOnce.Do(func() {
		s.queue, s.done = make(chan put, 256), make(chan struct{})
		go func() {
			defer close(s.done)
			for p := range s.queue {
				s.write(p.key, p.value)
				s.pending.Done()
			}
		}()
	})
	s.pending.Add(1)
	s.queue <- put{key, value}
}

// Flush waits until every Put so far is on disk (or failed).
func (s *Store) Flush() { s.pending.Wait() }

// write stores one entry: a temporary file renamed into place.
func (s *Store) write(key string, value []byte) {
	full := s.ns + "\x00" + key
	dir, p := s.path(full)
	b := encode(full, value)
	err := atomicfile.WriteFile(p, b)
	if errors.Is(err, fs.ErrNotExist) { // cleaned meanwhile
		if os.MkdirAll(dir, 0o755) == nil {
			err = atomicfile.WriteFile(p, b)
		}
	}
	if err != nil {
		return
	}
	s.written.Add(int64(len(b)))
}

// encode lays an entry out as magic, uvarint key length, key, uvarint
// value length, value, and the SHA-256 of all that.
func encode(key string, value []byte) []byte {
	b := make([]byte, 0, len(magic)+len(key)+len(value)+2*binary.MaxVarintLen64+sha256.Size)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	b = binary.AppendUvarint(b, uint64(len(value)))
	b = append(b, value...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// decode checks an entry against its checksum and its key.
func decode(b []byte, key string) ([]byte, bool) {
	if len(b) < len(magic)+sha256.Size || string(b[:len(magic)]) != magic {
		return nil, false
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	r := body[len(magic):]
	n, k := binary.Uvarint(r)
	if k <= 0 || n != uint64(len(key)) || uint64(len(r)-k) < n || string(r[k:k+int(n)]) != key {
		return nil, false
	}
	r = r[k+int(n):]
	n, k = binary.Uvarint(r)
	if k <= 0 || n != uint64(len(r)-k) {
		return nil, false
	}
	return r[k:], true
}

// trimEvery spaces out the automatic trims: each walks the whole directory.
const trimEvery = 10 * time.Minute

// Close finishes the pending writes, then trims the cache when this process
// wrote to it and the last trim is old, or when it wrote a noticeable part
// of the limit. Puts after Close are dropped; Close must not run
// concurrently with Put.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.writeOnce.Do(func() {}) // no writer if nothing was put
	if s.queue != nil {
		close(s.queue)
		<-s.done
	}
	w := s.written.Load()
	if w == 0 {
		return nil
	}
	stamp := filepath.Join(s.dir, "trimmed")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < trimEvery && w < s.limit/20 {
		return nil
	}
	if err := os.WriteFile(stamp, nil, 0o644); err != nil {
		return err
	}
	_, err := s.Trim(s.limit)
	return err
}

type file struct {
	path string
	size int64
	mod  time.Time
}

// Trim removes the least recently used entries until the entries take at
// most 90 % of limit (so the next trims are not immediate), and leftover
// temporary files of interrupted writes. It returns the bytes left.
func (s *Store) Trim(limit int64) (int64, error) {
	var files []file
	var total int64
	root := filepath.Join(s.dir, entriesDir)
	err := walkFiles(root, func(p string, info fs.FileInfo) {
		if atomicfile.IsTemp(info.Name()) {
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(p)
			}
			return
		}
		files = append(files, file{p, info.Size(), info.ModTime()})
		total += info.Size()
	})
	if err != nil {
		return total, err
	}
	if total <= limit {
		return total, nil
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	target := limit / 10 * 9
	for _, f := range files {
		if total <= target {
			break
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	return total, nil
}

// Usage reports the bytes and entries under dir (zero for a missing one).
func Usage(dir string) (bytes int64, entries int, err error) {
	err = walkFiles(dir, func(_ string, info fs.FileInfo) {
		bytes += info.Size()
		if !atomicfile.IsTemp(info.Name()) && info.Name() != "trimmed" {
			entries++
		}
	})
	return bytes, entries, err
}

// walkFiles calls each for every file below dir (none for a missing dir;
// a file removed meanwhile is passed over).
func walkFiles(dir string, each func(path string, info fs.FileInfo)) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			each(p, info)
		}
		return nil
	})
}

// Clean removes every entry under dir, leaving dir itself. Only what this
// package writes is removed: the layout directory and the trim stamp.
func Clean(dir string) error {
	return errors.Join(
		os.RemoveAll(filepath.Join(dir, entriesDir)),
		ignoreMissing(os.Remove(filepath.Join(dir, "trimmed"))),
	)
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
