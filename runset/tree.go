package runset

import (
	"github.com/trajscope/trajscope/observed"
	"sync"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// filesCache keeps the scoring.FileCache of the last few checkouts: runs of one
// repository and commit share what was read and parsed, and a long list
// does not keep every file of every commit.
type filesCache struct {
	byKey map[string]*scoring.FileCache
	order []string
}

const filesKept = 8

func (c *filesCache) get(key string, tree model.Tree, parseTimeout time.Duration, cache model.FactStore) *scoring.FileCache {
	if f, ok := c.byKey[key]; ok {
		return f
	}
	if c.byKey == nil {
		c.byKey = map[string]*scoring.FileCache{}
	}
	if len(c.order) == filesKept {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	f := scoring.NewFileCacheWithStore(tree, cache)
	f.ParseTimeout = parseTimeout
	c.byKey[key], c.order = f, append(c.order, key)
	return f
}

// repos is how runs are matched to their gold and read against their
// repositories: a Set's, and an Observer's.
type repos struct {
	o Options
	// pinned holds the checkouts held open until close.
	pinned map[string]bool
	files  filesCache
	// shown remembers, once the set follows a run (remember), what the
	// last run rebuilt (shownPath) displayed: a followed run is rebuilt at
	// every reading, each time parsing only its new outputs. One run's
	// worth; a run read once (convert, grep, a list) keeps nothing.
	shownMu   sync.Mutex
	keep      bool
	shownPath string
	shown     *observed.Lines
	// last is the last tree rebuilt for the followed run and its files:
	// a reading that rebuilds the same tree reads it through the same
	// files, and what they kept (each step's sets, what each action
	// showed, the final's and the gold's) holds.
	last struct {
		tree  *observed.Tree
		files *scoring.FileCache
	}
}

// remember makes the runs rebuilt from now on keep what they displayed,
// and the repositories' files what each step came to.
func (r *repos) remember() {
	r.shownMu.Lock()
	r.keep = true
	r.shownMu.Unlock()
}

// tree opens a run's repository. A run whose repository cannot be opened
// (or when no repository was given) reads the tree rebuilt from what it
// displayed, which says why (scoring.PartialTree); failed says why a
// repository that was asked for could not be opened ("" otherwise). Each
// checkout is held open until close, so a run opened again, or the next
// run at the same commit, does not open the repository again.
func (r *repos) tree(run *model.Run, g *model.Gold) (files *scoring.FileCache, local func(string) string, failed string) {
	co := r.o.Checkouts
	if co == nil {
		return r.rebuilt(run, g, story.NoRepoGiven), nil, ""
	}
	p := &run.Prediction
	key, err := co.Key(p.RepoURL, g.URL(), p.Commit, g.Commit, scoring.RepoID(p, g))
	if err != nil {
		why := r.o.Why(err)
		return r.rebuilt(run, g, why), nil, why
	}
	defer co.Release(key)
	if r.pinned == nil {
		r.pinned = map[string]bool{}
	}
	if !r.pinned[key] {
		// The hold: one more use announced, released by close.
		if _, err := co.Key(p.RepoURL, g.URL(), p.Commit, g.Commit, scoring.RepoID(p, g)); err == nil {
			r.pinned[key] = true
		}
	}
	tree, err := co.Open(key)
	if err != nil {
		why := r.o.Why(err)
		return r.rebuilt(run, g, why), nil, why
	}
	if r.o.Local != nil {
		local = r.o.Local(tree)
	}
	files = r.files.get(key, tree, r.o.ParseTimeout, r.o.Cache)
	r.shownMu.Lock()
	if r.keep {
		// A followed run is scored again at every reading: its steps
		// scored before cost a lookup.
		files.RememberSteps()
	}
	r.shownMu.Unlock()
	return files, local, ""
}

// rebuilt is the tree rebuilt from what run displayed, for a run whose
// repository is missing for reason.
func (r *repos) rebuilt(run *model.Run, g *model.Gold, reason string) *scoring.FileCache {
	r.shownMu.Lock()
	if !r.keep {
		r.shownMu.Unlock() // runs rebuilt side by side (a list) do not wait on each other
		return scoring.Rebuilt(run, g, r.o.Sem, reason, nil)
	}
	defer r.shownMu.Unlock()
	if r.shown == nil || r.shownPath != run.Path || run.Path == "" {
		r.shown, r.shownPath = &observed.Lines{}, run.Path
		r.last.tree, r.last.files = nil, nil
	}
	t := scoring.RebuiltTree(run, g, r.o.Sem, reason, r.shown)
	if r.last.files != nil && r.last.tree.Same(t) {
		return r.last.files
	}
	files := scoring.NewFileCache(t)
	files.RememberSteps()
	r.last.tree, r.last.files = t, files
	return files
}

// close writes what the runs' files taught to the persistent cache (when
// Options.Cache is set) and releases the repositories the runs held. Files
// of checkouts dropped earlier (past the last filesKept) are not written:
// an open run may still be reading them.
func (r *repos) close() {
	for _, f := range r.files.byKey {
		f.Flush()
	}
	for key := range r.pinned {
		if r.o.Checkouts != nil {
			r.o.Checkouts.Release(key)
		}
	}
	r.pinned = nil
}

// Close writes what the runs' files taught to the persistent cache and
// releases the repositories the runs held.
func (s *Set) Close() {
	s.work.Lock()
	defer s.work.Unlock()
	s.close()
}
