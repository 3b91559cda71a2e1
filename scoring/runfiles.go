package scoring

import (
	"github.com/trajscope/trajscope/model"
)

// RunFiles gives runs, one after another, the files of their repository at
// their commit (conversion reads each run against them). The checkout of
// one run stays open while the runs after it share it, as the runs of one
// repository and commit usually follow one another.
type RunFiles struct {
	Checkouts Checkouts
	// Cache, when set, keeps file facts across processes.
	Cache model.FactStore
	// Gold, when set, gives the gold of a run (nil for none), whose
	// repository and commit stand in for those the run does not record,
	// and whose id names the repository; nil: none.
	Gold func(run *model.Run) *model.Gold

	key   string
	held  bool
	files *FileCache
}

// Files are run's repository files at its commit; the error says why the
// checkout could not be named or opened.
func (o *RunFiles) Files(run *model.Run) (*FileCache, error) {
	p := &run.Prediction
	var g *model.Gold
	var goldURL, goldCommit string
	if o.Gold != nil {
		if g = o.Gold(run); g != nil {
			goldURL, goldCommit = g.URL(), g.Commit
		}
	}
	key, err := o.Checkouts.Key(p.RepoURL, goldURL, p.Commit, goldCommit, RepoID(p, g))
	if err != nil {
		return nil, err
	}
	if o.held && key == o.key && o.files != nil {
		// Key announced one more use; this one, of the open checkout.
		o.Checkouts.Release(key)
		return o.files, nil
	}
	// The new key is announced before the old one is released, so a
	// repository both share stays open between them.
	o.Close()
	o.key, o.held = key, true
	tree, err := o.Checkouts.Open(key)
	if err != nil {
		return nil, err
	}
	o.files = NewFileCacheWithStore(tree, o.Cache)
	return o.files, nil
}

// Close releases the open checkout, keeping what its files learnt.
func (o *RunFiles) Close() {
	if !o.held {
		return
	}
	if o.files != nil {
		o.files.Flush()
	}
	o.Checkouts.Release(o.key)
	o.held, o.files = false, nil
}

// RepoID is the instance id that names a run's repository (owner__repo-N):
// its gold's, when its gold was found by another id than the prediction's
// (a model-prefixed file name, the id the run records), else the
// prediction's.
func RepoID(p *model.Prediction, g *model.Gold) string {
	if g != nil && g.ID != "" {
		return g.ID
	}
	return p.InstanceID
}
