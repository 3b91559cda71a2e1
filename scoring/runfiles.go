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
	// Gold, when set, gives the gold of an instance, whose repository and
	// commit stand in for those the run does not record; nil: none.
	Gold func(instanceID string) *model.Gold

	key   string
	held  bool
	files *FileCache
}

// Files are run's repository files at its commit; the error says why the
// checkout could not be named or opened.
func (o *RunFiles) Files(run *model.Run) (*FileCache, error) {
	p := &run.Prediction
	var goldURL, goldCommit string
	if o.Gold != nil {
		if g := o.Gold(p.InstanceID); g != nil {
			goldURL, goldCommit = g.URL(), g.Commit
		}
	}
	key, err := o.Checkouts.Key(p.RepoURL, goldURL, p.Commit, goldCommit, p.InstanceID)
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
