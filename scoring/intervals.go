// Package scoring is trajscope's metrics engine. It reproduces the
// ContextBench evaluator rule by rule (coverage and precision at file, symbol,
// span and line granularity; trajectory AUC-coverage and redundancy; EditLoc)
// and, under Fixed semantics, corrects the upstream quirks that are bugs.
package scoring

import (
	"iter"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/trajscope/trajscope/model"
)

// FileIntervals maps repository files to intervals (of lines or bytes).
type FileIntervals map[string][]model.Interval

// Get returns a file's intervals; ok is false when there is no entry for
// it. The slice is the map's: read it, do not change it.
func (m FileIntervals) Get(file string) (ivs []model.Interval, ok bool) {
	ivs, ok = m[file]
	return ivs, ok
}

// Has reports an entry for file.
func (m FileIntervals) Has(file string) bool {
	_, ok := m[file]
	return ok
}

// Len is the number of files.
func (m FileIntervals) Len() int { return len(m) }

// All yields every file with its intervals, in file order.
func (m FileIntervals) All() iter.Seq2[string, []model.Interval] {
	return func(yield func(string, []model.Interval) bool) {
		for _, f := range slices.Sorted(maps.Keys(m)) {
			if !yield(f, m[f]) {
				return
			}
		}
	}
}

func (m FileIntervals) add(file string, iv model.Interval) {
	m[file] = append(m[file], iv)
}

// mergeAll merges every file's list, in place.
func (m FileIntervals) mergeAll() FileIntervals {
	for f, ivs := range m {
		m[f] = model.MergeIntervals(ivs)
	}
	return m
}

func (m FileIntervals) total() int {
	n := 0
	for _, ivs := range m {
		n += model.TotalLength(ivs)
	}
	return n
}

func (m FileIntervals) intersect(other FileIntervals) int {
	n := 0
	for f, ivs := range m {
		if o, ok := other[f]; ok {
			n += model.IntersectLength(ivs, o)
		}
	}
	return n
}

// cumulative is the growing union of a run's per-file intervals, with its
// size and its intersection with gold, as the trajectory metrics and the
// explorer's re-read counter need them after every step. Re-merging and
// re-intersecting the whole union at each step made a long run over one file
// quadratic; here a step costs a binary search per interval plus the union
// intervals it swallows.
//
// The incremental counts are set sizes, which equal upstream's merge and
// two-pointer sweep only for well-formed intervals (0 <= Start <= End).
// Upstream line spans can be reversed; a file that meets one (in gold or in
// any step) falls back to upstream's merge and sweep for good.
type cumulative struct {
	gold  FileIntervals
	files map[string]*cumFile
	inter int // Σ model.IntersectLength(union, gold) over files
	total int // Σ model.TotalLength(union) over files
}

type cumFile struct {
	ivs   []model.Interval // the merged union
	gold  []model.Interval // merged gold of the file
	pre   []int            // pre[i] = Σ lengths of gold[:i]; nil in exact mode
	exact bool
	inter int
	total int
}

func newCumulative(gold FileIntervals) *cumulative {
	return &cumulative{gold: gold, files: map[string]*cumFile{}}
}

func wellFormed(ivs []model.Interval) bool {
	for _, iv := range ivs {
		if iv.Start < 0 || iv.Start > iv.End || iv.End == math.MaxInt {
			return false
		}
	}
	return true
}

func (c *cumulative) file(name string) *cumFile {
	f := c.files[name]
	if f == nil {
		gold, _ := c.gold.Get(name)
		f = &cumFile{gold: gold}
		if wellFormed(f.gold) {
			f.pre = make([]int, len(f.gold)+1)
			for i, iv := range f.gold {
				f.pre[i+1] = f.pre[i] + iv.End - iv.Start + 1
			}
		} else {
			f.exact = true
		}
		c.files[name] = f
	}
	return f
}

// addAll adds every file's merged intervals.
func (c *cumulative) addAll(m FileIntervals) {
	for name, ivs := range m {
		c.add(name, ivs)
	}
}

// add merges a step's merged intervals of one file into the union. It
// returns how much of them the union already held (again) and how many gold
// units they added to it (newGold), as model.IntersectLength(ivs, before) and
// model.IntersectLength(ivs, gold) - model.IntersectLength(ivs∩gold, before) give them.
func (c *cumulative) add(name string, ivs []model.Interval) (again, newGold int) {
	if len(ivs) == 0 {
		return 0, 0
	}
	f := c.file(name)
	if !f.exact && !wellFormed(ivs) {
		f.exact = true
	}
	if f.exact {
		before := f.ivs
		again = model.IntersectLength(ivs, before)
		newGold = model.IntersectLength(ivs, f.gold) - model.IntersectLength(model.IntersectIntervals(ivs, f.gold), before)
		merged := make([]model.Interval, 0, len(before)+len(ivs))
		f.ivs = model.MergeIntervals(append(append(merged, before...), ivs...))
		total, inter := model.TotalLength(f.ivs), model.IntersectLength(f.ivs, f.gold)
		c.total += total - f.total
		c.inter += inter - f.inter
		f.total, f.inter = total, inter
		return again, newGold
	}
	for _, iv := range ivs {
		added, gold := f.insert(iv)
		again += iv.End - iv.Start + 1 - added
		newGold += gold
		f.total += added
		f.inter += gold
		c.total += added
		c.inter += gold
	}
	return again, newGold
}

// insert adds one well-formed interval to a well-formed union (sorted,
// disjoint, not adjacent) and returns the units and gold units it added.
func (f *cumFile) insert(iv model.Interval) (added, gold int) {
	a, b := iv.Start, iv.End
	ivs := f.ivs
	// ivs[k:m] are the union intervals that overlap or touch [a, b].
	k := sort.Search(len(ivs), func(i int) bool { return ivs[i].End >= a-1 })
	m := k + sort.Search(len(ivs)-k, func(i int) bool { return ivs[k+i].Start-1 > b })
	paint := func(x, y int) {
		added += y - x + 1
		gold += f.goldIn(x, y)
	}
	cur := a // the first unit of [a, b] not yet accounted for
	for j := k; j < m; j++ {
		if ivs[j].Start > cur {
			paint(cur, ivs[j].Start-1)
		}
		cur = max(cur, ivs[j].End+1)
	}
	if cur <= b {
		paint(cur, b)
	}
	if k == m {
		f.ivs = slices.Insert(ivs, k, iv)
	} else {
		ivs[k] = model.Interval{Start: min(a, ivs[k].Start), End: max(b, ivs[m-1].End)}
		f.ivs = slices.Delete(ivs, k+1, m)
	}
	return added, gold
}

// goldIn is the number of gold units in [x, y], from the prefix sums.
func (f *cumFile) goldIn(x, y int) int {
	g := f.gold
	i0 := sort.Search(len(g), func(i int) bool { return g[i].End >= x })
	i1 := i0 + sort.Search(len(g)-i0, func(i int) bool { return g[i0+i].Start > y })
	if i0 >= i1 {
		return 0
	}
	n := f.pre[i1] - f.pre[i0]
	if g[i0].Start < x {
		n -= x - g[i0].Start
	}
	if g[i1-1].End > y {
		n -= g[i1-1].End - y
	}
	return n
}
