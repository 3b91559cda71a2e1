// Package runsource gives `view` the files of one run's repository: the
// repository at the run's commit when --repo or --cache provide it, else
// (no option given, a cache that lacks it, a failed clone, a commit it does
// not have) the tree rebuilt from what the run displayed, with the reason.
// The explorer then opens either way; `score` never falls back.
package runsource

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/observed"
	"github.com/trajscope/trajscope/source"
)

// Options say where the repository may be.
type Options struct {
	Repo, Cache string
	NoClone     bool
	// Progress receives clone progress; nil for none.
	Progress io.Writer
}

// Source is what a view of one run reads.
type Source struct {
	Files *scoring.Files
	// Local maps a repository path to the file on disk `e` may open, ""
	// when there is none; nil when the repository is not a plain
	// directory.
	Local func(repoPath string) string
	// Missing says why the repository is missing, "" when Files reads it;
	// Files then reads the tree rebuilt from what the run displayed.
	Missing string

	release func()
}

// Close releases the repository.
func (s *Source) Close() {
	if s.release != nil {
		s.release()
	}
}

// Open opens the repository of run at its commit, or falls back to what the
// run displayed. Only a --repo that is not there is an error: the user named
// it, and a typo should not turn into a view without the repository.
func Open(run *model.Run, g *model.Gold, sem model.Semantics, o Options) (*Source, error) {
	if o.Repo == "" && o.Cache == "" {
		return fallback(run, g, sem, "no --repo or --cache given"), nil
	}
	if o.Repo != "" {
		if _, err := os.Stat(o.Repo); err != nil {
			return nil, fmt.Errorf("--repo %s: %w", o.Repo, errors.Unwrap(err))
		}
	}
	co := source.NewCheckouts(source.CheckoutOptions{Cache: o.Cache, Repo: o.Repo, NoClone: o.NoClone, Progress: o.Progress})
	p := &run.Prediction
	key, err := co.Key(p.RepoURL, g.RepoURL, p.Commit, g.Commit, p.InstanceID)
	if err != nil {
		return fallback(run, g, sem, Reason(err, o)), nil
	}
	tree, err := co.Open(key)
	if err != nil {
		co.Release(key)
		return fallback(run, g, sem, Reason(err, o)), nil
	}
	s := &Source{Files: scoring.NewFiles(tree), release: func() { co.Release(key) }}
	if dir, ok := tree.(*source.DirTree); ok {
		// A checked-out directory: `e` edits the real file, when it is one
		// inside the root (absolute, so never read as an option).
		s.Local = func(p string) string { l, _ := dir.Local(p); return l }
	}
	return s, nil
}

func fallback(run *model.Run, g *model.Gold, sem model.Semantics, reason string) *Source {
	return &Source{Files: scoring.NewFiles(observed.Build(run, g, sem, reason)), Missing: reason}
}

// Reason says in one line why the repository could not be opened. Source
// errors wrap a sentinel that restates what the message already says, and a
// failed clone's error repeats the URL inside the transport's: the reason
// keeps each fact once.
func Reason(err error, o Options) string {
	switch {
	case errors.Is(err, source.ErrNotCached):
		if o.NoClone {
			return fmt.Sprintf("not in the cache %s, and --no-clone forbids cloning", o.Cache)
		}
		return fmt.Sprintf("not in the cache %s", o.Cache)
	case errors.Is(err, source.ErrUnresolved):
		msg := strings.TrimSuffix(err.Error(), ": "+source.ErrUnresolved.Error())
		if _, rest, ok := strings.Cut(msg, `": `); ok && strings.HasPrefix(msg, "instance ") {
			msg = rest // the instance is on screen already
		}
		return msg
	}
	root := err
	for {
		next := errors.Unwrap(root)
		if next == nil {
			break
		}
		root = next
	}
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "clone ")
	head, detail, found := strings.Cut(rest, ": ")
	if !ok || !found {
		return msg
	}
	// "clone URL[ into DIR]: ...": the URL once, then the cause (the
	// innermost error, which transport errors wrap with the URL again).
	url, _, _ := strings.Cut(head, " ")
	if root != err {
		detail = root.Error()
	}
	return fmt.Sprintf("cannot clone %s: %s", url, detail)
}
