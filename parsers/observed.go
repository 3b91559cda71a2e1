package parsers

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// ObservedPrediction is pred with the steps of the observed lens, built
// from what run's actions displayed without reading the repository: one
// step per action that displayed lines of a file, naming the file, with the
// line spans the action itself pins down: ranges the command asked for
// (sed -n 'a,bp', a view range, a Read offset and limit, a head count) or
// the numbered output showed (nl -ba, cat -n, editor views, SWE-agent
// windows, grep -n matches). A view whose lines depend on the file's
// length and whose output does not number them (cat f, tail, a view to the
// end of the file) names its file without lines: only the repository
// knows how long the file is (scoring.ObservedPrediction resolves them).
// Ranges are not clipped to the file's end, for the same reason.
//
// The final context stays pred's own; when it names no file, it is the
// union of the steps. A run without actions (unified records) has no
// record of what was displayed: the line spans of its declared steps stand
// in, one action per step, as the explorer shows such a run.
func ObservedPrediction(run *model.Run, pred model.Prediction) model.Prediction {
	// Predict records each action's step in the actions it is given; the
	// run's own actions keep their ContextBench links.
	actions := append([]model.Action(nil), run.Actions...)
	if len(actions) == 0 {
		actions = declaredActions(&pred)
	}
	steps, union := toolcall.Predict(actions)
	pred.Steps = steps
	if pred.Final.Empty() {
		pred.Final = union
	}
	return pred
}

// declaredActions is one action per declared step, reading its line spans.
func declaredActions(p *model.Prediction) []model.Action {
	acts := make([]model.Action, len(p.Steps))
	for i, st := range p.Steps {
		for _, fs := range st.Spans {
			for _, sp := range fs.Spans {
				acts[i].Reads = append(acts[i].Reads, model.ObservedRead{File: fs.File, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
			}
		}
	}
	return acts
}
