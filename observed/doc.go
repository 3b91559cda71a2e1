// Package observed is the observed lens: what each action of a run actually
// displayed, whatever its format declares. It owns the lens's steps (one per
// action that displayed lines of a file), read against a repository when
// there is one (paths resolved, whole-file, head, tail and to-the-end views
// made lines, ranges clipped) and from the run alone when there is none
// (only the lines the action itself pins down); the numbered-line parser
// that reads what a listing showed; and the tree rebuilt from those lines,
// which view falls back to when the repository is missing.
//
// It knows nothing of scoring: a repository is anything that resolves paths
// and counts lines (Files), and the rebuilt Tree is a model.Tree.
package observed
