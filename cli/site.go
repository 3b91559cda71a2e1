package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/export/site"
	"github.com/trajscope/trajscope/runset"
)

func newExportSiteCmd(env *Env) *cobra.Command {
	var o runFlags
	var out string
	cmd := &cobra.Command{
		Use:   "site RUNS... -o DIR",
		Short: "Write a static, offline site of many runs",
		Long: `export site writes a site to browse many runs offline: DIR/index.html holds
the run list (the terminal's columns and sorting, a filter box; / j k enter),
each run its page (the page export writes for one run, linking back), and
each task of several runs a compare page, gold span by gold span. Pages open
at a step or a gold span from their address: run-3.html#step-12,
run-3.html#gold-2. Nothing is loaded from the network.`,
		Example: `  trajscope export site runs/ --gold gold.parquet --cache ./repos -o site/
  trajscope export site a.traj.json b.traj.json --gold gold.jsonl -o site/ --redact`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runSite(env, &o, out, args) },
	}
	f := cmd.Flags()
	o.addRunFlags(f, "")
	// Every run is written: --instance picks nothing here.
	f.MarkHidden("instance")
	f.StringVarP(&out, "out", "o", "", "the directory to write the site into (required; created when missing)")
	f.StringVar(&o.theme, "theme", "auto", "auto (follow the browser), dark, light or contrast: the runs' pages")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in the site (scores do not change)")
	return cmd
}

func runSite(env *Env, o *runFlags, out string, paths []string) error {
	if out == "" {
		return usagef("export site needs -o DIR")
	}
	if o.instance != "" {
		return usagef("export site writes every run: --instance picks none (export RUN --instance ID writes one run's page)")
	}
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	set, err := o.open(paths)
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }()
	defer set.Close()
	defer sayRedaction(env, set)
	w, err := site.Create(out, site.Options{Theme: o.theme, Lens: lens})
	if err != nil {
		return err
	}
	set.LoadAll()
	problems, err := o.prepare(env, sem, set, false)
	if err != nil {
		return err
	}
	sayProblems(env, problems)
	n := set.Len()
	for pos := 1; pos <= n; pos++ {
		st, _, err := set.Open(pos)
		var ge *runset.GoldError
		if err != nil && (st == nil || !errors.As(err, &ge)) {
			fmt.Fprintf(env.Stderr, "trajscope: warning: run %d: %s\n", pos, safe(err.Error()))
		}
		skipped, err := w.Add(st, set.Row(pos))
		if err != nil {
			return err
		}
		if skipped != "" {
			fmt.Fprintf(env.Stderr, "trajscope: warning: run %d (%s): %s: no page\n", pos, safe(st.A.Run.InstanceID), safe(skipped))
		}
	}
	index, err := w.Finish(set.Rows(), set.Title())
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "trajscope: wrote %s: %s, %s, %s\n", safe(set.Text(index)), display.Count(n, "run"), display.Count(w.Pages, "page"), display.Count(w.Compares, "compare page"))
	return nil
}
