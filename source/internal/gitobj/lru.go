package gitobj

import (
	"container/list"
	"sync"
)

// lru keeps decoded objects up to a byte budget, evicting the least
// recently used. Safe for concurrent use.
type lru struct {
	mu    sync.Mutex
	max   int
	bytes int
	order *list.List // front = most recent; values are *lruEntry
	m     map[baseKey]*list.Element
}

type lruEntry struct {
	key  baseKey
	typ  Type
	data []byte
}

// entryOverhead approximates the bookkeeping of one entry, so a cache of
// tiny objects is bounded too.
const entryOverhead = 96

func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), m: map[baseKey]*list.Element{}}
}

func (c *lru) get(k baseKey) (Type, []byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[k]
	if !ok {
		return 0, nil, false
	}
	c.order.MoveToFront(el)
	e := el.Value.(*lruEntry)
	return e.typ, e.data, true
}

// put stores data, which must not be modified afterwards. An object larger
// than a quarter of the budget is not kept: it would evict everything else.
func (c *lru) put(k baseKey, t Type, data []byte) {
	size := len(data) + entryOverhead
	if size > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[k]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.m[k] = c.order.PushFront(&lruEntry{k, t, data})
	c.bytes += size
	for c.bytes > c.max {
		el := c.order.Back()
		e := el.Value.(*lruEntry)
		c.order.Remove(el)
		delete(c.m, e.key)
		c.bytes -= len(e.data) + entryOverhead
	}
}

// drop removes the objects of a closing store: its loose ones and those of
// its packs.
func (c *lru) drop(s *Store, packs map[*pack]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, el := range c.m {
		if k.store == s || k.p != nil && packs[k.p] {
			c.order.Remove(el)
			delete(c.m, k)
			c.bytes -= len(el.Value.(*lruEntry).data) + entryOverhead
		}
	}
}
