package scoring

import "github.com/trajscope/trajscope/model"

// StepContext is a step's context as the metrics count it: paths resolved to
// repository files (unresolvable ones dropped), the file set of the file
// granularity, and the merged line intervals of the line granularity, with
// the analysis's semantics applied. It exists so that scoring/diagnose
// explains exactly the sets the numbers were computed from.
type StepContext struct {
	// Files is the file granularity's set, sorted.
	Files []string
	// Lines maps a file to its merged line intervals.
	Lines map[string][]model.Interval
}

// StepContext converts one step (a ContextBench step or the final context).
func (a *Analysis) StepContext(st model.Step) StepContext {
	sc := scorer{a.Files, a.Sem}
	// filterStep and lines are what Score counts (see sets), so the two can
	// never disagree; the bytes and symbols it also counts are not needed.
	f := sc.filterStep(st)
	return StepContext{Files: f.files, Lines: sc.lines(f)}
}

// ContextBenchStep is StepContext(raw) of step j of the ContextBench lens
// (raw: Run.Prediction.Steps[j], or its final context for a prediction
// without steps), as its scoring counted it: kept from the scoring, so a
// long run's diagnosis does not convert every step again. An analysis
// shown under other names (ShowAs: redacted) converts raw: the kept
// contexts hold the names it was scored with.
func (a *Analysis) ContextBenchStep(j int, raw model.Step) StepContext {
	if k := j - a.stepContexts.From; a.show == nil && k >= 0 && k < len(a.stepContexts.List) {
		return a.stepContexts.List[k]
	}
	return a.StepContext(raw)
}
