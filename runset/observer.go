package runset

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

// Observer gives runs' observed predictions (convert --lens observed)
// exactly as a set reads their observed lens: each run matched to its gold
// and read against its repository, or the tree rebuilt from what it
// displayed when there is none.
type Observer struct{ repos }

// NewObserver reads runs with o (Sources.Options).
func NewObserver(o Options) *Observer { return &Observer{repos{o: o}} }

// Observed is run's observed prediction; failed says why the repository
// asked for could not be opened ("" when it was, or none was given).
func (ob *Observer) Observed(run *model.Run) (pred model.Prediction, failed string) {
	g, _, _, _ := ob.goldOf(run) // no gold row: an empty one, as a set reads it
	files, _, failed := ob.tree(run, g)
	return observed.Prediction(run, files), failed
}

// Close writes what the runs' files taught to the persistent cache and
// releases the repositories.
func (ob *Observer) Close() { ob.close() }
