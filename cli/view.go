package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/internal/runsource"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/themes"
)

type viewOptions struct {
	gold, repo, cache      string
	instance               string
	step                   int
	stepSet                bool // --step was given (0 is then an error, not "unset")
	lens, theme            string
	semantics, inputFormat string
	noColor, json          bool
	noClone                bool
}

func newViewCmd(env *Env) *cobra.Command {
	var o viewOptions
	cmd := &cobra.Command{
		Use:   "view [RUN] [--gold G] [--repo DIR | --cache DIR] [--instance ID] [--step N] [--lens L] [--theme T]",
		Short: "Step through one agent run in the terminal",
		Long: `view opens the explorer on one run: a timeline of the agent's actions, the
source it read with gold and read lines marked in the gutter, the raw tool
output, every gold span and when it was found, and cumulative coverage.

On a stdout that is not a terminal it prints a plain summary instead; --json
prints the machine form. Without RUN it opens the embedded demo task.`,
		Example: `  trajscope view run.traj.json --gold gold.jsonl --cache ./repos
  trajscope view preds.jsonl --gold gold.parquet --repo ~/src/django --instance django__django-12419
  trajscope view --theme contrast --step 4       # the demo, on a projector`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("view takes at most one RUN, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.stepSet = cmd.Flags().Changed("step")
			if len(args) == 0 {
				return runViewDemo(env, &o)
			}
			return runView(env, &o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.gold, "gold", "", "gold context: parquet, JSONL, JSON, or a directory of annot.json files")
	f.StringVar(&o.repo, "repo", "", "the task's repository (git: read at the run's commit) or a checked-out directory")
	f.StringVar(&o.cache, "cache", "", "repository cache, upstream layout <cache>/github.com__<owner>__<repo>")
	f.StringVar(&o.instance, "instance", "", "the instance to show when RUN holds several: its id, or its position N (1-based)")
	f.IntVar(&o.step, "step", 0, "open at this action (1-based)")
	f.StringVar(&o.lens, "lens", "contextbench", "contextbench (the evaluator's steps) or observed (what each action displayed)")
	f.StringVar(&o.theme, "theme", "auto", "auto, dark, light or contrast")
	f.StringVar(&o.semantics, "semantics", "contextbench", "contextbench (upstream parity) or fixed")
	f.StringVar(&o.inputFormat, "input-format", "", "force the run's format instead of detecting it (see --help for names)")
	f.BoolVar(&o.noColor, "no-color", false, "no colour (also when NO_COLOR is set)")
	f.BoolVar(&o.json, "json", false, "print the summary as JSON instead of opening the explorer")
	f.BoolVar(&o.noClone, "no-clone", false, "never clone a repository missing from the cache")
	return cmd
}

// checkFlags validates the flags shared by view and the demo.
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
	if o.step < 0 || o.stepSet && o.step == 0 {
		return 0, 0, usagef("--step must be 1 or more (actions are numbered from 1)")
	}
	return lens, sem, nil
}

func runView(env *Env, o *viewOptions, path string) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	runs, err := loadRuns(path, o.inputFormat, env.Stderr)
	if err != nil {
		return err
	}
	var run *model.Run
	if o.instance == "" && len(runs) > 1 && interactive(env) {
		run, err = askRun(runs, env.Stdin, env.Stdout)
	} else {
		run, err = pickRun(runs, o.instance, path)
	}
	if err != nil {
		return err
	}
	g := &model.Gold{ID: run.InstanceID, InstID: run.InstanceID}
	if o.gold != "" {
		set, err := gold.Load(o.gold)
		if err != nil {
			return err
		}
		for _, p := range set.Problems() {
			printError(env.Stderr, "warning: ", p)
		}
		if g, err = set.Find(run.InstanceID, sem); err != nil {
			return fmt.Errorf("%s: %w", o.gold, err)
		}
	} else {
		fmt.Fprintln(env.Stderr, "trajscope: no --gold: coverage and gold marks will be empty")
	}
	src, err := runsource.Open(run, g, sem, runsource.Options{Repo: o.repo, Cache: o.cache, NoClone: o.noClone, Progress: progressTo(env.Stderr)})
	if err != nil {
		return usageError{err}
	}
	defer src.Close()
	if src.Missing != "" {
		fmt.Fprintf(env.Stderr, "trajscope: no repository (%s): showing the lines the run displayed; pass --repo DIR or --cache DIR for the rest\n", safe(src.Missing))
	}
	if o.step > len(run.Actions) && len(run.Actions) > 0 {
		return usagef("--step %d: the run has %d actions", o.step, len(run.Actions))
	}
	a := scoring.Analyze(run, g, src.Files, sem)
	return explore(env, o, a, lens, src.Local)
}
