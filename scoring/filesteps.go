package scoring

import (
	"slices"
	"sort"
	"sync"

	"github.com/trajscope/trajscope/model"
)

// FileStep is a step of a lens that named a file: the lens's 1-based step
// number, the action that made it (-1 when none is known) and the merged
// lines it showed of the file (none: it named the file without lines).
type FileStep struct {
	Number, Action int32
	Lines          []model.Interval
}

// FileSteps are the steps of a lens that named a file, in step order, and
// the lines they showed of it, merged.
type FileSteps struct {
	Steps []FileStep
	Lines []model.Interval
}

// StepsOf lists, for each file of want, the steps of lens l that named it,
// in step order, and their lines merged: under the observed lens, each action that displayed
// lines of it; under ContextBench, each of the run's steps (its final
// context as the one step of a prediction without steps), at the first
// action after which it counts. The diagnosis reads them.
//
// A followed run is analysed again at every reading, its steps those of
// the last reading and a few more: a cache that keeps steps keeps the
// lists of every file, and a reading goes on from the steps that begin it
// as they began the last (the same lines of each action, the same steps
// at the same actions), so it costs what its new steps name.
func (a *Analysis) StepsOf(l model.Lens, want []string) map[string]FileSteps {
	out := make(map[string]FileSteps, len(want))
	if len(want) == 0 {
		return out
	}
	keep := a.show == nil && (l == model.LensObserved || len(a.Run.Prediction.Steps) > 0)
	var ix *stepIndex
	if keep {
		if ix = lockedIndex(a.Files, &a.Files.stepIndexes, l); ix != nil && ix.sem != a.Sem {
			ix.sem, ix.byFile, ix.keys = a.Sem, nil, nil // steps come to other contexts
		}
	}
	if ix == nil {
		// Read once: only the files asked for are listed.
		ix = &stepIndex{only: map[string]bool{}}
		for _, f := range want {
			ix.only[f] = true
		}
	} else {
		defer ix.Unlock()
	}
	if l == model.LensObserved {
		ix.observed(a)
	} else {
		ix.contextBench(a)
	}
	for _, f := range want {
		if list := ix.byFile[f]; len(list) > 0 {
			// The index appends after them, not into them; a union it
			// makes is a new list.
			out[f] = FileSteps{list[:len(list):len(list)], ix.lines[f]}
		}
	}
	return out
}

// stepIndex is StepsOf's lists of a lens, and what they were made of: by
// step, its key (what it is compared by) and action.
type stepIndex struct {
	sync.Mutex
	only   map[string]bool // the files listed; nil: all
	sem    model.Semantics
	byFile map[string][]FileStep
	lines  map[string][]model.Interval // each file's steps' lines, merged
	keys   []stepID
}

// stepID is what a step is compared by from one reading to the next: the
// lines an action displayed (observed), or the raw step's files and spans
// (ContextBench), by identity. A reader keeps the lines of an action that
// did not change, and the step made of them (observed.Memo); a step made
// again with the same content is made again here too.
type stepID struct {
	files, spans, syms    *string
	nFiles, nSpans, nSyms int
	action                int32
}

// lockedIndex is the cache's index of lens l in ixs, locked (nil when the
// cache keeps no steps).
func lockedIndex[T any, P interface {
	*T
	Lock()
}](f *FileCache, ixs *[2]T, l model.Lens) P {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.steps == nil {
		return nil
	}
	ix := P(&ixs[l])
	ix.Lock()
	return ix
}

// goOn drops the steps past the first n (kept: those that begin the new
// reading's steps) and their entries.
func (ix *stepIndex) goOn(n int) {
	if ix.byFile == nil {
		ix.byFile, ix.lines = map[string][]FileStep{}, map[string][]model.Interval{}
	}
	if n == len(ix.keys) {
		return
	}
	ix.keys = ix.keys[:n]
	for f, list := range ix.byFile {
		k := sort.Search(len(list), func(i int) bool { return int(list[i].Number) > n })
		if k < len(list) {
			// A copy: lists given out before share the old one.
			ix.byFile[f] = append([]FileStep(nil), list[:k]...)
			var all []model.Interval
			for _, st := range list[:k] {
				all = append(all, st.Lines...)
			}
			ix.lines[f] = model.MergeIntervals(all)
		}
	}
}

// add lists a step under a file, its lines (merged) added to the file's.
func (ix *stepIndex) add(file string, st FileStep) {
	if ix.only == nil || ix.only[file] {
		ix.byFile[file] = append(ix.byFile[file], st)
		if len(st.Lines) > 0 {
			ix.lines[file] = model.MergeIntervals(append(slices.Clone(ix.lines[file]), st.Lines...))
		}
	}
}

// observed lists the actions that displayed lines, each a step.
func (ix *stepIndex) observed(a *Analysis) {
	id := func(i int) stepID {
		reads := a.Actions[i].Reads
		return stepID{spans: &reads[0].File, nSpans: len(reads), action: int32(i)}
	}
	// The steps that begin as the last reading's began, compared in place:
	// a long run's every step is one.
	i, n := 0, 0
	for ; i < len(a.Actions); i++ {
		if len(a.Actions[i].Reads) > 0 {
			if n == len(ix.keys) || id(i) != ix.keys[n] {
				break
			}
			n++
		}
	}
	ix.goOn(n)
	for ; i < len(a.Actions); i++ {
		if len(a.Actions[i].Reads) > 0 {
			ix.keys = append(ix.keys, id(i))
			for _, fl := range a.Actions[i].Reads {
				ix.add(fl.File, FileStep{int32(len(ix.keys)), int32(i), model.Merge(fl.Spans)})
			}
		}
	}
}

// contextBench lists the run's steps (its final context for a run
// without steps), each at the first action after which it counts: the
// files it named without lines, then those with lines.
func (ix *stepIndex) contextBench(a *Analysis) {
	steps := a.Run.Prediction.Steps
	if len(steps) == 0 {
		steps = []model.Step{a.Run.Prediction.Final}
	}
	done := a.Lenses[model.LensContextBench].StepsDone
	id := func(j int) stepID {
		raw := steps[j]
		k := stepID{nFiles: len(raw.Files), nSpans: len(raw.Spans), action: -1}
		if len(raw.Files) > 0 {
			k.files = &raw.Files[0]
		}
		if len(raw.Spans) > 0 {
			k.spans = &raw.Spans[0].File
		}
		if k.nSyms = len(raw.Symbols); len(raw.Symbols) > 0 {
			k.syms = &raw.Symbols[0].File
		}
		if len(a.Run.Prediction.Steps) > 0 {
			// done never decreases: a binary search finds the action.
			if i := sort.SearchInts(done, j+1); i < len(done) {
				k.action = int32(i)
			}
		}
		return k
	}
	n := 0
	for n < len(steps) && n < len(ix.keys) && id(n) == ix.keys[n] {
		n++
	}
	ix.goOn(n)
	for j := n; j < len(steps); j++ {
		k := id(j)
		ix.keys = append(ix.keys, k)
		ctx := a.ContextBenchStep(j, steps[j])
		for _, f := range ctx.Files {
			if _, lines := ctx.Lines[f]; !lines {
				ix.add(f, FileStep{int32(j + 1), k.action, nil})
			}
		}
		for f, ivs := range ctx.Lines {
			ix.add(f, FileStep{int32(j + 1), k.action, model.Merge(ivs)})
		}
	}
}
