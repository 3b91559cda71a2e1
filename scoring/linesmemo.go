package scoring

import (
	"sync"

	"github.com/trajscope/trajscope/internal/same"
	"github.com/trajscope/trajscope/model"
)

// linesMemo keeps, action by action, the lines a followed run's last
// reading put in view under each lens (inView of what the action
// displayed; the lines of the ContextBench steps it made), each with what
// it was made of, by identity: what an action displayed is the reader's
// memo's own (observed.Memo) and unchanged while the action is, and so is
// a step a followed reader made (the Claude Code tail's). A reading then
// makes again only the lines of the actions that changed.
type linesMemo struct {
	mu  sync.Mutex
	obs []memoLines
	cb  []memoLines
	// counts are each lens's counting of the lines (lensData).
	counts [2]keptCount
}

// keptCount is what lensData counted at the last reading under a lens:
// against which gold (of; want is the reading's), whether the lens was
// scored, each action's counters (with its lines, compared by identity),
// the last action that put lines in view, and the counting's end state.
type keptCount struct {
	of, want  countedAgainst
	scored    bool
	actions   []LensAction
	lastLines int
	seen      *cumulative
	cumRead   int
	cumReread int
	reads     int
	goldReads int
}

// countedAgainst is the gold (prepared once per gold: the same pointer)
// and semantics a lens's lines were counted against.
type countedAgainst struct {
	gold *Gold
	sem  model.Semantics
}

// count is lens l's kept counting, asked for against a's gold (nil
// without a memo).
func (m *linesMemo) count(l model.Lens, a *Analysis) *keptCount {
	if m == nil {
		return nil
	}
	k := &m.counts[l]
	k.want = countedAgainst{a.Gold, a.Sem}
	return k
}

// memoLines is one action's lines and what they were made of.
type memoLines struct {
	of    [2]same.List[model.FileSpans] // observed: what it displayed; ContextBench: its step's spans, its observed lines
	lines []model.FileSpans
}

// linesMemo is the cache's memo, locked (nil when it keeps no steps).
func (f *FileCache) linesMemo() *linesMemo {
	f.mu.Lock()
	keep := f.steps != nil
	f.mu.Unlock()
	if !keep {
		return nil
	}
	f.lines.mu.Lock()
	return &f.lines
}

// observedLines is inView of each action's reads, from m where an action
// displayed what it did at the last reading.
func (a *Analysis) observedLines(reads [][]model.FileSpans, m *linesMemo) [][]model.FileSpans {
	out := make([][]model.FileSpans, len(reads))
	for i := range reads {
		id := [2]same.List[model.FileSpans]{same.Of(reads[i])}
		if m != nil && i < len(m.obs) && m.obs[i].of == id && !id[0].Empty() {
			out[i] = m.obs[i].lines
			continue
		}
		out[i] = a.inView(reads[i])
	}
	if m != nil {
		m.obs = m.obs[:0]
		for i := range reads {
			m.obs = append(m.obs, memoLines{[2]same.List[model.FileSpans]{same.Of(reads[i])}, out[i]})
		}
	}
	return out
}
