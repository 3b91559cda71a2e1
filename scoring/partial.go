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
	return a.Partial == nil || g == model.GranFile || g == model.GranLine
}
