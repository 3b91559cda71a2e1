// Package runsource is what `view` falls back to when a run's repository is
// missing (no option given, a cache that lacks it, a failed clone, a commit
// it does not have): the tree rebuilt from what the run displayed, and the
// reason in one line. The explorer then opens either way; `score` never
// falls back.
package runsource

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/trajscope/trajscope/internal/runtext"
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

// CheckRepo refuses a --repo that is not there: the user named it, and a
// typo should not turn into a view without the repository.
func CheckRepo(o Options) error {
	if o.Repo == "" {
		return nil
	}
	if _, err := os.Stat(o.Repo); err != nil {
		return fmt.Errorf("--repo %s: %w", o.Repo, errors.Unwrap(err))
	}
	return nil
}

// Fallback is the tree rebuilt from what run displayed, for a view whose
// repository is missing for reason (see Reason).
func Fallback(run *model.Run, g *model.Gold, sem model.Semantics, reason string) *scoring.Files {
	return scoring.NewFiles(observed.Build(run, g, sem, reason))
}

// NoOptions is the reason when neither --repo nor --cache was given.
const NoOptions = runtext.NoRepoGiven

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
