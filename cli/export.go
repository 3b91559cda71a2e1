package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/export"
	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

type exportOptions struct {
	view      viewOptions
	out, size string
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
			o.view.stepSet = cmd.Flags().Changed("step")
			return runExport(env, &o, args)
		},
	}
	cmd.AddCommand(newExportSiteCmd(env))
	f := cmd.Flags()
	v := &o.view
	v.addRunFlags(f, "the instance to export when RUN holds several: its id, or its position N (1-based)")
	f.BoolVar(&v.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in the file (scores do not change)")
	f.StringVarP(&o.out, "out", "o", "", "the file to write: .html, .cast or .svg (required)")
	f.IntVar(&v.step, "step", 0, "the action to show (.svg), start playing at (.cast) or open at (.html), 1-based")
	f.StringVar(&v.theme, "theme", "auto", "auto, dark, light or contrast (an .html page in auto follows the browser)")
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
	out, err := createOut("-o", o.out, env.Stdout, append(args, o.view.gold)...)
	if err != nil {
		return err
	}
	defer out.Abort()
	// The run is loaded exactly as view loads it; the explorer step is
	// replaced by writing the file.
	o.view.export = func(a *story.Story, lens model.Lens) error {
		if err := shown("export", a.A); err != nil {
			return err
		}
		note := func(s string) { fmt.Fprintf(env.Stderr, "trajscope: %s\n", s) }
		opts := export.Options{Width: w, Height: h, Theme: o.view.theme, Lens: lens, Step: o.view.step, Speed: o.speed, Note: note}
		if err := export.Write(out, kind, a, opts); err != nil {
			return err
		}
		return out.Commit()
	}
	if len(args) == 0 {
		return runViewDemo(env, &o.view)
	}
	return runView(env, &o.view, args[:1])
}
