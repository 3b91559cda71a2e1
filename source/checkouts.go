package source

import (
	"fmt"
	"io"
	"sync"

	"github.com/trajscope/trajscope/model"
)

// CheckoutOptions say where instances' repositories are.
type CheckoutOptions struct {
	// Cache is the repository cache in upstream's layout
	// (<cache>/github.com__<owner>__<repo>).
	Cache string
	// Repo, when set, is read by every instance instead: a git repository
	// (at each instance's commit) or a plain directory.
	Repo string
	// NoClone never clones a repository missing from the cache, nor fetches
	// a commit missing from a clone.
	NoClone bool
	// Progress receives clone and fetch progress; nil for none.
	Progress io.Writer
	// Facts, when set, persists what paths name at each commit, so a later
	// process answers them without walking trees.
	Facts model.FactStore
	// Commit, when set, is the commit every instance is read at, whatever
	// its prediction and gold record: the commit a reference patch applies
	// to (--commit).
	Commit string
}

// Checkouts gives each instance of a batch the tree of its repository at its
// commit. Instances of one repository and commit share one tree, opened for
// the first and closed after the last; the repository handle underneath is
// shared by every commit of that repository and kept while any instance
// still needs one of them. Safe for concurrent use.
//
// The protocol: Key once per instance, before any Open, so the last user of
// each tree and repository is known; then per instance Open and, whatever
// happened, Release.
type Checkouts struct {
	o CheckoutOptions

	mu    sync.Mutex
	trees map[string]*checkout
	dirs  map[string]*heldRepo // by repository directory
}

type checkout struct {
	url, commit, dir string
	want             int // Key calls not yet released
	once             sync.Once
	tree             model.Tree
	err              error
}

// heldRepo keeps a repository open between instances at different commits.
type heldRepo struct {
	want int
	repo *repository
}

// NewCheckouts returns an empty set of checkouts.
func NewCheckouts(o CheckoutOptions) *Checkouts {
	return &Checkouts{o: o, trees: map[string]*checkout{}, dirs: map[string]*heldRepo{}}
}

// Key names the checkout an instance reads, choosing repository and commit
// from what its prediction and gold give as upstream does (see ResolveRepo);
// with CheckoutOptions.Repo, that repository at the instance's commit. Each
// call announces one Open and Release to come.
func (c *Checkouts) Key(predURL, goldURL, predCommit, goldCommit, instanceID string) (string, error) {
	var url, commit, dir string
	if c.o.Commit != "" {
		predCommit, goldCommit = c.o.Commit, c.o.Commit
	}
	if c.o.Repo != "" {
		url, commit, dir = c.o.Repo, firstNonEmpty(predCommit, goldCommit), c.o.Repo
	} else {
		var err error
		url, commit, err = ResolveRepo(predURL, goldURL, predCommit, goldCommit, instanceID, c.o.Cache)
		if err != nil {
			return "", err
		}
		if dir, err = CachePath(c.o.Cache, url); err != nil {
			return "", err
		}
	}
	key := url + "\x00" + commit
	c.mu.Lock()
	defer c.mu.Unlock()
	co := c.trees[key]
	if co == nil {
		co = &checkout{url: url, commit: commit, dir: dir}
		c.trees[key] = co
	}
	co.want++
	h := c.dirs[dir]
	if h == nil {
		h = &heldRepo{}
		c.dirs[dir] = h
	}
	h.want++
	return key, nil
}

// Open returns the tree of key, opening (and, unless NoClone, cloning or
// fetching) it for the first of its instances. The tree stays valid until
// the Release of its last instance.
func (c *Checkouts) Open(key string) (model.Tree, error) {
	c.mu.Lock()
	co := c.trees[key]
	c.mu.Unlock()
	if co == nil {
		return nil, fmt.Errorf("checkout %q: unknown key (Key was not called)", key)
	}
	co.once.Do(func() {
		co.tree, co.err = c.open(co)
		if co.err != nil {
			return
		}
		if g, ok := co.tree.(*GitTree); ok {
			c.hold(co.dir, g.repo)
		}
	})
	return co.tree, co.err
}

func (c *Checkouts) open(co *checkout) (model.Tree, error) {
	if c.o.Repo != "" {
		return Open(c.o.Repo, co.commit, c.o.Facts)
	}
	if !c.o.NoClone {
		dir, err := EnsureCached(c.o.Cache, co.url, c.o.Progress)
		if err != nil {
			return nil, err
		}
		if err := FetchCommit(dir, co.commit, c.o.Progress); err != nil {
			return nil, err
		}
	}
	return openCached(c.o.Cache, co.url, co.commit, c.o.Facts)
}

// hold keeps one reference to a repository for as long as instances of any
// of its commits are still to come.
func (c *Checkouts) hold(dir string, r *repository) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := c.dirs[dir]; h != nil && h.repo == nil && h.want > 0 {
		repos.mu.Lock()
		r.users++
		repos.mu.Unlock()
		h.repo = r
	}
}

// Release ends one instance's use of key: after the last, the tree is
// closed, and after the last instance of its repository, the repository.
func (c *Checkouts) Release(key string) {
	c.mu.Lock()
	co := c.trees[key]
	if co == nil {
		c.mu.Unlock()
		return
	}
	var closeTree model.Tree
	var closeRepo *repository
	if co.want--; co.want <= 0 {
		delete(c.trees, key)
		closeTree = co.tree
	}
	if h := c.dirs[co.dir]; h != nil {
		if h.want--; h.want <= 0 {
			delete(c.dirs, co.dir)
			closeRepo = h.repo
		}
	}
	c.mu.Unlock()
	if closeTree != nil {
		// Once has run: the last user of a tree released it after Open.
		Close(closeTree)
	}
	if closeRepo != nil {
		closeRepo.release()
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
