package viewdata

import (
	"sort"

	"github.com/trajscope/trajscope/internal/same"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// Next is New(st) for the next reading of a followed run whose last
// reading's Data is prev, which is not used after (its tables are taken
// over). A reading holds the last one's actions and a few more: where it
// reads the same files against the same gold, what the actions that begin
// it as they began the last (the same lines under both lenses, the same
// searches, edits and category) made of the tables is kept, and only the
// actions after them are read.
func Next(st *story.Story, prev *Data) *Data { return build(st, prev) }

// samePrefix counts the actions that begin run a's actions as they began
// this Data's: the same lines under both lenses (by identity: a followed
// run's analysis keeps an unchanged action's lines), the same searches
// and edits, and the same category.
func (d *Data) samePrefix(a *scoring.Analysis) int {
	n := min(d.N, len(a.Run.Actions))
	for i := range n {
		x, y := &d.Run.Actions[i], &a.Run.Actions[i]
		if x.Category != y.Category || same.Of(x.Searches) != same.Of(y.Searches) || same.Of(x.Edits) != same.Of(y.Edits) || same.Of(x.Changes) != same.Of(y.Changes) {
			return i
		}
		for _, l := range model.Lenses {
			if same.Of(d.A.Lenses[l].Actions[i].Lines) != same.Of(a.Lenses[l].Actions[i].Lines) {
				return i
			}
		}
	}
	return n
}

// goOn takes over prev's files and tables as its first from actions left
// them: the edits, files and categories of the actions after are dropped,
// and each file's first reads are the new analysis's.
func (d *Data) goOn(prev *Data, from int) {
	d.files, prev.files = prev.files, nil
	for _, fd := range d.files {
		fd.Final = [2][]model.Interval{} // each reading's own
		for _, l := range model.Lenses {
			fd.First[l] = d.A.FirstReads(l, fd.Path)
		}
	}
	for _, l := range model.Lenses {
		d.Focus[l] = append(prev.Focus[l][:from:from], make([]Target, d.N-from)...)
	}
	for f, es := range prev.edits {
		k := sort.Search(len(es), func(k int) bool { return es[k].Action >= from })
		if k > 0 {
			if d.edits == nil {
				d.edits = map[string][]Edit{}
			}
			d.edits[f] = es[:k:k]
		}
	}
	d.readOrder, d.seen = prev.readOrder, prev.seen
	for len(d.readOrder) > 0 && d.readOrder[len(d.readOrder)-1].at >= int32(from) {
		delete(d.seen, d.readOrder[len(d.readOrder)-1].file)
		d.readOrder = d.readOrder[:len(d.readOrder)-1]
	}
	d.present = prev.present
	for c, at := range d.present {
		if at >= int32(from) {
			delete(d.present, c)
		}
	}
}
