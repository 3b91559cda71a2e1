package scoring

import (
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// A followed run is scored again at every reading, and all but its last
// steps are the steps scored before: what a step came to (its files,
// lines, byte spans and the definitions they touch) is a function of the
// step, the semantics and the files, so a FileCache that reads fixed files
// (a repository) can keep it. Off unless asked for (RememberSteps): a
// batch scores each step once.

// maxRememberedSteps bounds the steps a cache keeps: past it they are
// forgotten and kept afresh.
const maxRememberedSteps = model.MaxActions

// RememberSteps makes the cache keep what each trajectory step it scores
// came to, so a run scored again as it grows (followed) costs what its
// new steps do.
func (f *FileCache) RememberSteps() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.steps == nil {
		f.steps = map[string]stepSets{}
	}
}

// stepSetsOf is sc.sets(sc.filterStep(raw)), from the cache when it keeps
// steps and has this one.
func (sc scorer) stepSetsOf(raw model.Step) stepSets {
	f := sc.files
	f.mu.Lock()
	keep := f.steps != nil
	f.mu.Unlock()
	if !keep {
		return sc.sets(sc.filterStep(raw))
	}
	key := stepKey(sc.sem, raw)
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

// stepKey spells a step and the semantics it is scored under, each part
// preceded by its length so no two steps spell the same.
func stepKey(sem model.Semantics, st model.Step) string {
	var b strings.Builder
	put := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	num := func(n int) {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(',')
	}
	num(int(sem))
	num(len(st.Files))
	for _, f := range st.Files {
		put(f)
	}
	num(len(st.Spans))
	for _, fs := range st.Spans {
		put(fs.File)
		num(len(fs.Spans))
		for _, iv := range fs.Spans {
			num(iv.Start)
			num(iv.End)
		}
	}
	num(len(st.Symbols))
	for _, fs := range st.Symbols {
		put(fs.File)
		num(len(fs.Symbols))
		for _, s := range fs.Symbols {
			put(s)
		}
	}
	return b.String()
}
