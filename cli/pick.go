package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/source"
)

// chooseRun decides what view shows: the position of one run (--instance,
// or a file holding a single run), or 0 for the run list.
func chooseRun(env *Env, o *viewOptions, set *runset.Set, paths []string) (int, error) {
	if o.instance != "" {
		pos, warning, err := set.Find(o.instance)
		warn(env, set)
		if warning != "" {
			fmt.Fprintln(env.Stderr, "trajscope: warning: "+safe(warning))
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", safe(strings.Join(paths, ", ")), err)
		}
		return pos, nil
	}
	if len(paths) == 1 && !parsers.IsCollection(paths[0]) {
		set.LoadAll() // one file: one run opens at once
		if set.Len() == 1 {
			warn(env, set)
			return 1, nil
		}
	}
	switch {
	case o.export != nil:
		return 0, usagef("%s holds several runs: pick the one to export with --instance ID or --instance N", safe(strings.Join(paths, ", ")))
	case o.stepSet:
		return 0, usagef("--step opens one run at an action: with several runs, pick one with --instance")
	}
	return 0, nil
}

// warn prints the runs' warnings (duplicate ids, unreadable files).
func warn(env *Env, set *runset.Set) {
	for _, w := range set.Warnings() {
		fmt.Fprintln(env.Stderr, "trajscope: warning: "+safe(w))
	}
}

// prepare loads the gold and opens the repositories every run is analysed
// with. Clone progress goes to the terminal only for one run: under the
// run list, runs are analysed while the list is on screen.
func prepare(env *Env, o *viewOptions, sem model.Semantics, set *runset.Set, one bool) error {
	ro := runset.Options{Sem: sem, ParseTimeout: o.parseTimeout, BaseCommit: o.baseCommit}
	if o.gold != "" {
		g, err := gold.Load(o.gold)
		if err != nil {
			return err
		}
		warn := func() {
			for _, p := range g.Problems() {
				printError(env.Stderr, "warning: ", p)
			}
		}
		if o.explorer(env) {
			o.afterExplorer = append(o.afterExplorer, warn)
		} else {
			warn()
		}
		ro.Gold = g
	} else if !o.goldWarned {
		fmt.Fprintln(env.Stderr, "trajscope: no --gold: the code the run changed is the target (gold from edits)")
		o.goldWarned = true // compare prepares two runs: say it once
	}
	o.openFacts(env)
	ro.Cache = o.facts.scoring()
	co := source.CheckoutOptions{Cache: o.cache, Repo: o.repo, NoClone: o.noClone, Facts: o.facts.source()}
	ro.Why = co.Why
	if o.repo != "" {
		// The user named it: a typo should not turn into a view without
		// the repository.
		if _, err := os.Stat(o.repo); err != nil {
			return usageError{fmt.Errorf("--repo %s: %w", o.repo, errors.Unwrap(err))}
		}
	}
	if o.repo != "" || o.cache != "" {
		if one {
			co.Progress = progressTo(env.Stderr)
		}
		ro.Checkouts = source.NewCheckouts(co)
		ro.Local = func(t model.Tree) func(string) string {
			if dir, ok := t.(*source.DirTree); ok {
				// A checked-out directory: `e` edits the real file, when it
				// is one inside the root.
				return func(p string) string { l, _ := dir.Local(p); return l }
			}
			return nil
		}
	}
	set.Prepare(ro)
	return nil
}

// openFacts opens the persistent cache once per command, unless --no-cache.
func (o *viewOptions) openFacts(env *Env) {
	if o.facts == (facts{}) && !o.noCache {
		o.facts = openFacts(false, env.Stderr)
	}
}

// listRuns shows the run list: the browser on a terminal, otherwise every
// run analysed and printed as a table (or JSON).
func listRuns(env *Env, o *viewOptions, set *runset.Set, lens model.Lens, paths []string) error {
	if o.json || !isTerminal(env.Stdout) {
		for set.Step() {
		}
		warn(env, set)
		var out io.Writer = env.Stdout
		if o.redact {
			r := &redact.Redactor{}
			w := r.Writer(env.Stdout)
			if o.json {
				w = r.JSONWriter(env.Stdout)
			}
			defer func() {
				w.Close()
				fmt.Fprintf(env.Stderr, "trajscope: %s\n", r.Summary())
			}()
			out = w
		}
		if o.json {
			return report.WriteRunListJSON(out, set.Rows())
		}
		return report.WriteRunList(out, set.Rows(), lens)
	}
	return browse(env, o, set, lens, listTitle(paths))
}

// listTitle names what the list was opened on.
func listTitle(paths []string) string {
	if len(paths) == 1 {
		return filepath.Clean(paths[0])
	}
	return fmt.Sprintf("%d paths", len(paths))
}
