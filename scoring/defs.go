package scoring

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"iter"
	"runtime"
	"sync"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
)

// Defs returns the tree-sitter definitions of a file (nil when unreadable or
// the language is not mapped). The slice is shared and must not be modified.
func (f *FileCache) Defs(path string) []symbols.Def {
	fi := f.info(path)
	if !fi.ok || symbols.Language(path) == "" || partial(f.tree) != nil {
		// No definitions to find: a partial tree's files have holes, and
		// parsing them would invent some.
		return nil
	}
	fs := fi.syms()
	fs.defsOnce.Do(func() {
		lang := symbols.Language(path)
		id, stored := fi.id, fi.stored
		if id == "" {
			// No id from the tree: name the content by its hash.
			b, ok := f.read(fi, path)
			if !ok {
				return
			}
			sum := sha256.Sum256(b)
			id = "sha256:" + hex.EncodeToString(sum[:])
			fs.hashID, fi.stored = id, f.lookup(id)
			stored = fi.stored
		}
		if defs, ok := stored.defsFor(lang); ok {
			fs.defs = defs
			return
		}
		var ok, gaveUp bool
		if fs.defs, ok, gaveUp = f.sharedDefs(path, lang, id, fi); ok {
			fs.defsLang = lang
		}
		fs.gaveUp.Store(gaveUp)
		if gaveUp {
			f.anyGaveUp.Store(true)
		}
	})
	return fs.defs
}

// parseAll parses the files of spans at once, a few at a time, before they
// are asked for one by one: a file that takes its whole parse budget then
// holds up one parse among several, not every file after it.
func (f *FileCache) parseAll(spans iter.Seq2[string, []model.Interval]) {
	var todo []string
	for p := range spans {
		if symbols.Language(p) != "" {
			todo = append(todo, p)
		}
	}
	if len(todo) < 2 {
		return
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f.Defs(p)
		}()
	}
	wg.Wait()
}

// GaveUp reports whether the definitions of path are missing because its
// parse ran past ParseTimeout; false until Defs was asked for them (a
// caller that needed them has called Defs, which waits for the parse).
// Such a result is never cached: the next run parses the file again.
func (f *FileCache) GaveUp(path string) bool {
	if symbols.Language(path) == "" {
		return false
	}
	fi := f.info(path)
	return fi.ok && fi.syms().gaveUp.Load()
}

// sharedDefs is symbols.Defs through a process-wide cache keyed by language
// and content id. Instances of one repository at different commits hold
// mostly identical files, and tree-sitter dominates scoring: without it a
// batch parses each such file once per instance. ok is false when the parse
// failed (the definitions are then nil, as upstream's are), gaveUp when it
// failed by running past ParseTimeout.
func (f *FileCache) sharedDefs(path, lang, id string, fi *fileInfo) (defs []symbols.Def, ok, gaveUp bool) {
	parse := func() ([]symbols.Def, bool, bool) {
		content, ok := f.read(fi, path)
		if !ok {
			return nil, false, false
		}
		timeout := f.ParseTimeout
		if timeout <= 0 {
			timeout = symbols.DefaultTimeout
		}
		if int64(len(content)) > symbols.BudgetBytes(timeout) && symbols.Language(path) != "" {
			return nil, false, true
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		defs, err := symbols.Defs(ctx, path, content)
		return defs, err == nil, errors.Is(err, context.DeadlineExceeded)
	}
	if !defsCache.enabled {
		return parse()
	}
	key := memKey{lang, id}
	c := &defsCache
	c.mu.Lock()
	e := c.m[key]
	if e == nil {
		e = &defsEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.defs, e.ok, e.gaveUp = parse()
		c.add(key, e)
	})
	return e.defs, e.ok, e.gaveUp
}

// add records a finished entry, evicting the oldest past defsCacheMax; a
// failed parse is dropped instead (a timeout may not recur), so a later
// instance parses again.
func (c *defsCacheT) add(key memKey, e *defsEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !e.ok {
		if c.m[key] == e {
			delete(c.m, key)
		}
		return
	}
	c.order = append(c.order, key)
	c.size += len(e.defs) + 1
	for c.size > defsCacheMax && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		if o := c.m[old]; o != nil {
			c.size -= len(o.defs) + 1
			delete(c.m, old)
		}
	}
}

// defsCacheMax bounds the cache by definitions held (about 64 bytes each),
// first in first out; a batch sorted by instance id keeps one repository's
// instances together, so recent files are the ones shared.
const defsCacheMax = 1 << 19

type memKey struct {
	lang, id string
}

type defsEntry struct {
	once   sync.Once
	defs   []symbols.Def
	ok     bool // parsed without error
	gaveUp bool // stopped by the parse budget
}

type defsCacheT struct {
	mu      sync.Mutex
	enabled bool
	m       map[memKey]*defsEntry
	order   []memKey
	size    int
}

var defsCache = defsCacheT{enabled: true, m: map[memKey]*defsEntry{}}
