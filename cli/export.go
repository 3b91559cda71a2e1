package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/export"
	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
)

type exportOptions struct {
	runFlags
	out, size string
	step      int
	stepSet   bool
	speed     time.Duration
}

// speedFlag is an autoplay interval: a positive duration.
type speedFlag struct{ d *time.Duration }

func (f speedFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return "1s"
	}
	return f.d.String()
}
func (f speedFlag) Type() string { return "duration" }
func (f speedFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration, such as 1s or 500ms")
	}
	*f.d = d
	return nil
}

func newExportCmd(env *Env) *cobra.Command {
	o := exportOptions{speed: time.Second}
	cmd := &cobra.Command{
		Use:   "export [RUN] [--gold G] [--repo DIR | --cache DIR] [--instance ID] [--lens L] -o FILE",
		Short: "Write a run as an HTML page, an asciinema recording or an SVG still",
		Long: `export writes what the explorer shows of one run to FILE, the kind chosen by
its extension:

  .html  one self-contained page to step through in a browser, offline: the
         timeline, the source with the explorer's gutter marks, the output, the
         gold with its diagnosis and the coverage curves (keys h/l, j/k, g/G, /)
  .cast  an asciinema v2 recording of the explorer's autoplay at --size and
         --speed, holding longer on steps that find new gold
  .svg   a still of the explorer at --step, --size and --theme, for slides

Without RUN it exports the embedded demo.`,
		Example: `  trajscope export run.traj.json --gold gold.parquet --cache ./repos -o run.html
  trajscope export run.traj.json --gold gold.parquet --cache ./repos -o talk.cast --speed 1s
  trajscope export --step 6 --theme light --size 120x36 -o step6.svg     # the demo`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("export takes at most one RUN, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.stepSet = cmd.Flags().Changed("step")
			return runExport(env, &o, args)
		},
	}
	cmd.AddCommand(newExportSiteCmd(env))
	f := cmd.Flags()
	o.addRunFlags(f, "the instance to export when RUN holds several: its id, or its position N (1-based)")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in the file (scores do not change)")
	f.StringVarP(&o.out, "out", "o", "", "the file to write: .html, .cast or .svg (required)")
	f.IntVar(&o.step, "step", 0, "the action to show (.svg), start playing at (.cast) or open at (.html), 1-based")
	f.StringVar(&o.theme, "theme", "auto", "auto, dark, light or contrast (an .html page in auto follows the browser)")
	f.StringVar(&o.size, "size", "120x40", "terminal size of .cast and .svg, WIDTHxHEIGHT in cells")
	f.Var(speedFlag{&o.speed}, "speed", "autoplay interval of .cast, snapped to the explorer's (3s 2s 1s 500ms 250ms 100ms)")
	return cmd
}

func runExport(env *Env, o *exportOptions, args []string) error {
	if o.out == "" {
		return usagef("export needs -o FILE (.html, .cast or .svg)")
	}
	kind, err := export.Kind(o.out)
	if err != nil {
		return usageError{err}
	}
	w, h, err := screen.ParseSize(o.size)
	if err != nil {
		return usagef("--size: %v", err)
	}
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if o.step < 0 || o.stepSet && o.step == 0 {
		return usagef("--step must be 1 or more (actions are numbered from 1)")
	}
	out, err := createOut("-o", o.out, env.Stdout, append(args, o.gold)...)
	if err != nil {
		return err
	}
	defer out.Abort()
	defer func() { o.facts.close() }()
	st, set, err := o.openOne(env, sem, args, "export")
	if set != nil {
		defer set.Close()
		defer sayRedaction(env, set)
	}
	if err != nil {
		return err
	}
	a := st.A
	if len(a.Run.Actions) == 0 {
		return fmt.Errorf("%s: instance %q: %s", safe(a.Run.Path), safe(a.Run.InstanceID), noActions(a.Run))
	}
	if o.step > len(a.Run.Actions) {
		what := "the run"
		if len(args) == 0 {
			what = "the demo"
		}
		return usagef("--step %d: %s has %d actions", o.step, what, len(a.Run.Actions))
	}
	if err := st.Fits("export"); err != nil {
		return err
	}
	note := func(s string) { fmt.Fprintf(env.Stderr, "trajscope: %s\n", s) }
	opts := export.Options{Width: w, Height: h, Theme: o.theme, Lens: lens, Step: o.step, Speed: o.speed, Note: note}
	if err := export.Write(out, kind, st, opts); err != nil {
		return err
	}
	return out.Commit()
}

// openOne opens the one run a command works on: the run of args[0] (the
// one --instance names when it holds several), or the demo without args.
// The set is returned to be closed once the command is done, even with an
// error.
func (o *runFlags) openOne(env *Env, sem model.Semantics, args []string, cmd string) (*story.Story, *runset.Set, error) {
	if len(args) == 0 {
		set, err := o.demo(env, sem)
		if err != nil {
			return nil, set, err
		}
		st, _, err := set.Open(1)
		return st, set, err
	}
	set, err := o.open(args)
	if err != nil {
		return nil, nil, err
	}
	pos, err := o.choose(env, set)
	if err != nil {
		return nil, set, err
	}
	if pos == 0 {
		return nil, set, usagef("%s holds several runs: pick the one to %s with --instance ID or --instance N", safe(set.Title()), cmd)
	}
	problems, err := o.prepare(env, sem, set, true)
	if err != nil {
		return nil, set, err
	}
	sayProblems(env, problems)
	st, _, err := openRun(env, o.gold, set, pos, false)
	return st, set, err
}

// demo opens the embedded demo task's set.
func (o *runFlags) demo(env *Env, sem model.Semantics) (*runset.Set, error) {
	if o.gold != "" || o.repo != "" || o.cache != "" || o.instance != "" || o.inputFormat != "" {
		return nil, usagef("--gold, --repo, --cache, --instance and --input-format need a RUN")
	}
	if !o.noCache {
		o.facts = openFacts(false, env.Stderr)
	}
	return runset.Demo(env.Demo, runset.Reading{Redact: o.redact}, sem, o.facts.scoring())
}
