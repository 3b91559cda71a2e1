package model

import "fmt"

// Measure is coverage and precision at one granularity.
type Measure struct {
	Coverage     float64
	Precision    float64
	Intersection int
	GoldSize     int
	PredSize     int
}

// ByGranularity holds one value per granularity, under the upstream key
// names when marshalled.
type ByGranularity[T any] struct {
	File   T `json:"file"`
	Symbol T `json:"symbol"`
	Span   T `json:"span"`
	Line   T `json:"line"`
}

// At returns the value of one granularity. An out-of-range g is a bug and
// panics rather than silently answering for another granularity.
func (b *ByGranularity[T]) At(g Granularity) *T {
	switch g {
	case GranFile:
		return &b.File
	case GranSymbol:
		return &b.Symbol
	case GranSpan:
		return &b.Span
	case GranLine:
		return &b.Line
	}
	panic(fmt.Sprintf("model: granularity %d out of range", int(g)))
}

// StepCoverage is the cumulative coverage after one trajectory step.
type StepCoverage struct {
	Step     int // 1-based
	Coverage ByGranularity[float64]
}

// Trajectory holds the trajectory metrics of one instance.
type Trajectory struct {
	Steps       []StepCoverage
	AUCCoverage ByGranularity[float64]
	Redundancy  ByGranularity[float64]
}

// EditLoc is edit-location recall and precision from the patch's deleted lines.
type EditLoc struct {
	Recall       float64
	Precision    float64
	Intersection int
	GoldSize     int
	PredSize     int
}

// Result is the score of one instance. Error is set (and nothing else but
// InstanceID) when the instance could not be scored.
type Result struct {
	InstanceID string
	Error      string
	// Reason explains Error for people; it is never part of parity output.
	Reason     string
	NumSteps   int
	Final      ByGranularity[Measure]
	Trajectory Trajectory
	EditLoc    *EditLoc
	// ParseGaveUp lists, sorted, the files this instance needed symbols of
	// whose tree-sitter parse ran past the parse budget: their definitions
	// are missing from the symbol figures. Never part of parity output.
	ParseGaveUp []string
	// AtK is ranked retrieval's coverage (score --at-k), nil when not
	// asked: never part of the evaluator's row.
	AtK *AtK
	// SymbolNA is set under fixed semantics when ParseGaveUp is not empty:
	// the symbol figures cannot be computed and are written as null (under
	// contextbench semantics they stay upstream's, without those files).
	SymbolNA bool
	// Lens is the lens the row was scored under. Rows of the ContextBench
	// lens are the evaluator's and say nothing of it; observed rows carry
	// "lens": "observed", so a report never mixes them unknowingly.
	Lens Lens
	// FinalStandIn: the run declared no final context and the union of its
	// steps was scored as one (observed lens only); every surface that
	// shows such a final says so.
	FinalStandIn bool
}

// AtK is the coverage of the gold by the first k predictions in rank
// order, for each k asked: at file granularity the first k files of the
// final context (pred_files' order), at the others its first k spans
// (files in order, spans in order within each).
type AtK struct {
	K        []int
	Coverage []ByGranularity[float64] // Coverage[i] is at K[i]
}

// InitialRecall is the coverage after the first step, for a run of more
// than one step (a single step's is its final coverage, which says nothing
// of how the run began); ok is false otherwise. The one rule score's
// initial_recall, the run list's init column and report's mean read.
func (r *Result) InitialRecall() (cov ByGranularity[float64], ok bool) {
	if r.NumSteps <= 1 || len(r.Trajectory.Steps) == 0 {
		return cov, false
	}
	return r.Trajectory.Steps[0].Coverage, true
}
