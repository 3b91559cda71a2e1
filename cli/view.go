package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

type viewOptions struct {
	runFlags
	step     int
	stepSet  bool // --step was given (0 is then an error, not "unset")
	noColor  bool
	json     bool
	autoplay bool
	follow   bool
	// status opens the explorer's status line (the demo's).
	status string
	speed  time.Duration
	// found says which session watch found, for stderr once the set is
	// open (redacted as the set's text is).
	found string
	// feed, when set, follows the run instead of followed (watch's, which
	// also switches to a newer session).
	feed func(set *runset.Set, pos int) liveFeed
}

func newViewCmd(env *Env) *cobra.Command {
	var o viewOptions
	cmd := &cobra.Command{
		Use:   "view [RUN | DIR]... [--gold G] [--repo DIR | --cache DIR] [--instance ID] [--step N] [--lens L] [--theme T]",
		Short: "Step through agent runs in the terminal",
		Long: `view opens the explorer on a run: a timeline of the agent's actions, the
source it read with gold and read lines marked in the gutter, the raw tool
output, every gold span and when it was found, and cumulative coverage.

A folder of runs, a file holding many runs or several files open a run list
(one row per run: coverage, AUC, redundancy, what became of the gold); enter
opens a run, esc returns, H/L go to the previous/next run. --gold, --repo and
--cache apply to every run; --instance ID or --instance N opens one directly.

On a stdout that is not a terminal it prints a plain summary (or the run list
as a table) instead; --json prints the machine form. Without RUN it opens the
embedded demo task.`,
		Example: `  trajscope view run.traj.json --gold gold.jsonl --cache ./repos
  trajscope view runs/ --gold gold.parquet --cache ./repos       # the run list
  trajscope view preds.jsonl --gold gold.parquet --repo ~/src/django --instance django__django-12419
  trajscope view --theme contrast --step 4       # the demo, on a projector
  trajscope view --autoplay --speed 2s           # the demo, playing by itself`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.stepSet = cmd.Flags().Changed("step")
			if len(args) == 0 {
				return runViewDemo(env, &o)
			}
			return runView(env, &o, args)
		},
	}
	f := cmd.Flags()
	o.addRunFlags(f, "the run to open among several: its instance id, or its position N (or #N) in the list")
	f.IntVar(&o.step, "step", 0, "open at this action (1-based; 0 and $ are keys for the first and last)")
	f.StringVar(&o.theme, "theme", "auto", "auto, dark, light or contrast")
	f.BoolVar(&o.noColor, "no-color", false, "no colour (also when NO_COLOR is set)")
	f.BoolVar(&o.json, "json", false, "print the summary (or the run list) as JSON instead of opening the explorer")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in what is shown (scores do not change)")
	f.BoolVar(&o.autoplay, "autoplay", false, "start playing at once (from --step, at --speed): for live demos")
	f.BoolVar(&o.follow, "follow", false, "follow a session file still being written: new actions, coverage and gold appear as the agent writes them")
	f.Var(speedFlag{&o.speed}, "speed", "autoplay interval, snapped to the explorer's (3s 2s 1s 500ms 250ms 100ms); +/- change it")
	return cmd
}

// check validates view's flags.
func (o *viewOptions) check() (model.Lens, model.Semantics, error) {
	lens, sem, err := o.runFlags.check()
	if err != nil {
		return 0, 0, err
	}
	if o.step < 0 || o.stepSet && o.step == 0 {
		return 0, 0, usagef("--step must be 1 or more (actions are numbered from 1)")
	}
	return lens, sem, nil
}

// explorer reports whether a run is shown in the explorer (not printed).
func (o *viewOptions) explorer(env *Env) bool { return !o.json && isTerminal(env.Stdout) }

func runView(env *Env, o *viewOptions, paths []string) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if o.follow {
		if err := o.checkFollow(env, paths); err != nil {
			return err
		}
		// An agent's session followed from its first second holds no
		// action yet: wait for one on screen.
		if ok, err := o.awaitActions(env, paths[0]); err != nil || !ok {
			return err
		}
	}
	set, err := o.open(paths)
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }() // opened later, by prepare; after set.Close writes to it
	defer set.Close()
	if o.found != "" {
		fmt.Fprintf(env.Stderr, "trajscope: %s\n", safe(set.Text(o.found)))
	}
	pos := 1 // a followed file is one session: not read whole to learn so
	if !o.follow || o.instance != "" {
		if pos, err = o.choose(env, set); err != nil {
			return err
		}
	}
	if pos == 0 && o.stepSet {
		return usagef("--step opens one run at an action: with several runs, pick one with --instance")
	}
	if pos != 0 && o.explorer(env) {
		ui.Prewarm(set.Loaded(pos))
	}
	problems, err := o.prepare(env, sem, set, pos != 0)
	if err != nil {
		return err
	}
	if o.explorer(env) {
		// Its screen would hide them, and they need every row of the gold
		// read, which its first frame should not wait for.
		defer sayProblems(env, problems)
	} else {
		sayProblems(env, problems)
	}
	defer sayRedaction(env, set)
	if pos == 0 {
		return listRuns(env, o, set, lens)
	}
	st, local, err := openRun(env, o.gold, set, pos, o.follow)
	if err != nil {
		return err
	}
	if o.step > len(st.A.Run.Actions) && len(st.A.Run.Actions) > 0 {
		return usagef("--step %d: the run has %d actions", o.step, len(st.A.Run.Actions))
	}
	var live liveFeed
	switch {
	case o.follow && o.feed != nil:
		live = o.feed(set, pos)
	case o.follow:
		live = followed(set, pos)
	}
	return explore(env, o, st, lens, local, live)
}

// openRun opens run pos of set for one command and says what the user
// should know of it on stderr: how its gold was matched, files whose parse
// gave up, a missing repository. A run opened to be followed is read from
// its start, the rest after (runset.OpenFollowing).
func openRun(env *Env, goldPath string, set *runset.Set, pos int, follow bool) (*story.Story, func(string) string, error) {
	open := set.Open
	if follow {
		open = set.OpenFollowing
	}
	st, local, err := open(pos)
	var ge *runset.GoldError
	if errors.As(err, &ge) {
		return nil, nil, fmt.Errorf("%s: %w", goldPath, ge.Err)
	}
	if err != nil {
		return nil, nil, err
	}
	if note := set.IDNote(pos); note != "" {
		fmt.Fprintf(env.Stderr, "trajscope: %s\n", note)
	}
	res := &st.A.Lenses[model.LensContextBench].Result
	for _, p := range res.ParseGaveUp {
		fmt.Fprint(env.Stderr, parseGaveUpLine(res.InstanceID, p, set.ParseTimeout(), res.SymbolNA))
	}
	if st.RepoMissing != "" {
		fmt.Fprintf(env.Stderr, "trajscope: %s\n", display.NoRepoBanner(st.RepoMissing))
	}
	return st, local, nil
}

// sayRedaction says what --redact replaced, once the command is done.
func sayRedaction(env *Env, set *runset.Set) {
	if r := set.Redaction(); r != "" {
		fmt.Fprintf(env.Stderr, "trajscope: %s\n", r)
	}
}

// runViewDemo opens the embedded demo task, as view opens a run.
func runViewDemo(env *Env, o *viewOptions) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }()
	set, err := o.demo(env, sem)
	if err != nil {
		return err
	}
	defer set.Close() // what it parsed, for the next start
	if o.explorer(env) {
		ui.Prewarm(set.Loaded(1))
	}
	defer sayRedaction(env, set)
	st, _, err := set.Open(1)
	if err != nil {
		return err
	}
	if o.step > len(st.A.Run.Actions) {
		return usagef("--step %d: the demo has %d actions", o.step, len(st.A.Run.Actions))
	}
	o.status = "the embedded demo task · trajscope view RUN opens your own · ? for keys"
	return explore(env, o, st, lens, nil, nil)
}
