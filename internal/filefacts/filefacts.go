// Package filefacts keeps facts about repository files on disk between
// runs: what a path names at a commit, a content's line offsets, its
// tree-sitter definitions. Each is fixed by what its key names (a commit, a
// content id) and costly to recompute, and a warm re-score reads them
// instead of opening repositories and parsing.
//
// Entries are small files in <dir>/v1, named by a hash of their key. An
// entry is written to a temporary file and renamed into place, so readers
// never see half of one; it repeats its key and ends with an HMAC under the
// cache's own secret, so a corrupt, truncated or foreign file (one planted
// by anyone who does not hold the secret) is ignored and rewritten by
// whoever computes the value again, never trusted. The cache is the user's
// own: its directory is made 0700, and one another user owns or others may
// write to is refused; an entry is read only when it is a regular file the
// user owns, within a size bound; no write follows a symbolic link. Keys are scoped to the build of
// trajscope that wrote them: another version's entries are never read, and
// age out. The directory is kept under a size limit by removing the least
// recently used entries.
package filefacts

import (
	"crypto/hmac"
	"crypto/rand"
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
const magic = "trajscope-facts-2\n"

// maxEntry bounds an entry read back (a file's definitions and line
// offsets take far less); a larger value is recomputed, never stored.
const maxEntry = 32 << 20

// secretFile holds the cache's key, made on first use.
const secretFile = "key"

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
	dir    string
	ns     string // the build's scope, prefixed to every key
	limit  int64
	secret []byte // the HMAC key every entry is signed with

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
// bytes (DefaultLimit when <= 0). A directory that is not the user's own
// (another user owns it, or others may write to it) is refused.
func Open(dir string, limit int64) (*Store, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	entries := filepath.Join(dir, entriesDir)
	if err := os.MkdirAll(entries, 0o700); err != nil {
		return nil, fmt.Errorf("cache %s: %w", dir, err)
	}
	for _, d := range []string{dir, entries} {
		if err := ownDir(d); err != nil {
			return nil, fmt.Errorf("cache %s: %w", dir, err)
		}
	}
	secret, err := loadSecret(filepath.Join(dir, secretFile))
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", dir, err)
	}
	return &Store{dir: dir, ns: buildID(), limit: limit, secret: secret}, nil
}

// ownDir checks a cache directory is one only the user can change.
func ownDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	if !ownedByUser(st) {
		return fmt.Errorf("%s: owned by another user", dir)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s: writable by other users (mode %v)", dir, st.Mode().Perm())
	}
	return nil
}

// loadSecret reads the cache's key, making it on first use: written to a
// temporary file and linked into place, so two processes starting at once
// agree on one key and neither reads half of it.
func loadSecret(path string) ([]byte, error) {
	for range 2 {
		b, err := readOwn(path, 64)
		if err == nil {
			if len(b) != 32 {
				return nil, fmt.Errorf("%s: not a key made by trajscope (remove it to start a new cache)", path)
			}
			return b, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		tmp, err := os.CreateTemp(filepath.Dir(path), ".key.tmp-*")
		if err != nil {
			return nil, err
		}
		_, err = tmp.Write(key)
		if err = errors.Join(err, tmp.Close()); err == nil {
			err = os.Link(tmp.Name(), path)
		}
		os.Remove(tmp.Name())
		if err == nil {
			return key, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		// Another process linked its key first: read that one.
	}
	return nil, fmt.Errorf("%s: cannot make the cache key", path)
}

// readOwn reads a file of at most limit bytes that is a regular file the
// user owns and only the user may change, without following a symbolic
// link or blocking on a FIFO.
func readOwn(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", path)
	case !ownedByUser(st):
		return nil, fmt.Errorf("%s: owned by another user", path)
	case st.Mode().Perm()&0o022 != 0:
		return nil, fmt.Errorf("%s: writable by other users", path)
	case st.Size() > limit:
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
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
	b, err := readOwn(p, maxEntry)
	if err != nil {
		return nil, false
	}
	v, ok := decode(s.secret, b, full)
	if !ok {
		return nil, false
	}
	s.touch(p)
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

// touch refreshes an entry's time when it is old, for trimming (a link
// planted in its place is not followed: the entry was read without it).
func (s *Store) touch(p string) {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || time.Since(st.ModTime()) <= touchAfter {
		return
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now)
}

// write stores one entry: a temporary file renamed into place (the rename
// replaces whatever the name held, a link included, never writes through
// it).
func (s *Store) write(key string, value []byte) {
	full := s.ns + "\x00" + key
	dir, p := s.path(full)
	b := encode(s.secret, full, value)
	if len(b) > maxEntry {
		return
	}
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
// value length, value, and the HMAC-SHA-256 of all that under secret.
func encode(secret []byte, key string, value []byte) []byte {
	b := make([]byte, 0, len(magic)+len(key)+len(value)+2*binary.MaxVarintLen64+sha256.Size)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	b = binary.AppendUvarint(b, uint64(len(value)))
	b = append(b, value...)
	return append(b, sign(secret, b)...)
}

func sign(secret, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return m.Sum(nil)
}

// decode checks an entry against its HMAC and its key.
func decode(secret, b []byte, key string) ([]byte, bool) {
	if len(b) < len(magic)+sha256.Size || string(b[:len(magic)]) != magic {
		return nil, false
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if !hmac.Equal(sign(secret, body), sum) {
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
	if st, err := os.Lstat(stamp); err == nil && st.Mode().IsRegular() && time.Since(st.ModTime()) < trimEvery && w < s.limit/20 {
		return nil
	}
	if err := stampNow(stamp); err != nil {
		return err
	}
	_, err := s.Trim(s.limit)
	return err
}

// stampNow marks the time of a trim: the stamp is a regular file written
// in place, never through a link (a link or FIFO there is an error; the
// trim happens next time).
func stampNow(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openFlags, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	return nil
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
	err = walkFiles(filepath.Join(dir, entriesDir), func(_ string, info fs.FileInfo) {
		bytes += info.Size()
		if !atomicfile.IsTemp(info.Name()) {
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
