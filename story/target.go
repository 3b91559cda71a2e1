package story

import (
	"fmt"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// Target says where a run's gold came from and, for gold made of the
// run's own edits, what the run had read of each edited region before it
// changed it, under each lens (as every gold diagnosis is).
type Target struct {
	From model.GoldFrom
	// Unlocated counts the changes that could not be placed in the file
	// (scoring.Gold.Unlocated).
	Unlocated int
	// SoughtIn says where they were sought ("at 565625bf").
	SoughtIn string
	// Lenses are what was read before the edits under each lens; their
	// Edits are nil when the gold is not from edits.
	Lenses [2]TargetLens
}

// TargetLens is what a lens read of the edited regions before their
// edits.
type TargetLens struct {
	// Edits are one per gold span (Story.Gold.Spans, in that order).
	Edits []EditRead
	// Lines counts the edited lines and ReadBefore those read before
	// their edit; Blind counts the regions changed with none of their
	// lines read.
	Lines, ReadBefore, Blind int
	// Reads counts the actions that put lines in view, and Unused those
	// whose lines no edit changed.
	Reads, Unused int
}

// EditRead is one edited region: when it was first changed, and what the
// run had read of it by then.
type EditRead struct {
	// EditedAt is the action (0-based) that first changed the region.
	EditedAt int
	// ReadAt is the first action that showed any of its lines before the
	// edit, -1 for a blind edit; LinesRead counts those lines.
	ReadAt, LinesRead int
}

// NotFound says how many changes were not found, and where they were
// sought: "2 changes not found at 565625bf".
func (t *Target) NotFound() string { return notFound(t.Unlocated, t.SoughtIn) }

func notFound(n int, in string) string {
	w := "changes"
	if n == 1 {
		w = "change"
	}
	if in == "" {
		in = "in the file"
	}
	return fmt.Sprintf("%d %s not found %s", n, w, in)
}

// Blind reports an edit made without any of its lines read.
func (e EditRead) Blind() bool { return e.ReadAt < 0 }

// Share is the part of the edited lines read before their edit (0 when
// nothing was edited).
func (t *TargetLens) Share() float64 {
	if t.Lines == 0 {
		return 0
	}
	return float64(t.ReadBefore) / float64(t.Lines)
}

func target(a *scoring.Analysis, rg *diagnose.RunGold) Target {
	t := Target{}
	if a.Gold == nil {
		return t
	}
	t.From, t.Unlocated, t.SoughtIn = a.Gold.From, a.Gold.Unlocated, a.Gold.SoughtIn
	if t.From != model.GoldFromEdits {
		return t
	}
	// The first edit of each line, per file: every span reads its lines,
	// so a run of many edits costs the lines they changed, not edits ×
	// spans (which the lines scoring located already bound).
	firstEdit := map[string][]int32{} // line -> action + 1, 0 for none
	for _, e := range a.Gold.Edited {
		lines := firstEdit[e.File]
		if n := e.Lines.End + 1; n > len(lines) {
			lines = append(lines, make([]int32, n-len(lines))...)
			firstEdit[e.File] = lines
		}
		for l := max(e.Lines.Start, 0); l <= e.Lines.End; l++ {
			if lines[l] == 0 || e.Action+1 < lines[l] {
				lines[l] = e.Action + 1
			}
		}
	}
	first := make([]int, len(rg.Spans))
	for k := range rg.Spans {
		g := &rg.Spans[k]
		first[k] = -1
		lines := firstEdit[g.File()]
		for l := max(g.Start(), 0); l <= g.End() && l < len(lines); l++ {
			if a := int(lines[l]) - 1; a >= 0 && (first[k] < 0 || a < first[k]) {
				first[k] = a
			}
		}
	}
	for _, l := range model.Lenses {
		t.Lenses[l] = targetLens(a, rg, first, l)
	}
	return t
}

// targetLens is what lens l read of each edited region before its first
// edit (first[k], the action that first changed span k).
func targetLens(a *scoring.Analysis, rg *diagnose.RunGold, first []int, l model.Lens) TargetLens {
	t := TargetLens{Edits: make([]EditRead, len(rg.Spans))}
	for k := range rg.Spans {
		g := &rg.Spans[k]
		at := first[k]
		e := EditRead{EditedAt: at, ReadAt: -1}
		if at > 0 {
			e.LinesRead = g.ReadBy(l, at-1)
			if f := g.FoundAt(l); f >= 0 && f < at {
				e.ReadAt = f
			}
		}
		t.Edits[k] = e
		t.Lines += g.Lines()
		t.ReadBefore += e.LinesRead
		if e.Blind() {
			t.Blind++
		}
	}
	// Counted with the lens's lines: a followed run's goes on from the
	// last reading's.
	t.Reads, t.Unused = a.Lenses[l].Reads, a.Lenses[l].Reads-a.Lenses[l].GoldReads
	return t
}
