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
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
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

	stories [2]*story.Story
	lens    model.Lens
}

// Side is one run's figures.
type Side struct {
	Path    string `json:"path,omitempty"`
	Format  string `json:"format,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Model   string `json:"model,omitempty"`
	Actions int    `json:"actions"`
	Steps   int    `json:"steps"`
	// Error is why the lens has no figures (the evaluator's error,
	// no_context_extracted…, or no_gold), Reason its explanation; the
	// figures are then zero and no curve is drawn.
	Error  string `json:"error,omitempty"`
	Reason string `json:"reason,omitempty"`
	// NoGold: the run was compared without gold (none given, or none for
	// its task): its figures measure nothing and are zero.
	NoGold bool `json:"no_gold,omitempty"`
	// Final is the final context's coverage and precision, AUC the area
	// under the cumulative coverage curve, per granularity; Redundancy the
	// line redundancy.
	Final      model.ByGranularity[Figure]  `json:"final"`
	AUC        model.ByGranularity[float64] `json:"auc"`
	Redundancy float64                      `json:"line_redundancy"`
	// Found counts the spans whose lines the final context holds (any of
	// them), FoundLines the lines of theirs it kept.
	Found      int            `json:"spans_found"`
	FoundLines *diagnose.Kept `json:"found_lines,omitempty"`
	// ExitStatus is how the run ended.
	ExitStatus string `json:"exit_status,omitempty"`
	// FinalStandIn: the run declared no final context and the lens scored
	// the union of its steps (story.FinalStandIn), so every span it looked
	// at is "found".
	FinalStandIn bool `json:"final_stand_in,omitempty"`
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

// New compares a and b under lens. Runs of different tasks (story.Task) are
// ErrDifferentTasks.
func New(a, b *story.Story, lens model.Lens) (*Comparison, error) {
	if a.Task() != b.Task() {
		return nil, fmt.Errorf("%w: %q and %q", ErrDifferentTasks, a.Task(), b.Task())
	}
	c := &Comparison{InstanceID: a.Task(), Lens: lens.String(), stories: [2]*story.Story{a, b}, lens: lens}
	index := map[[3]any]int{}
	for k, st := range c.stories {
		c.Runs[k] = side(st, lens)
		for _, sp := range st.Gold.Diag[lens].Spans {
			key := [3]any{sp.File, sp.Start, sp.End}
			i, ok := index[key]
			if !ok {
				i = len(c.Spans)
				index[key] = i
				c.Spans = append(c.Spans, Span{File: sp.File, Start: sp.Start, End: sp.End})
			}
			c.Spans[i].Find[k] = FindOf(&sp)
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

// FindOf is what a run did with a gold span, from its diagnosis.
func FindOf(sp *diagnose.Span) Find {
	f := Find{Diagnosis: sp.Category, Declared: sp.Declared}
	if sp.Category == diagnose.Found && sp.Partial() {
		f.Kept, f.Lines = sp.FinalLines, sp.Lines()
	}
	if (sp.Category == diagnose.Found || sp.Category == diagnose.ReadThenDropped) && !sp.Declared && sp.Action >= 0 {
		f.Action = int(sp.Action) + 1
	}
	return f
}

// GoldText is what became of a gold entry in a run, as a comparison says
// it: "@5 found 16/28 kept" for a span (FindText), the step and label for
// a whole gold file.
func GoldText(g *diagnose.GoldSpan, l model.Lens) string {
	if sp := g.Span[l]; sp != nil {
		return FindText(FindOf(sp))
	}
	c := g.Category(l)
	if at := g.Closest(l); at >= 0 && (c == diagnose.Found || c == diagnose.ReadThenDropped) {
		return fmt.Sprintf("@%d %s", at+1, g.Label(l))
	}
	return g.Label(l)
}

func side(st *story.Story, lens model.Lens) Side {
	a := st.A
	run, ld, fig := a.Run, &a.Lenses[lens], &st.Lenses[lens]
	s := Side{Path: run.Path, Format: run.Format, Agent: run.Agent, Model: run.Model,
		Actions: len(run.Actions), Steps: fig.Steps, Error: fig.Error, Reason: fig.Reason,
		NoGold: a.GoldEmpty(), ExitStatus: st.Outcome.ExitStatus, FinalStandIn: ld.FinalStandIn}
	if fig.Scored() {
		for _, g := range model.Granularities {
			m := ld.Result.Final.At(g)
			*s.Final.At(g) = Figure{Coverage: m.Coverage, Precision: m.Precision}
			*s.AUC.At(g) = *ld.Result.Trajectory.AUCCoverage.At(g)
		}
		s.Redundancy, s.Found, s.FoundLines = fig.Redundancy, fig.Found(), fig.FoundLines
	}
	return s
}

// FoundText is run k's found spans, qualified by the lines of theirs the
// final context kept: "found 5/9 spans, 62/483 lines kept".
func (c *Comparison) FoundText(k int) string {
	s := &c.Runs[k]
	out := fmt.Sprintf("found %d/%d spans", s.Found, len(c.Spans))
	if s.FoundLines != nil && s.Found > 0 {
		out += fmt.Sprintf(", %d/%d lines kept", s.FoundLines.Kept, s.FoundLines.Of)
	}
	return out
}

// Story returns run k's story (0 for A, 1 for B).
func (c *Comparison) Story(k int) *story.Story { return c.stories[k] }

// Drawn reports whether run k's curve at granularity g is drawn: the lens
// was scored and the granularity can be measured (scoring.Computable).
func (c *Comparison) Drawn(k int, g model.Granularity) bool {
	return c.stories[k].A.Computable(c.lens, g)
}

// Curve is run k's cumulative coverage at granularity g after each of its
// actions; nil where it is not drawn.
func (c *Comparison) Curve(k int, g model.Granularity) []float64 {
	if !c.Drawn(k, g) {
		return nil
	}
	return c.stories[k].A.Lenses[c.lens].Curve(g)
}

// CurveAt is run k's cumulative coverage at granularity g after its action
// i; past its last action, the coverage it ended with (0 for a run without
// actions, or one whose curve is not drawn).
func (c *Comparison) CurveAt(k int, g model.Granularity, i int) float64 {
	ld := &c.stories[k].A.Lenses[c.lens]
	if len(ld.Actions) == 0 || !c.Drawn(k, g) {
		return 0
	}
	return ld.CurveAt(g, min(i, len(ld.Actions)-1))
}

// Actions is the longer run's action count: the steps the two take together.
func (c *Comparison) Actions() int {
	return max(len(c.stories[0].A.Run.Actions), len(c.stories[1].A.Run.Actions))
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
