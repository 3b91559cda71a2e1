package scoring

import (
	"iter"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// IntervalTable maps files to intervals, read-only once built: the files
// sorted, each file's intervals one run of a single flat list. The prepared
// gold holds its spans this way rather than in a map, so a gold of a million
// files costs a string header, an offset and its intervals per file (36
// bytes) instead of a map entry and a slice each (about 110).
type IntervalTable struct {
	files []string
	ends  []int // files[k]'s intervals are ivs[ends[k-1]:ends[k]]
	ivs   []model.Interval
}

// Len is the number of files.
func (t *IntervalTable) Len() int { return len(t.files) }

// Get returns a file's intervals; ok is false when the table has no entry
// for it. The slice is the table's: read it, do not change it.
func (t *IntervalTable) Get(file string) (ivs []model.Interval, ok bool) {
	k, ok := slices.BinarySearch(t.files, file)
	if !ok {
		return nil, false
	}
	return t.at(k), true
}

// Has reports whether the table has an entry for file.
func (t *IntervalTable) Has(file string) bool {
	_, ok := slices.BinarySearch(t.files, file)
	return ok
}

// at is the k-th file's intervals, capped so that appending copies.
func (t *IntervalTable) at(k int) []model.Interval {
	start, end := 0, t.ends[k]
	if k > 0 {
		start = t.ends[k-1]
	}
	return t.ivs[start:end:end]
}

// All yields every file with its intervals, in file order.
func (t *IntervalTable) All() iter.Seq2[string, []model.Interval] {
	return func(yield func(string, []model.Interval) bool) {
		for k, f := range t.files {
			if !yield(f, t.at(k)) {
				return
			}
		}
	}
}

func (t *IntervalTable) total() int { return model.TotalLength(t.ivs) }

// share makes the table's file list files when the two are equal (a gold
// whose every file has lines): the list is then held once.
func (t *IntervalTable) share(files []string) {
	if slices.Equal(t.files, files) {
		t.files = files
	}
}

// tableBuilder collects (file, interval) pairs in any order.
type tableBuilder struct {
	pairs []filedInterval
}

type filedInterval struct {
	file string
	iv   model.Interval
}

func (b *tableBuilder) add(file string, iv model.Interval) {
	b.pairs = append(b.pairs, filedInterval{file, iv})
}

// build makes the table; each file's intervals are in the order they were
// added. The builder is empty afterwards.
func (b *tableBuilder) build() *IntervalTable {
	pairs := b.pairs
	b.pairs = nil
	// Stable: a file's intervals keep the order they came in, as appending
	// to a map entry kept them.
	slices.SortStableFunc(pairs, func(x, y filedInterval) int { return strings.Compare(x.file, y.file) })
	t := &IntervalTable{ivs: make([]model.Interval, len(pairs))}
	for i, p := range pairs {
		if i == 0 || p.file != pairs[i-1].file {
			if i > 0 {
				t.ends = append(t.ends, i)
			}
			t.files = append(t.files, p.file)
		}
		t.ivs[i] = p.iv
	}
	if len(pairs) > 0 {
		t.ends = append(t.ends, len(pairs))
	}
	t.files, t.ends = slices.Clip(t.files), slices.Clip(t.ends)
	return t
}

// merged returns the table with each file's intervals merged
// (model.MergeIntervals), in place: t must not be used afterwards.
func (t *IntervalTable) merged() *IntervalTable {
	w, start := 0, 0
	for k, end := range t.ends {
		m := model.MergeIntervals(t.ivs[start:end:end])
		w += copy(t.ivs[w:], m)
		start = end
		t.ends[k] = w
	}
	t.ivs = slices.Clip(t.ivs[:w])
	return t
}
