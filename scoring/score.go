package scoring

import (
	"iter"
	"maps"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
)

// Error values written in result rows, as upstream names them.
const (
	ErrMissingGold    = "missing_gold"
	ErrCheckoutFailed = "checkout_failed"
	ErrNoContext      = "no_context_extracted"
	ErrBadPrediction  = "invalid_prediction"
)

// symbolKey identifies a definition as upstream does: by file, node type and
// byte range. Names play no part.
type symbolKey struct {
	File  string
	Type  string
	Start int
	End   int
}

type symbolSet map[symbolKey]struct{}

func (s symbolSet) intersect(o symbolSet) int {
	if len(o) < len(s) {
		s, o = o, s
	}
	n := 0
	for k := range s {
		if _, ok := o[k]; ok {
			n++
		}
	}
	return n
}

// filteredStep is a step after upstream _filter_step_to_repo: every path
// resolved to a repository file, unresolvable ones dropped.
type filteredStep struct {
	files   []string // sorted, unique
	spans   []fileSpan
	symbols []model.FileSymbols // resolved keys, merged, non-empty lists
}

type fileSpan struct {
	file       string
	start, end int
}

// stepSets is a step's context in each granularity's representation.
type stepSets struct {
	files   []string
	symbols symbolSet
	bytes   FileIntervals
	lines   FileIntervals
}

// scorer holds what one instance's scoring shares.
type scorer struct {
	files *FileCache
	sem   model.Semantics
}

// filterStep resolves a step's paths against the repository.
func (sc scorer) filterStep(st model.Step) filteredStep {
	var out filteredStep
	seen := map[string]bool{}
	addFile := func(f string) {
		if f != "" && !seen[f] {
			seen[f] = true
			out.files = append(out.files, f)
		}
	}
	for _, f := range st.Files {
		addFile(sc.files.Resolve(f))
	}
	for _, fs := range st.Spans {
		rel := sc.files.Resolve(fs.File)
		if rel == "" {
			continue
		}
		for _, sp := range fs.Spans {
			out.spans = append(out.spans, fileSpan{rel, sp.Start, sp.End})
		}
		if sc.sem == model.Fixed && len(fs.Spans) > 0 {
			// A file the agent gave lines for is a file it used.
			addFile(rel)
		}
	}
	symIndex := map[string]int{}
	for _, fsym := range st.Symbols {
		if len(fsym.Symbols) == 0 {
			continue
		}
		rel := sc.files.Resolve(fsym.File)
		if rel == "" {
			continue
		}
		if i, ok := symIndex[rel]; ok {
			out.symbols[i].Symbols = append(out.symbols[i].Symbols, fsym.Symbols...)
			continue
		}
		symIndex[rel] = len(out.symbols)
		out.symbols = append(out.symbols, model.FileSymbols{File: rel, Symbols: append([]string(nil), fsym.Symbols...)})
		if sc.sem == model.Fixed {
			addFile(rel)
		}
	}
	sort.Strings(out.files)
	return out
}

func (st filteredStep) empty() bool { return len(st.files) == 0 && len(st.spans) == 0 }

// sets converts a filtered step to its four representations.
func (sc scorer) sets(st filteredStep) stepSets {
	s := stepSets{files: st.files, bytes: FileIntervals{}, lines: sc.lines(st)}
	for _, sp := range st.spans {
		if iv, ok := sc.lineToByte(sp.file, sp.start, sp.end); ok {
			s.bytes.add(sp.file, iv)
		}
	}
	s.bytes.mergeAll()
	if len(st.symbols) > 0 {
		s.symbols = sc.defsByName(st.symbols)
	} else {
		s.symbols = sc.defsInSpans(maps.All(s.bytes))
	}
	return s
}

// lines is the line granularity's set of a step: its spans' lines per
// file, merged.
func (sc scorer) lines(st filteredStep) FileIntervals {
	lines := FileIntervals{}
	for _, sp := range st.spans {
		if sc.sem == model.Fixed {
			if iv, ok := sc.clampLines(sp.file, sp.start, sp.end); ok {
				lines.add(sp.file, iv)
			}
		} else if sp.start > 0 && sp.end > 0 {
			lines.add(sp.file, model.Interval{Start: sp.start, End: sp.end})
		}
	}
	lines.mergeAll()
	return lines
}

// defsInSpans is upstream extract_def_set_in_spans: every definition that
// overlaps a span. Upstream compares the exclusive def end with the inclusive
// span start (e >= a), so a def ending exactly where a span begins counts;
// Fixed requires a shared byte.
func (sc scorer) defsInSpans(spans iter.Seq2[string, []model.Interval]) symbolSet {
	out := symbolSet{}
	for file, ivs := range spans {
		if len(ivs) == 0 {
			continue
		}
		idx := sc.files.defIndex(file)
		add := func(d symbols.Def) { out[symbolKey{file, d.Type, d.Start, d.End}] = struct{}{} }
		for _, iv := range ivs {
			// A def overlaps [a, b] when it starts at or before b and its
			// end reaches a (upstream: exclusive end >= a; Fixed: a shared
			// byte, end-1 >= a).
			minEnd := iv.Start
			if sc.sem == model.Fixed {
				minEnd++
			}
			idx.each(iv.End, minEnd, add)
		}
	}
	return out
}

// defsByName is upstream extract_def_set_from_symbol_names: each requested
// name selects every def of that name in the file, falling back to the last
// dotted part ("Beta.delta" selects every "delta").
func (sc scorer) defsByName(syms []model.FileSymbols) symbolSet {
	out := symbolSet{}
	for _, fs := range syms {
		defs := sc.files.Defs(fs.File)
		if len(defs) == 0 {
			continue
		}
		byName := map[string][]symbols.Def{}
		for _, d := range defs {
			if d.Name != "" {
				byName[d.Name] = append(byName[d.Name], d)
			}
		}
		for _, name := range fs.Symbols {
			name = python.StripSpace(name)
			if name == "" {
				continue
			}
			hits := byName[name]
			if len(hits) == 0 {
				if i := strings.LastIndexByte(name, '.'); i >= 0 {
					hits = byName[name[i+1:]]
				}
			}
			for _, d := range hits {
				out[symbolKey{fs.File, d.Type, d.Start, d.End}] = struct{}{}
			}
		}
	}
	return out
}

func coverage(inter, gold int) float64 {
	if gold > 0 {
		return float64(inter) / float64(gold)
	}
	return 1.0
}

func measure(inter, gold, pred int) model.Measure {
	return model.Measure{
		Coverage: coverage(inter, gold), Precision: coverage(inter, pred),
		Intersection: inter, GoldSize: gold, PredSize: pred,
	}
}

func countIn(files []string, gold *Gold) int {
	n := 0
	for _, f := range files {
		if gold.HasFile(f) {
			n++
		}
	}
	return n
}

// Score evaluates one prediction against its gold on a tree, as upstream
// evaluate_instance does after checkout.
func Score(g *model.Gold, pred *model.Prediction, files *FileCache, sem model.Semantics) model.Result {
	res, _, _, _ := scorer{files, sem}.score(g, pred, nil, model.LensContextBench, false)
	return res
}

// StepContexts are the contexts of a run of steps, as StepContext makes
// them: List[k] is step From+k's.
type StepContexts struct {
	From int
	List []StepContext
}

// score is Score with the gold already prepared for the tree (nil: prepare
// it here), so an analysis scoring two lenses prepares it once. It also
// gives the final context as StepContext makes it (ok false for an error
// row: not made) and, with wantContexts, the contexts of the steps it
// counted (a followed run's: those past the steps it went on from), which
// the diagnosis reads rather than make again. lens says which of a run's
// trajectories this is (a cache that keeps steps goes on from the last of
// the same lens).
func (sc scorer) score(g *model.Gold, pred *model.Prediction, gold *Gold, lens model.Lens, wantContexts bool) (res model.Result, ctxs StepContexts, final StepContext, ok bool) {
	res = model.Result{InstanceID: pred.InstanceID}
	rawSteps := pred.Steps
	if len(rawSteps) == 0 {
		rawSteps = []model.Step{pred.Final}
	}
	fs, empty := sc.finalSets(pred.Final)
	if empty {
		res.Error = ErrNoContext
		res.Reason = "the final context names no file of the repository"
		if pred.Final.Empty() {
			res.Reason = "the run declared no final context"
		}
		return res, ctxs, StepContext{}, false
	}
	if gold == nil {
		gold = sc.prepareGold(g)
	}

	res.NumSteps = len(rawSteps)
	res.Final = model.ByGranularity[model.Measure]{
		File:   measure(countIn(fs.files, gold), len(gold.Files), len(fs.files)),
		Symbol: measure(fs.symbols.intersect(gold.symbols), len(gold.symbols), len(fs.symbols)),
		Span:   measure(fs.bytes.intersect(gold.Bytes), gold.Bytes.total(), fs.bytes.total()),
		Line:   measure(fs.lines.intersect(gold.Lines), gold.Lines.total(), fs.lines.total()),
	}
	res.Trajectory, ctxs = sc.trajectory(rawSteps, gold, lens, wantContexts)
	res.EditLoc = sc.editLoc(g, pred, gold)
	res.ParseGaveUp = sc.gaveUp(gold, rawSteps, pred.Final)
	res.SymbolNA = len(res.ParseGaveUp) > 0 && sc.sem == model.Fixed
	return res, ctxs, StepContext{Files: fs.files, Lines: fs.lines}, true
}

// gaveUp lists the files of the gold and the steps whose parse ran past the
// budget, sorted. Defs was asked for every file the symbol figures needed
// (gold spans, read spans, named symbols) before this runs.
func (sc scorer) gaveUp(gold *Gold, steps []model.Step, final model.Step) []string {
	if !sc.files.anyGaveUp.Load() {
		return nil // no parse ran past its budget: a long run's steps need no look
	}
	var out []string
	seen := map[string]bool{}
	check := func(f string) {
		if f != "" && !seen[f] {
			seen[f] = true
			if sc.files.GaveUp(f) {
				out = append(out, f)
			}
		}
	}
	for f := range gold.Bytes.All() {
		check(f)
	}
	checkStep := func(st model.Step) {
		for _, fs := range st.Spans {
			check(sc.files.Resolve(fs.File))
		}
		for _, fs := range st.Symbols {
			check(sc.files.Resolve(fs.File))
		}
	}
	for _, st := range steps {
		checkStep(st)
	}
	checkStep(final)
	sort.Strings(out)
	return out
}

// trajectory is upstream compute_trajectory_metrics, and, with
// wantContexts, the contexts of the steps it counted: those past the steps
// of a trajectory it went on from (kept contexts of a long run's every
// step were most of what following it kept).
func (sc scorer) trajectory(steps []model.Step, gold *Gold, lens model.Lens, wantContexts bool) (model.Trajectory, StepContexts) {
	// The unions and their gold hits grow step by step; each step costs
	// what it adds, not the size of the union (see cumulative). A cache
	// that keeps steps (a followed run) goes on from the unions of the
	// same steps scored before (resume).
	u := sc.resume(steps, gold, lens)
	keep := u.gold != "" // the cache keeps steps (resume spelt the gold)
	ctxs := StepContexts{From: len(u.raw)}
	goldBytes, goldLines := gold.Bytes.total(), gold.Lines.total()
	for t := len(u.raw); t < len(steps); t++ {
		var key string
		if keep {
			key = stepKey(sc.sem, steps[t])
			u.raw = append(u.raw, steps[t])
		}
		s := sc.stepSetsOf(steps[t], key)
		if wantContexts {
			ctxs.List = append(ctxs.List, StepContext{Files: s.files, Lines: s.lines})
		}
		for _, f := range s.files {
			if !u.files[f] {
				u.files[f] = true
				if gold.HasFile(f) {
					u.filesHit++
				}
			}
		}
		for k := range s.symbols {
			if _, ok := u.syms[k]; !ok {
				u.syms[k] = struct{}{}
				if _, ok := gold.symbols[k]; ok {
					u.symsHit++
				}
			}
		}
		u.bytes.addAll(s.bytes)
		u.lines.addAll(s.lines)

		var cov model.ByGranularity[float64]
		cov.File = coverage(u.filesHit, len(gold.Files))
		cov.Symbol = coverage(u.symsHit, len(gold.symbols))
		cov.Span = coverage(u.bytes.inter, goldBytes)
		switch {
		case gold.Lines.Len() > 0 || sc.sem == model.Fixed:
			cov.Line = coverage(u.lines.inter, goldLines)
		default:
			// Upstream: an empty gold line map scores 0.0 here, though the
			// final line coverage is 1.0 for the same instance.
			cov.Line = 0.0
		}
		u.steps = append(u.steps, model.StepCoverage{Step: t + 1, Coverage: cov})
		for _, g := range model.Granularities {
			// Summed in step order, as a sum over the steps would be: the
			// same float whether resumed or not.
			*u.coverageSum.At(g) += *cov.At(g)
		}
		u.sumFiles += len(s.files)
		u.sumSyms += len(s.symbols)
		u.sumBytes += s.bytes.total()
		u.sumLines += s.lines.total()
	}
	// The union's own steps: it only appends to them, and past this
	// trajectory's length (a full slice: an append by a reader copies).
	tr := model.Trajectory{Steps: u.steps[:len(u.steps):len(u.steps)]}
	if tr.Steps == nil {
		tr.Steps = []model.StepCoverage{}
	}
	unionFiles, unionSyms, unionBytes, unionLines := u.files, u.syms, u.bytes, u.lines
	sumFiles, sumSyms, sumBytes, sumLines := u.sumFiles, u.sumSyms, u.sumBytes, u.sumLines
	defer func() {
		// Kept once read: the next run scored takes it and adds to it.
		sc.files.keepUnions(u)
	}()
	T := float64(len(steps))
	for _, g := range model.Granularities {
		*tr.AUCCoverage.At(g) = *u.coverageSum.At(g) / T
	}
	tr.Redundancy.File = redundancy(len(unionFiles), sumFiles)
	tr.Redundancy.Symbol = redundancy(len(unionSyms), sumSyms)
	tr.Redundancy.Span = redundancy(unionBytes.total, sumBytes)
	tr.Redundancy.Line = redundancy(unionLines.total, sumLines)
	return tr, ctxs
}

func redundancy(union, sum int) float64 {
	if sum > 0 {
		return 1 - float64(union)/float64(sum)
	}
	return 0.0
}

// editLoc is upstream's EditLoc: the deleted lines of the patch that fall in
// a gold line range.
func (sc scorer) editLoc(g *model.Gold, pred *model.Prediction, gold *Gold) *model.EditLoc {
	patch := pred.ModelPatch
	if patch == "" && sc.sem == model.ContextBench {
		// Upstream scores a prediction without a patch on the gold patch.
		patch = g.Patch
	}
	if patch == "" {
		return nil
	}
	hits, predSize := 0, 0
	for _, df := range DeletedLines(patch, sc.sem) {
		ranges, _ := gold.Lines.Get(df.File)
		for _, iv := range df.Lines {
			for line := iv.Start; line <= iv.End; line++ {
				predSize++
				for _, r := range ranges {
					if r.Start <= line && line <= r.End {
						hits++
						break
					}
				}
			}
		}
	}
	goldSize := gold.Lines.total()
	el := &model.EditLoc{Intersection: hits, GoldSize: goldSize, PredSize: predSize}
	if predSize > 0 {
		el.Precision = float64(hits) / float64(predSize)
	}
	el.Recall = el.Precision
	if sc.sem == model.Fixed {
		el.Recall = coverage(hits, goldSize)
	}
	return el
}
