// Package compare puts two runs of one task side by side: both runs'
// figures and coverage curves, and for every gold span which run first
// showed it, when, and what became of it in each. It knows nothing of the
// terminal: the explorer (ui/compare) and the text and JSON forms read the
// same Comparison.
package compare

import (
	"errors"
	"fmt"
	"sort"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// ErrDifferentTasks is the error for two runs of different instances.
var ErrDifferentTasks = errors.New("the runs are of different tasks")

// Comparison is two analysed runs of one task under one lens.
type Comparison struct {
	InstanceID string `json:"instance_id"`
	Lens       string `json:"lens"`
	// Runs are A and B, in the order given.
	Runs [2]Side `json:"runs"`
	// Spans are the gold line spans of either run's gold, sorted by file
	// and start line, with each run's find.
	Spans []Span `json:"spans"`

	analyses [2]*scoring.Analysis
	lens     model.Lens
}

// Side is one run's figures.
type Side struct {
	Path    string `json:"path,omitempty"`
	Format  string `json:"format,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Model   string `json:"model,omitempty"`
	Actions int    `json:"actions"`
	Steps   int    `json:"steps"`
	// Error is the run's score error (no_context_extracted, ...); its
	// figures are then zero.
	Error string `json:"error,omitempty"`
	// NoGold: the run was compared without gold (none given, or none for
	// its task): its figures measure nothing and are zero.
	NoGold bool `json:"no_gold,omitempty"`
	// Final is the final context's coverage and precision, AUC the area
	// under the cumulative coverage curve, per granularity.
	Final model.ByGranularity[Figure]  `json:"final"`
	AUC   model.ByGranularity[float64] `json:"auc"`
	// Found counts the spans whose lines the final context holds.
	Found int `json:"spans_found"`
}

// Figure is coverage and precision.
type Figure struct {
	Coverage  float64 `json:"coverage"`
	Precision float64 `json:"precision"`
}

// Span is one gold span and what each run did with it.
type Span struct {
	File  string  `json:"file"`
	Start int     `json:"start"`
	End   int     `json:"end"`
	Find  [2]Find `json:"runs"`
}

// Find is what one run did with a gold span.
type Find struct {
	// Action is the 1-based action that first showed any line of the
	// span, 0 when none did.
	Action int `json:"first_shown"`
	// Diagnosis is what became of it (found, read then dropped, near miss,
	// searched not read, never opened).
	Diagnosis diagnose.Category `json:"diagnosis"`
	// Kept and Lines: for partial credit, the span's lines the final
	// context kept, of Lines; 0 when it kept all or none.
	Kept  int `json:"kept_lines,omitempty"`
	Lines int `json:"lines,omitempty"`
	// Declared: found only because the final context names lines the run
	// never showed.
	Declared bool `json:"declared,omitempty"`
}

// New compares a and b under lens. Runs with different instance ids are
// ErrDifferentTasks.
func New(a, b *scoring.Analysis, lens model.Lens) (*Comparison, error) {
	if a.Run.InstanceID != b.Run.InstanceID {
		return nil, fmt.Errorf("%w: %q and %q", ErrDifferentTasks, a.Run.InstanceID, b.Run.InstanceID)
	}
	c := &Comparison{InstanceID: a.Run.InstanceID, Lens: lens.String(), analyses: [2]*scoring.Analysis{a, b}, lens: lens}
	index := map[[3]any]int{}
	for k, an := range c.analyses {
		c.Runs[k] = side(an, lens)
		for _, sp := range diagnose.Diagnose(an, lens).Spans {
			key := [3]any{sp.File, sp.Start, sp.End}
			i, ok := index[key]
			if !ok {
				i = len(c.Spans)
				index[key] = i
				c.Spans = append(c.Spans, Span{File: sp.File, Start: sp.Start, End: sp.End})
			}
			f := Find{Diagnosis: sp.Category, Declared: sp.Declared}
			if sp.Category == diagnose.Found && sp.Partial() {
				f.Kept, f.Lines = sp.FinalLines, sp.Lines()
			}
			if (sp.Category == diagnose.Found || sp.Category == diagnose.ReadThenDropped) && !sp.Declared && sp.Action >= 0 {
				f.Action = int(sp.Action) + 1
			}
			c.Spans[i].Find[k] = f
			if sp.Category == diagnose.Found {
				c.Runs[k].Found++
			}
		}
	}
	sort.SliceStable(c.Spans, func(i, j int) bool {
		if c.Spans[i].File != c.Spans[j].File {
			return c.Spans[i].File < c.Spans[j].File
		}
		return c.Spans[i].Start < c.Spans[j].Start
	})
	return c, nil
}

func side(a *scoring.Analysis, lens model.Lens) Side {
	run, ld := a.Run, &a.Lenses[lens]
	s := Side{Path: run.Path, Format: run.Format, Agent: run.Agent, Model: run.Model,
		Actions: len(run.Actions), Steps: ld.NumSteps, Error: ld.Result.Error,
		NoGold: a.Gold == nil || len(a.Gold.Files) == 0 && a.Gold.Lines.Len() == 0}
	if s.Error == "" && !s.NoGold {
		for _, g := range model.Granularities {
			m := ld.Result.Final.At(g)
			*s.Final.At(g) = Figure{Coverage: m.Coverage, Precision: m.Precision}
			*s.AUC.At(g) = *ld.Result.Trajectory.AUCCoverage.At(g)
		}
	}
	return s
}

// Analysis returns run k's analysis (0 for A, 1 for B).
func (c *Comparison) Analysis(k int) *scoring.Analysis { return c.analyses[k] }

// Curve is run k's cumulative coverage at granularity g after each of its
// actions.
func (c *Comparison) Curve(k int, g model.Granularity) []float64 {
	return c.analyses[k].Lenses[c.lens].Curve(g)
}

// CurveAt is run k's cumulative coverage at granularity g after its action
// i; past its last action, the coverage it ended with (0 for a run without
// actions).
func (c *Comparison) CurveAt(k int, g model.Granularity, i int) float64 {
	ld := &c.analyses[k].Lenses[c.lens]
	if len(ld.Actions) == 0 {
		return 0
	}
	return ld.CurveAt(g, min(i, len(ld.Actions)-1))
}

// Actions is the longer run's action count: the steps the two take together.
func (c *Comparison) Actions() int {
	return max(len(c.analyses[0].Run.Actions), len(c.analyses[1].Run.Actions))
}

// FirstReads lists, in order and without repeats, the actions (0-based, of
// run k) at which run k first showed some gold span: the moments the
// explorer's aligned stepping visits.
func (c *Comparison) FirstReads(k int) []int {
	seen := map[int]bool{}
	var out []int
	for _, sp := range c.Spans {
		if a := sp.Find[k].Action; a > 0 && !seen[a] {
			seen[a] = true
			out = append(out, a-1)
		}
	}
	sort.Ints(out)
	return out
}
