package scoring

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/scoring/symbols"
)

// FileCache caches what scoring reads from a source tree: path resolution, file
// sizes and line offsets, content and tree-sitter definitions. Each is
// computed once per file, however many steps touch it, which keeps scoring
// linear in steps. Content is read only when something needs the bytes:
// with a Cache and a tree that names contents (ContentIDer), a file scored
// before has its line offsets and definitions looked up instead. Safe for
// concurrent use.
type FileCache struct {
	tree   model.Tree
	ids    ContentIDer // tree, when it names contents
	cache  model.FactStore
	treeID string // the tree's name, when it has one (TreeIDer)

	bundleOnce sync.Once
	bundle     map[string]*facts // the tree's cache entry, by content id

	// ParseTimeout bounds one file's tree-sitter parse (0:
	// DefaultParseTimeout). Set it before the cache is shared.
	ParseTimeout time.Duration

	// anyGaveUp says a parse of one of the files ran past its budget:
	// until one does, no row lists any (gaveUp).
	anyGaveUp atomic.Bool

	mu       sync.Mutex
	resolved map[string]string
	files    map[string]*fileInfo
	// steps, when kept (RememberSteps), are what trajectory steps came
	// to, by stepKey; unions the last trajectories' running states.
	steps  map[string]stepSets
	unions []*unions
	finals []keptFinal
	// stepIndexes are the lenses' StepsOf, inViewIndexes their InViewOf,
	// kept with steps.
	stepIndexes   [2]stepIndex
	inViewIndexes [2]inViewIndex
	gold          keptGold
	// lens, when steps are kept, is what the last run analysed showed
	// action by action (observed.Memo), used under lensMu.
	lens   *observed.Memo
	lensMu sync.Mutex
	// lines, when steps are kept, are the lines each action of the last
	// run analysed put in view (linesMemo).
	lines linesMemo
}

// ContentIDer is implemented by trees that can name a file's content without
// reading it, such as git trees by blob hash. An id must change whenever the
// content does.
type ContentIDer interface {
	ContentID(path string) (id string, ok bool)
}

type fileInfo struct {
	statOnce sync.Once
	ok       bool
	size     int
	offsets  []int  // byte offset of each line start (see lineOffsets)
	id       string // content id from the tree, when it names contents
	stored   *facts // the cache's entry for the content, when found

	contentOnce sync.Once
	content     []byte
	contentOK   bool

	// symOnce makes sym, what only symbol scoring needs: most files of a
	// large gold (or none of a missing one) never get there.
	symOnce sync.Once
	sym     *fileSyms
}

// fileSyms is a file's definitions and their index.
type fileSyms struct {
	defsOnce sync.Once
	defs     []symbols.Def
	defsLang string      // set when defs were parsed here, not found in stored
	gaveUp   atomic.Bool // the parse ran past the budget: defs are missing
	hashID   string      // content id computed from the bytes (trees without ids)

	indexOnce sync.Once
	index     defIndex
}

func (fi *fileInfo) syms() *fileSyms {
	fi.symOnce.Do(func() { fi.sym = &fileSyms{} })
	return fi.sym
}

// NewFileCache wraps a tree. A nil tree has no files.
func NewFileCache(tree model.Tree) *FileCache {
	return NewFileCacheWithStore(tree, nil)
}

// NewFileCacheWithStore wraps a tree, looking up what it can in cache (nil
// for none).
func NewFileCacheWithStore(tree model.Tree, cache model.FactStore) *FileCache {
	f := &FileCache{tree: tree, cache: cache, resolved: map[string]string{}, files: map[string]*fileInfo{}}
	f.ids, _ = tree.(ContentIDer)
	if t, ok := tree.(TreeIDer); ok && f.ids != nil {
		f.treeID = t.TreeID()
	}
	return f
}

// Tree returns the wrapped tree.
func (f *FileCache) Tree() model.Tree { return f.tree }

// Resolve maps a predicted path to a repository file (upstream suffix
// resolution), or "" when no suffix names a file in the tree.
func (f *FileCache) Resolve(p string) string {
	if f.tree == nil || p == "" {
		return ""
	}
	f.mu.Lock()
	r, ok := f.resolved[p]
	f.mu.Unlock()
	if ok {
		return r
	}
	r = Resolve(f.tree, p)
	f.mu.Lock()
	f.resolved[p] = r
	f.mu.Unlock()
	return r
}

func (f *FileCache) entry(path string) *fileInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	fi := f.files[path]
	if fi == nil {
		fi = &fileInfo{}
		f.files[path] = fi
	}
	return fi
}

// info returns a file's size and line offsets, from the cache when the
// content is known by id, else by reading it.
func (f *FileCache) info(path string) *fileInfo {
	fi := f.entry(path)
	fi.statOnce.Do(func() {
		if f.tree == nil || path == "" {
			return
		}
		if f.ids != nil {
			id, ok := f.ids.ContentID(path)
			if !ok {
				return // not a readable file
			}
			fi.id = id
			if fi.stored = f.lookup(id); fi.stored != nil {
				fi.ok, fi.size, fi.offsets = true, fi.stored.size, fi.stored.offsets
				return
			}
		}
		b, ok := f.read(fi, path)
		if !ok {
			return
		}
		fi.ok, fi.size, fi.offsets = true, len(b), lineOffsets(b)
	})
	if !fi.ok {
		// Nothing is kept for a path that names no readable file: asking
		// again costs a tree lookup, and a gold of a million missing files
		// costs no map entry each.
		f.mu.Lock()
		if f.files[path] == fi {
			delete(f.files, path)
		}
		f.mu.Unlock()
	}
	return fi
}

// read returns the file's bytes, read once.
func (f *FileCache) read(fi *fileInfo, path string) ([]byte, bool) {
	fi.contentOnce.Do(func() {
		if f.tree == nil || path == "" {
			return
		}
		b, err := f.tree.ReadFile(path)
		if err != nil {
			return
		}
		fi.content, fi.contentOK = b, true
	})
	return fi.content, fi.contentOK
}

// Content returns a file's bytes; ok is false when it cannot be read.
func (f *FileCache) Content(path string) (content []byte, ok bool) {
	if !f.exists(path) {
		return nil, false
	}
	return f.read(f.entry(path), path)
}

// exists reports whether path is a readable file.
func (f *FileCache) exists(path string) bool {
	return f.info(path).ok
}

// LineCount is the number of lines of a file as an editor counts them (a
// final line without "\n" counts); 0 when unreadable.
func (f *FileCache) LineCount(path string) int {
	fi := f.info(path)
	if !fi.ok {
		return 0
	}
	n := len(fi.offsets) - 1
	if fi.size > 0 && fi.offsets[len(fi.offsets)-1] != fi.size {
		n++ // the last line has no "\n"
	}
	return n
}

// defIndex returns the file's definitions indexed for overlap queries.
func (f *FileCache) defIndex(path string) *defIndex {
	if len(f.Defs(path)) == 0 {
		return &emptyIndex // no per-file state for a file without definitions
	}
	fi := f.info(path)
	fs := fi.syms()
	fs.indexOnce.Do(func() { fs.index = newDefIndex(f.Defs(path)) })
	return &fs.index
}

var emptyIndex defIndex

// defIndex finds the definitions that overlap a span in time proportional
// to the answer, so a step costs what it reads rather than the number of
// definitions in the file: defs sorted by start, and a tree of the largest
// end over each range of them.
type defIndex struct {
	defs   []symbols.Def
	maxEnd []int // segment tree over defs: node 1 is the root
}

func newDefIndex(defs []symbols.Def) defIndex {
	if len(defs) == 0 {
		return defIndex{}
	}
	// Pre-order is already sorted by start; the slice is shared, so sort a
	// copy only if it is not.
	byStart := func(a, b symbols.Def) int { return cmp.Compare(a.Start, b.Start) }
	sorted := defs
	if !slices.IsSortedFunc(defs, byStart) {
		sorted = slices.Clone(defs)
		slices.SortStableFunc(sorted, byStart)
	}
	size := 1
	for size < len(sorted) {
		size *= 2
	}
	t := make([]int, 2*size)
	for i := range t {
		t[i] = math.MinInt
	}
	for i, d := range sorted {
		t[size+i] = d.End
	}
	for i := size - 1; i >= 1; i-- {
		t[i] = max(t[2*i], t[2*i+1])
	}
	return defIndex{defs: sorted, maxEnd: t}
}

// each calls fn for every definition with Start <= last and End >= minEnd.
func (x *defIndex) each(last, minEnd int, fn func(symbols.Def)) {
	n := sort.Search(len(x.defs), func(i int) bool { return x.defs[i].Start > last })
	if n > 0 {
		x.walk(1, 0, len(x.maxEnd)/2, n, minEnd, fn)
	}
}

// walk visits node, which covers defs[lo:hi], limited to defs[:n].
func (x *defIndex) walk(node, lo, hi, n, minEnd int, fn func(symbols.Def)) {
	if lo >= n || x.maxEnd[node] < minEnd {
		return
	}
	if hi-lo == 1 {
		fn(x.defs[lo])
		return
	}
	mid := (lo + hi) / 2
	x.walk(2*node, lo, mid, n, minEnd, fn)
	x.walk(2*node+1, mid, hi, n, minEnd, fn)
}

// lineOffsets is upstream's offsets list: 0 and the index after every "\n".
func lineOffsets(b []byte) []int {
	offs := make([]int, 1, bytes.Count(b, []byte{'\n'})+1)
	for i, c := range b {
		if c == '\n' {
			offs = append(offs, i+1)
		}
	}
	return offs
}

// lineToByte is upstream line_to_byte: an inclusive byte range for lines
// start..end, or ok=false when the file is unreadable or start is past the
// end. Under fixed semantics the phantom line after a final "\n" is not a
// line and the end is clamped the same way.
func (f *FileCache) lineToByte(path string, start, end int, fixed bool) (model.Interval, bool) {
	fi := f.info(path)
	if !fi.ok {
		return model.Interval{}, false
	}
	n := fi.size
	if n == 0 {
		return model.Interval{Start: 0, End: 0}, true
	}
	offs := fi.offsets
	start = max(1, start)
	end = max(start, end)
	if fixed && offs[len(offs)-1] == n {
		// The file ends in "\n": drop the empty "line" after it.
		offs = offs[:len(offs)-1]
	}
	if start-1 >= len(offs) {
		return model.Interval{}, false
	}
	sb := offs[start-1]
	eb := n - 1
	if end < len(offs) {
		eb = offs[end] - 1
	}
	return model.Interval{Start: sb, End: max(sb, eb)}, true
}

// DefaultParseTimeout bounds one file's tree-sitter parse unless told
// otherwise (--parse-timeout): symbols are parsed here, the one door to
// tree-sitter.
const DefaultParseTimeout = symbols.DefaultTimeout
