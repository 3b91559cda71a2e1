package cli

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui"
)

type viewOptions struct {
	gold, repo, cache      string
	instance               string
	step                   int
	stepSet                bool // --step was given (0 is then an error, not "unset")
	lens, theme            string
	semantics, inputFormat string
	noColor, json          bool
	redact                 bool
	noClone                bool
	autoplay               bool
	follow                 bool
	// baseCommit is the commit a run that records none is read at (watch:
	// the repository's HEAD when the session started).
	baseCommit   string
	speed        time.Duration
	parseTimeout time.Duration
	goldWarned   bool
	noCache      bool
	// facts is the persistent cache, opened by prepare (or the demo) and
	// closed by the command when it is done.
	facts facts
	// export, when set, receives the run instead of the explorer (cli/export.go).
	export func(a *story.Story, lens model.Lens) error
	// afterExplorer holds what is said once the explorer has ended (sayAfter).
	afterExplorer []func()
	// live, for --follow, feeds the explorer new readings of the run
	// until stop is called (follow.go).
	live func(send func(tea.Msg)) (stop func())
}

// sayAfter says what was kept for after the explorer: its screen would
// hide it, and the gold's problems need every row of the gold read, which
// its first frame should not wait for.
func (o *viewOptions) sayAfter() {
	for _, f := range o.afterExplorer {
		f()
	}
	o.afterExplorer = nil
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

// check validates the flags shared by view and the demo.
func (o *viewOptions) check() (model.Lens, model.Semantics, error) {
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
	if o.step < 0 || o.stepSet && o.step == 0 {
		return 0, 0, usagef("--step must be 1 or more (actions are numbered from 1)")
	}
	return lens, sem, nil
}

func runView(env *Env, o *viewOptions, paths []string) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if o.follow {
		if err := o.checkFollow(env, paths); err != nil {
			return err
		}
	}
	limitMemory(append(paths, o.gold)...)
	set, err := runset.New(paths, o.inputFormat)
	if errors.Is(err, parsers.ErrUnknownFormat) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }() // opened later, by prepare; after set.Close writes to it
	defer set.Close()
	pos, err := chooseRun(env, o, set, paths)
	if err != nil {
		return err
	}
	if pos != 0 && o.explorer(env) {
		ui.Prewarm(set.Loaded(pos))
	}
	defer o.sayAfter()
	if err := prepare(env, o, sem, set, pos != 0); err != nil {
		return err
	}
	if pos == 0 {
		return listRuns(env, o, set, lens, paths)
	}
	st, local, err := set.Open(pos)
	var ge *runset.GoldError
	if errors.As(err, &ge) {
		return fmt.Errorf("%s: %w", o.gold, ge.Err)
	}
	if err != nil {
		return err
	}
	if note := set.IDNote(pos); note != "" {
		fmt.Fprintf(env.Stderr, "trajscope: %s\n", note)
	}
	a := st.A
	if o.step > len(a.Run.Actions) && len(a.Run.Actions) > 0 {
		return usagef("--step %d: the run has %d actions", o.step, len(a.Run.Actions))
	}
	res := &a.Lenses[model.LensContextBench].Result
	for _, p := range res.ParseGaveUp {
		fmt.Fprint(env.Stderr, parseGaveUpLine(res.InstanceID, p, o.parseTimeout, res.SymbolNA))
	}
	if a.Partial != nil {
		fmt.Fprintf(env.Stderr, "trajscope: %s\n", display.NoRepoBanner(a.Partial.Reason()))
	}
	if o.follow {
		o.live = followRun(o, set, pos, paths[0], a.Run.Format)
	}
	return explore(env, o, st, lens, local)
}
