package report

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/scoring/ir"
)

// Extras is what trajscope adds to a result row in `score --format json`,
// under the row's "trajscope" key; the upstream keys before it are
// untouched.
type Extras struct {
	Agent     string `json:"agent,omitempty"`
	Model     string `json:"model,omitempty"`
	Semantics string `json:"semantics"`
	// F1 is this instance's 2·coverage·precision/(coverage+precision) of the
	// final context per granularity (0 when both are 0).
	F1 model.ByGranularity[float64] `json:"f1"`
	// Lenses holds the run-derived analysis under each lens.
	Lenses struct {
		ContextBench *LensExtras `json:"contextbench,omitempty"`
		Observed     *LensExtras `json:"observed,omitempty"`
	} `json:"lenses"`
}

// Lens returns the extras of a lens by name, nil when absent.
func (e *Extras) Lens(name string) *LensExtras {
	if e == nil {
		return nil
	}
	if name == model.LensObserved.String() {
		return e.Lenses.Observed
	}
	return e.Lenses.ContextBench
}

// LensExtras is one lens's per-instance analysis.
type LensExtras struct {
	// UsageDropLastStep is the last-step-to-final drop computed from this
	// lens's evaluator numbers (for the ContextBench lens, from the row).
	UsageDropLastStep model.ByGranularity[diagnose.LastStepDrop] `json:"usage_drop_laststep"`
	// UsageDropUnion is the union-of-steps-to-final drop (lines) from the run.
	UsageDropUnion diagnose.UnionDrop  `json:"usage_drop_union"`
	Diagnosis      *diagnose.Diagnosis `json:"diagnosis"`
	IR             *ir.Metrics         `json:"ir"`
}

// NewExtras computes the extras of an analysed instance.
func NewExtras(a *scoring.Analysis) *Extras {
	e := &Extras{Agent: a.Run.Agent, Model: a.Run.Model, Semantics: a.Sem.String()}
	res := &a.Lenses[model.LensContextBench].Result
	for _, g := range model.Granularities {
		m := res.Final.At(g)
		*e.F1.At(g) = scoring.F1(m.Coverage, m.Precision)
	}
	for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
		le := &LensExtras{
			UsageDropLastStep: diagnose.LastStepToFinal(&a.Lenses[l].Result),
			UsageDropUnion:    diagnose.UnionToFinal(a, l),
			Diagnosis:         diagnose.Diagnose(a, l),
			IR:                ir.Evaluate(a, l),
		}
		if l == model.LensObserved {
			e.Lenses.Observed = le
		} else {
			e.Lenses.ContextBench = le
		}
	}
	return e
}
