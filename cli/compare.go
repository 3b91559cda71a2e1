package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/compare"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

type compareOptions struct {
	runFlags
	noColor, json bool
}

func newCompareCmd(env *Env) *cobra.Command {
	var o compareOptions
	cmd := &cobra.Command{
		Use:   "compare A B | compare FILE [--gold G] [--repo DIR | --cache DIR] [--instance ID] [--lens L] [--json]",
		Short: "Two runs of one task side by side",
		Long: `compare opens two runs of the same task (any formats) in one explorer: both
timelines stepping together, both cumulative-coverage curves per granularity,
and for every gold span which run first showed it, when, and what became of
it in each. A file holding many runs needs --instance ID (it picks the task in
both). One FILE of exactly two runs of one task (an AgentStackBench page's two
variants) compares them. Runs of different tasks are a usage error.

On a stdout that is not a terminal it prints the comparison as text; --json
prints the machine form.`,
		Example: `  trajscope compare a.traj.json b.checkpoints.jsonl --gold gold.parquet --cache ./repos
  trajscope compare run.traj.json preds.jsonl --instance pydata__xarray-4075 --gold gold.parquet --json`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(env, &o, args)
		},
	}
	f := cmd.Flags()
	o.addRunFlags(f, "the task to compare when A or B holds several runs: its instance id")
	f.StringVar(&o.theme, "theme", "auto", "auto, dark, light or contrast")
	f.BoolVar(&o.noColor, "no-color", false, "no colour (also when NO_COLOR is set)")
	f.BoolVar(&o.json, "json", false, "print the comparison as JSON instead of opening the explorer")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in what is shown (scores do not change)")
	return cmd
}

func runCompare(env *Env, o *compareOptions, paths []string) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }() // opened later, by prepare
	var stories [2]*story.Story
	var notes []string
	var problems []error
	picks := [2]int{} // positions in the one file, for `compare FILE`
	if len(paths) == 1 {
		paths, picks = []string{paths[0], paths[0]}, [2]int{1, 2}
	}
	for k, p := range paths {
		set, err := o.open([]string{p})
		if err != nil {
			return err
		}
		defer set.Close()
		defer sayRedaction(env, set)
		st, note, probs, err := o.openOne(env, sem, set, picks[k])
		if err != nil {
			return err
		}
		if err := st.Fits("compare"); err != nil {
			return err
		}
		stories[k], problems = st, append(problems, probs...)
		if note != "" {
			notes = append(notes, note)
		}
	}
	c, err := compare.New(stories[0], stories[1], lens)
	if errors.Is(err, compare.ErrDifferentTasks) {
		return usagef("%s and %s: %v", safe(paths[0]), safe(paths[1]), safe(err.Error()))
	}
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(env.Stderr, n)
	}
	switch {
	case o.json:
		sayProblems(env, problems)
		return c.WriteJSON(env.Stdout)
	case !isTerminal(env.Stdout):
		sayProblems(env, problems)
		return c.WriteText(env.Stdout)
	}
	defer sayProblems(env, problems) // after the explorer, which would hide them
	m, err := ui.Compare(c, ui.Options{Theme: o.theme, NoColor: noColor(o.noColor), Dark: true, Lens: lens})
	if err != nil {
		return usageError{err}
	}
	return program(env, o.noColor, m, nil)
}

// openOne analyses the one run of set (or the --instance task in it), as
// view opens a run; note says when the gold has no entry for it. A pick
// (1 or 2) opens that run of a file of exactly two.
func (o *compareOptions) openOne(env *Env, sem model.Semantics, set *runset.Set, pick int) (st *story.Story, note string, problems []error, err error) {
	path := set.Title()
	pos := 1
	if pick > 0 {
		if set.LoadAll(); set.Len() != 2 {
			return nil, "", nil, usagef("%s holds %d runs: compare FILE takes a file of exactly two runs of one task; give two files (A B)", safe(path), set.Len())
		}
		pos = pick
	} else if o.instance != "" {
		if pos, _, err = set.Find(o.instance); err != nil {
			return nil, "", nil, fmt.Errorf("%s: %w", safe(path), err)
		}
	} else if set.LoadAll(); set.Len() != 1 {
		return nil, "", nil, usagef("%s holds %d runs: pick the task with --instance ID", safe(path), set.Len())
	}
	if problems, err = o.prepare(env, sem, set, true); err != nil {
		return nil, "", nil, err
	}
	st, _, err = set.Open(pos)
	var ge *runset.GoldError
	if errors.As(err, &ge) {
		note = fmt.Sprintf("trajscope: %s: %s: %v: its gold marks will be empty", safe(path), safe(o.gold), ge.Err)
		err = nil
	}
	if err != nil {
		return nil, "", nil, err
	}
	if n := set.IDNote(pos); n != "" {
		note = "trajscope: " + n
	}
	if len(st.A.Run.Actions) == 0 {
		return nil, "", nil, fmt.Errorf("%s: instance %q: the run has no actions to compare", safe(path), safe(st.A.Run.InstanceID))
	}
	return st, note, problems, nil
}
