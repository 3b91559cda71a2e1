// Where a set's gold and repositories come from, as the command line names
// them.

package runset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/source"
)

// Sources name the gold and the repositories runs are analysed with.
type Sources struct {
	// Gold is the gold file (or a reference patch); "" for none: each
	// run's own edits are its target.
	Gold string
	// Repo is one repository (or checked-out directory) for every run;
	// Cache the repository cache in upstream's layout. At most one.
	Repo, Cache string
	// NoClone never clones a repository missing from the cache.
	NoClone bool
	// Progress receives clone progress; nil for none.
	Progress io.Writer
	// Facts keeps file facts between processes; nil for none.
	Facts model.FactStore
	Sem   model.Semantics
	// ParseTimeout bounds each file's tree-sitter parse (0: the default).
	ParseTimeout time.Duration
	// BaseCommit is the commit a run given no gold is read at when it
	// records none ("" for the repository's HEAD).
	BaseCommit string
	// Commit, when set, is the commit every run's repository is read at,
	// whatever the run and gold record: the commit a patch applies to.
	Commit string
}

// RepoError is the error for a --repo that does not exist: a typo the user
// should hear of, not a view without the repository.
type RepoError struct{ Err error }

func (e *RepoError) Error() string { return e.Err.Error() }
func (e *RepoError) Unwrap() error { return e.Err }

// Options opens what src names: the gold is read whole here (its problems
// are Options.Gold.Problems()), repositories as runs need them.
func (src Sources) Options() (Options, error) {
	o := Options{Sem: src.Sem, ParseTimeout: src.ParseTimeout, BaseCommit: src.BaseCommit, Cache: src.Facts}
	if src.Repo != "" {
		if _, err := os.Stat(src.Repo); err != nil {
			return o, &RepoError{fmt.Errorf("--repo %s: %w", src.Repo, errors.Unwrap(err))}
		}
	}
	if src.Gold != "" {
		g, err := gold.Load(src.Gold)
		if err != nil {
			return o, err
		}
		o.Gold = g
	}
	co := source.CheckoutOptions{Cache: src.Cache, Repo: src.Repo, NoClone: src.NoClone, Facts: src.Facts, Progress: src.Progress, Commit: src.Commit}
	o.Why = co.Why
	if src.Repo != "" || src.Cache != "" {
		o.Checkouts = source.NewCheckouts(co)
		o.Local = func(t model.Tree) func(string) string {
			if dir, ok := t.(*source.DirTree); ok {
				// A checked-out directory: `e` edits the real file, when
				// it is one inside the root.
				return func(p string) string { l, _ := dir.Local(p); return l }
			}
			return nil
		}
	}
	return o, nil
}
