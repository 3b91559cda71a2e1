package scoring

import (
	"fmt"
	"slices"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

// PartialTree is a tree that holds only some lines of its files: the one
// the explorer rebuilds from the numbered output a run displayed when the
// repository is missing. Scoring reads it like any tree, so file and line
// measures come from line numbers alone; symbols and byte spans need whole
// files and are not computable from it (Analysis.Computable).
type PartialTree interface {
	model.Tree
	// Known returns the lines of path the tree holds, merged and sorted.
	Known(path string) []model.Interval
	// Reason says why the repository is missing, in a few words ("not in
	// the cache /tmp/c", "no --repo or --cache given").
	Reason() string
}

// partial returns the tree as a PartialTree, or nil.
func partial(t model.Tree) PartialTree {
	p, _ := t.(PartialTree)
	return p
}

// Computable reports whether a lens's measures at a granularity mean
// anything for the analysis: not when the evaluator could not score the lens
// (an error row: no curve, no "found"), and symbols and byte spans cannot be
// computed from a partial tree. Every surface asks this one question before
// it draws a curve or a figure.
func (a *Analysis) Computable(l model.Lens, g model.Granularity) bool {
	return a.Uncomputable(l, g) == ""
}

// GoldEmpty reports a run analysed against no gold at all (no --gold, no
// row for its id, or gold the semantics reads as empty): every coverage
// would read 1.0, which says nothing.
func (a *Analysis) GoldEmpty() bool { return a.Gold == nil || a.Gold.Spans == 0 }

// Uncomputable says why a lens's coverage at a granularity cannot be shown
// ("no gold", "not scored: no_context_extracted", "needs the repository"),
// or "" when it can.
func (a *Analysis) Uncomputable(l model.Lens, g model.Granularity) string {
	if !a.GoldEmpty() && !a.Lenses[l].Scored() {
		return "not scored: " + a.Lenses[l].Result.Error
	}
	return a.UncomputableAt(g)
}

// UncomputableAt is Uncomputable for what the gold and the tree allow at a
// granularity, whatever the lens.
func (a *Analysis) UncomputableAt(g model.Granularity) string {
	switch {
	case a.GoldEmpty():
		return "no gold"
	case a.Gold.FileOnly && g == model.GranSymbol && a.Gold.Named:
		return ""
	case a.Gold.FileOnly && g != model.GranFile:
		if a.Gold.Named {
			return "file- and symbol-level gold"
		}
		return "file-level gold"
	case a.Partial != nil && g != model.GranFile && g != model.GranLine:
		return "needs the repository"
	}
	return ""
}

// Scored reports that the evaluator scored the lens: its result is not an
// error row (missing_gold, no_context_extracted, checkout_failed…).
func (ld *LensData) Scored() bool { return ld.Result.Error == "" }

// Refuse makes a lens an error row the evaluator would have given, for a
// run analysed on other grounds: a run the evaluator names by its file name
// and finds no gold for, shown against the gold of the id it records. The
// actions keep what they put in view and the steps they made; the figures, curve and diagnosis of
// the lens are gone (Scored, Computable).
func (a *Analysis) Refuse(l model.Lens, code, reason string) {
	ld := &a.Lenses[l]
	ld.Result = model.Result{InstanceID: ld.Result.InstanceID, Error: code, Reason: reason}
	// A copy: a followed run's cache keeps the counters (lensData).
	ld.Actions = slices.Clone(ld.Actions)
	for i := range ld.Actions {
		ld.Actions[i].NewGold = 0
	}
}

// UnmatchedReason says why the evaluator has no gold for a run it names by
// its file name (fileID) while the run records another id, by which it is
// shown: the reason of its contextbench lens's missing_gold row.
func UnmatchedReason(fileID, recordedID string) string {
	return fmt.Sprintf("the evaluator names the run %q by its file name and has no gold for it (the gold shown is that of %q, the id the run records; --semantics fixed scores it so)", fileID, recordedID)
}

// Rebuilt is the files of a run whose repository is missing for reason:
// the tree rebuilt from what the run displayed (observed.Build), the gold's
// paths naming its files (g may be nil). view and convert read such a run
// through it alike, so both count the same observed steps.
//
// c, when not nil, remembers what each action displayed (observed.Build),
// for a run read again as it grows.
func Rebuilt(run *model.Run, g *model.Gold, sem model.Semantics, reason string, c *observed.Lines) *FileCache {
	return NewFileCache(RebuiltTree(run, g, sem, reason, c))
}

// RebuiltTree is the tree Rebuilt reads.
func RebuiltTree(run *model.Run, g *model.Gold, sem model.Semantics, reason string, c *observed.Lines) *observed.Tree {
	var paths []string
	if g != nil {
		paths = GoldPaths(g, sem)
	}
	return observed.Build(run, paths, reason, c)
}
