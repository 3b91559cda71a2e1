package scoring

import (
	"math"
	"slices"
	"sync"

	"github.com/trajscope/trajscope/model"
)

// Never is the first read of a line no action put in view.
const Never = math.MaxInt32

// FirstReads is, for each line of file (index 0 unused, as long as the
// file), the first action that put the line in view under lens l, Never
// for a line none did; nil when no action put any line of it in view. The
// gutter and the gold diagnosis both read it. A table is shared: read it,
// never change it.
//
// A cache that keeps steps (a followed run) keeps each file's table with
// InViewOf's lists, and a reading goes on from the entries it folded in:
// a table is copied when new actions show lines of its file, and made
// again when actions it was made of changed.
func (a *Analysis) FirstReads(l model.Lens, file string) []int32 {
	if a.show == nil {
		if ix := lockedIndex(a.Files, &a.Files.inViewIndexes, l); ix != nil {
			defer ix.Unlock()
			ix.update(a, l)
			return ix.firstReads(a, l, file)
		}
	}
	a.firsts[l].once.Do(func() { a.firsts[l].byFile = allFirstReads(a, l) })
	return a.firsts[l].byFile[file]
}

// firstReadTables are a lens's FirstReads of every file, made at once.
type firstReadTables struct {
	once   sync.Once
	byFile map[string][]int32
}

// allFirstReads makes every file's FirstReads under lens l.
func allFirstReads(a *Analysis, l model.Lens) map[string][]int32 {
	out := map[string][]int32{}
	for i, v := range a.Lenses[l].Actions {
		for _, fl := range v.Lines {
			t := out[fl.File]
			if t == nil {
				t = neverRead(a.LineCount(fl.File))
				out[fl.File] = t
			}
			fold(t, fl.Spans, int32(i))
		}
	}
	return out
}

// neverRead is the FirstReads of a file of n lines no action read.
func neverRead(n int) []int32 {
	t := make([]int32, n+1)
	for i := range t {
		t[i] = Never
	}
	return t
}

// fold marks the lines of spans not read before as first read by action i.
func fold(t []int32, spans []model.Interval, i int32) {
	for _, iv := range spans {
		for line := max(iv.Start, 1); line <= min(iv.End, len(t)-1); line++ {
			if t[line] == Never {
				t[line] = i
			}
		}
	}
}

// firstTable is a file's FirstReads and how many entries of its InViewOf
// list it holds.
type firstTable struct {
	t      []int32
	folded int
}

// firstReads is file's table from the index's list of it (updated).
func (ix *inViewIndex) firstReads(a *Analysis, l model.Lens, file string) []int32 {
	list := ix.byFile[file]
	if len(list) == 0 {
		return nil
	}
	ft, made := ix.firsts[file]
	if made && ft.folded == len(list) {
		return ft.t
	}
	var t []int32
	from := 0
	if !made {
		t = neverRead(a.LineCount(file))
	} else {
		// A copy: the table given out before stays as it was.
		t, from = slices.Clone(ft.t), ft.folded
	}
	acts := a.Lenses[l].Actions
	for _, e := range list[from:] {
		fold(t, acts[e.Action].Lines[e.K].Spans, e.Action)
	}
	if ix.firsts == nil {
		ix.firsts = map[string]firstTable{}
	}
	ix.firsts[file] = firstTable{t, len(list)}
	return t
}
