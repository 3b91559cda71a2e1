package gold

import (
	"sync"
	"sync/atomic"

	"github.com/trajscope/trajscope/model"
)

// lazyRows is a parquet gold whose rows' gold_context is read only when
// needed. A full-size gold (the hub's 1,136 tasks) cost the explorer most
// of its start reading every row's gold to show one; now a look-up reads
// the rows that hold its id, and the whole set (every row, its problems)
// is built the first time something needs it (Problems, All, Len, Match's
// normalised ids). The answers are the same: a look-up takes, among its
// id's rows, the last one the whole set would keep.
type lazyRows struct {
	path     string
	rows     []parquetRow
	golds    []*model.Gold // per row once read; nil for a row without an id
	ctx      []decodedContext
	once     []sync.Once      // per row: ctx read
	goldOnce []sync.Once      // per row: its gold made
	byKey    map[string][]int // rows by each of their ids, in row order
	full     sync.Once
	built    atomic.Bool  // the set's golds, byID and problems are complete
	mu       sync.RWMutex // look-ups read rows, ctx and byKey; build releases them
}

// decode reads row i's gold_context once.
func (l *lazyRows) decode(i int) {
	l.once[i].Do(func() {
		r := &l.rows[i]
		if r.vals[pqInstanceID] == "" && r.vals[pqOriginalInstID] == "" {
			return // no id: said when the set is built
		}
		d := &l.ctx[i]
		d.spans, d.textForm, d.warn, d.fatal = goldContextString(r.vals[pqGoldContext], "gold_context")
	})
}

// gold is row i's gold once made from its read row; nil for a row without
// an id. Made apart from decode so that building the whole set makes the
// golds one by one after the parse garbage, as reading them eagerly did (a
// file at the row bound otherwise peaked 100 MB higher on 2026-11-27).
func (l *lazyRows) gold(i int) *model.Gold {
	l.decode(i)
	l.goldOnce[i].Do(func() {
		g := parquetGold(&l.rows[i])
		if g == nil {
			return
		}
		if d := &l.ctx[i]; d.fatal == nil {
			g.Init, g.TextForm = d.spans, d.textForm
		}
		l.golds[i] = g
	})
	return l.golds[i]
}

// kept reports whether the whole set keeps row i (add's rules): it has an
// id, a readable gold_context and no more spans than trajscope reads.
func (l *lazyRows) kept(i int) bool {
	g := l.gold(i)
	if g == nil {
		return false
	}
	return l.ctx[i].fatal == nil && len(g.Init)+len(g.Add)+len(g.Files) <= model.MaxGoldSpans
}

// get is Set.Get before the set is built: later rows replace earlier ones,
// so the last kept row with the id. built is true when the set was built
// meanwhile (its rows then released): the caller looks in the set.
func (l *lazyRows) get(id string) (g *model.Gold, ok, built bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.rows == nil {
		return nil, false, true
	}
	ix := l.byKey[id]
	for k := len(ix) - 1; k >= 0; k-- {
		if l.kept(ix[k]) {
			return l.golds[ix[k]], true, false
		}
	}
	return nil, false, false
}

// any reports whether the set will keep at least one row, reading rows
// until one is kept (the first, for any usable file).
func (l *lazyRows) any() bool {
	for i := range l.rows {
		if l.kept(i) {
			return true
		}
	}
	return false
}

// build makes s whole, once.
func (s *Set) build() {
	if s == nil || s.lazy == nil || s.lazy.built.Load() {
		return
	}
	s.lazy.full.Do(func() {
		l := s.lazy
		l.assemble(s)
		// What only the row-by-row look-ups needed: the raw columns (a
		// file at the row bound holds 262,144 rows) are dropped, once no
		// look-up is reading them.
		l.mu.Lock()
		l.rows, l.ctx, l.byKey = nil, nil, nil
		l.mu.Unlock()
		l.built.Store(true)
	})
}
