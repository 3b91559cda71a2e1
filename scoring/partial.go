package scoring

import "github.com/trajscope/trajscope/model"

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

// Computable reports whether a granularity's measures mean anything for the
// analysis: symbols and byte spans cannot be computed from a partial tree.
func (a *Analysis) Computable(g model.Granularity) bool {
	return a.Uncomputable(g) == ""
}

// GoldEmpty reports a run analysed against no gold at all (no --gold, no
// row for its id, or gold the semantics reads as empty): every coverage
// would read 1.0, which says nothing.
func (a *Analysis) GoldEmpty() bool { return a.Gold == nil || a.Gold.Spans == 0 }

// Uncomputable says why a granularity's coverage cannot be shown ("no
// gold", "needs the repository"), or "" when it can.
func (a *Analysis) Uncomputable(g model.Granularity) string {
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
