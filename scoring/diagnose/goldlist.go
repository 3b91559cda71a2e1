package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// RunGold is a run's gold as the explorer's gold panel and the plain summary
// list it: every gold span (or gold file without lines) with its diagnosis
// under both lenses and when each lens first put its lines in view. It
// depends only on the run, so it is computed once.
type RunGold struct {
	// Diag is the end-of-run diagnosis under each lens.
	Diag [2]*Diagnosis
	// Spans are sorted by file and line; a gold file without gold lines is
	// one file-level entry.
	Spans []GoldSpan
}

// GoldSpan is one merged gold interval (or a whole file when the gold names
// no lines): when it was first read under each lens, and what became of it
// by the end of the run, as the diagnoses say.
type GoldSpan struct {
	// Span is the span's diagnosis under each lens; whole the file's, for
	// a file-level entry. Exactly one of the two is set.
	Span  [2]*Span
	whole [2]*File
	// foundAt[lens] is the first action that put any of its lines in view
	// (any line of the file, for a file-level entry), or -1.
	foundAt [2]int
	// firsts[lens] holds the first action that put each line of the span
	// the file has in view (never for a line never shown), sorted.
	firsts [2][]int32
}

// File is the gold file.
func (g *GoldSpan) File() string {
	if g.Span[0] != nil {
		return g.Span[0].File
	}
	return g.whole[0].File
}

// FileLevel reports an entry for a whole gold file (the gold names no
// lines of it).
func (g *GoldSpan) FileLevel() bool { return g.Span[0] == nil }

// Start and End are the gold lines as the gold gives them (the line metric
// does not clamp them); 0, 0 for a file-level entry.
func (g *GoldSpan) Start() int {
	if g.Span[0] != nil {
		return g.Span[0].Start
	}
	return 0
}

// End: see Start.
func (g *GoldSpan) End() int {
	if g.Span[0] != nil {
		return g.Span[0].End
	}
	return 0
}

// Lines is the span's length in lines; 0 for a file-level entry.
func (g *GoldSpan) Lines() int {
	if g.Span[0] != nil {
		return g.Span[0].Lines()
	}
	return 0
}

// InFinal reports that the lens's final context (LensData.FinalContext)
// holds some of its lines (the file, for a file-level entry).
func (g *GoldSpan) InFinal(l model.Lens) bool {
	if g.Span[l] != nil {
		return g.Span[l].FinalLines > 0
	}
	return g.whole[l].Category == Found
}

// FoundAt is the first action that put any of its lines in view under a
// lens (any line of the file, for a file-level entry), or -1.
func (g *GoldSpan) FoundAt(l model.Lens) int { return g.foundAt[l] }

// never is the first-read action of a line no action showed; it sorts last.
const never = scoring.Never

// Category is what became of the span by the end of the run.
func (g *GoldSpan) Category(l model.Lens) Category {
	if g.Span[l] != nil {
		return g.Span[l].Category
	}
	return g.whole[l].Category
}

// Closest is the action (0-based) that came closest to the span, or -1.
func (g *GoldSpan) Closest(l model.Lens) int {
	if g.Span[l] != nil {
		return int(g.Span[l].Action)
	}
	return int(g.whole[l].Action)
}

// Describe says in one line what became of the span (no file path).
func (g *GoldSpan) Describe(l model.Lens) string {
	if g.Span[l] != nil {
		return g.Span[l].Describe()
	}
	return g.whole[l].Describe()
}

// Label names what became of the span in a few words, for a narrow column.
func (g *GoldSpan) Label(l model.Lens) string {
	switch g.Category(l) {
	case NotScored:
		return "not scored"
	case Found:
		if g.Span[l] != nil && g.Span[l].Declared || g.whole[l] != nil && g.whole[l].Declared {
			return "found (declared)"
		}
		if sp := g.Span[l]; sp != nil {
			return sp.FoundLabel() // 1 line of 99 kept is not "found"
		}
		return "found"
	case ReadThenDropped:
		return "read, dropped"
	case NearMiss:
		if sp := g.Span[l]; sp != nil && sp.Distance >= 0 {
			return fmt.Sprintf("near miss ±%d", sp.Distance)
		}
		return "near miss"
	case SearchedNotRead:
		return "searched"
	}
	if g.Span[l] != nil && g.Span[l].Missing || g.whole[l] != nil && g.whole[l].Missing {
		return "not in repo"
	}
	return "never opened"
}

// ReadBy counts the span's lines read by action i (inclusive) under a lens.
func (g *GoldSpan) ReadBy(l model.Lens, i int) int {
	f := g.firsts[l]
	return sort.Search(len(f), func(k int) bool { return int(f[k]) > i })
}

// DiagnoseRun diagnoses a run's gold under both lenses and lists it span by
// span.
func DiagnoseRun(a *scoring.Analysis) *RunGold {
	rg := &RunGold{Diag: DiagnoseBoth(a)}
	shown := newShownIndex(a)
	cb, obs := rg.Diag[model.LensContextBench], rg.Diag[model.LensObserved]
	// One entry per gold span and per file without spans: sized exactly, a
	// large gold is not paid for twice.
	n := len(cb.Spans)
	for f, s := 0, 0; f < len(cb.Files); f++ {
		for s < len(cb.Spans) && cb.Spans[s].File < cb.Files[f].File {
			s++
		}
		if s == len(cb.Spans) || cb.Spans[s].File != cb.Files[f].File {
			n++
		}
	}
	rg.Spans = make([]GoldSpan, 0, n)
	s, f := 0, 0
	for s < len(cb.Spans) || f < len(cb.Files) {
		// Merge the two sorted lists by file: a file's spans, or the file
		// itself when it has none.
		if f < len(cb.Files) && (s == len(cb.Spans) || cb.Files[f].File < cb.Spans[s].File) {
			fd := &cb.Files[f]
			f++
			if s > 0 && cb.Spans[s-1].File == fd.File {
				continue // listed by its spans
			}
			g := GoldSpan{whole: [2]*File{fd, obs.file(f-1, fd)}}
			for l := range g.foundAt {
				g.foundAt[l] = -1
				if reads := shown.byFile[l][fd.File]; len(reads) > 0 && g.whole[l].Category != NotScored {
					g.foundAt[l] = int(reads[0].Action)
				}
			}
			rg.Spans = append(rg.Spans, g)
			continue
		}
		sp := &cb.Spans[s]
		s++
		g := GoldSpan{Span: [2]*Span{sp, obs.span(s-1, sp)}}
		g.setFirsts(a)
		rg.Spans = append(rg.Spans, g)
	}
	return rg
}

// The spans and files depend only on the gold, so both lenses list the same
// ones in the same order: the other lens's entry is found at the same index.
// The lookups only guard against that ever changing (the entry itself
// stands in when the other lens lacks it).

// span returns the lens's diagnosis of the span like at index k.
func (d *Diagnosis) span(k int, like *Span) *Span {
	if k < len(d.Spans) && d.Spans[k].File == like.File && d.Spans[k].Start == like.Start && d.Spans[k].End == like.End {
		return &d.Spans[k]
	}
	spans := d.ForFile(like.File)
	for i := range spans {
		if spans[i].Start == like.Start && spans[i].End == like.End {
			return &spans[i]
		}
	}
	return like
}

// file returns the lens's diagnosis of the file like at index k.
func (d *Diagnosis) file(k int, like *File) *File {
	if k < len(d.Files) && d.Files[k].File == like.File {
		return &d.Files[k]
	}
	if i, ok := slices.BinarySearchFunc(d.Files, like.File, func(f File, name string) int { return cmp.Compare(f.File, name) }); ok {
		return &d.Files[i]
	}
	return like
}

// setFirsts fills when each lens first put the span's lines in view
// (scoring.Analysis.FirstReads, which the gutter reads too).
func (g *GoldSpan) setFirsts(a *scoring.Analysis) {
	file := g.File()
	var tables [2][]int32
	for l, lens := range shownLenses {
		tables[l] = a.FirstReads(lens, file)
	}
	if tables[0] != nil || tables[1] != nil {
		s, e := max(g.Start(), 1), min(g.End(), a.Files.LineCount(file))
		for l, t := range tables {
			fs := []int32{}
			for line := s; line <= e; line++ {
				first := int32(never)
				if line < len(t) {
					first = t[line]
				}
				fs = append(fs, first)
			}
			slices.Sort(fs)
			g.firsts[l] = fs
		}
	}
	for l := range g.firsts {
		g.foundAt[l] = -1
		if g.Span[l] != nil && g.Span[l].Category == NotScored {
			g.firsts[l] = nil // nothing is read where nothing was scored
		}
		if fs := g.firsts[l]; len(fs) > 0 && fs[0] != never {
			g.foundAt[l] = int(fs[0])
		}
	}
}

// shownIndex indexes, for each gold file and lens (ContextBench, then
// observed), the actions that put lines of it in view, in action order. An
// entry names the action and which of its lens lines it is, not the lines
// themselves: a long run has an entry per action and lens, and the lines
// are the lens's already (LensAction.Lines).
type shownIndex struct {
	a      *scoring.Analysis
	byFile [2]map[string][]shown
}

// shown is Lenses[lens].Actions[Action].Lines[K].
type shown = scoring.InView

var shownLenses = [2]model.Lens{model.LensContextBench, model.LensObserved}

func newShownIndex(a *scoring.Analysis) *shownIndex {
	idx := &shownIndex{a: a}
	for l, lens := range shownLenses {
		idx.byFile[l] = a.InViewOf(lens, a.Gold.Files) // Gold.Files holds every file of Gold.Lines
	}
	return idx
}
