package diagnose

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Two definitions of "usage drop" circulate in ContextBench's scripts, and
// they measure different things; the names here keep them apart.
//
//   - LastStepDrop ("drop, last step → final, from evaluator results") is
//     calculate_drop_laststep_to_final_from_alljsonl.py: how much of the gold
//     that the LAST step's cumulative coverage had reached is missing from the
//     final context, per granularity, from a result row alone.
//   - UnionDrop ("drop, union of steps → final, from the run") is
//     calculate_evidence_drop.py's definition: the gold lines ANY step showed
//     against the gold lines of the final context, at line granularity, from
//     the run itself.

// LastStepDrop is the last-step-to-final usage drop at one granularity.
type LastStepDrop struct {
	// LastCoverage is the last trajectory step's (cumulative) coverage, 0
	// when the row has no steps; FinalCoverage the final context's.
	LastCoverage  float64 `json:"last_coverage"`
	FinalCoverage float64 `json:"final_coverage"`
	GoldSize      int     `json:"gold_size"`
	// FinalIntersection is the final context's gold items (intersection).
	FinalIntersection int `json:"final_intersection"`
	// SeenLast = LastCoverage × GoldSize (may be fractional).
	SeenLast float64 `json:"seen_last"`
	// Kept = min(FinalIntersection, SeenLast), 0 when SeenLast ≤ 0.
	Kept float64 `json:"kept"`
	// Drop = 1 − Kept/SeenLast; 1.0 when SeenLast ≤ 0 or the row is an error.
	Drop float64 `json:"drop"`
	// RecallDrop = max(0, LastCoverage − FinalCoverage); nil for an error
	// row, which the script leaves out of recall-drop means.
	RecallDrop *float64 `json:"recall_drop"`
}

// LastStepToFinal computes the last-step drop of a result row at every
// granularity (the script reports file, symbol and line; span follows the
// same definition). An error row drops 1.0 everywhere.
func LastStepToFinal(r *model.Result) model.ByGranularity[LastStepDrop] {
	var out model.ByGranularity[LastStepDrop]
	for _, g := range model.Granularities {
		d := out.At(g)
		if r.Error != "" {
			d.Drop = 1.0
			continue
		}
		m := r.Final.At(g)
		if n := len(r.Trajectory.Steps); n > 0 {
			d.LastCoverage = *r.Trajectory.Steps[n-1].Coverage.At(g)
		}
		d.FinalCoverage = m.Coverage
		d.GoldSize, d.FinalIntersection = m.GoldSize, m.Intersection
		rd := max(0.0, d.LastCoverage-d.FinalCoverage)
		d.RecallDrop = &rd
		seen := d.LastCoverage * float64(d.GoldSize)
		if seen <= 0 {
			d.Drop = 1.0
			continue
		}
		d.SeenLast = seen
		d.Kept = min(float64(d.FinalIntersection), seen)
		d.Drop = 1.0 - d.Kept/seen
	}
	return out
}

// UnionDrop is the union-of-steps-to-final usage drop at line granularity.
type UnionDrop struct {
	// Seen is |G_seen|: gold lines shown by any step of the lens.
	Seen int `json:"seen"`
	// Kept is |final ∩ gold|: gold lines in the final context, whether or
	// not a step showed them (the script does not clamp, so Drop can be
	// negative when the final context holds gold no step showed).
	Kept int `json:"kept"`
	// Drop = 1 − Kept/Seen; 1.0 when Seen is 0.
	Drop float64 `json:"drop"`
}

// UnionToFinal computes the union drop of an analysed run under a lens. The
// ContextBench lens uses the prediction's own steps (no final-as-step
// fallback: a run without exploration steps saw nothing); the observed lens
// uses what the actions displayed.
func UnionToFinal(a *scoring.Analysis, lens model.Lens) UnionDrop {
	seen := lensFiles(a, lens, false)
	final := a.Lenses[model.LensContextBench].FinalContext // the declared final, under both lenses
	var u UnionDrop
	for f, gold := range a.Gold.Lines.All() {
		g := model.Merge(gold)
		u.Seen += model.IntersectLength(seen[f].Lines, g)
		u.Kept += model.IntersectLength(model.Merge(final.Lines[f]), g)
	}
	u.Drop = 1.0
	if u.Seen > 0 {
		u.Drop = 1.0 - float64(u.Kept)/float64(u.Seen)
	}
	return u
}
