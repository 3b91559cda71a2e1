package runset

import (
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

// tree opens a run's repository. A run whose repository cannot be opened
// (or when no repository was given) reads the tree rebuilt from what it
// displayed, which says why (scoring.PartialTree). Each checkout is held
// open until Close, so a run opened again, or the next run at the same
// commit, does not open the repository again.
func (s *Set) tree(run *model.Run, g *model.Gold) (*scoring.FileCache, func(string) string) {
	co := s.o.Checkouts
	if co == nil {
		return s.rebuilt(run, g, story.NoRepoGiven), nil
	}
	p := &run.Prediction
	key, err := co.Key(p.RepoURL, g.URL(), p.Commit, g.Commit, scoring.RepoID(p, g))
	if err != nil {
		return s.rebuilt(run, g, s.o.Why(err)), nil
	}
	defer co.Release(key)
	if !s.pinned[key] {
		// The hold: one more use announced, released by Close.
		if _, err := co.Key(p.RepoURL, g.URL(), p.Commit, g.Commit, scoring.RepoID(p, g)); err == nil {
			s.pinned[key] = true
		}
	}
	tree, err := co.Open(key)
	if err != nil {
		return s.rebuilt(run, g, s.o.Why(err)), nil
	}
	var local func(string) string
	if s.o.Local != nil {
		local = s.o.Local(tree)
	}
	return s.files.get(key, tree, s.o.ParseTimeout, s.o.Cache), local
}

// rebuilt is the tree rebuilt from what run displayed, for a run whose
// repository is missing for reason.
func (s *Set) rebuilt(run *model.Run, g *model.Gold, reason string) *scoring.FileCache {
	return scoring.Rebuilt(run, g, s.o.Sem, reason)
}

// Close writes what the runs' files taught to the persistent cache (when
// Options.Cache is set) and releases the repositories the runs held. Files
// of checkouts dropped earlier (past the last filesKept) are not written:
// an open run may still be reading them.
func (s *Set) Close() {
	s.work.Lock()
	defer s.work.Unlock()
	for _, f := range s.files.byKey {
		f.Flush()
	}
	for key := range s.pinned {
		if s.o.Checkouts != nil {
			s.o.Checkouts.Release(key)
		}
	}
	s.pinned = map[string]bool{}
}
