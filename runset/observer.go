package runset

import (
	"slices"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/scoring"
)

// Observer gives runs' observed predictions (convert --lens observed)
// exactly as a set reads their observed lens: each run matched to its gold
// and read against its repository, or the tree rebuilt from what it
// displayed when there is none.
type Observer struct {
	repos
	// Warn, when set, hears of each run whose repository could not be
	// opened, and why: its steps are then read from the lines it
	// displayed.
	Warn func(run *model.Run, why string)
}

// NewObserver reads runs with o (Sources.Options).
func NewObserver(o Options) *Observer { return &Observer{repos: repos{o: o}} }

// Observed is run's observed prediction.
func (ob *Observer) Observed(run *model.Run) model.Prediction {
	return observed.Prediction(run, ob.files(run))
}

// StepActions numbers, for each step of pred (run's record), the action
// that made it, as a set's analysis links them: by the run's own links
// when pred's steps are the run's, else by what each action displayed.
func (ob *Observer) StepActions(run *model.Run, pred model.Prediction) []int {
	r := *run
	if !slices.EqualFunc(run.Prediction.Steps, pred.Steps, model.Step.SameLines) {
		// The evaluator's steps, not the run's own (scoring links them).
		r.Actions = slices.Clone(run.Actions)
		for k := range r.Actions {
			r.Actions[k].Steps = nil
		}
	}
	r.Prediction = pred
	return scoring.StepActions(&r, ob.files(&r))
}

// files are run's repository files as a set reads them, said once when
// the repository asked for cannot be opened.
func (ob *Observer) files(run *model.Run) *scoring.FileCache {
	g, _, _, _ := ob.goldOf(run) // no gold row: an empty one, as a set reads it
	files, _, failed := ob.tree(run, g)
	if failed != "" && ob.Warn != nil {
		ob.Warn(run, failed)
	}
	return files
}

// Close writes what the runs' files taught to the persistent cache and
// releases the repositories.
func (ob *Observer) Close() { ob.close() }
