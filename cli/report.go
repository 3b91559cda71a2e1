package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
)

type reportOptions struct {
	format      string
	perInstance bool
	compare     bool
	lens        string
	group       string
}

func newReportCmd(env *Env) *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:   "report RESULTS... [--format md|csv|json] [--per-instance] [--compare A B]",
		Short: "Tables across scoring results: one row per run, every aggregate labelled",
		Long: `report reads result files and prints one table row per file (per run):
file/symbol/span/line recall, precision and F1 under the macro (leaderboard)
and micro (evaluator) definitions, AUC-coverage, redundancy, EditLoc, usage
drop, and, for results written by 'trajscope score --format json', the gold
diagnosis and CodeScaleBench's file-ranking metrics.

RESULTS are upstream --out JSONL files or 'score --format json' documents.
Name a run with LABEL=PATH; otherwise the file name is its label.

--compare compares the last two RESULTS, A then B, on the instances both
scored, and shows B − A per metric (with --per-instance, per instance too).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("report needs at least one results file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(&o, args, env)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "md", "output: md (markdown), csv or json")
	f.BoolVar(&o.perInstance, "per-instance", false, "add a per-instance table")
	f.BoolVar(&o.compare, "compare", false, "compare the last two RESULTS (A B): matched-instance deltas B − A")
	f.StringVar(&o.group, "group", "file", "one row per results file, or per agent/model named in 'score --format json' results (model)")
	f.StringVar(&o.lens, "lens", "contextbench", "lens of the run-derived metrics (diagnosis, union drop, IR): contextbench or observed")
	return cmd
}

func runReport(o *reportOptions, args []string, env *Env) error {
	switch o.format {
	case "md", "markdown", "csv", "json":
	default:
		return usagef("unknown --format %q (want md, csv or json)", o.format)
	}
	if _, err := model.ParseLens(o.lens); err != nil {
		return usageError{err}
	}
	if o.group != "file" && o.group != "model" {
		return usagef("unknown --group %q (want file or model)", o.group)
	}
	if o.compare && len(args) < 2 {
		return usagef("--compare needs two result files, A and B (got %d)", len(args))
	}
	// Each distinct argument is read once: with --compare, A and B may
	// repeat results listed before them.
	var runs []*report.Run
	byArg := map[string]*report.Run{}
	for _, arg := range args {
		if _, ok := byArg[arg]; ok {
			continue
		}
		label, path := splitLabel(arg)
		run, err := report.ReadFile(path, label)
		if err != nil {
			return err
		}
		byArg[arg] = run
		runs = append(runs, run)
	}
	disambiguate(runs)
	opts := report.Options{Lens: o.lens, PerInstance: o.perInstance}
	if o.compare {
		opts.CompareA, opts.CompareB = byArg[args[len(args)-2]], byArg[args[len(args)-1]]
	}
	rows := runs
	if o.group == "model" {
		rows = report.GroupByModel(runs)
	}
	rep, err := report.Build(rows, opts)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(env.Stdout)
	switch o.format {
	case "csv":
		err = rep.WriteCSV(w)
	case "json":
		err = rep.WriteJSON(w)
	default:
		err = rep.WriteMarkdown(w)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

// splitLabel reads LABEL=PATH. An argument that names an existing file is a
// path even if it contains "=".
func splitLabel(arg string) (label, path string) {
	i := strings.IndexByte(arg, '=')
	if i <= 0 {
		return "", arg
	}
	if _, err := os.Stat(arg); err == nil {
		return "", arg
	}
	return arg[:i], arg[i+1:]
}

// disambiguate gives runs whose default labels collide (every file called
// all.jsonl) their path, without the extension, as the label.
func disambiguate(runs []*report.Run) {
	count := map[string]int{}
	for _, r := range runs {
		count[r.Label]++
	}
	for _, r := range runs {
		if count[r.Label] > 1 && r.Label == report.DefaultLabel(r.Path) {
			r.Label = strings.TrimSuffix(filepath.ToSlash(r.Path), filepath.Ext(r.Path))
		}
	}
}
