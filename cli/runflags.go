package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/themes"
)

// runFlags are the flags that say how runs are opened, the same for view,
// export, export site, compare and watch: gold, repository, lens,
// semantics, format, redaction.
type runFlags struct {
	gold, repo, cache string
	instance          string
	lens, semantics   string
	inputFormat       string
	redact            bool
	noClone, noCache  bool
	parseTimeout      time.Duration
	theme             string
	// baseCommit is the commit a run that records none is read at (watch:
	// the repository's HEAD when the session started).
	baseCommit string
	// commit is --commit: every run's repository read at it.
	commit string
	// facts is the persistent cache, opened by prepare and closed by the
	// command when it is done.
	facts facts
	// sources is what prepare opened: compare prepares two sets, which
	// share the gold (read once) and the repositories.
	sources *runset.Options
}

// addRunFlags registers the run flags. instance says what --instance picks
// in this command.
func (o *runFlags) addRunFlags(f *pflag.FlagSet, instance string) {
	f.StringVar(&o.gold, "gold", "", goldHelp)
	f.StringVar(&o.repo, "repo", "", "the task's repository (git: read at the run's commit) or a checked-out directory")
	f.StringVar(&o.cache, "cache", "", "repository cache, upstream layout <cache>/github.com__<owner>__<repo>")
	f.StringVar(&o.commit, "commit", "", commitHelp)
	f.BoolVar(&o.noClone, "no-clone", false, "never clone a repository missing from the cache")
	f.BoolVar(&o.noCache, "no-cache", false, "neither read nor write the cache of file facts kept between runs (see 'trajscope cache')")
	f.StringVar(&o.instance, "instance", "", instance)
	f.StringVar(&o.lens, "lens", "contextbench", "contextbench (the evaluator's steps) or observed (what each action displayed)")
	f.StringVar(&o.semantics, "semantics", "contextbench", "contextbench (upstream parity) or fixed")
	f.StringVar(&o.inputFormat, "input-format", "", inputFormatHelp("runs'"))
	f.DurationVar(&o.parseTimeout, "parse-timeout", scoring.DefaultParseTimeout, "give up parsing one file for symbols after this long (its symbols are then missing)")
}

// goldHelp is --gold's usage where a run can go without one.
const goldHelp = "gold context (parquet, JSONL, JSON, a directory of annot.json files) or a reference patch (PATCH.diff) as the target; without it the run's own edits are the target"

// commitHelp is --commit's usage, the same for every command.
const commitHelp = "with --repo or --cache: read the repository at this commit, whatever the runs record (the commit a --gold patch applies to)"

// checkCommit refuses a --commit that names no repository to read at it.
func checkCommit(commit, repo, cache string) error {
	if commit != "" && repo == "" && cache == "" {
		return usagef("--commit %s needs a repository to read at it: pass --repo DIR or --cache DIR", commit)
	}
	return nil
}

// inputFormatHelp is --input-format's usage, naming every format it takes.
func inputFormatHelp(whose string) string {
	return "force the " + whose + " format instead of detecting it: " + strings.Join(parsers.Formats(), ", ")
}

// check validates the run flags.
func (o *runFlags) check() (model.Lens, model.Semantics, error) {
	lens, err := model.ParseLens(o.lens)
	if err != nil {
		return 0, 0, usageError{err}
	}
	sem, err := model.ParseSemantics(o.semantics)
	if err != nil {
		return 0, 0, usageError{err}
	}
	if _, err := themes.Get(o.theme, true, false); err != nil {
		return 0, 0, usageError{err}
	}
	if o.repo != "" && o.cache != "" {
		return 0, 0, usagef("--repo and --cache are alternatives; pass one")
	}
	if o.parseTimeout <= 0 {
		return 0, 0, usagef("--parse-timeout must be positive, e.g. 2s")
	}
	if err := checkCommit(o.commit, o.repo, o.cache); err != nil {
		return 0, 0, err
	}
	return lens, sem, nil
}

// open finds the runs at paths (runset.New), redacted when --redact.
func (o *runFlags) open(paths []string) (*runset.Set, error) {
	limitMemory(append(paths, o.gold)...)
	set, err := runset.New(paths, runset.Reading{Format: o.inputFormat, Redact: o.redact})
	if errors.Is(err, parsers.ErrUnknownFormat) {
		return nil, usageError{err}
	}
	return set, err
}

// choose picks the run --instance names, or the one run of a single file;
// 0 for several (the run list). The set's warnings are printed first.
func (o *runFlags) choose(env *Env, set *runset.Set) (int, error) {
	pos, warning, err := set.Choose(o.instance)
	warn(env, set)
	if warning != "" {
		fmt.Fprintln(env.Stderr, "trajscope: warning: "+safe(warning))
	}
	return pos, err
}

// warn prints the runs' warnings (duplicate ids, unreadable files).
func warn(env *Env, set *runset.Set) {
	for _, w := range set.Warnings() {
		fmt.Fprintln(env.Stderr, "trajscope: warning: "+safe(w))
	}
}

// prepare loads the gold and opens the repositories every run of set is
// analysed with. Clone progress goes to the terminal only for one run:
// under the run list, runs are analysed while the list is on screen. The
// gold's problems are returned for the command to say when it is ready to
// (after the explorer, which would hide them).
func (o *runFlags) prepare(env *Env, sem model.Semantics, set *runset.Set, one bool) (problems []error, err error) {
	if o.sources != nil {
		set.Prepare(*o.sources)
		return nil, nil
	}
	if o.gold == "" {
		fmt.Fprintln(env.Stderr, "trajscope: no --gold: the code the run changed is the target (gold from edits)")
	}
	if o.facts == (facts{}) && !o.noCache {
		o.facts = openFacts(false, env.Stderr)
	}
	src := runset.Sources{Gold: o.gold, Repo: o.repo, Cache: o.cache, NoClone: o.noClone, Facts: o.facts.scoring(),
		Sem: sem, ParseTimeout: o.parseTimeout, BaseCommit: o.baseCommit, Commit: o.commit}
	if one {
		src.Progress = progressTo(env.Stderr)
	}
	opts, err := src.Options()
	var re *runset.RepoError
	if errors.As(err, &re) {
		return nil, usageError{err}
	}
	if err != nil {
		return nil, err
	}
	set.Prepare(opts)
	o.sources = &opts
	if opts.Gold != nil {
		problems = opts.Gold.Problems()
	}
	return problems, nil
}

// sayProblems prints the gold's problems.
func sayProblems(env *Env, problems []error) {
	for _, p := range problems {
		printError(env.Stderr, "warning: ", p)
	}
}
