package scoring

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

// A followed run is scored again at every reading, and all but its last
// steps are the steps scored before: what a step came to (its files,
// lines, byte spans and the definitions they touch) is a function of the
// step, the semantics and the files, so a FileCache that reads fixed files
// (a repository) can keep it. Off unless asked for (RememberSteps): a
// batch scores each step once.

// maxRememberedSteps bounds the steps a cache keeps: past it they are
// forgotten and kept afresh. A followed run's trajectory goes on from its
// running unions (resume), so the steps kept serve the steps scored
// again when it cannot (a rewrite, lines landing among the last ones):
// a thousand, not a long session's every step (a 98 MB session's
// were ~15 MB of its heap).
const maxRememberedSteps = 1024

// RememberSteps makes the cache keep what each trajectory step it scores
// came to, so a run scored again as it grows (followed) costs what its
// new steps do. The steps and actions it is given are not to be changed
// after (a followed reader makes new ones where a reading changes them):
// what it keeps of them is compared by identity first.
func (f *FileCache) RememberSteps() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.steps == nil {
		f.steps = map[string]stepSets{}
		f.lens = observed.NewMemo(f)
	}
}

// lensMemo is the memo of what actions showed against these files (nil
// when the cache keeps no steps), and the function that lets it go.
func (f *FileCache) lensMemo() (*observed.Memo, func()) {
	f.mu.Lock()
	m := f.lens
	f.mu.Unlock()
	if m == nil {
		return nil, func() {}
	}
	f.lensMu.Lock()
	return m, f.lensMu.Unlock
}

// stepSetsOf is sc.sets(sc.filterStep(raw)), from the cache when it keeps
// steps and has this one (key: its stepKey, "" when the cache keeps none).
func (sc scorer) stepSetsOf(raw model.Step, key string) stepSets {
	f := sc.files
	if key == "" {
		return sc.sets(sc.filterStep(raw))
	}
	f.mu.Lock()
	s, ok := f.steps[key]
	f.mu.Unlock()
	if ok {
		return s
	}
	s = sc.sets(sc.filterStep(raw))
	f.mu.Lock()
	if len(f.steps) >= maxRememberedSteps {
		clear(f.steps)
	}
	f.steps[key] = s
	f.mu.Unlock()
	return s
}

// spelling writes parts of a key, each string preceded by its length so
// no two different keys spell the same.
type spelling struct{ strings.Builder }

func (b *spelling) put(s string) {
	b.num(len(s))
	b.WriteString(s)
}

func (b *spelling) num(n int) {
	b.WriteString(strconv.Itoa(n))
	b.WriteByte(',')
}

// stepKey spells a step and the semantics it is scored under.
func stepKey(sem model.Semantics, st model.Step) string {
	var b spelling
	b.num(int(sem))
	b.num(len(st.Files))
	for _, f := range st.Files {
		b.put(f)
	}
	b.num(len(st.Spans))
	for _, fs := range st.Spans {
		b.put(fs.File)
		b.num(len(fs.Spans))
		for _, iv := range fs.Spans {
			b.num(iv.Start)
			b.num(iv.End)
		}
	}
	b.num(len(st.Symbols))
	for _, fs := range st.Symbols {
		b.put(fs.File)
		b.num(len(fs.Symbols))
		for _, s := range fs.Symbols {
			b.put(s)
		}
	}
	return b.String()
}

// unions is a trajectory's running state after its first len(raw) steps:
// what their union holds and hits, what they summed, and the coverage
// after each.
type unions struct {
	sem model.Semantics
	// lens is the run's trajectory this is: each goes on from its own, its
	// steps given again. (A Claude Code run's two lenses count steps of
	// the same content: taking the other's, a reading compared every
	// step's content.)
	lens model.Lens
	gold string // goldPrint of the gold scored against, "" when not kept
	// raw are the steps as given (see RememberSteps), compared with the
	// next trajectory's by identity, else in place: no key spelt.
	raw   []model.Step
	steps []model.StepCoverage
	files map[string]bool
	syms  symbolSet
	bytes *cumulative
	lines *cumulative

	filesHit, symsHit                     int
	sumFiles, sumSyms, sumBytes, sumLines int
	coverageSum                           model.ByGranularity[float64] // the steps' coverage, summed in order
}

// keptUnions bounds the trajectories a cache keeps going: a followed run
// scores two (one a lens), and its final contexts' scoring none.
const keptUnions = 4

// resume is the state a trajectory of steps against gold starts from: the
// state a trajectory of the same lens and first steps against the same
// gold was left in, taken from the cache (it is the caller's now); else an empty
// one (its gold "" when the cache keeps no steps).
func (sc scorer) resume(steps []model.Step, gold *Gold, lens model.Lens) *unions {
	fresh := func(print string) *unions {
		return &unions{sem: sc.sem, lens: lens, gold: print, files: map[string]bool{}, syms: symbolSet{},
			bytes: newCumulative(gold.Bytes), lines: newCumulative(gold.Lines), steps: make([]model.StepCoverage, 0, len(steps))}
	}
	f := sc.files
	f.mu.Lock()
	keep := f.steps != nil
	f.mu.Unlock()
	if !keep {
		return fresh("")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	print := f.gold.print
	if gold != f.gold.gold || print == "" {
		print = goldPrint(gold)
		if gold == f.gold.gold {
			f.gold.print = print // the kept gold's, spelt once
		}
	}
	// The trajectory whose steps were given again first; else one whose
	// steps were made again the same.
	for _, begins := range []func(x, y model.Step) bool{model.Step.Identical, model.Step.Equal} {
		for i, k := range f.unions {
			if k.sem == sc.sem && k.lens == lens && k.gold == print && len(k.raw) <= len(steps) && slices.EqualFunc(k.raw, steps[:len(k.raw)], begins) {
				f.unions = slices.Delete(f.unions, i, i+1)
				copy(k.raw, steps) // as given now: the next reading gives them again
				return k
			}
		}
	}
	return fresh(print)
}

// cloneStep is a copy of st that shares nothing with it.
func cloneStep(st model.Step) model.Step {
	c := model.Step{Files: slices.Clone(st.Files)}
	if st.Spans != nil {
		c.Spans = make([]model.FileSpans, len(st.Spans))
		for i, fs := range st.Spans {
			c.Spans[i] = model.FileSpans{File: fs.File, Spans: slices.Clone(fs.Spans)}
		}
	}
	if st.Symbols != nil {
		c.Symbols = make([]model.FileSymbols, len(st.Symbols))
		for i, fs := range st.Symbols {
			c.Symbols[i] = model.FileSymbols{File: fs.File, Symbols: slices.Clone(fs.Symbols)}
		}
	}
	return c
}

// keepUnions keeps a trajectory's state for the next run scored, the
// oldest dropped past keptUnions.
func (f *FileCache) keepUnions(u *unions) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.steps == nil {
		return
	}
	if len(f.unions) == keptUnions {
		f.unions = slices.Delete(f.unions, 0, 1)
	}
	f.unions = append(f.unions, u)
}

// goldPrint spells what a trajectory reads of a gold: its files, byte and
// line intervals and definitions, in a fixed order.
func goldPrint(g *Gold) string {
	var b spelling
	b.num(len(g.Files))
	for _, f := range g.Files {
		b.put(f)
	}
	for _, m := range []FileIntervals{g.Bytes, g.Lines} {
		names := slices.Sorted(maps.Keys(m))
		b.num(len(names))
		for _, n := range names {
			b.put(n)
			b.num(len(m[n]))
			for _, iv := range m[n] {
				b.num(iv.Start)
				b.num(iv.End)
			}
		}
	}
	syms := slices.SortedFunc(maps.Keys(g.symbols), func(x, y symbolKey) int {
		return cmp.Or(strings.Compare(x.File, y.File), strings.Compare(x.Type, y.Type), cmp.Compare(x.Start, y.Start), cmp.Compare(x.End, y.End))
	})
	b.num(len(syms))
	for _, k := range syms {
		b.put(k.File)
		b.put(k.Type)
		b.num(k.Start)
		b.num(k.End)
	}
	return b.String()
}

// keptFinals bounds the final contexts a cache keeps the sets of: a
// followed run's two lenses score one or two.
const keptFinals = 2

// keptFinal is what a final context came to (filterStep and sets).
type keptFinal struct {
	sem  model.Semantics
	raw  model.Step // a copy
	sets stepSets
}

// finalSets is sc.sets(sc.filterStep(raw)) of a final context, and
// whether the context names no file of the repository (then no sets). A
// cache that keeps steps keeps the last finals' sets: a followed run's
// final is the same at most readings (what it reads now was read
// before), and a long run's final holds every line it read.
func (sc scorer) finalSets(raw model.Step) (stepSets, bool) {
	f := sc.files
	f.mu.Lock()
	keep := f.steps != nil
	if keep {
		for _, k := range f.finals {
			if k.sem == sc.sem && k.raw.Equal(raw) {
				f.mu.Unlock()
				return k.sets, false
			}
		}
	}
	f.mu.Unlock()
	filtered := sc.filterStep(raw)
	if filtered.empty() {
		return stepSets{}, true
	}
	s := sc.sets(filtered)
	if keep {
		f.mu.Lock()
		if len(f.finals) == keptFinals {
			f.finals = slices.Delete(f.finals, 0, 1)
		}
		f.finals = append(f.finals, keptFinal{sc.sem, cloneStep(raw), s})
		f.mu.Unlock()
	}
	return s, false
}

// keptGold is a gold as last prepared (a copy) and what it came to.
type keptGold struct {
	sem   model.Semantics
	raw   model.Gold
	gold  *Gold
	print string // goldPrint(gold), once a trajectory asked
}

// preparedGold is sc.prepareGold(g), kept by a cache that keeps steps: a
// followed run is analysed against the same gold at every reading, or
// against its own edits, which change only when it edits (locating them
// reads every edited file).
func (sc scorer) preparedGold(g *model.Gold) *Gold {
	f := sc.files
	f.mu.Lock()
	keep, k := f.steps != nil, f.gold
	f.mu.Unlock()
	if !keep {
		return sc.prepareGold(g)
	}
	if k.gold != nil && k.sem == sc.sem && reflect.DeepEqual(&k.raw, g) {
		return k.gold
	}
	out := sc.prepareGold(g)
	f.mu.Lock()
	f.gold = keptGold{sc.sem, cloneGold(g), out, ""}
	f.mu.Unlock()
	return out
}

// cloneGold is a copy of g that shares no slice with it.
func cloneGold(g *model.Gold) model.Gold {
	c := *g
	c.Init, c.Add, c.Files, c.Changes, c.ChangedAt = slices.Clone(g.Init), slices.Clone(g.Add), slices.Clone(g.Files), slices.Clone(g.Changes), slices.Clone(g.ChangedAt)
	c.Symbols = slices.Clone(g.Symbols)
	for i := range c.Symbols {
		c.Symbols[i].Symbols = slices.Clone(c.Symbols[i].Symbols)
	}
	return c
}
