// Package gitobj reads objects from a git object directory by hash: loose
// objects, pack files through their .idx, and alternates.
//
// It exists because go-git's filesystem storage, on the first delta it
// meets, builds an offset→hash map of every object of the pack, and
// decodes each pack index whole into memory: for a 1.7-million-object pack
// that is half a gigabyte of allocation before the first file is read.
// Here an index is searched in place (a few positioned reads per lookup),
// delta bases are found by offset without knowing their hash, and recently
// used bases are kept in a bounded cache. Nothing is memory-mapped, so the
// resident size stays what is actually decoded.
package gitobj

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Type is a git object type, with the pack numbering.
type Type int8

const (
	Commit Type = 1
	Tree   Type = 2
	Blob   Type = 3
	Tag    Type = 4
)

func (t Type) String() string {
	switch t {
	case Commit:
		return "commit"
	case Tree:
		return "tree"
	case Blob:
		return "blob"
	case Tag:
		return "tag"
	}
	return "type " + strconv.Itoa(int(t))
}

// ErrNotFound: no pack, loose object or alternate holds the object.
var ErrNotFound = errors.New("object not found")

// MaxObjectSize bounds the size an object header may claim, so a corrupt
// header cannot make a reader allocate gigabytes.
const MaxObjectSize = 1 << 30

// maxChain bounds delta chains (git's own limit on --depth is 4095) and
// alternates' nesting, so a corrupt or cyclic store cannot recurse forever.
const maxChain = 10000

// Store reads the objects of one object directory. Safe for concurrent use.
type Store struct {
	dir string

	mu    sync.Mutex
	packs []*pack
	known map[string]bool // pack names already opened
	alts  []*Store

	closed bool // guarded by mu
}

// CacheBytes bounds the decoded objects kept for reuse, as delta bases or
// when read again, by all stores of the process together: the budget does
// not grow with the number of repositories open at once. Delta chains of
// neighbouring versions share their bases, so a few megabytes already avoid
// most repeated inflation.
const CacheBytes = 32 << 20

// bases is that cache: objects by (pack, offset), loose ones by hash.
var bases = newLRU(CacheBytes)

// Open opens an object directory (".git/objects"). The pack directory is
// listed now; indexes are read lazily, one lookup at a time.
func Open(dir string) (*Store, error) {
	return open(dir, 0)
}

func open(dir string, depth int) (*Store, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	s := &Store{dir: dir, known: map[string]bool{}}
	if err := s.scanPacks(); err != nil {
		s.Close()
		return nil, err
	}
	if depth < 5 {
		s.alts = s.openAlternates(depth)
	}
	return s, nil
}

// openAlternates opens the stores listed in objects/info/alternates; one that
// cannot be opened is skipped, as git skips it.
func (s *Store) openAlternates(depth int) []*Store {
	b, err := os.ReadFile(filepath.Join(s.dir, "info", "alternates"))
	if err != nil {
		return nil
	}
	var out []*Store
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(s.dir, line)
		}
		if a, err := open(line, depth+1); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// scanPacks opens packs that appeared since the last scan (a fetch adds one).
func (s *Store) scanPacks() error {
	ents, err := os.ReadDir(filepath.Join(s.dir, "pack"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var added []*pack
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || s.known[name] {
			continue
		}
		p, err := openPack(filepath.Join(s.dir, "pack", name))
		if err != nil {
			// A half-written pack from a concurrent fetch is retried on the
			// next scan rather than failing every read.
			continue
		}
		s.known[name] = true
		added = append(added, p)
	}
	// Newer packs first would be git's preference; any order is correct.
	slices.SortFunc(added, func(a, b *pack) int { return strings.Compare(a.name, b.name) })
	s.packs = append(s.packs, added...)
	return nil
}

// Close releases the pack files. Reads after Close fail.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	var errs []error
	mine := map[*pack]bool{}
	for _, p := range s.packs {
		errs = append(errs, p.close())
		mine[p] = true
	}
	bases.drop(s, mine)
	s.packs = nil
	for _, a := range s.alts {
		errs = append(errs, a.Close())
	}
	s.alts = nil
	return errors.Join(errs...)
}

func (s *Store) snapshot() []*pack {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.packs
}

// locate finds the pack and offset of h, or reports whether it is loose.
func (s *Store) locate(h plumbing.Hash) (*pack, int64, bool) {
	for _, p := range s.snapshot() {
		if off, ok := p.idx.find(h); ok {
			return p, off, true
		}
	}
	return nil, 0, false
}

// Has reports whether the store (or an alternate) holds h.
func (s *Store) Has(h plumbing.Hash) bool {
	return s.has(h, true)
}

func (s *Store) has(h plumbing.Hash, rescan bool) bool {
	if _, _, ok := s.locate(h); ok {
		return true
	}
	if _, err := os.Stat(s.loosePath(h)); err == nil {
		return true
	}
	for _, a := range s.alts {
		if a.has(h, rescan) {
			return true
		}
	}
	if rescan && s.rescan() {
		return s.has(h, false)
	}
	return false
}

// rescan picks up packs added since the last scan; true when there are new ones.
func (s *Store) rescan() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	n := len(s.packs)
	if s.scanPacks() != nil {
		return false
	}
	return len(s.packs) > n
}

// Read returns the type and content of object h. The content may be shared
// with the store's cache: the caller must not modify it (see ReadOwned).
func (s *Store) Read(h plumbing.Hash) (Type, []byte, error) {
	t, b, _, err := s.read(h, 0, true)
	return t, b, err
}

// ReadOwned is Read with content the caller may keep and modify.
func (s *Store) ReadOwned(h plumbing.Hash) (Type, []byte, error) {
	t, b, shared, err := s.read(h, 0, true)
	if err == nil && shared {
		b = bytes.Clone(b)
	}
	return t, b, err
}

func (s *Store) read(h plumbing.Hash, depth int, rescan bool) (Type, []byte, bool, error) {
	if depth > maxChain {
		return 0, nil, false, fmt.Errorf("object %s: delta chain too long", h)
	}
	if p, off, ok := s.locate(h); ok {
		t, b, shared, err := p.read(s, off, depth)
		if err != nil {
			return 0, nil, false, fmt.Errorf("object %s: %w", h, err)
		}
		return t, b, shared, nil
	}
	if t, b, ok := bases.get(baseKey{store: s, hash: h}); ok {
		return t, b, true, nil
	}
	t, b, err := s.readLoose(h)
	if err == nil {
		bases.put(baseKey{store: s, hash: h}, t, b)
		return t, b, true, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return 0, nil, false, err
	}
	for _, a := range s.alts {
		t, b, shared, err := a.read(h, depth+1, rescan)
		if err == nil || !errors.Is(err, ErrNotFound) {
			return t, b, shared, err
		}
	}
	if rescan && s.rescan() {
		return s.read(h, depth, false)
	}
	return 0, nil, false, fmt.Errorf("object %s: %w", h, ErrNotFound)
}

func (s *Store) loosePath(h plumbing.Hash) string {
	x := h.String()
	return filepath.Join(s.dir, x[:2], x[2:])
}

// readLoose reads objects/xx/yyyy: zlib of "<type> <size>\0<content>".
func (s *Store) readLoose(h plumbing.Hash) (Type, []byte, error) {
	f, err := os.Open(s.loosePath(h))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil, fmt.Errorf("object %s: %w", h, ErrNotFound)
		}
		return 0, nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
	}
	defer zr.Close()
	br := bufio.NewReader(zr)
	head, err := br.ReadString(0)
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: header: %w", h, err)
	}
	name, size, ok := strings.Cut(strings.TrimSuffix(head, "\x00"), " ")
	n, err := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || n < 0 || n > MaxObjectSize {
		return 0, nil, fmt.Errorf("loose object %s: bad header %q", h, head)
	}
	var t Type
	switch name {
	case "commit":
		t = Commit
	case "tree":
		t = Tree
	case "blob":
		t = Blob
	case "tag":
		t = Tag
	default:
		return 0, nil, fmt.Errorf("loose object %s: unknown type %q", h, name)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(br, b); err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return 0, nil, fmt.Errorf("loose object %s: longer than its header says", h)
	}
	return t, b, nil
}

// Resolve expands a hexadecimal prefix (at least 4 digits) to the one object
// it names. ok is false when none does; ambiguous reports several.
func (s *Store) Resolve(prefix string) (h plumbing.Hash, ok, ambiguous bool) {
	prefix = strings.ToLower(prefix)
	if len(prefix) < 4 || len(prefix) > 40 {
		return h, false, false
	}
	if strings.Trim(prefix, "0123456789abcdef") != "" {
		return h, false, false
	}
	found := map[plumbing.Hash]bool{}
	s.prefixMatches(prefix, found, 0)
	if len(found) != 1 {
		return h, false, len(found) > 1
	}
	for k := range found {
		h = k
	}
	return h, true, false
}

func (s *Store) prefixMatches(prefix string, found map[plumbing.Hash]bool, depth int) {
	for _, p := range s.snapshot() {
		p.idx.prefix(prefix, found)
		if len(found) > 1 {
			return
		}
	}
	if ents, err := os.ReadDir(filepath.Join(s.dir, prefix[:2])); err == nil {
		for _, e := range ents {
			if name := prefix[:2] + e.Name(); len(name) == 40 && strings.HasPrefix(name, prefix) {
				found[plumbing.NewHash(name)] = true
			}
		}
	}
	if depth < 5 {
		for _, a := range s.alts {
			a.prefixMatches(prefix, found, depth+1)
		}
	}
}
