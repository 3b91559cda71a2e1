package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
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
		found, ok := set.Lookup(run.InstanceID, sem)
		if !ok {
			if near, match := set.Match(run.InstanceID); match && sem == model.ContextBench {
				return fmt.Errorf("%s: no gold for instance %q (the reference matches ids exactly; --semantics fixed would pair it with %q)",
					o.gold, safe(run.InstanceID), safe(near.ID))
			}
			return fmt.Errorf("%s: no gold for instance %q", o.gold, safe(run.InstanceID))
		}
		g = found
	} else {
		fmt.Fprintln(env.Stderr, "trajscope: no --gold: coverage and gold marks will be empty")
	}
	var files *scoring.Files
	var local func(string) string
	if o.repo != "" || o.cache != "" {
		co := source.NewCheckouts(source.CheckoutOptions{Cache: o.cache, Repo: o.repo, NoClone: o.noClone, Progress: progressTo(env.Stderr)})
		p := &run.Prediction
		key, err := co.Key(p.RepoURL, g.RepoURL, p.Commit, g.Commit, p.InstanceID)
		if err != nil {
			return err
		}
		defer co.Release(key)
		tree, err := co.Open(key)
		if err != nil {
			return err
		}
		files = scoring.NewFiles(tree)
		if dir, ok := files.Tree().(*source.DirTree); ok {
			// A checked-out directory: `e` edits the real file. The path is
			// absolute so the editor can never read it as an option.
			if root, err := filepath.Abs(dir.Root()); err == nil {
				local = func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
			}
		}
	} else {
		fmt.Fprintln(env.Stderr, "trajscope: no --repo or --cache: the source pane will be empty")
		files = scoring.NewFiles(nil)
	}
	if o.step > len(run.Actions) && len(run.Actions) > 0 {
		return usagef("--step %d: the run has %d actions", o.step, len(run.Actions))
	}
	a := scoring.Analyze(run, g, files, sem)
	return explore(env, o, a, lens, local)
}

// pickRun chooses the run to show from a file's runs.
func pickRun(runs []model.Run, id, path string) (*model.Run, error) {
	if id != "" {
		for i := range runs {
			if runs[i].InstanceID == id {
				return &runs[i], nil
			}
		}
		// Runs without ids (e.g. OpenHands records without instance_id) are
		// picked by position.
		if n, err := strconv.Atoi(strings.TrimPrefix(id, "#")); err == nil && n >= 1 && n <= len(runs) {
			return &runs[n-1], nil
		}
		return nil, fmt.Errorf("%s: no instance %q", path, safe(id))
	}
	switch len(runs) {
	case 0:
		return nil, fmt.Errorf("%s: no runs", path)
	case 1:
		return &runs[0], nil
	}
	var ids []string
	for i := 0; i < len(runs) && i < 3; i++ {
		name := safe(runs[i].InstanceID)
		if name == "" {
			name = fmt.Sprintf("#%d", i+1)
		}
		ids = append(ids, name)
	}
	return nil, usagef("%s holds %d runs; pick one with --instance ID or --instance N (e.g. %s)", path, len(runs), strings.Join(ids, ", "))
}

// explore shows an analysed run: the explorer on a terminal, otherwise the
// plain (or JSON) summary.
func explore(env *Env, o *viewOptions, a *scoring.Analysis, lens model.Lens, local func(string) string) error {
	// Every view indexes the last action; an empty run has nothing to show.
	if len(a.Run.Actions) == 0 {
		return fmt.Errorf("%s: instance %q: the run has no actions to show", a.Run.Path, safe(a.Run.InstanceID))
	}
	if o.json {
		return report.WriteRunJSON(env.Stdout, a)
	}
	if !isTerminal(env.Stdout) {
		return report.WriteRunSummary(env.Stdout, a, lens)
	}
	noColor := o.noColor || envSet("NO_COLOR")
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	m, err := ui.New(a, ui.Options{
		Theme: o.theme, NoColor: noColor, Dark: true, Lens: lens, Step: o.step,
		LocalPath: local, Editor: editor,
	})
	if err != nil {
		return usageError{err}
	}
	opts := []tea.ProgramOption{tea.WithOutput(env.Stdout)}
	if env.Stdin != nil {
		opts = append(opts, tea.WithInput(env.Stdin))
	}
	if noColor {
		// colorprofile only honours NO_COLOR values ParseBool accepts; any
		// non-empty value must drop colour (no-color.org).
		opts = append(opts, tea.WithColorProfile(colorprofile.ASCII))
	}
	_, err = tea.NewProgram(m, opts...).Run()
	return err
}

// envSet reports whether an environment variable is set and non-empty.
func envSet(name string) bool {
	v, ok := os.LookupEnv(name)
	return ok && v != ""
}

// loadRuns reads a run file in any supported format. Bad records among good
// ones are reported as warnings: the run to show may be a good one.
func loadRuns(path, format string, stderr io.Writer) ([]model.Run, error) {
	runs, err := parsers.Load(path, format)
	switch {
	case err == nil:
		return runs, nil
	case errors.Is(err, parsers.ErrUnknownFormat):
		return nil, usageError{err}
	case len(runs) > 0:
		printError(stderr, "warning: ", err)
		return runs, nil
	}
	return nil, err
}

// demoAnalysis loads the embedded demo task: its trajectory, gold row and
// repository, all from the binary.
func demoAnalysis(demo fs.FS, sem model.Semantics) (*scoring.Analysis, error) {
	if demo == nil {
		return nil, fmt.Errorf("this build has no demo task")
	}
	names, err := fs.Glob(demo, "*.traj.json")
	if err != nil || len(names) != 1 {
		return nil, fmt.Errorf("demo: expected one *.traj.json, found %d", len(names))
	}
	data, err := fs.ReadFile(demo, names[0])
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	run, err := miniswe.Parse(names[0], data)
	if err != nil {
		return nil, fmt.Errorf("demo: %s: %w", names[0], err)
	}
	gdata, err := fs.ReadFile(demo, "gold.json")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	set, err := gold.Parse("gold.json", gdata)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	g, ok := set.Get(run.InstanceID)
	if !ok {
		return nil, fmt.Errorf("demo: gold.json has no row for %q", run.InstanceID)
	}
	repo, err := fs.Sub(demo, "repo")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	return scoring.Analyze(run, g, scoring.NewFiles(source.NewFS(repo)), sem), nil
}

func runViewDemo(env *Env, o *viewOptions) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if o.gold != "" || o.repo != "" || o.cache != "" || o.instance != "" || o.inputFormat != "" {
		return usagef("--gold, --repo, --cache, --instance and --input-format need a RUN")
	}
	a, err := demoAnalysis(env.Demo, sem)
	if err != nil {
		return err
	}
	if o.step > len(a.Run.Actions) {
		return usagef("--step %d: the demo has %d actions", o.step, len(a.Run.Actions))
	}
	return explore(env, o, a, lens, nil)
}
