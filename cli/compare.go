package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/compare"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

func newCompareCmd(env *Env) *cobra.Command {
	var o viewOptions
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
	return cmd
}

func runCompare(env *Env, o *viewOptions, paths []string) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }() // opened later, by prepare
	defer o.sayAfter()
	var stories [2]*story.Story
	var notes []string
	picks := [2]int{} // positions in the one file, for `compare FILE`
	if len(paths) == 1 {
		paths, picks = []string{paths[0], paths[0]}, [2]int{1, 2}
	}
	for k, p := range paths {
		a, done, note, err := openOne(env, o, sem, p, picks[k])
		if err != nil {
			return err
		}
		defer done()
		if err := shown("compare", a.A); err != nil {
			return err
		}
		stories[k] = a
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
		return c.WriteJSON(env.Stdout)
	case !isTerminal(env.Stdout):
		return c.WriteText(env.Stdout)
	}
	m, err := ui.Compare(c, ui.Options{Theme: o.theme, NoColor: noColor(o), Dark: true, Lens: lens})
	if err != nil {
		return usageError{err}
	}
	return program(env, o, m)
}

// openOne loads and analyses the one run of path (or the --instance task
// in it), as view opens a run; done releases its repository, note says
// when the gold has no entry for it.
// A pick (1 or 2) opens that run of a file of exactly two.
func openOne(env *Env, o *viewOptions, sem model.Semantics, path string, pick int) (a *story.Story, done func(), note string, err error) {
	set, err := runset.New([]string{path}, o.inputFormat)
	if errors.Is(err, parsers.ErrUnknownFormat) {
		return nil, nil, "", usageError{err}
	}
	if err != nil {
		return nil, nil, "", err
	}
	defer func() {
		if err != nil {
			set.Close()
		}
	}()
	pos := 1
	if pick > 0 {
		if set.LoadAll(); set.Len() != 2 {
			return nil, nil, "", usagef("%s holds %d runs: compare FILE takes a file of exactly two runs of one task; give two files (A B)", safe(path), set.Len())
		}
		pos = pick
	} else if o.instance != "" {
		if pos, _, err = set.Find(o.instance); err != nil {
			return nil, nil, "", fmt.Errorf("%s: %w", safe(path), err)
		}
	} else if set.LoadAll(); set.Len() != 1 {
		return nil, nil, "", usagef("%s holds %d runs: pick the task with --instance ID", safe(path), set.Len())
	}
	if err = prepare(env, o, sem, set, true); err != nil {
		return nil, nil, "", err
	}
	a, _, err = set.Open(pos)
	var ge *runset.GoldError
	if errors.As(err, &ge) {
		note = fmt.Sprintf("trajscope: %s: %s: %v: its gold marks will be empty", safe(path), safe(o.gold), ge.Err)
		err = nil
	}
	if err != nil {
		return nil, nil, "", err
	}
	if n := set.IDNote(pos); n != "" {
		note = "trajscope: " + n
	}
	if len(a.A.Run.Actions) == 0 {
		err = fmt.Errorf("%s: instance %q: the run has no actions to compare", safe(path), safe(a.A.Run.InstanceID))
		return nil, nil, "", err
	}
	return a, func() { set.Close() }, note, nil
}
