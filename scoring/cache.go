package scoring

import (
	"encoding/binary"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
)

// facts is what the cache keeps of one content.
type facts struct {
	size    int
	offsets []int
	langs   []string        // sorted
	defs    [][]symbols.Def // defs[i] is for langs[i]
}

// TreeIDer is implemented by trees whose every file a name fixes, such as a
// git tree by its commit. What scoring learns about such a tree is kept as
// one cache entry per tree (a bundle of its contents' facts), so a cold run
// writes one entry per commit rather than one per file, and a warm run
// reads one.
type TreeIDer interface {
	TreeID() string
}

// bundleKey names a tree's entry; contentKey one content's, for trees
// without a name. The grammar version is part of both, so definitions
// parsed by other grammars are never reused.
func bundleKey(tree string) string {
	return "tree/v1/" + grammarVersion() + "/" + tree
}

func contentKey(id string) string {
	return "file/v1/" + grammarVersion() + "/" + id
}

var grammarVersion = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/smacker/go-tree-sitter" {
				if d.Replace != nil {
					d = d.Replace
				}
				return d.Version + d.Sum
			}
		}
	}
	return "unknown"
})

// lookup returns the cache's facts for a content; nil when it has none.
func (f *FileCache) lookup(id string) *facts {
	if f.cache == nil {
		return nil
	}
	if f.treeID != "" {
		f.bundleOnce.Do(func() {
			if b, ok := f.cache.Get(bundleKey(f.treeID)); ok {
				f.bundle, _ = decodeBundle(b) // nil when invalid
			}
		})
		return f.bundle[id]
	}
	b, ok := f.cache.Get(contentKey(id))
	if !ok {
		return nil
	}
	e, _ := decodeFacts(b)
	return e
}

// defsFor returns the stored definitions for lang.
func (e *facts) defsFor(lang string) ([]symbols.Def, bool) {
	if e == nil {
		return nil, false
	}
	if i, ok := slices.BinarySearch(e.langs, lang); ok {
		return e.defs[i], true
	}
	return nil, false
}

// flushed remembers the entries this process wrote to each cache
// (flushKey → languages), so files shared by several commits are written
// once.
var flushed sync.Map

type flushKey struct {
	cache model.FactStore // compared with ==: implementations are pointers
	key   string
}

// Flush writes what this Files learnt to its cache: the line offsets of
// each content it read and the definitions it parsed, unless the cache
// already held them. Batch calls it when it drops a tree's files. Flush
// must not run concurrently with other uses of f.
func (f *FileCache) Flush() {
	if f.cache == nil {
		return
	}
	f.mu.Lock()
	infos := make([]*fileInfo, 0, len(f.files))
	for _, fi := range f.files {
		infos = append(infos, fi)
	}
	f.mu.Unlock()
	if f.treeID == "" {
		for _, fi := range infos {
			if id, e := learnt(fi); e != nil {
				f.put(contentKey(id), e, encodeFacts(e))
			}
		}
		return
	}
	f.bundleOnce.Do(func() {}) // looked up already, or there is nothing
	merged := map[string]*facts{}
	for id, e := range f.bundle {
		merged[id] = e
	}
	changed := false
	for _, fi := range infos {
		if id, e := learnt(fi); e != nil {
			merged[id], changed = e, true
		}
	}
	if changed {
		f.put(bundleKey(f.treeID), nil, encodeBundle(merged))
	}
}

// learnt returns a content's facts when this Files computed something the
// cache did not hold: its lines, or definitions in a new language.
func learnt(fi *fileInfo) (string, *facts) {
	// Each once has run or is never run again: Flush comes after the last
	// user of the cache, and a Do here only claims an unused one.
	fi.statOnce.Do(func() {})
	fs := fi.syms()
	fs.defsOnce.Do(func() {})
	id := fi.id
	if id == "" {
		// A tree without ids: only parses are worth keeping, since the
		// bytes are read anyway.
		if fs.defsLang == "" {
			return "", nil
		}
		id = fs.hashID
	}
	if !fi.ok || id == "" || fi.stored != nil && fs.defsLang == "" {
		return "", nil // unreadable, or nothing the cache does not hold
	}
	e := &facts{size: fi.size, offsets: fi.offsets}
	if fi.stored != nil {
		e.langs, e.defs = fi.stored.langs, fi.stored.defs
	}
	if fs.defsLang != "" {
		if i, ok := slices.BinarySearch(e.langs, fs.defsLang); !ok {
			e.langs = slices.Insert(slices.Clone(e.langs), i, fs.defsLang)
			e.defs = slices.Insert(slices.Clone(e.defs), i, fs.defs)
		}
	}
	return id, e
}

// put writes an entry unless this process already wrote the same one (a
// content shared by several trees is written once): e, when given,
// identifies it by its languages.
func (f *FileCache) put(key string, e *facts, value []byte) {
	if e != nil {
		fk := flushKey{f.cache, key}
		langs := strings.Join(e.langs, ",")
		if prev, ok := flushed.Load(fk); ok && prev.(string) == langs {
			return
		}
		flushed.Store(fk, langs)
	}
	f.cache.Put(key, value)
}

// encodeBundle writes a tree's facts: the count, then per content its id and
// its encoded facts, sorted by id.
func encodeBundle(m map[string]*facts) []byte {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	b := binary.AppendUvarint(nil, uint64(len(ids)))
	for _, id := range ids {
		b = appendString(b, id)
		b = appendString(b, string(encodeFacts(m[id])))
	}
	return b
}

func decodeBundle(b []byte) (map[string]*facts, bool) {
	r := reader{b: b}
	n := r.uint()
	if r.bad || n > uint64(len(b)) {
		return nil, false
	}
	m := make(map[string]*facts, n)
	for range n {
		id, raw := r.str(), r.str()
		if r.bad {
			return nil, false
		}
		e, ok := decodeFacts([]byte(raw))
		if !ok {
			return nil, false
		}
		m[id] = e
	}
	return m, len(r.b) == 0
}

// encodeFacts writes the size, the line starts after the first (always 0)
// as uvarint gaps, then per language its name and definitions (type, start,
// length, name).
func encodeFacts(e *facts) []byte {
	b := binary.AppendUvarint(nil, uint64(e.size))
	b = binary.AppendUvarint(b, uint64(len(e.offsets)))
	for i := 1; i < len(e.offsets); i++ {
		b = binary.AppendUvarint(b, uint64(e.offsets[i]-e.offsets[i-1]))
	}
	b = binary.AppendUvarint(b, uint64(len(e.langs)))
	for i, lang := range e.langs {
		b = appendString(b, lang)
		b = binary.AppendUvarint(b, uint64(len(e.defs[i])))
		for _, d := range e.defs[i] {
			b = appendString(b, d.Type)
			b = binary.AppendUvarint(b, uint64(d.Start))
			b = binary.AppendUvarint(b, uint64(d.End-d.Start))
			b = appendString(b, d.Name)
		}
	}
	return b
}

// decodeFacts reads encodeFacts, checking what the content implies: line
// starts rise within the file, definitions lie within it, languages are
// sorted and distinct.
func decodeFacts(b []byte) (*facts, bool) {
	r := reader{b: b}
	size, n := r.uint(), r.uint()
	if r.bad || size > 1<<40 || n == 0 || n > uint64(len(b)) {
		return nil, false
	}
	e := &facts{size: int(size), offsets: make([]int, 1, n)}
	at := uint64(0)
	for i := uint64(1); i < n; i++ {
		gap := r.uint()
		if r.bad || gap == 0 || gap > size-at {
			return nil, false
		}
		at += gap
		e.offsets = append(e.offsets, int(at))
	}
	nl := r.uint()
	if r.bad || nl > uint64(len(r.b)) {
		return nil, false
	}
	for range nl {
		lang := r.str()
		nd := r.uint()
		if r.bad || nd > uint64(len(r.b)) || len(e.langs) > 0 && lang <= e.langs[len(e.langs)-1] {
			return nil, false
		}
		var defs []symbols.Def // nil when none, as symbols.Defs gives
		for range nd {
			typ := r.str()
			start, length := r.uint(), r.uint()
			name := r.str()
			if r.bad || start > size || length > size-start {
				return nil, false
			}
			defs = append(defs, symbols.Def{Type: typ, Start: int(start), End: int(start + length), Name: name})
		}
		e.langs = append(e.langs, lang)
		e.defs = append(e.defs, defs)
	}
	if len(r.b) != 0 {
		return nil, false
	}
	return e, true
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// reader decodes uvarints and strings, remembering the first error.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uint() uint64 {
	if r.bad {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	n := r.uint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
