package scoring

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
	"github.com/trajscope/trajscope/source"
)

// memCache is an in-memory Cache.
type memCache struct {
	mu   sync.Mutex
	m    map[string][]byte
	puts int
}

func (c *memCache) Get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memCache) Put(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
	c.puts++
}

// idTree is an fs tree that names contents (as git trees do) and counts the
// files it reads.
type idTree struct {
	*source.FSTree
	fsys  fstest.MapFS
	reads atomic.Int64
}

func (t *idTree) ContentID(p string) (string, bool) {
	f, ok := t.fsys[p]
	if !ok || !t.IsFile(p) {
		return "", false
	}
	return fmt.Sprintf("test:%x", f.Data), true
}

func (t *idTree) ReadFile(p string) ([]byte, error) {
	t.reads.Add(1)
	return t.FSTree.ReadFile(p)
}

func newIDTree(files map[string]string) *idTree {
	fsys := fstest.MapFS{}
	for p, c := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(c)}
	}
	return &idTree{FSTree: source.NewFS(fsys), fsys: fsys}
}

var cacheRepo = map[string]string{
	"pkg/mod.py":   "import os\n\nclass A:\n    def f(self):\n        return 1\n\n\ndef g(x):\n    return x\n",
	"pkg/other.py": "def h():\n    pass\n",
	"README.md":    "# readme\nno trailing newline",
	"empty.txt":    "",
}

func cachePred() (*model.Gold, *model.Prediction) {
	g := &model.Gold{ID: "o__r-1", Init: []model.GoldSpan{{File: "pkg/mod.py", Start: 3, End: 5}, {File: "README.md", Start: 1, End: 2}}}
	step := func(file string, a, b int) model.Step {
		return model.Step{Files: []string{file}, Spans: []model.FileSpans{{File: file, Spans: []model.Interval{{Start: a, End: b}}}}}
	}
	p := &model.Prediction{InstanceID: "o__r-1", Steps: []model.Step{
		step("/testbed/pkg/mod.py", 1, 6), step("pkg/other.py", 1, 2), step("README.md", 2, 2),
		step("empty.txt", 1, 1), step("missing.py", 1, 3),
	}}
	p.Final = step("pkg/mod.py", 3, 9)
	return g, p
}

// TestCachedFilesScoreIdentically: a cold Files fills the cache; a warm one
// gives the same results without reading a single file; a corrupt entry is
// recomputed, never trusted.
func TestCachedFilesScoreIdentically(t *testing.T) {
	g, p := cachePred()
	for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
		ResetDefsCache()
		want := Score(g, p, NewFileCache(newIDTree(cacheRepo)), sem)
		cache := &memCache{m: map[string][]byte{}}

		ResetDefsCache()
		cold := NewFileCacheWithStore(newIDTree(cacheRepo), cache)
		if got := Score(g, p, cold, sem); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v cold: results differ\n got %+v\nwant %+v", sem, got, want)
		}
		cold.Flush()
		if len(cache.m) != 4 {
			t.Errorf("%v: %d entries after the cold run, want one per readable file (4)", sem, len(cache.m))
		}

		ResetDefsCache() // a new process: only the persistent cache remains
		tree := newIDTree(cacheRepo)
		warm := NewFileCacheWithStore(tree, cache)
		if got := Score(g, p, warm, sem); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v warm: results differ\n got %+v\nwant %+v", sem, got, want)
		}
		if n := tree.reads.Load(); n != 0 {
			t.Errorf("%v warm: %d files read, want none", sem, n)
		}
		// Content is still there for whoever needs the bytes.
		if b, ok := warm.Content("pkg/other.py"); !ok || string(b) != cacheRepo["pkg/other.py"] {
			t.Errorf("warm Content = %q, %v", b, ok)
		}

		// Corrupt every entry: decoding refuses them and the results hold.
		for k, v := range cache.m {
			cache.m[k] = append(v[:len(v)-1:len(v)-1], v[len(v)-1]+1, 7)
		}
		ResetDefsCache()
		if got := Score(g, p, NewFileCacheWithStore(newIDTree(cacheRepo), cache), sem); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v corrupt cache: results differ", sem)
		}
	}
}

// namedTree is an idTree with a name: its facts go in one entry.
type namedTree struct{ *idTree }

func (namedTree) TreeID() string { return "test:commit" }

// TestNamedTreeKeepsOneEntry: a tree with a name keeps all its contents'
// facts in one entry, which a warm run reads without reading files; a run
// that reads more adds to it.
func TestNamedTreeKeepsOneEntry(t *testing.T) {
	g, p := cachePred()
	cache := &memCache{m: map[string][]byte{}}
	ResetDefsCache()
	want := Score(g, p, NewFileCache(newIDTree(cacheRepo)), model.ContextBench)

	ResetDefsCache()
	cold := NewFileCacheWithStore(namedTree{newIDTree(cacheRepo)}, cache)
	cold.Defs("pkg/mod.py")
	cold.Flush()
	if len(cache.m) != 1 {
		t.Fatalf("%d entries, want 1", len(cache.m))
	}
	ResetDefsCache()
	more := NewFileCacheWithStore(namedTree{newIDTree(cacheRepo)}, cache)
	if got := Score(g, p, more, model.ContextBench); !reflect.DeepEqual(got, want) {
		t.Fatalf("second run: results differ")
	}
	more.Flush()
	var b []byte
	for _, v := range cache.m {
		b = v
	}
	if m, ok := decodeBundle(b); !ok || len(m) != 4 {
		t.Fatalf("bundle holds %d contents (ok=%v), want 4", len(m), ok)
	}

	ResetDefsCache()
	tree := newIDTree(cacheRepo)
	warm := NewFileCacheWithStore(namedTree{tree}, cache)
	if got := Score(g, p, warm, model.ContextBench); !reflect.DeepEqual(got, want) {
		t.Fatalf("warm: results differ")
	}
	if n := tree.reads.Load(); n != 0 {
		t.Errorf("warm: %d files read, want none", n)
	}
	before := cache.puts
	warm.Flush() // learnt nothing: writes nothing
	if cache.puts != before {
		t.Error("a warm run rewrote the cache")
	}
}

// TestCachedDefsForPlainTrees: a tree without ids keeps its parses by
// content hash, so a warm run skips tree-sitter.
func TestCachedDefsForPlainTrees(t *testing.T) {
	cache := &memCache{m: map[string][]byte{}}
	fsys := fstest.MapFS{"a.py": {Data: []byte(cacheRepo["pkg/mod.py"])}}
	ResetDefsCache()
	cold := NewFileCacheWithStore(source.NewFS(fsys), cache)
	want := cold.Defs("a.py")
	cold.Flush()
	if len(want) == 0 || len(cache.m) != 1 {
		t.Fatalf("%d defs, %d entries", len(want), len(cache.m))
	}
	for k := range cache.m {
		if !strings.Contains(k, "sha256:") {
			t.Errorf("key %q: want the content's hash", k)
		}
	}
	ResetDefsCache()
	prev := EnableDefsCache(false) // no in-process sharing: the entry must serve
	defer EnableDefsCache(prev)
	warm := NewFileCacheWithStore(source.NewFS(fsys), cache)
	if got := warm.Defs("a.py"); !reflect.DeepEqual(got, want) {
		t.Errorf("warm defs %v, want %v", got, want)
	}
	if fi := warm.info("a.py"); fi.syms().defsLang != "" {
		t.Error("warm run parsed again")
	}
}

func TestFactsRoundTripAndValidation(t *testing.T) {
	e := &facts{
		size:    30,
		offsets: []int{0, 5, 12, 30},
		langs:   []string{"javascript", "python"},
		defs: [][]symbols.Def{
			nil,
			{{Type: "function_definition", Start: 0, End: 12, Name: "f"}, {Type: "class_definition", Start: 12, End: 30, Name: ""}},
		},
	}
	got, ok := decodeFacts(encodeFacts(e))
	if !ok || !reflect.DeepEqual(got, e) {
		t.Fatalf("round trip: %+v, %v", got, ok)
	}
	bad := []struct {
		name string
		e    facts
	}{
		{"offset past the end", facts{size: 4, offsets: []int{0, 9}}},
		{"offsets not rising", facts{size: 9, offsets: []int{0, 5, 5}}},
		{"def past the end", facts{size: 10, offsets: []int{0}, langs: []string{"python"}, defs: [][]symbols.Def{{{Start: 2, End: 11}}}}},
		{"languages out of order", facts{size: 1, offsets: []int{0}, langs: []string{"python", "c"}, defs: [][]symbols.Def{nil, nil}}},
	}
	for _, tc := range bad {
		if _, ok := decodeFacts(encodeFacts(&tc.e)); ok {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	b := encodeFacts(e)
	for cut := 0; cut < len(b); cut++ {
		if _, ok := decodeFacts(b[:cut]); ok {
			t.Errorf("truncated to %d bytes: accepted", cut)
		}
	}
	if _, ok := decodeFacts(append(b, 0)); ok {
		t.Error("trailing byte accepted")
	}
}

// recordingCheckouts counts the protocol's calls per key.
type recordingCheckouts struct {
	mu                   sync.Mutex
	keys, opens, release map[string]int
	trees                map[string]model.Tree
	open                 map[string]int // opened and not yet released
	maxOpen              int
}

func newRecording() *recordingCheckouts {
	return &recordingCheckouts{keys: map[string]int{}, opens: map[string]int{}, release: map[string]int{}, trees: map[string]model.Tree{}, open: map[string]int{}}
}

func (r *recordingCheckouts) Key(_, _, predCommit, goldCommit, id string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := predCommit + goldCommit
	if k == "bad" {
		return "", fmt.Errorf("instance %s: no repository", id)
	}
	r.keys[k]++
	return k, nil
}

func (r *recordingCheckouts) Open(k string) (model.Tree, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opens[k]++
	r.open[k]++
	if n := len(r.open); n > r.maxOpen {
		r.maxOpen = n
	}
	if r.trees[k] == nil {
		r.trees[k] = newIDTree(cacheRepo)
	}
	return r.trees[k], nil
}

func (r *recordingCheckouts) Release(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.release[k]++
	if r.release[k] == r.keys[k] {
		delete(r.open, k)
	}
}

// TestBatchSharesFilesPerKey: instances with one key share one Files (one
// Open), every instance that got a key releases it, a key that
// fails is the instance's checkout_failed row, and the cache is flushed.
func TestBatchSharesFilesPerKey(t *testing.T) {
	g, p := cachePred()
	var instances []Instance
	for i, commit := range []string{"c1", "c2", "c1", "bad", "c2", "c1"} {
		pi := *p
		pi.Commit = commit
		pi.InstanceID = fmt.Sprint("i", i)
		instances = append(instances, Instance{Pred: &pi, Gold: g})
	}
	instances = append(instances, Instance{Pred: p}) // no gold: no key
	rec := newRecording()
	cache := &memCache{m: map[string][]byte{}}
	ResetDefsCache()
	res, _ := Batch{Checkouts: rec, Cache: cache, Workers: 1}.Run(instances)
	if rec.keys["c1"] != 3 || rec.keys["c2"] != 2 || len(rec.keys) != 2 {
		t.Errorf("Key calls %v", rec.keys)
	}
	if rec.opens["c1"] != 1 || rec.opens["c2"] != 1 {
		t.Errorf("Open calls %v: want one per key (files shared)", rec.opens)
	}
	if rec.release["c1"] != 3 || rec.release["c2"] != 2 {
		t.Errorf("Release calls %v: want one per instance, as Key", rec.release)
	}
	if res[3].Error != ErrCheckoutFailed || !strings.Contains(res[3].Reason, "no repository") {
		t.Errorf("bad key: %+v", res[3])
	}
	if res[6].Error != ErrMissingGold {
		t.Errorf("no gold: %+v", res[6])
	}
	if len(cache.m) == 0 {
		t.Error("nothing flushed to the cache")
	}
	// In input order, one key's instances finish before the next key's
	// last one: c1 stays open until i5, so two trees at most.
	if rec.maxOpen > 2 {
		t.Errorf("%d trees open at once", rec.maxOpen)
	}
}

func TestShard(t *testing.T) {
	for l := 0; l <= 9; l++ {
		instances := make([]Instance, l)
		for i := range instances {
			instances[i].Err = fmt.Errorf("%d", i)
		}
		for n := 1; n <= 11; n++ {
			all := []Instance{}
			for k := 1; k <= n; k++ {
				s := Shard(instances, k, n)
				if d := len(s) - l/n; d < 0 || d > 1 {
					t.Errorf("len %d, %d/%d: %d instances, want %d or %d", l, k, n, len(s), l/n, l/n+1)
				}
				all = append(all, s...)
			}
			if !reflect.DeepEqual(all, instances) {
				t.Errorf("len %d, n %d: shards in order are not the batch", l, n)
			}
		}
	}
	if got := Shard(make([]Instance, 5), 0, 3); len(got) != 5 {
		t.Error("an invalid shard should be the whole batch")
	}
}

// TestFactsDecodersNeverPanic: cache entries may be anything.
func TestFactsDecodersNeverPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	e := &facts{size: 30, offsets: []int{0, 5, 12}, langs: []string{"python"},
		defs: [][]symbols.Def{{{Type: "function_definition", Start: 0, End: 12, Name: "f"}}}}
	bases := [][]byte{encodeFacts(e), encodeBundle(map[string]*facts{"git:1": e, "git:2": e})}
	for range 20000 {
		for _, base := range bases {
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
			if f, ok := decodeFacts(b); ok {
				for i, d := range f.defs {
					for _, x := range d {
						if x.Start < 0 || x.End > f.size || x.Start > x.End {
							t.Fatalf("accepted a definition outside the file: %+v in %d bytes (%s)", x, f.size, f.langs[i])
						}
					}
				}
			}
			decodeBundle(b)
		}
	}
}
