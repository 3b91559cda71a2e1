package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/export/html"
	"github.com/trajscope/trajscope/export/site"
	"github.com/trajscope/trajscope/internal/atomicfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
)

func newExportSiteCmd(env *Env) *cobra.Command {
	var o viewOptions
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
	o.addRunFlags(f, "(not used: every run is written)")
	f.StringVarP(&out, "out", "o", "", "the directory to write the site into (required; created when missing)")
	f.StringVar(&o.theme, "theme", "auto", "auto (follow the browser), dark, light or contrast: the runs' pages")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in the site (scores do not change)")
	return cmd
}

func runSite(env *Env, o *viewOptions, out string, paths []string) error {
	if out == "" {
		return usagef("export site needs -o DIR")
	}
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	limitMemory(append(paths, o.gold)...)
	set, err := runset.New(paths, o.inputFormat)
	if err != nil {
		return err
	}
	defer func() { o.facts.close() }()
	defer set.Close()
	set.LoadAll()
	o.export = func(*story.Story, model.Lens) error { return nil } // not the explorer: say things now
	if err := prepare(env, o, sem, set, false); err != nil {
		return err
	}
	var red *redact.Redactor
	if o.redact {
		red = &redact.Redactor{}
		defer func() { fmt.Fprintf(env.Stderr, "trajscope: %s\n", red.Summary()) }()
	}
	n := set.Len()
	runs := make([]site.Run, n)
	pages := 0
	for pos := 1; pos <= n; pos++ {
		st, _, err := set.Open(pos)
		var ge *runset.GoldError
		if st == nil {
			fmt.Fprintf(env.Stderr, "trajscope: warning: run %d: %s\n", pos, safe(err.Error()))
			continue
		} else if err != nil && !errors.As(err, &ge) {
			fmt.Fprintf(env.Stderr, "trajscope: warning: run %d: %s\n", pos, safe(err.Error()))
		}
		if red != nil {
			red.Run(st.A.Run)
			st.A.Files.SetShown(red.Shown)
			st = story.Tell(st.A)
		}
		page := ""
		if len(st.A.Run.Actions) == 0 {
			fmt.Fprintf(env.Stderr, "trajscope: run %d (%s): %s: no page\n", pos, safe(st.A.Run.InstanceID), noActions(st.A.Run))
		} else if err := shown("export site", st.A); err != nil {
			fmt.Fprintf(env.Stderr, "trajscope: warning: %s: no page\n", err)
		} else {
			page = fmt.Sprintf("run-%d.html", pos)
			if err := writeSiteFile(filepath.Join(out, page), func(f *atomicfile.File) error {
				return html.Write(f, st, html.Options{Theme: o.theme, Lens: lens, Up: "index.html"})
			}); err != nil {
				return err
			}
			pages++
		}
		runs[pos-1] = site.Describe(st, page, lens)
	}
	rows := set.Rows()
	if red != nil {
		rows = redactedRuns{set, red}.Rows()
	}
	byTask := map[string][]int{}
	var tasks []string
	for i := range runs {
		runs[i].Row = rows[i]
		if runs[i].Task == "" {
			runs[i].Task = rows[i].ID
		}
		if red != nil {
			runs[i].Task = red.Text(runs[i].Task)
		}
		if _, ok := byTask[runs[i].Task]; !ok {
			tasks = append(tasks, runs[i].Task)
		}
		byTask[runs[i].Task] = append(byTask[runs[i].Task], i)
	}
	compare := map[string]string{}
	for k, task := range tasks {
		idx := byTask[task]
		if len(idx) < 2 {
			continue
		}
		name := site.ComparePage(task, k+1)
		compare[task] = name
		group := make([]site.Run, len(idx))
		for j, i := range idx {
			group[j] = runs[i]
		}
		if err := writeSiteFile(filepath.Join(out, name), func(f *atomicfile.File) error {
			return site.WriteCompare(f, task, group, lens)
		}); err != nil {
			return err
		}
	}
	index := filepath.Join(out, "index.html")
	if err := writeSiteFile(index, func(f *atomicfile.File) error {
		return site.WriteIndex(f, runs, lens, listTitle(paths), compare)
	}); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "trajscope: wrote %s: %s, %s, %s\n", safe(index), display.Count(n, "run"), display.Count(pages, "page"), display.Count(len(compare), "compare page"))
	return nil
}

// writeSiteFile writes one file of the site whole or not at all.
func writeSiteFile(path string, write func(*atomicfile.File) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("%s: %w", safe(path), err)
	}
	return f.Commit()
}
