package report

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/scoring/ir"
	"github.com/trajscope/trajscope/story"
)

// Extras is what trajscope adds to a result row in `score --format json`,
// under the row's "trajscope" key; the upstream keys before it are
// untouched.
type Extras struct {
	Agent     string `json:"agent,omitempty"`
	Model     string `json:"model,omitempty"`
	Semantics string `json:"semantics"`
	// Language and Source are the task's, from its gold: the programming
	// language and the benchmark split (Verified, Pro, Poly, Multi), for
	// tables per group.
	Language string `json:"language,omitempty"`
	Source   string `json:"source,omitempty"`
	// Tokens totals the run's token usage over its actions, nil when the
	// run records none; CostUSD is the run's cost, 0 when not recorded.
	Tokens  *Tokens `json:"tokens,omitempty"`
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Seconds is the run's duration from its first to its last timestamp,
	// 0 when not recorded.
	Seconds float64 `json:"seconds,omitempty"`
	// ExitStatus is how the run ended, Rejected the submits its harness
	// refused (story.Outcome).
	ExitStatus string `json:"exit_status,omitempty"`
	Rejected   int    `json:"rejected_submits,omitempty"`
	// F1 is this instance's 2·coverage·precision/(coverage+precision) of the
	// final context per granularity (0 when both are 0); nil for an error
	// row, which was not scored.
	F1 *model.ByGranularity[float64] `json:"f1,omitempty"`
	// ParseGaveUp lists the files whose parse ran past the parse budget
	// (--parse-timeout): their definitions are missing from the symbol
	// figures, which are null under fixed semantics.
	ParseGaveUp []string `json:"parse_gave_up,omitempty"`
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
	// Steps is the lens's step count and ReadLines the lines its steps
	// showed, re-reads included (the leaderboard's lines per step).
	Steps     int `json:"steps"`
	ReadLines int `json:"read_lines"`
	// Error says why the lens has no figures to show where the evaluator's
	// row has some: against a gold the semantics reads as empty ("no_gold")
	// every coverage is the evaluator's arithmetic on nothing (story.Lens).
	Error string `json:"error,omitempty"`
}

// Tokens is a run's token usage summed over its actions, as its format
// records it; Total counts every token, the cache's included.
type Tokens = story.Tokens

// runInfo fills the extras that come from the run itself: who ran it, how
// it ended, its tokens and cost.
func (e *Extras) runInfo(run *model.Run, o *story.Outcome) {
	if run == nil {
		return
	}
	e.Agent, e.Model, e.CostUSD = run.Agent, run.Model, run.CostUSD
	e.ExitStatus, e.Rejected = o.ExitStatus, o.Rejected
	e.Seconds = o.Spend.Seconds
	if t := o.Spend.Tokens; t != (Tokens{}) {
		e.Tokens = &t
	}
}

// setF1 sets the per-instance F1 from the final figures of res.
func (e *Extras) setF1(res *model.Result) {
	e.F1 = &model.ByGranularity[float64]{}
	for _, g := range model.Granularities {
		m := res.Final.At(g)
		*e.F1.At(g) = scoring.F1(m.Coverage, m.Precision)
	}
}

// NewExtras computes the extras of an analysed instance.
func NewExtras(st *story.Story) *Extras {
	a := st.A
	e := &Extras{Semantics: a.Sem.String()}
	e.runInfo(a.Run, &st.Outcome)
	e.setF1(&a.Lenses[model.LensContextBench].Result)
	diag := st.Gold.Diag
	for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
		le := &LensExtras{
			UsageDropLastStep: diagnose.LastStepToFinal(&a.Lenses[l].Result),
			UsageDropUnion:    diagnose.UnionToFinal(a, l),
			Diagnosis:         diag[l],
			IR:                ir.Evaluate(a, l),
			Steps:             st.Lenses[l].Steps,
			Error:             st.Lenses[l].Error,
		}
		if n := len(a.Lenses[l].Actions); n > 0 {
			le.ReadLines = int(a.Lenses[l].Actions[n-1].CumRead)
		}
		if l == model.LensObserved {
			e.Lenses.Observed = le
		} else {
			e.Lenses.ContextBench = le
		}
	}
	return e
}
