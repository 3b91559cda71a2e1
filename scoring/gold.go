package scoring

import (
	"cmp"
	"iter"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
)

// Gold is gold context prepared for scoring against one tree.
type Gold struct {
	// ID is the gold's id (upstream Gold.id: original_inst_id, else
	// inst_id; "" for no gold): the task a run was matched to.
	ID string
	// Spans counts the gold's spans and file entries as the gold lists them.
	Spans int
	// FileOnly: the gold names files and no lines (LocAgent, CodeScaleBench
	// file lists); only file figures measure anything.
	FileOnly bool
	// Named: the gold also names definitions (LocAgent's entities), which
	// the symbol figures measure even when FileOnly.
	Named   bool
	Files   []string // sorted, each once
	Bytes   FileIntervals
	symbols symbolSet
	// Lines is the gold line intervals (init only under ContextBench semantics).
	Lines FileIntervals
	// Listed holds, for the files whose gold spans merging changes (nested,
	// overlapping, adjacent or repeated spans), the spans as the gold lists
	// them: sorted by start (the longer first), repeats once, reversed
	// spans dropped. Other files' spans are Lines as they are.
	Listed FileIntervals
	// Missing lists gold files that are not in the repository.
	Missing []string
	// Task is the task statement the gold file carries, "" when none.
	Task string
	// From says where the gold came from; for a patch or the run's edits,
	// Edited holds each located region with the action that changed it,
	// and Unlocated counts the changes that could not be placed.
	From      model.GoldFrom
	Edited    []EditedSpan
	Unlocated int
	// SoughtIn says where the changes were sought, for saying where they
	// were not found: "at 565625bf" (a git repository's commit), "in
	// DIR", "in what the run displayed" (no repository).
	SoughtIn string
}

// soughtIn names the tree a gold's changes were sought in. The trees say
// what they are through the methods they have: scoring knows no git.
func soughtIn(t model.Tree) string {
	if partial(t) != nil {
		return "in what the run displayed"
	}
	switch t := t.(type) {
	case interface{ Commit() string }:
		c := t.Commit()
		return "at " + c[:min(len(c), 8)]
	case interface{ Root() string }:
		return "in " + t.Root()
	}
	return "in the repository"
}

func (sc scorer) prepareGold(g *model.Gold) *Gold {
	init, add := g.Init, g.Add
	if g.TextForm && sc.sem == model.ContextBench {
		// Upstream json.loads the text form, fails, and scores empty gold.
		init, add = nil, nil
	}
	var edited []EditedSpan
	unlocated := 0
	if len(g.Changes) > 0 {
		init, edited, unlocated = sc.locate(g)
	}
	out := &Gold{Files: make([]string, 0, len(init)+len(add)+len(g.Files)), Spans: len(init) + len(add) + len(g.Files),
		FileOnly: len(init)+len(add) == 0 && len(g.Files) > 0, Task: g.Task, ID: g.ID,
		From: g.From, Edited: edited, Unlocated: unlocated}
	if len(g.Changes) > 0 {
		out.SoughtIn = soughtIn(sc.files.tree)
	}
	bytes, lines := FileIntervals{}, FileIntervals{}
	exists := sc.files.exists
	if pt := partial(sc.files.tree); pt != nil {
		// A partial tree names files it has no lines of: they are there,
		// only unread (and asking the tree costs no per-file state).
		exists = pt.IsFile
	}
	var missing []string
	// Both lists in turn, not copied into one: a large gold is held once.
	all := [][]model.GoldSpan{init, add}
	for it := range goldSpans(all...) {
		if it.File == "" {
			continue
		}
		p := goldPath(out, it.File, sc.sem)
		if sc.sem == model.Fixed && (p == "" || !exists(p)) {
			missing = append(missing, p)
			continue
		}
		out.Files = append(out.Files, p)
		if p == "" {
			continue
		}
		if partial(sc.files.tree) != nil {
			continue // byte spans need whole files (not computable)
		}
		if iv, ok := sc.lineToByte(p, it.Start, it.End); ok {
			bytes.add(p, iv)
		}
	}
	for _, f := range g.Files {
		p := NormalizeGoldPath(f, sc.sem)
		if p == "" || sc.sem == model.Fixed && !exists(p) {
			missing = append(missing, p)
			continue
		}
		out.Files = append(out.Files, p)
	}
	slices.Sort(out.Files)
	out.Files = slices.Compact(out.Files)
	for _, f := range out.Files {
		if sc.sem == model.ContextBench && !exists(f) {
			missing = append(missing, f)
		}
	}
	slices.Sort(missing)
	out.Missing = slices.Clip(slices.Compact(missing))
	out.Bytes = bytes.mergeAll()
	sc.files.parseAll(out.Bytes.All())
	out.symbols = sc.defsInSpans(out.Bytes.All())
	if len(g.Symbols) > 0 && partial(sc.files.tree) == nil {
		out.Named = true
		for k := range sc.entityDefs(g.Symbols) {
			out.symbols[k] = struct{}{}
		}
	}

	lineItems := all[:1]
	if sc.sem == model.Fixed {
		// Line metrics and EditLoc read the same gold as the other granularities.
		lineItems = all
	}
	for it := range goldSpans(lineItems...) {
		p := goldPath(out, it.File, sc.sem)
		if p == "" {
			continue
		}
		if sc.sem == model.Fixed {
			iv, ok := sc.clampLines(p, it.Start, it.End)
			if ok {
				lines.add(p, iv)
			}
			continue
		}
		lines.add(p, model.Interval{Start: it.Start, End: it.End})
	}
	out.Listed = listed(lines)
	out.Lines = lines.mergeAll()
	return out
}

// goldSpans yields the spans of each list in turn.
func goldSpans(lists ...[]model.GoldSpan) iter.Seq[*model.GoldSpan] {
	return func(yield func(*model.GoldSpan) bool) {
		for _, list := range lists {
			for i := range list {
				if !yield(&list[i]) {
					return
				}
			}
		}
	}
}

// HasFile reports whether f is a gold file.
func (g *Gold) HasFile(f string) bool {
	_, ok := slices.BinarySearch(g.Files, f)
	return ok
}

// listed returns the files whose spans merging would change, with their
// spans sorted and deduplicated.
func listed(lines FileIntervals) FileIntervals {
	out := FileIntervals{}
	for f, ivs := range lines.All() {
		if len(ivs) < 2 {
			continue
		}
		var list []model.Interval
		for _, iv := range ivs {
			if iv.Start <= iv.End {
				list = append(list, iv)
			}
		}
		slices.SortFunc(list, func(a, b model.Interval) int {
			if a.Start != b.Start {
				return cmp.Compare(a.Start, b.Start)
			}
			return cmp.Compare(b.End, a.End)
		})
		list = slices.Compact(list)
		if merged := model.MergeIntervals(slices.Clone(list)); slices.Equal(merged, list) {
			continue
		}
		for _, iv := range list {
			out.add(f, iv)
		}
	}
	return out
}

// clampLines is the Fixed-semantics line range: swapped when reversed and
// clipped to the file's lines; ok is false when nothing of it is in the file.
func (sc scorer) clampLines(file string, a, b int) (model.Interval, bool) {
	if a > b {
		a, b = b, a
	}
	n := sc.files.LineCount(file)
	a, b = max(a, 1), min(b, n)
	return model.Interval{Start: a, End: b}, a <= b
}

// lineToByte converts lines to bytes. Upstream collapses a reversed range to
// its start line; Fixed reads it as the range it names.
func (sc scorer) lineToByte(file string, a, b int) (model.Interval, bool) {
	if sc.sem == model.Fixed && a > b {
		a, b = b, a
	}
	return sc.files.lineToByte(file, a, b, sc.sem == model.Fixed)
}

// entityDefs resolves gold that names definitions ("Class.method" in a
// file) to the definitions it names: a definition of the last name whose
// enclosing named definitions spell the rest, outermost first. A name that
// no definition spells so falls back to upstream's rule for named symbols
// (every definition of the last dotted part).
func (sc scorer) entityDefs(named []model.FileSymbols) symbolSet {
	out := symbolSet{}
	for _, fs := range named {
		p := NormalizeGoldPath(fs.File, sc.sem)
		if p == "" {
			continue
		}
		defs := sc.files.Defs(p)
		var loose []string
		for _, name := range fs.Symbols {
			found := false
			for _, d := range defs {
				if d.Name != "" && qualifiedName(defs, d) == name {
					out[symbolKey{p, d.Type, d.Start, d.End}] = struct{}{}
					found = true
				}
			}
			if !found {
				loose = append(loose, name)
			}
		}
		for k := range sc.defsByName([]model.FileSymbols{{File: p, Symbols: loose}}) {
			out[k] = struct{}{}
		}
	}
	return out
}

// qualifiedName spells d by the names of the definitions enclosing it,
// outermost first ("A.run"); a wrapper of the same name (a decorated
// definition around its function) is one name.
func qualifiedName(defs []symbols.Def, d symbols.Def) string {
	var chain []symbols.Def
	for _, e := range defs {
		if e.Name != "" && e.Start <= d.Start && e.End >= d.End && e != d {
			chain = append(chain, e)
		}
	}
	slices.SortStableFunc(chain, func(a, b symbols.Def) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	parts := make([]string, 0, len(chain)+1)
	for _, e := range append(chain, d) {
		if len(parts) == 0 || parts[len(parts)-1] != e.Name {
			parts = append(parts, e.Name)
		}
	}
	return strings.Join(parts, ".")
}
