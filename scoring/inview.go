package scoring

import (
	"sort"
	"sync"

	"github.com/trajscope/trajscope/internal/same"
	"github.com/trajscope/trajscope/model"
)

// InView is an action's lines of one file under a lens:
// Lenses[lens].Actions[Action].Lines[K].
type InView struct{ Action, K int32 }

// InViewOf lists, for each file of want, where the actions put lines of it
// in view under lens l, in action order. A cache that keeps steps keeps
// the lists of every file and goes on from the actions whose lines are
// those of the last reading (by identity: see linesMemo).
func (a *Analysis) InViewOf(l model.Lens, want []string) map[string][]InView {
	out := make(map[string][]InView, len(want))
	if len(want) == 0 {
		return out
	}
	var ix *inViewIndex
	if a.show == nil {
		ix = lockedIndex(a.Files, &a.Files.inViewIndexes, l)
	}
	if ix == nil {
		ix = &inViewIndex{only: map[string]bool{}}
		for _, f := range want {
			ix.only[f] = true
		}
	} else {
		defer ix.Unlock()
	}
	ix.update(a, l)
	for _, f := range want {
		if list := ix.byFile[f]; len(list) > 0 {
			out[f] = list[:len(list):len(list)]
		}
	}
	return out
}

// inViewIndex is InViewOf's lists of a lens, and each action's lines they
// were made of (by identity); when kept, the files' FirstReads too.
type inViewIndex struct {
	sync.Mutex
	only   map[string]bool // the files listed; nil: all
	byFile map[string][]InView
	keys   []same.List[model.FileSpans]
	firsts map[string]firstTable
	of     same.List[LensAction] // the actions last listed
}

// update goes on from the actions whose lines are those the lists were
// made of: the entries of those after are dropped (and the tables made of
// them), the actions after listed.
func (ix *inViewIndex) update(a *Analysis, l model.Lens) {
	acts := a.Lenses[l].Actions
	if ix.byFile != nil && same.Of(acts) == ix.of {
		return // listed already (each of a reading's files asks)
	}
	ix.of = same.Of(acts)
	n := 0
	for n < len(acts) && n < len(ix.keys) && same.Of(acts[n].Lines) == ix.keys[n] {
		n++
	}
	if ix.byFile == nil {
		ix.byFile = map[string][]InView{}
	}
	if n < len(ix.keys) {
		for f, list := range ix.byFile {
			if k := sort.Search(len(list), func(i int) bool { return int(list[i].Action) >= n }); k < len(list) {
				ix.byFile[f] = append([]InView(nil), list[:k]...) // lists given out share the old one
				delete(ix.firsts, f)
			}
		}
	}
	ix.keys = ix.keys[:n]
	for i := n; i < len(acts); i++ {
		for k, fl := range acts[i].Lines {
			if ix.only == nil || ix.only[fl.File] {
				ix.byFile[fl.File] = append(ix.byFile[fl.File], InView{int32(i), int32(k)})
			}
		}
		ix.keys = append(ix.keys, same.Of(acts[i].Lines))
	}
}
